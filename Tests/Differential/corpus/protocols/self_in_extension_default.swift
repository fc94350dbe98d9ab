protocol Resettable {
    init()
    func describe() -> String
}

extension Resettable {
    static func fresh() -> Self { Self() }
    func reset() -> Self { Self() }
    func pair() -> [Self] { [self, Self()] }
}

struct Counter: Resettable {
    var count = 0
    func describe() -> String { "Counter(\(count))" }
}

struct Name: Resettable {
    var value = "anon"
    func describe() -> String { "Name(\(value))" }
}

func main() {
    let c = Counter(count: 7)
    print(c.describe(), c.reset().describe())
    print(c.pair().map { $0.describe() })
    print(Counter.fresh().describe())
    let n = Name(value: "Zoe")
    print(n.reset().describe(), Name.fresh().describe())
    print(n.pair().map { $0.describe() })
}
