import CanopyCore
import Testing

@testable import CanopyScript

@Suite struct SmokeScriptTests {
    @Test func arithmeticAndLoops() throws {
        let s = try Script.compile(
            """
            func f(_ n: Int) -> Int {
                var total = 0
                for i in 0..<n where i % 2 == 0 { total += i }
                return total
            }
            struct P: Equatable { var x: Double = 1; var y = 2.0 }
            func g() -> Double {
                var p = P()
                p.x += 2
                let q = P(x: 3, y: 4)
                return p.x * q.y + (p == q ? 100 : 0)
            }
            """)
        #expect(try s.call("f", [.int(10)]) == .int(20))
        #expect(try s.call("g") == .double(12))
    }

    @Test func sumKey() throws {
        let k = try ScriptKeyCompiler().compileKey(
            named: "SumKey",
            source: """
                struct SumKey: PreferenceKey {
                    static var defaultValue = 0
                    static func reduce(value: inout Int, nextValue: () -> Int) {
                        value += nextValue()
                    }
                }
                """)
        var v = JSON.int(3)
        try k.reduce(&v, context: ReducerContext(fuel: 1000)) { .int(4) }
        #expect(v == .int(7))
        #expect(k.defaultValue == .int(0))
    }
}
