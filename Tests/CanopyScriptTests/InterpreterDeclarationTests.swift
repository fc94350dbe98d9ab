import CanopyCore
import Testing

@testable import CanopyScript

/// Structs, enums, protocols, extensions, generics and the other declarations of PROGRAMS.md §2.
@Suite struct InterpreterDeclarationTests {
    @Test func structStoredPropertiesDefaultsAndMemberwiseInit() throws {
        let source = """
            struct Item {
                let name: String
                var count = 1
                var weight: Double = 2
                var note: String?
            }
            func f() -> String {
                let a = Item(name: "a")
                let b = Item(name: "b", weight: 5)
                let c = Item(name: "c", count: 3, weight: 1.5, note: "n")
                return "\\(a.name) \\(a.count) \\(a.weight) \\(a.note == nil) \\(b.count) \\(b.weight) \\(c.count) \\(c.note!)"
            }
            """
        #expect(result(source) == "a 1 2.0 true 1 5.0 3 n")
    }

    @Test func explicitInitReplacesTheMemberwiseOne() throws {
        let source = """
            struct Range2 {
                var low: Int
                var high: Int
                init(around center: Int, radius: Int = 1) {
                    low = center - radius
                    self.high = center + radius
                }
            }
            func f() -> [Int] {
                let a = Range2(around: 10)
                let b = Range2(around: 0, radius: 5)
                return [a.low, a.high, b.low, b.high]
            }
            """
        #expect(result(source) == [9, 11, -5, 5])
    }

    @Test func anInitInAnExtensionKeepsTheMemberwiseInit() throws {
        let source = """
            struct Size2 { var w: Int; var h: Int }
            extension Size2 {
                init(square: Int) {
                    w = square
                    h = square
                }
            }
            func f() -> [Int] {
                let a = Size2(w: 1, h: 2)
                let b = Size2(square: 3)
                return [a.w, a.h, b.w, b.h]
            }
            """
        #expect(result(source) == [1, 2, 3, 3])
    }

    @Test func protocolStaticRequirementsAndDefaults() throws {
        let source = """
            protocol Unit {
                static var symbol: String { get }
                static func scale() -> Int
            }
            extension Unit {
                static func scale() -> Int { 1 }
            }
            struct Meter: Unit { static let symbol = "m" }
            struct Kilo: Unit {
                static var symbol: String { "km" }
                static func scale() -> Int { 1000 }
            }
            func f() -> [String] { [Meter.symbol, Kilo.symbol, "\\(Meter.scale())", "\\(Kilo.scale())"] }
            """
        #expect(result(source) == ["m", "km", "1", "1000"])
    }

    @Test
    func protocolExtensionStaticsDispatchOnSelf() throws {
        let source = """
            protocol Unit {
                static var symbol: String { get }
                static func scale() -> Int
            }
            extension Unit {
                static func scale() -> Int { 1 }
                static func label(_ n: Int) -> String { "\\(n * scale())\\(symbol)" }
            }
            struct Meter: Unit { static let symbol = "m" }
            struct Kilo: Unit {
                static var symbol: String { "km" }
                static func scale() -> Int { 1000 }
            }
            func f() -> [String] { [Meter.label(2), Kilo.label(3)] }
            """
        #expect(result(source) == ["2m", "3000km"])
    }

    /// swiftc prints the same: a member only the extension declares is bound statically through the protocol, a
    /// requirement dynamically; inside the extension, `Self`'s requirements are the conforming type's.
    @Test func protocolExtensionMembersDispatchAsSwiftDoes() throws {
        let source = """
            protocol Greeter { func greet() -> String }
            extension Greeter {
                func greet() -> String { "hello" }
                func name() -> String { "extension" }
                func both() -> String { greet() + "/" + name() }
            }
            struct A: Greeter {
                func greet() -> String { "A" }
                func name() -> String { "A-name" }
            }
            struct B: Greeter {}
            protocol Unit { static var symbol: String { get } }
            extension Unit {
                static func scale() -> Int { 1 }
                static func label(_ n: Int) -> String { "\\(n * scale())\\(symbol)" }
            }
            struct Kilo: Unit { static var symbol: String { "km" }; static func scale() -> Int { 1000 } }
            func main() {
                let a = A()
                let g: Greeter = a
                print(a.name(), g.name(), a.both(), g.both(), B().both())
                let all: [Greeter] = [A(), B()]
                for x in all { print(x.greet(), x.name()) }
                print(Kilo.label(3), Kilo.scale())
            }
            """
        let r = try Script.compile(source).run()
        #expect(r.fault == nil)
        #expect(r.output == "A-name extension A/extension A/extension hello/extension\nA extension\nhello extension\n3km 1000\n")
    }

