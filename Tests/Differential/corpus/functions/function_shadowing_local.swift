func value() -> Int { 10 }

struct Model {
    var items = [1, 2, 3]

    func count() -> Int { items.count }

    func summary() -> String {
        let count = count()
        let value = value()
        return "count=\(count) value=\(value)"
    }
}

func main() {
    let value = value()
    print(value)
    print(Model().summary())
    let max = Swift.max(3, 4)
    print(max)
    let min = [5, 2, 8].min()!
    print(min, Swift.min(1, 0))
}
