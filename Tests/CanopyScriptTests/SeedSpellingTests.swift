import CanopyCore
import Testing

@testable import CanopyScript

/// The spellings the seeds' programs and real keys use, each as `swiftc` accepts and runs it.
@Suite struct SeedSpellingTests {
    @Test func anOptionalStaticVarWithoutAnInitializerIsNil() throws {
        let source = """
            struct Message: Equatable { var text: String; var priority: Int }
            struct PriorityKey: PreferenceKey {
                static var defaultValue: Message?
                static func reduce(value: inout Message?, nextValue: () -> Message?) {
                    guard let next = nextValue() else { return }
                    if value == nil || next.priority > value!.priority { value = next }
                }
            }
            func f() -> Bool { PriorityKey.defaultValue == nil }
            """
        #expect(try run(source) == true)
        #expect(try Script.compile(source).constant("defaultValue", of: "PriorityKey") == .null)
    }

    @Test func aNonOptionalStaticVarStillNeedsAValue() {
        let d = diagnostics("struct K { static var defaultValue: Int }")
        #expect(d.map(\.message) == ["'defaultValue' needs an initial value"])
    }

    @Test func aKeysOwnValueAliasNamesItsTypeInTheInitializer() throws {
        let source = """
            struct Pops { var popCount: Int }
            struct PopKey: PreferenceKey {
                typealias Value = Pops
                static var defaultValue = Value(popCount: 0)
                static func reduce(value: inout Value, nextValue: () -> Value) { value.popCount += nextValue().popCount }
            }
            func f() -> Int { PopKey.defaultValue.popCount }
            """
        #expect(try run(source) == 0)
    }

    @Test func closedRangesAreClosed() throws {
        let source = """
            func f() -> [Int] {
                let r = 1...10
                return [r.lowerBound, r.upperBound, r.count, (1...3).upperBound, (1..<3).upperBound, r.contains(10) ? 1 : 0]
            }
            """
        #expect(try run(source) == [1, 10, 10, 3, 3, 1])
        #expect(try Script.compile("func f() -> ClosedRange<Int> { 1...10 }").call("f") == ["lowerBound": 1, "upperBound": 10])
        let printed = try Script.compile(#"func main() { print(1...3, 0..<2, "\(2...4)") }"#).run().output
        #expect(printed == "1...3 0..<2 2...4\n")
    }

    @Test func floatAndSmallIntegersAreRefusedNotComputedAsDouble() {
        #expect(diagnostics("func f() -> Float { Float(1) / 3 }").first?.message.contains("'Float' is not part of") == true)
        #expect(diagnostics("func f(_ x: Int8) -> Int { 0 }").first?.message.contains("use Int") == true)
    }

    @Test func labelledTuplesKeepTheirLabels() throws {
        let source = """
            func divide(_ a: Int, _ b: Int) -> (quotient: Int, remainder: Int) { (a / b, a % b) }
            func main() {
                let t = divide(9, 4)
                print(t.quotient, t.remainder, t)
                let p = (x: 1, y: "a")
                print(p.y, "\\(p)")
                for (i, e) in ["a", "b"].enumerated() { print(i, e) }
                for e in ["z"].enumerated() { print(e.offset, e.element, e) }
            }
            """
        let r = try Script.compile(source).run()
        #expect(r.fault == nil)
        #expect(
            r.output == """
                2 1 (quotient: 2, remainder: 1)
                a (x: 1, y: "a")
                0 a
                1 b
                0 z (offset: 0, element: "z")

                """)
    }

    /// A body whose value is an `if` or `switch` (SE-0380) returned nil before; swiftc prints "ft 1 2 m 3".
    @Test func ifAndSwitchAreTheValueOfABody() throws {
        let source = """
            enum Unit: CaseIterable {
                case meters, feet, inches
                var symbol: String {
                    switch self {
                    case .meters: "m"
                    case .feet: "ft"
                    case .inches: "in"
                    }
                }
            }
            func pick(_ b: Bool) -> Int {
                if b { 1 } else { 2 }
            }
            func main() {
                let label = { (u: Unit) -> String in
                    switch u {
                    case .meters: "m"
                    default: "other"
                    }
                }
                print(Unit.feet.symbol, pick(true), pick(false), label(.meters), Unit.allCases.count)
                print(Unit.allCases.map(\\.symbol))
            }
            """
        let r = try Script.compile(source).run()
        #expect(r.fault == nil)
        #expect(r.output == "ft 1 2 m 3\n[\"m\", \"ft\", \"in\"]\n")
    }

