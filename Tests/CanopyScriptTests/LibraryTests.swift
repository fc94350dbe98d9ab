@testable import CanopyScript
import Testing

/// Calls natives directly, as a compiled call site would.
final class Lib {
    let m: Machine

    init(fuel: Int = 1_000_000, maxCount: Int = 1_000_000) {
        m = Machine(fuel: fuel, maxCount: maxCount)
        m.program = Program(source: "")
    }

    /// `receiver.name(args)` or, `property`, `receiver.name`.
    func call(_ receiver: Value, _ name: String, _ labels: [String?] = [], _ args: [Value] = [], property: Bool = false)
        throws(ScriptFault) -> Value
    {
        var r = receiver
        return try mutate(&r, name, labels, args, property: property)
    }

    func get(_ receiver: Value, _ name: String) throws(ScriptFault) -> Value {
        try call(receiver, name, property: true)
    }

    /// A call that may change the receiver.
    func mutate(_ receiver: inout Value, _ name: String, _ labels: [String?] = [], _ args: [Value] = [],
                property: Bool = false) throws(ScriptFault) -> Value {
        let site = Library.shared.site(name, labels: labels, trailing: 0, property: property)
        guard let native = site[receiver.kind] else {
            throw ScriptFault(.runtime, "no native \(name) for \(receiver.kind)", at: .unknown)
        }
        return try native.body(m, &receiver, args)
    }

    /// A global function by full name.
    func function(_ fullName: String, _ args: [Value]) throws(ScriptFault) -> Value {
        guard let f = Library.shared.functions[fullName] else {
            throw ScriptFault(.runtime, "no function \(fullName)", at: .unknown)
        }
        return try m.call(f, args, site: .unknown)
    }

    /// `Type.name(args)`: an initializer or static function.
    func type(_ type: String, _ fullName: String, _ args: [Value]) throws(ScriptFault) -> Value {
        guard let f = Library.shared.typeFunctions[type]?[fullName] else {
            throw ScriptFault(.runtime, "no \(type).\(fullName)", at: .unknown)
        }
        return try m.call(f, args, site: .unknown)
    }

    /// The message of the fault `body` raises, nil if it raises none.
    func fault(_ body: (Lib) throws(ScriptFault) -> Value) -> String? {
        do {
            _ = try body(self)
            return nil
        } catch {
            return error.message
        }
    }
}

/// A closure value running `f` natively.
func closure(_ f: @escaping ([Value]) -> Value) -> Value {
    .function(NativeFunction("closure") { _, args throws(ScriptFault) in f(args) })
}

func ints(_ xs: [Int]) -> Value { .array(xs.map { .int($0) }) }
func strings(_ xs: [String]) -> Value { .array(xs.map { .string($0) }) }

/// Values compared with their kind, since `.int(1) == .double(1)` holds for `Value`.
func same(_ a: Value, _ b: Value) -> Bool {
    guard a == b else { return false }
    switch (a, b) {
    case (.array(let x), .array(let y)): return zip(x, y).allSatisfy { same($0, $1) }
    case (.tuple(let x), .tuple(let y)): return zip(x, y).allSatisfy { same($0, $1) }
    default: return a.kind == b.kind
    }
}

let isEven = closure { a in
    guard case .int(let i) = a[0] else { return .bool(false) }
    return .bool(i % 2 == 0)
}
let double = closure { a in
    guard case .int(let i) = a[0] else { return .null }
    return .int(i * 2)
}
let add = closure { a in
    guard case .int(let x) = a[0], case .int(let y) = a[1] else { return .null }
    return .int(x + y)
}
let greater = closure { a in
    guard case .int(let x) = a[0], case .int(let y) = a[1] else { return .bool(false) }
    return .bool(x > y)
}

@Suite struct LibraryGlobalsTests {
    let l = Lib()

    @Test func variadicMinAndMax() throws {
        #expect(try l.function("max(_:_:_:)", [.int(3), .int(9), .int(4)]) == .int(9))
        #expect(try l.function("min(_:_:_:_:)", [.int(3), .int(9), .int(-4), .int(0)]) == .int(-4))
        // An Int among Doubles is a Double, as Swift types the literal.
        #expect(same(try l.function("max(_:_:_:)", [.int(3), .double(1.5), .int(2)]), .double(3)))
    }

