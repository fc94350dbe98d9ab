import CanopyCore
import Testing

@testable import CanopyScript

/// Classes as swiftc runs them: shared instances, identity, single inheritance, overrides and `super`,
/// designated and convenience initializers. Each expected output is what swiftc 6.3.1 printed for the program.
@Suite struct ClassTests {
    func output(_ source: String) throws -> String {
        let r = try Script.compile(source).run()
        if let fault = r.fault { return r.output + "fault: \(fault.message)" }
        return r.output
    }

    @Test func instancesAreSharedAndHaveIdentity() throws {
        let source = """
            final class Counter {
                var value = 0
                func bump() { value += 1 }
            }
            struct Holder { let counter: Counter }
            func main() {
                let a = Counter()
                let b = a
                b.bump()
                let h = Holder(counter: a)
                h.counter.value += 10
                print(a.value, b.value, a === b, a !== Counter(), a)
            }
            """
        #expect(try output(source) == "11 11 true true main.Counter\n")
    }

    @Test func subclassesOverrideAndCallSuper() throws {
        let source = """
            class Shape {
                let name: String
                var log: [String] = []
                init(name: String) {
                    self.name = name
                    log.append("Shape.init")
                }
                convenience init() { self.init(name: "unnamed") }
                func area() -> Double { 0 }
                func describe() -> String { "\\(name): \\(area())" }
            }
            class Square: Shape {
                var side: Double
                init(side: Double) {
                    self.side = side
                    super.init(name: "square")
                    log.append("Square.init")
                }
                override func area() -> Double { side * side }
                override func describe() -> String { "[" + super.describe() + "]" }
            }
            func main() {
                let shapes: [Shape] = [Shape(), Square(side: 3)]
                for s in shapes { print(s.describe(), s.log) }
                print(shapes[1] is Square, shapes[0] is Square, (shapes[1] as? Square)?.side as Any)
            }
            """
        #expect(
            try output(source) == """
                unnamed: 0.0 ["Shape.init"]
                [square: 9.0] ["Shape.init", "Square.init"]
                true false Optional(3.0)

                """)
    }

    @Test func whatClassesDoNotHaveIsAnError() {
        #expect(diagnostics("class A { var x: Int }\nfunc f() -> Int { A().x }").first?.message
            == "class 'A' has no initializers: 'x' has no initial value")
        #expect(diagnostics("class A { deinit {} }").first?.message.hasPrefix("'deinit' is not part") == true)
        #expect(diagnostics("class A { lazy var x = 1 }").first?.message.hasPrefix("'lazy' properties") == true)
    }
}

/// Property observers and setters, as swiftc runs them (each expected output is swiftc 6.3.1's).
@Suite struct PropertyAccessorTests {
    @Test func observersRunAroundAssignmentsButNotInInit() throws {
        let source = """
            struct Meter {
                var log: [String] = []
                var value: Int = 0 {
                    willSet { log.append("will \\(value)->\\(newValue)") }
                    didSet(previous) {
                        if value > 100 { value = 100 }
                        log.append("did \\(previous)->\\(value)")
                    }
                }
                init() { value = 5 }
                mutating func bump() { value += 60 }
            }
            func main() {
                var m = Meter()
                m.value = 10
                m.bump()
                m.bump()
                print(m.value, m.log)
            }
            """
        let r = try Script.compile(source).run()
        #expect(r.output == #"100 ["will 5->10", "did 5->10", "will 10->70", "did 10->70", "will 70->130", "did 70->100"]"# + "\n")
    }

    @Test func observersOfAWrappedPropertyAreRefused() {
        let d = diagnostics("struct V: View { @State var x = 0 { didSet { } }\n var body: some View { Text(\"a\") } }")
        #expect(d.first?.message.hasPrefix("observers of a @State property") == true)
    }
}