    @Test func computedPropertiesMethodsAndMutatingMethods() throws {
        let source = """
            struct Counter {
                var value = 0
                var doubled: Int { value * 2 }
                var described: String {
                    get { "#\\(value)" }
                }
                func plus(_ n: Int) -> Int { value + n }
                mutating func bump(by n: Int = 1) { value += n }
                mutating func reset() { self = Counter() }
            }
            func f() -> [String] {
                var c = Counter()
                c.bump()
                c.bump(by: 4)
                let d = c.doubled
                let p = c.plus(100)
                let s = c.described
                c.reset()
                return ["\\(d)", "\\(p)", s, "\\(c.value)"]
            }
            """
        #expect(result(source) == ["10", "105", "#5", "0"])
    }

    @Test func staticLetVarAndFunc() throws {
        let source = """
            struct Config {
                static let base = 10
                static var scale = Config.base * 2
                static func make(_ n: Int) -> Int { n * scale + base }
            }
            func f() -> Int { Config.make(3) + Config.scale }
            """
        #expect(result(source) == 90)
    }

    @Test func nestedTypes() throws {
        let source = """
            struct Outer {
                enum Kind: String { case small, large }
                struct Inner { var kind: Kind = .small }
                var inner = Inner()
            }
            func f() -> String {
                var o = Outer()
                o.inner.kind = Outer.Kind.large
                let k: Outer.Kind = .small
                return o.inner.kind.rawValue + "/" + k.rawValue
            }
            """
        #expect(result(source) == "large/small")
    }

    @Test func enumRawValuesImplicitAndExplicit() throws {
        let source = """
            enum Priority: Int { case low, medium, high = 10, urgent }
            enum Suit: String { case hearts, spades = "S" }
            func f() -> [String] {
                let p = Priority(rawValue: 11)
                let missing = Priority(rawValue: 5)
                return [
                    "\\(Priority.low.rawValue)", "\\(Priority.medium.rawValue)", "\\(Priority.urgent.rawValue)",
                    Suit.hearts.rawValue, Suit.spades.rawValue, p == .urgent ? "yes" : "no", missing == nil ? "nil" : "x",
                ]
            }
            """
        #expect(result(source) == ["0", "1", "11", "hearts", "S", "yes", "nil"])
    }

    @Test func enumAssociatedValuesSwitchWithPatternsAndWhere() throws {
        let source = """
            enum Shape {
                case circle(radius: Double)
                case rect(Double, Double)
                case point
            }
            func area(_ s: Shape) -> String {
                switch s {
                case .circle(let r) where r > 10: return "big circle"
                case .circle(radius: let r): return "circle \\(r)"
                case let .rect(w, h) where w == h: return "square \\(w * h)"
                case .rect(let w, _): return "rect \\(w)"
                case .point: return "point"
                }
            }
            func f() -> [String] {
                [area(.circle(radius: 20)), area(.circle(radius: 2)), area(.rect(3, 3)), area(Shape.rect(4, 1)), area(.point)]
            }
            """
        #expect(result(source) == ["big circle", "circle 2.0", "square 9.0", "rect 4.0", "point"])
    }

    @Test func ifCaseAndGuardCase() throws {
        let source = """
            enum Result2 { case ok(Int), failed(String) }
            func value(_ r: Result2) -> Int {
                if case .ok(let v) = r, v > 0 { return v }
                guard case .failed(let m) = r else { return -1 }
                return m == "x" ? -2 : -3
            }
            func f() -> [Int] { [value(.ok(5)), value(.ok(0)), value(.failed("x")), value(.failed("y"))] }
            """
        #expect(result(source) == [5, -1, -2, -3])
    }

    @Test func switchOverIntsStringsTuplesAndRanges() throws {
        let source = """
            func kind(_ n: Int) -> String {
                switch n {
                case 0: return "zero"
                case 1, 2, 3: return "few"
                case 4..<10: return "some"
                case let x where x < 0: return "negative"
                default: return "many"
                }
            }
            func pair(_ a: Int, _ b: String) -> String {
                switch (a, b) {
                case (0, "a"): return "0a"
                case (_, "b"): return "_b"
                case (let x, _): return "x\\(x)"
                }
            }
            func f() -> [String] {
                [kind(0), kind(2), kind(7), kind(-4), kind(99), pair(0, "a"), pair(5, "b"), pair(6, "c")]
            }
            """
        #expect(result(source) == ["zero", "few", "some", "negative", "many", "0a", "_b", "x6"])
    }

