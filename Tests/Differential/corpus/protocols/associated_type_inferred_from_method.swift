protocol Reducer {
    associatedtype Value
    static var initial: Value { get }
    static func combine(_ a: Value, _ b: Value) -> Value
}

struct SumReducer: Reducer {
    static let initial = 0
    static func combine(_ a: Int, _ b: Int) -> Int { a + b }
}

struct ConcatReducer: Reducer {
    static var initial: String { "" }
    static func combine(_ a: String, _ b: String) -> String { a.isEmpty ? b : a + "," + b }
}

struct UnionReducer: Reducer {
    typealias Value = Set<Int>
    static let initial = Value()
    static func combine(_ a: Value, _ b: Value) -> Value { a.union(b) }
}

func run<R: Reducer>(_ r: R.Type, _ values: [R.Value]) -> R.Value {
    values.reduce(R.initial, R.combine)
}

func main() {
    print(run(SumReducer.self, [1, 2, 3]))
    print(run(ConcatReducer.self, ["x", "y", "z"]))
    print(run(UnionReducer.self, [[1, 2], [2, 3]]).sorted())
    print(run(SumReducer.self, []))
}
