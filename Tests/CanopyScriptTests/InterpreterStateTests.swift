import CanopyCore
import Testing

@testable import CanopyScript

/// No state leaks between runs of one compiled `Script`.
@Suite struct InterpreterStateTests {
    @Test func callingTwiceGivesTheSameResult() throws {
        let script = try Script.compile(
            """
            struct Acc { var items: [Int] = [] }
            let seed = [1, 2]
            func f(_ n: Int) -> [Int] {
                var a = Acc()
                var s = seed
                s.append(n)
                a.items += s
                return a.items
            }
            """)
        #expect(try script.call("f", [3]) == [1, 2, 3])
        #expect(try script.call("f", [3]) == [1, 2, 3])
        #expect(try script.call("f", [4]) == [1, 2, 4])
        #expect(script.constant("seed") == [1, 2])
    }

    @Test func capturedStateIsFreshEachRun() throws {
        let script = try Script.compile(
            """
            func counter() -> () -> Int {
                var n = 0
                return { n += 1; return n }
            }
            let shared = counter()
            func f() -> Int {
                let c = counter()
                _ = c()
                return c()
            }
            """)
        #expect(try script.call("f") == 2)
        #expect(try script.call("f") == 2)
    }

    @Test func aScriptIsCleanAfterAFault() throws {
        let script = try Script.compile(
            """
            func deep(_ n: Int) -> Int { n == 0 ? 0 : 1 + deep(n - 1) }
            func f(_ n: Int) -> Int {
                var a = [10, 20]
                a.append(n)
                return a[n] + deep(5)
            }
            func spin() -> Int {
                var i = 0
                while true { i += 1 }
                return i
            }
            """)
        #expect(try script.call("f", [1]) == 25)
        #expect(throws: ScriptFault.self) { try script.call("f", [7]) }
        #expect(try script.call("f", [0]) == 15)
        #expect(throws: ScriptFault.self) { try script.call("deep", [100_000]) }
        #expect(try script.call("f", [2]) == 7)
        #expect(throws: ScriptFault.self) { try script.call("spin", fuel: 500) }
        #expect(try script.call("f", [1], fuel: 500) == 25)
    }

    @Test func aFaultInsideNextValueLeavesTheKeyClean() throws {
        let script = try Script.compile(
            """
            struct K: PreferenceKey {
                static var defaultValue: [Int] = []
                static func reduce(value: inout [Int], nextValue: () -> [Int]) {
                    value += nextValue()
                }
            }
            func f(_ fail: Bool) -> [Int] {
                var v = K.defaultValue
                K.reduce(value: &v) { fail ? [[1][3]] : [1] }
                K.reduce(value: &v) { [2] }
                return v
            }
            """)
        #expect(try script.call("f", [false]) == [1, 2])
        #expect(throws: ScriptFault.self) { try script.call("f", [true]) }
        #expect(try script.call("f", [false]) == [1, 2])
        #expect(script.constant("defaultValue", of: "K") == [])
    }
}
