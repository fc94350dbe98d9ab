import CanopyCore
import Testing

@testable import CanopyScript

/// Closures, functions as values, key paths and `Task` (PROGRAMS.md §2).
@Suite struct InterpreterClosureTests {
    @Test func closuresWithTypedSignaturesAndShorthand() throws {
        let source = """
            func apply(_ a: Int, _ b: Int, _ op: (Int, Int) -> Int) -> Int { op(a, b) }
            func f() -> [Int] {
                let add = { (a: Int, b: Int) -> Int in a + b }
                let sub: (Int, Int) -> Int = { a, b in
                    let d = a - b
                    return d
                }
                return [add(2, 3), sub(9, 4), apply(6, 7) { $0 * $1 }, apply(1, 2, { (a, b) -> Int in a * 10 + b })]
            }
            """
        #expect(result(source) == [5, 5, 42, 12])
    }

    @Test func functionsAsValues() throws {
        let source = """
            func double(_ x: Int) -> Int { x * 2 }
            func combine(_ a: Int, _ b: Int, using f: (Int, Int) -> Int) -> Int { f(a, b) }
            struct Ops { static func neg(_ x: Int) -> Int { -x } }
            func f() -> [Int] {
                let g = double
                let h: (Int) -> Int = Ops.neg
                return [g(4), h(3), combine(3, 8, using: max), combine(3, 8, using: min), combine(1, 2, using: +)]
            }
            """
        #expect(result(source) == [8, -3, 8, 3, 3])
    }

    @Test func trailingAndMultipleTrailingClosures() throws {
        let source = """
            func both(_ n: Int, then a: (Int) -> Int, otherwise b: () -> Int) -> Int { n > 0 ? a(n) : b() }
            func once(_ body: () -> Int) -> Int { body() }
            func f() -> [Int] {
                let x = both(3) { $0 + 1 } otherwise: { -1 }
                let y = both(0) { n in n } otherwise: {
                    -2
                }
                return [x, y, once { 5 }]
            }
            """
        #expect(result(source) == [4, -2, 5])
    }

    @Test func closuresCaptureAndMutateOuterVariables() throws {
        let source = """
            func makeCounter() -> () -> Int {
                var count = 0
                return {
                    count += 1
                    return count
                }
            }
            func f() -> [Int] {
                let c = makeCounter()
                let d = makeCounter()
                var total = 0
                let add = { (n: Int) in total += n }
                add(3)
                add(4)
                return [c(), c(), c(), d(), total]
            }
            """
        #expect(result(source) == [1, 2, 3, 1, 7])
    }

    @Test func captureListsCopyTheValueAtCreation() throws {
        let source = """
            func f() -> [Int] {
                var x = 1
                let early = { [x] in x * 10 }
                let renamed = { [y = x + 1] in y }
                let late = { x * 10 }
                x = 5
                return [early(), renamed(), late()]
            }
            """
        #expect(result(source) == [10, 2, 50])
    }

    @Test func keyPathsAsFunctions() throws {
        let source = """
            struct User { var name: String; var age: Int }
            func f() -> [String] {
                let users = [User(name: "a", age: 3), User(name: "b", age: 1)]
                let names = users.map(\\.name)
                let ages = users.map(\\.age).map(\\.self)
                return names + ["\\(ages[0] + ages[1])"]
            }
            """
        #expect(result(source) == ["a", "b", "4"])
    }

    @Test func uniquingKeysWithAFunctionValue() throws {
        let source = """
            func f() -> [String: Int] {
                let pairs = [("a", 1), ("b", 5), ("a", 3)]
                var d = Dictionary(pairs, uniquingKeysWith: max)
                d.merge(["b": 2]) { old, new in old + new }
                return d
            }
            """
        #expect(result(source) == ["a": 3, "b": 7])
    }

    @Test func taskRunsAtOnce() throws {
        let source = """
            func f() -> Int {
                var n = 1
                Task { @MainActor in
                    n += 10
                }
                Task { n *= 2 }
                return n
            }
            """
        #expect(result(source) == 22)
    }

    @Test func recursionAndNestedFunctions() throws {
        let source = """
            func fib(_ n: Int) -> Int { n < 2 ? n : fib(n - 1) + fib(n - 2) }
            func f() -> Int {
                func square(_ x: Int) -> Int { x * x }
                return square(fib(10))
            }
            """
        #expect(result(source) == 3025)
    }
}
