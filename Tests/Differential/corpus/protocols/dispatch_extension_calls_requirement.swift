protocol Describer {
    func name() -> String
}

extension Describer {
    func name() -> String { "generic" }
    func describe() -> String { "I am \(name())" }
    func shout() -> String { name().uppercased() }
}

struct Dog: Describer {
    func name() -> String { "dog" }
    func shout() -> String { "WOOF" }
}

struct Rock: Describer {}

func main() {
    let d = Dog()
    print(d.describe())
    print(d.shout())
    let any: Describer = d
    print(any.describe())
    print(any.shout())
    let r = Rock()
    print(r.describe(), r.shout())
    let items: [Describer] = [d, r]
    for i in items {
        print(i.name(), i.shout())
    }
}