    @Test func protocolExistentialsInAnArray() throws {
        let source = """
            protocol ValidationRule {
                var name: String { get }
                func check(_ text: [Int]) -> Bool
            }
            struct NotEmpty: ValidationRule {
                var name: String { "notEmpty" }
                func check(_ text: [Int]) -> Bool { !text.isEmpty }
            }
            struct MaxLength: ValidationRule {
                let name = "maxLength"
                var limit: Int
                func check(_ text: [Int]) -> Bool { text.count <= limit }
            }
            func failures(_ text: [Int]) -> [String] {
                let rules: [ValidationRule] = [NotEmpty(), MaxLength(limit: 3)]
                var out: [String] = []
                for rule in rules where !rule.check(text) { out.append(rule.name) }
                return out
            }
            func f() -> [[String]] { [failures([]), failures([1, 2, 3, 4]), failures([1, 2])] }
            """
        #expect(result(source) == [["notEmpty"], ["maxLength"], []])
    }

    @Test func anyAndSomeAreAccepted() throws {
        let source = """
            protocol Named { var name: String { get } }
            struct A: Named { var name = "a" }
            func first(_ items: [any Named]) -> some Named { items[0] }
            func f() -> String { first([A(name: "z")]).name }
            """
        #expect(result(source) == "z")
    }

    @Test func extensionsOfOwnAndLibraryTypes() throws {
        let source = """
            struct Money { var cents: Double }
            extension Money {
                var dollars: Double { cents / 100 }
                static func + (a: Money, b: Money) -> Money { Money(cents: a.cents + b.cents) }
            }
            extension Double {
                var twice: Double { self * 2 }
                func clamped(to limit: Double) -> Double { self > limit ? limit : self }
            }
            extension Int {
                func times(_ s: String) -> String {
                    var out = ""
                    for _ in 0..<self { out += s }
                    return out
                }
            }
            extension CGSize {
                var area: CGFloat { width * height }
                static func * (s: CGSize, k: CGFloat) -> CGSize { CGSize(width: s.width * k, height: s.height * k) }
            }
            extension Array {
                var secondCount: Int { count * 2 }
            }
            func f() -> [String] {
                let m = Money(cents: 150) + Money(cents: 25)
                let s = CGSize(width: 2, height: 3) * 2
                return [
                    "\\(m.dollars)", "\\(2.5.twice)", "\\(7.0.clamped(to: 5))", 3.times("ab"), "\\(s.area)",
                    "\\([1, 2, 3].secondCount)",
                ]
            }
            """
        #expect(result(source) == ["1.75", "5.0", "5.0", "ababab", "24.0", "6"])
    }

    @Test func conformanceAddedInAnExtension() throws {
        let source = """
            protocol Describable { func describe() -> String }
            struct Point3 { var x = 0, y = 0 }
            extension Point3: Describable {
                func describe() -> String { "(\\(x), \\(y))" }
            }
            extension Point3: Equatable {}
            func f() -> [String] {
                let items: [Describable] = [Point3(x: 1, y: 2)]
                return [items[0].describe(), Point3() == Point3(x: 0, y: 0) ? "eq" : "ne"]
            }
            """
        #expect(result(source) == ["(1, 2)", "eq"])
    }

    @Test func protocolExtensionDefaultsAndOverrides() throws {
        let source = """
            protocol Greeter {
                var name: String { get }
                func greet() -> String
            }
            extension Greeter {
                func greet() -> String { "Hello, \\(name)" }
                func shout() -> String { greet() + "!" }
            }
            struct Plain: Greeter { var name = "Ann" }
            struct Custom: Greeter {
                var name = "Bob"
                func greet() -> String { "Hi \\(name)" }
            }
            func f() -> [String] {
                let all: [Greeter] = [Plain(), Custom()]
                var out: [String] = []
                for g in all { out.append(g.shout()) }
                return out
            }
            """
        #expect(result(source) == ["Hello, Ann!", "Hi Bob!"])
    }

    @Test func refinedPreferenceKeyWithDefaultReduce() throws {
        let source = """
            protocol MaxKey: PreferenceKey where Value == CGFloat {}
            extension MaxKey {
                static var defaultValue: CGFloat { 0 }
                static func reduce(value: inout CGFloat, nextValue: () -> CGFloat) {
                    value = max(value, nextValue())
                }
            }
            struct HeightKey: MaxKey {}
            struct WidthKey: MaxKey {
                static var defaultValue: CGFloat = 5
            }
            func f() -> [CGFloat] {
                var v = HeightKey.defaultValue
                HeightKey.reduce(value: &v) { 7 }
                HeightKey.reduce(value: &v, nextValue: { 3 })
                var w = WidthKey.defaultValue
                WidthKey.reduce(value: &w) { 1 }
                return [v, w]
            }
            """
        let r = try run(source)
        #expect(r == [7, 5])
        #expect(r.array?.allSatisfy(isDouble) == true)
    }