    @Test func zipStopsAtTheShorter() throws {
        let z = try l.function("zip(_:_:)", [ints([1, 2, 3]), strings(["a", "b"])])
        #expect(z == .array([.tuple([.int(1), .string("a")]), .tuple([.int(2), .string("b")])]))
    }

    @Test func strides() throws {
        #expect(try l.function("stride(from:to:by:)", [.int(0), .int(10), .int(3)]) == ints([0, 3, 6, 9]))
        #expect(try l.function("stride(from:through:by:)", [.int(0), .int(9), .int(3)]) == ints([0, 3, 6, 9]))
        #expect(try l.function("stride(from:through:by:)", [.int(5), .int(1), .int(-2)]) == ints([5, 3, 1]))
        #expect(try l.function("stride(from:to:by:)", [.int(5), .int(1), .int(2)]) == ints([]))
        let d = try l.function("stride(from:through:by:)", [.double(0), .int(1), .double(0.25)])
        #expect(same(d, .array([0, 0.25, 0.5, 0.75, 1].map { .double($0) })))
        #expect(l.fault { l throws(ScriptFault) in
            try l.function("stride(from:to:by:)", [.int(0), .int(3), .int(0)])
        } == "Stride size must not be zero")
    }

    @Test func preconditionAndAssertCheck() throws {
        #expect(try l.function("precondition(_:_:)", [.bool(true), .string("fine")]) == .null)
        #expect(l.fault { l throws(ScriptFault) in
            try l.function("precondition(_:_:)", [.bool(false), .string("n must be positive")])
        } == "Precondition failed: n must be positive")
        #expect(l.fault { l throws(ScriptFault) in try l.function("assert(_:)", [.bool(false)]) }
            == "Assertion failed")
        #expect(l.fault { l throws(ScriptFault) in try l.function("preconditionFailure(_:)", [.string("x")]) }
            == "Fatal error: x")
    }

    /// What swiftc 6.3.1's build of the same program printed.
    @Test func printShowsWhatSwiftPrints() throws {
        let script = try Script.compile(
            """
            struct P { var x: Int; var name: String; var d: Double = 2 }
            enum E { case a, b(Int, label: String) }
            func main() {
                let o: Int? = 5
                let n: Int? = nil
                let d: Double = 3
                print(o, n, d, [1, 2], ["a"], [o, n])
                print(P(x: 1, name: "q"), E.a, E.b(1, label: "z"))
                print("x", "y", separator: "-", terminator: "!\\n")
                print(String(describing: o), "\\(o)")
                print((1, "s"), (quotient: 2, remainder: 1))
            }
            """)
        let run = script.run()
        #expect(run.fault == nil)
        #expect(
            run.output == """
                Optional(5) nil 3.0 [1, 2] ["a"] [Optional(5), nil]
                P(x: 1, name: "q", d: 2.0) a b(1, label: "z")
                x-y!
                Optional(5) Optional(5)
                (1, "s") (quotient: 2, remainder: 1)

                """)
    }

    @Test func printInADaemonGoesNowhere() throws {
        #expect(try run("func f() -> Int { print(\"hello\"); return 1 }") == 1)
    }

    @Test func stringInitializers() throws {
        #expect(try l.type("String", "init(_:)", [.int(42)]) == .string("42"))
        #expect(try l.type("String", "init(_:)", [.double(2)]) == .string("2.0"))
        #expect(try l.type("String", "init(_:)", [strings(["a", "b", "c"])]) == .string("abc"))
        #expect(try l.type("String", "init(describing:)", [ints([1, 2])]) == .string("[1, 2]"))
        #expect(try l.type("String", "init(repeating:count:)", [.string("ab"), .int(3)]) == .string("ababab"))
        #expect(try l.type("String", "init(_:radix:)", [.int(255), .int(16)]) == .string("ff"))
        #expect(l.fault { l throws(ScriptFault) in
            try l.type("String", "init(repeating:count:)", [.string("ab"), .int(-1)])
        } == "Negative count not allowed")
        let small = Lib(maxCount: 10)
        #expect(small.fault { l throws(ScriptFault) in
            try l.type("String", "init(repeating:count:)", [.string("ab"), .int(6)])
        } == "a value grew beyond 10 elements")
    }
}