    @Test func aColorComparesAsSwiftCompares() throws {
        let source = """
            func f() -> [Bool] {
                let c: Color = .red
                return [c == .red, c == Color.red, c == .blue]
            }
            """
        #expect(try run(source) == [true, true, false])
    }
}

/// A modifier on something that is not a view, or a non-view in a builder, is an error, never a silent no-op.
@Suite struct NotAViewTests {
    @Test func aModifierOnASwiftUIConstantIsACompileError() {
        let d = diagnostics(
            """
            struct V: View { var body: some View { Text("a").font(Font.title.padding()) } }
            """)
        #expect(d.map(\.message) == ["'padding' is a view modifier, and this value is not a view"])
    }

    @Test func aNumberInABuilderIsACompileError() {
        let d = diagnostics(
            """
            struct V: View { var body: some View { VStack { Text("a"); 42 } } }
            """)
        #expect(d.map(\.message) == ["a value of type 'Int' is not a view; a @ViewBuilder block lists views"])
    }

    @Test func aBackgroundOfAStringIsACompileError() {
        let d = diagnostics(
            """
            struct V: View { var body: some View { Text("a").background("x") } }
            """)
        #expect(d.map(\.message) == ["background needs a view; a value of type 'String' is not one"])
    }
}

/// Values that come from outside the source are refused unless they are recorded inputs, never a placeholder:
/// `Date` and `UUID` are (FoundationValueTests), I/O is not.
@Suite struct UnrecordedInputTests {
    @Test func urlAndDataAreCompileErrorsNotPlaceholders() {
        let d = diagnostics("func f() -> String { \"\\(URL(string: \"x\")) \\(Data())\" }")
        #expect(d.count == 2)
        #expect(d.allSatisfy { $0.message.contains("is not part of Canopy's Swift subset") })
    }

    @Test func dateAndUUIDCompile() {
        #expect(diagnostics("func f() -> String { \"\\(Date()) \\(UUID()) \\(Date.now)\" }").isEmpty)
    }
}

/// `Program.dump()`: what the compiler made of a source, readable.
@Suite struct ProgramDumpTests {
    @Test func theDumpShowsResolvedDeclarations() throws {
        let program = try Compiler.compile(
            """
            enum Level: Int { case low, high }
            class Shape { var sides = 0; func area() -> Double { 0 } }
            final class Square: Shape { var side: Double = 1 }
            struct Pair: Equatable { let a: Int; var b: String? }
            var counter = 0
            func sum(_ xs: Int..., start: Int = 0) -> Int { xs.reduce(start, +) }
            """)
        #expect(
            program.dump() == """
                enum Level: Int, Equatable, Hashable  // 1:1
                    case low = 0
                    case high = 1
                class Shape  // 2:1
                    var sides: Int = …
                    func area() -> Double
                class Square: Shape  // 3:1
                    var sides: Int = …
                    var side: Double = …
                struct Pair: Equatable  // 4:1
                    let a: Int
                    var b: String? = …
                func sum(_: [Int]..., start: Int) -> Int
                var counter: Int
                """)
    }
}

/// Lifecycle closures would never run in a program tree: refused, not silently skipped.
@Suite struct LifecycleTests {
    @Test func onAppearAndTaskAreCompileErrors() {
        let d = diagnostics(
            """
            struct V: View {
                @State var n = 0
                var body: some View { Text("a").onAppear { n = 1 }.task { n = 2 }.onDisappear(perform: reset) }
                func reset() { n = 0 }
            }
            """)
        #expect(d.count == 3)
        #expect(d.allSatisfy { $0.message.contains("lifecycle closures do not run") })
    }
}
