struct Box<Value> {
    var value: Value
    static var typeLabel: String { "Box" }

    func map<U>(_ f: (Value) -> U) -> Box<U> {
        Box<U>(value: f(value))
    }
}

extension Box where Value: Equatable {
    func isSame(as other: Box) -> Bool { value == other.value }
}

extension Box: CustomStringConvertible {
    var description: String { "Box(\(value))" }
}

func main() {
    let b = Box(value: 21)
    print(b)
    print(b.map { $0 * 2 })
    print(b.map { "#\($0)" })
    print(b.isSame(as: Box(value: 21)), b.isSame(as: Box(value: 1)))
    print(Box<Int>.typeLabel)
    let nested = Box(value: Box(value: "x"))
    print(nested, nested.value.value)
}