    @Test func typealiasesGlobalAndInAKey() throws {
        let source = """
            typealias Scores = [String: Int]
            struct TotalKey: PreferenceKey {
                typealias Value = Int
                static var defaultValue: Value = 0
                static func reduce(value: inout Value, nextValue: () -> Value) { value += nextValue() }
            }
            func f() -> Int {
                var s: Scores = [:]
                s["a"] = 4
                var v = TotalKey.defaultValue
                TotalKey.reduce(value: &v) { s["a"]! }
                return v
            }
            """
        #expect(result(source) == 4)
    }

    @Test func genericFunctionsWithConstraintsAndGenericStructs() throws {
        let source = """
            func largest<T: Comparable>(_ a: T, _ b: T) -> T { a < b ? b : a }
            func same<T>(_ a: T, _ b: T) -> Bool where T: Equatable { a == b }
            struct Box<Value> {
                var value: Value
                func map<U>(_ f: (Value) -> U) -> Box<U> { Box<U>(value: f(value)) }
            }
            struct Stack<Element: Equatable> {
                var items: [Element] = []
                mutating func push(_ e: Element) { items.append(e) }
                var top: Element? { items.isEmpty ? nil : items[items.count - 1] }
            }
            func f() -> [String] {
                var s = Stack<String>()
                s.push("a")
                s.push("b")
                let b = Box(value: 3).map { "#\\($0)" }
                return ["\\(largest(3, 9))", largest("pear", "apple"), "\\(same(1.5, 1.5))", s.top!, b.value]
            }
            """
        #expect(result(source) == ["9", "pear", "true", "b", "#3"])
    }

    @Test func topLevelFunctionsAndConstants() throws {
        let source = """
            let limit = 3
            let names = ["a", "b"]
            let total = limit * 2 + helper()
            func helper() -> Int { 10 }
            func f() -> Int { total + names.count }
            """
        let script = try Script.compile(source)
        #expect(try script.call("f") == 18)
        #expect(script.constant("total") == 16)
    }

    @Test func equatableSynthesisForStructsAndEnums() throws {
        let source = """
            struct P: Equatable { var a: Int; var b: String }
            enum E: Equatable { case one, two(Int) }
            struct Q: Hashable { var p: P? = nil }
            func f() -> [Bool] {
                [P(a: 1, b: "x") == P(a: 1, b: "x"), P(a: 1, b: "x") != P(a: 1, b: "y"), E.two(3) == .two(3),
                 E.two(3) == E.two(4), E.one == .one, E.one != .two(1), Q() == Q(p: nil)]
            }
            """
        #expect(result(source) == [true, true, true, false, true, true, true])
    }

    @Test func comparableThroughLessThan() throws {
        let source = """
            struct Version: Comparable {
                var major: Int
                var minor: Int
                static func < (a: Version, b: Version) -> Bool {
                    a.major != b.major ? a.major < b.major : a.minor < b.minor
                }
            }
            func f() -> [Bool] {
                let a = Version(major: 1, minor: 2)
                let b = Version(major: 1, minor: 10)
                return [a < b, a > b, a <= b, a >= b, b >= b, b <= b, max(a, b) == b, min(a, b) == a]
            }
            """
        #expect(result(source) == [true, false, true, false, true, true, true, true])
    }

    @Test func ignoredAttributesAndModifiers() throws {
        let source = """
            import SwiftUI
            import Foundation

            @MainActor
            public struct S: Sendable {
                private(set) var x = 1
                @available(iOS 17, *) public init() {}
                @inlinable nonisolated func get() -> Int { x }
                fileprivate static let k = 2
            }
            @usableFromInline internal func apply(_ g: @escaping @Sendable (Int) -> Int) -> Int { g(S.k) }
            @preconcurrency func f() -> Int { S().get() + apply { $0 * 10 } }
            """
        #expect(result(source) == 21)
    }

    @Test func conditionalCompilationAsOnIOS() throws {
        let source = """
            #if canImport(SwiftUI)
            let ui = 1
            #else
            let ui = 2
            #endif
            func f() -> Int {
                #if os(iOS)
                return ui * 10
                #elseif os(macOS)
                return ui * 100
                #else
                return 0
                #endif
            }
            """
        #expect(result(source) == 10)
    }
}
