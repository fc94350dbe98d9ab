import CanopyCore
import Testing

@testable import CanopyScript

/// Statements of PROGRAMS.md §2: bindings, branches, loops, jumps, `inout`.
@Suite struct InterpreterStatementTests {
    @Test func letVarIfElse() throws {
        let source = """
            func sign(_ n: Int) -> String {
                let zero = 0
                var out: String
                if n > zero {
                    out = "+"
                } else if n < zero {
                    out = "-"
                } else {
                    out = "0"
                }
                return out
            }
            func f() -> [String] { [sign(5), sign(-2), sign(0)] }
            """
        #expect(result(source) == ["+", "-", "0"])
    }

    @Test func ifLetGuardLetAndGuard() throws {
        let source = """
            func describe(_ a: Int?, _ b: Int?) -> String {
                guard let a else { return "no a" }
                guard a >= 0 else { return "negative" }
                if let b = b, b > a {
                    return "b \\(b)"
                } else if let c = b ?? (a > 5 ? a * 2 : nil), c > 10 {
                    return "c \\(c)"
                }
                if var m = b { m += 1; return "m \\(m)" }
                return "a \\(a)"
            }
            func f() -> [String] {
                [describe(nil, 1), describe(-1, nil), describe(1, 5), describe(6, nil), describe(3, 1), describe(2, nil)]
            }
            """
        #expect(result(source) == ["no a", "negative", "b 5", "c 12", "m 2", "a 2"])
    }

    @Test func forInOverArraysAndRanges() throws {
        let source = """
            func f() -> [Int] {
                var out: [Int] = []
                for x in [3, 1, 2] { out.append(x) }
                for i in 0..<3 { out.append(i * 10) }
                for i in 1...2 { out.append(-i) }
                for _ in 0..<0 { out.append(999) }
                for i in 0...5 where i % 2 == 1 { out.append(i + 100) }
                return out
            }
            """
        #expect(result(source) == [3, 1, 2, 0, 10, 20, -1, -2, 101, 103, 105])
    }

    @Test func forInOverEnumerated() throws {
        let source = """
            func f() -> [String] {
                var out: [String] = []
                for (i, s) in ["a", "b"].enumerated() { out.append("\\(i)\\(s)") }
                for pair in ["c"].enumerated() { out.append("\\(pair.offset)\\(pair.element)") }
                return out
            }
            """
        #expect(result(source) == ["0a", "1b", "0c"])
    }

    @Test func forInOverADictionary() throws {
        let source = """
            func f() -> Int {
                let d = ["a": 1, "b": 20, "c": 300]
                var total = 0
                for (key, value) in d where key != "b" { total += value }
                for entry in d { total += entry.value * 1000 }
                return total
            }
            """
        #expect(result(source) == 321_301)
    }

    @Test func whileAndRepeatWhile() throws {
        let source = """
            func f() -> [Int] {
                var n = 1
                while n < 100 { n *= 3 }
                var m = 10
                repeat { m -= 4 } while m > 0
                var once = 0
                repeat { once += 1 } while false
                return [n, m, once]
            }
            """
        #expect(result(source) == [243, -2, 1])
    }

    @Test func breakContinueAndLabels() throws {
        let source = """
            func f() -> [Int] {
                var out: [Int] = []
                for i in 0..<10 {
                    if i == 1 { continue }
                    if i == 4 { break }
                    out.append(i)
                }
                outer: for i in 0..<3 {
                    for j in 0..<3 {
                        if j == 2 { continue outer }
                        if i == 2 { break outer }
                        out.append(i * 10 + j)
                    }
                }
                var k = 0
                loop: while true {
                    k += 1
                    switch k {
                    case 3: break loop
                    default: continue loop
                    }
                }
                out.append(k)
                return out
            }
            """
        #expect(result(source) == [0, 2, 3, 0, 1, 10, 11, 3])
    }

    @Test func switchBreakAndFallthroughFreeCases() throws {
        let source = """
            func f(_ n: Int) -> Int {
                var r = 0
                switch n {
                case 1:
                    r = 1
                case 2:
                    break
                default:
                    r = -1
                }
                return r
            }
            """
        let script = try Script.compile(source)
        #expect(try script.call("f", [1]) == 1)
        #expect(try script.call("f", [2]) == 0)
        #expect(try script.call("f", [3]) == -1)
    }

    @Test func inoutParametersAndAmpersand() throws {
        let source = """
            struct Pair { var a = 0; var b: [Int] = [0, 0] }
            func swapTwo(_ x: inout Int, _ y: inout Int) {
                let t = x
                x = y
                y = t
            }
            func add(_ n: Int, to total: inout Int) { total += n }
            func f() -> [Int] {
                var p = 1, q = 2
                swapTwo(&p, &q)
                var pair = Pair()
                add(5, to: &pair.a)
                add(7, to: &pair.b[1])
                var list = [1, 2, 3]
                swapTwo(&list[0], &q)
                return [p, q, pair.a, pair.b[1], list[0]]
            }
            """
        #expect(result(source) == [2, 1, 5, 7, 1])
    }

    @Test func shadowingANameWithItsOwnValue() throws {
        let source = """
            struct K: PreferenceKey {
                static var defaultValue = 0
                static func reduce(value: inout Int, nextValue: () -> Int) {
                    let nextValue = nextValue()
                    value = value + nextValue
                }
            }
            func f(_ x: Int) -> Int {
                let x = x * 2
                var v = 1
                K.reduce(value: &v) { x }
                do {
                    let v = 100
                    _ = v
                }
                return v
            }
            """
        #expect(result(source, "f", [4]) == 9)
    }

    @Test func underscoreParametersAndArgumentLabels() throws {
        let source = """
            func join(_ a: String, with b: String, _: Int = 0) -> String { a + b }
            func ignore(_ a: Int, _ _: Int) -> Int { a }
            func f() -> String { join("x", with: "y") + join("1", with: "2", 9) + "\\(ignore(4, 5))" }
            """
        #expect(result(source) == "xy124")
    }

    @Test
    func labeledTupleElements() throws {
        let source = """
            func divide(_ a: Int, _ b: Int) -> (quotient: Int, remainder: Int) { (a / b, a % b) }
            func f() -> Int { divide(9, 4).quotient }
            """
        #expect(result(source) == 2)
    }

    @Test func tupleDestructuringAndReturn() throws {
        let source = """
            func divide(_ a: Int, _ b: Int) -> (quotient: Int, remainder: Int) { (a / b, a % b) }
            func f() -> [Int] {
                let (q, r) = divide(17, 5)
                let t = divide(9, 4)
                let (x, y) = (2, 1)
                return [q, r, t.0, t.1, x, y]
            }
            """
        #expect(result(source) == [3, 2, 2, 1, 2, 1])
    }
}
