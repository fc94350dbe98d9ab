import CanopyCore
import Testing

@testable import CanopyScript

/// The sandbox's size and work limits, as a client's key meets them.
@Suite struct SandboxLimitTests {
    @Test func aKeySourceOverTheLimitIsACompileErrorWithADiagnostic() {
        let padding = String(repeating: "// filler line of a very long key source\n", count: 2000)
        let source = padding + "struct K: PreferenceKey { static var defaultValue = 0; static func reduce(value: inout Int, nextValue: () -> Int) {} }"
        #expect(source.utf8.count > ScriptKeyCompiler.maxSourceBytes)
        do {
            _ = try ScriptKeyCompiler().compileKey(named: "K", source: source)
            Issue.record("a 80 KiB source compiled")
        } catch {
            #expect(error.code == .compileError)
            #expect(error.details["diagnostics"]?.array?.first?["message"]?.string?.contains("larger than") == true)
        }
    }

    @Test func aStringThatGrowsPastTheSizeLimitFaults() throws {
        let s = try Script.compile(
            """
            func grow() -> Int {
                var s = "ab"
                while true { s = s + s }
                return s.count
            }
            """)
        do {
            _ = try s.call("grow")
            Issue.record("the string grew without bound")
        } catch {
            #expect(error.kind == .runtime)
            #expect(error.message.contains("grew beyond"))
            #expect(error.location.line == 3)
        }
    }

    @Test func aConstantThatNeverFinishesIsADiagnosticNotAHang() {
        do {
            _ = try Script.compile(
                """
                func spin() -> Int {
                    var i = 0
                    while true { i += 1 }
                    return i
                }
                let forever = spin()
                """)
            Issue.record("a constant that loops forever compiled")
        } catch {
            #expect(error.diagnostics.contains { $0.message.contains("computing forever failed") })
        }
    }

    @Test func aReduceThatLoopsRunsOutOfFuelAsTooExpensive() throws {
        let key = try ScriptKeyCompiler().compileKey(
            named: "Spin",
            source: """
                struct Spin: PreferenceKey {
                    static var defaultValue = 0
                    static func reduce(value: inout Int, nextValue: () -> Int) {
                        while value >= 0 { value += 1 }
                    }
                }
                """)
        var v = JSON.int(0)
        do {
            try key.reduce(&v, context: ReducerContext(fuel: 10_000)) { .int(1) }
            Issue.record("the loop finished")
        } catch {
            #expect(error.code == .tooExpensive)
            #expect(error.details["line"] == .int(4))
            #expect(error.details["stack"]?.array?.first?.string?.hasPrefix("Spin.reduce(value:nextValue:)") == true)
        }
    }
}
