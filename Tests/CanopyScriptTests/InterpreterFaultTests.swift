import CanopyCore
import Testing

@testable import CanopyScript

/// Every runtime fault: its message, the place of the faulting expression and the Swift call stack.
@Suite struct InterpreterFaultTests {
    /// Checks a fault's kind, message, line:column and the stack's function names and places, innermost first.
    func expectFault(
        _ source: String, _ message: String, at place: String, stack: [String], kind: ScriptFault.Kind = .runtime,
        fuel: Int = 1_000_000, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        guard let e = fault(source, fuel: fuel) else {
            Issue.record("no fault", sourceLocation: sourceLocation)
            return
        }
        #expect(e.kind == kind, sourceLocation: sourceLocation)
        #expect(e.message == message, sourceLocation: sourceLocation)
        #expect(e.location.description == place, sourceLocation: sourceLocation)
        #expect(e.stack == stack, sourceLocation: sourceLocation)
    }

    @Test func forceUnwrapOfNil() {
        let source = """
            func get(_ d: [String: Int]) -> Int {
                return d["x"]!
            }
            func f() -> Int { get([:]) }
            """
        expectFault(
            source, "Unexpectedly found nil while unwrapping an Optional value", at: "2:12",
            stack: ["get(_:) at 2:12", "f() at 4:19"])
    }

    @Test func forceUnwrapOfANilPlace() {
        let source = """
            func f() -> Int {
                var d: [String: Int] = [:]
                d["a"]! += 1
                return 0
            }
            """
        expectFault(source, "Unexpectedly found nil while unwrapping an Optional value", at: "3:5", stack: ["f() at 3:5"])
    }

    @Test func indexOutOfRange() {
        let source = """
            func f() -> Int {
                let a = [1, 2]
                let i = 2
                return a[0] + a[i]
            }
            """
        expectFault(source, "Index out of range", at: "4:19", stack: ["f() at 4:19"])
    }

    @Test func indexOutOfRangeOnAssignment() {
        let source = """
            func f() -> Int {
                var a = [1, 2]
                a[-1] = 3
                return 0
            }
            """
        expectFault(source, "Index out of range", at: "3:5", stack: ["f() at 3:5"])
    }

    @Test(arguments: [
        ("Int.max + 1", "1:27"), ("Int.min - 1", "1:27"), ("Int.max * 2", "1:31"), ("-Int.min", "1:31"),
    ])
    func integerOverflow(expression: String, place: String) {
        let source = "func f(_ x: Int) -> Int { x + \(expression) }"
        // The place is the start of the operation that overflows: `(x + Int.max) + 1` starts at `x`.
        let e = fault(source, "f", [0])
        #expect(e?.message == "arithmetic overflow")
        #expect(e?.location.description == place)
        #expect(e?.stack == ["f(_:) at \(place)"])
    }

    @Test func overflowInCompoundAssignment() {
        let source = """
            func f() -> Int {
                var n = Int.max - 1
                n += 1
                n += 1
                return n
            }
            """
        expectFault(source, "arithmetic overflow", at: "4:5", stack: ["f() at 4:5"])
    }

    @Test func divisionAndRemainderByZero() {
        expectFault(
            "func f() -> Int {\n    let z = 0\n    return 10 / z\n}", "Division by zero", at: "3:12", stack: ["f() at 3:12"])
        expectFault(
            "func f() -> Int {\n    let z = 0\n    return 10 % z\n}", "Division by zero", at: "3:12", stack: ["f() at 3:12"])
    }

    @Test func fatalErrorWithAMessage() {
        let source = """
            struct V {
                func check(_ n: Int) {
                    if n > 2 { fatalError("too big: \\(n)") }
                }
            }
            func f() -> Int {
                V().check(3)
                return 0
            }
            """
        expectFault(source, "Fatal error: too big: 3", at: "3:20", stack: ["V.check(_:) at 3:20", "f() at 7:5"])
    }

    @Test func duplicateKeysInADictionaryLiteral() {
        let source = """
            func f() -> [String: Int] {
                let k = "a"
                return ["a": 1, k: 2]
            }
            """
        expectFault(source, "Dictionary literal contains duplicate keys", at: "3:21", stack: ["f() at 3:21"])
    }

    @Test func recursionTooDeep() {
        let source = """
            func down(_ n: Int) -> Int {
                down(n + 1)
            }
            func f() -> Int { down(0) }
            """
        guard let e = fault(source) else {
            Issue.record("no fault")
            return
        }
        #expect(e.kind == .runtime)
        #expect(e.message.hasPrefix("recursion went deeper than"))
        #expect(e.location.description == "2:5")
        #expect(e.stack.first == "down(_:) at 2:5")
        #expect(e.stack.last == "f() at 4:19")
    }

    @Test func outOfFuelInAnEndlessLoop() {
        let source = """
            func f() -> Int {
                var n = 0
                while true {
                    n = 1
                }
                return n
            }
            """
        guard let e = fault(source, fuel: 10_000) else {
            Issue.record("no fault")
            return
        }
        #expect(e.kind == .outOfFuel)
        #expect(e.message == "the work limit was reached")
        #expect(e.location.line >= 3 && e.location.line <= 4)
        #expect(e.stack.count == 1)
        #expect(e.stack.first?.hasPrefix("f() at ") == true)
    }

    @Test func outOfFuelInAnEmptyLoop() {
        let e = fault("func f() {\n    while true {}\n}", fuel: 1000)
        #expect(e?.kind == .outOfFuel)
        #expect(e?.location.line == 2)
    }

    @Test func faultInsideAClosureNamesTheClosureCaller() {
        let source = """
            func apply(_ g: (Int) -> Int) -> Int {
                g(0)
            }
            func f() -> Int {
                apply { 10 / $0 }
            }
            """
        guard let e = fault(source) else {
            Issue.record("no fault")
            return
        }
        #expect(e.message == "Division by zero")
        #expect(e.location.description == "5:13")
        #expect(e.stack.last == "f() at 5:5")
        #expect(e.stack.contains("apply(_:) at 2:5"))
    }
}
