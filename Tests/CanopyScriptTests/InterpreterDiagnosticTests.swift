import CanopyCore
import Testing

@testable import CanopyScript

/// Every compile-time diagnostic: its place and a message a Swift developer understands, all at once.
@Suite struct InterpreterDiagnosticTests {
    /// Checks that `source` fails with exactly one diagnostic at `place` whose message contains `message`.
    func expectOne(
        _ source: String, _ message: String, at place: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let d = diagnostics(source)
        #expect(d.count == 1, "\(d)", sourceLocation: sourceLocation)
        guard let first = d.first else { return }
        #expect(first.location.description == place, sourceLocation: sourceLocation)
        #expect(first.message.contains(message), "\(first.message)", sourceLocation: sourceLocation)
    }

    @Test func unknownName() {
        expectOne("func f() -> Int {\n    let a = 1\n    return a + b\n}", "cannot find 'b' in scope", at: "3:16")
    }

    @Test func unknownFunction() {
        expectOne("func f() -> Int {\n    frobnicate(1)\n}", "cannot find 'frobnicate' in scope", at: "2:5")
    }

    @Test func aLibraryMemberThatDoesNotExistIsACompileError() {
        expectOne("func f(_ s: String) -> Bool {\n    s.isEmptyy\n}", "value of type 'String' has no member 'isEmptyy'", at: "2:5")
        expectOne(
            "func f(_ a: [Int]) -> Int {\n    a.sum()\n}", "value of type '[Int]' has no member 'sum'", at: "2:5")
        expectOne(
            "func f(_ a: [Int]) {\n    var b = a\n    b.append(at: 1)\n}", "has no member 'append(at:)' (check the argument labels)",
            at: "3:5")
    }

    @Test func anExtensionOfALibraryTypeAddsMembersTheCompilerKnows() {
        #expect(diagnostics("extension String {\n    var shout: String { self + \"!\" }\n}\nfunc f() -> String { \"a\".shout }").isEmpty)
    }

    @Test func unknownType() {
        expectOne("struct S {\n    var x: Widget\n}", "cannot find type 'Widget' in scope", at: "2:12")
        expectOne("func f(_ a: Gadget) -> Int { 0 }", "cannot find type 'Gadget' in scope", at: "1:13")
    }

    @Test func unknownMember() {
        expectOne(
            "struct S { var x = 1 }\nfunc f() -> Int { S().y }", "value of type 'S' has no member 'y'", at: "2:19")
    }

    @Test func wrongArgumentLabel() {
        expectOne(
            "func g(value: Int) -> Int { value }\nfunc f() -> Int { g(count: 1) }",
            "incorrect argument labels in call to g(value:) (have 'count:', expected 'value:')", at: "2:19")
    }

    @Test func missingArgument() {
        expectOne("func g(_ a: Int, _ b: Int) -> Int { a }\nfunc f() -> Int { g(1) }", "missing argument", at: "2:19")
    }

    @Test func extraArgument() {
        expectOne("func g(_ a: Int) -> Int { a }\nfunc f() -> Int { g(1, 2) }", "extra argument '_' in call to g(_:)", at: "2:19")
    }

    @Test func memberwiseInitWithWrongLabels() {
        expectOne(
            "struct P { var x = 0; var y = 0 }\nfunc f() -> P { P(y: 1, z: 2) }",
            "extra or misplaced argument 'z' in call to P(x:y:)", at: "2:28")
    }

    @Test func assigningToALet() {
        expectOne(
            "func f() -> Int {\n    let a = 1\n    a = 2\n    return a\n}", "cannot assign to value: 'a' is a 'let' constant",
            at: "3:5")
    }

    @Test func assigningToALetField() {
        expectOne(
            "struct S { let x = 1 }\nfunc f() -> Int {\n    var s = S()\n    s.x = 2\n    return s.x\n}",
            "cannot assign to property: 'x' is a 'let' constant", at: "4:5")
    }

    @Test func aLetFieldIsAssignableOnlyInAnInit() {
        let source = """
            struct S {
                let x: Int
                init(v: Int) { x = v }
                mutating func change() {
                    x = 3
                }
            }
            """
        expectOne(source, "cannot assign to property: 'x' is a 'let' constant", at: "5:9")
        #expect(result("struct S {\n    let x: Int\n    init(v: Int) { self.x = v * 2 }\n}\nfunc f() -> Int { S(v: 4).x }") == 8)
    }

    @Test func assigningToAStaticProperty() {
        let source = """
            struct K: PreferenceKey {
                static var defaultValue = 0
                static func reduce(value: inout Int, nextValue: () -> Int) {
                    defaultValue = nextValue()
                }
            }
            """
        expectOne(source, "global mutable state", at: "4:9")
        expectOne(
            "struct S { static var n = 0 }\nfunc f() {\n    S.n += 1\n}", "global mutable state", at: "3:5")
    }

    @Test func mutatingAFieldInANonMutatingMethod() {
        let source = """
            struct S {
                var n = 0
                func bump() {
                    n += 1
                }
            }
            """
        expectOne(source, "mutating", at: "4:9")
    }

    @Test func callingAMutatingMethodOnALet() {
        let source = """
            struct S {
                var n = 0
                mutating func bump() { n += 1 }
            }
            func f() {
                let s = S()
                s.bump()
            }
            """
        expectOne(source, "mutating", at: "7:5")
    }

    @Test func typeMismatchInAnAnnotatedLet() {
        expectOne(
            "func f() {\n    let x: Int = \"a\"\n}", "cannot convert value of type 'String' to specified type 'Int'",
            at: "2:18")
    }

    @Test func typeMismatchInAReturn() {
        expectOne("func f() -> Int {\n    return \"a\"\n}", "cannot convert", at: "2:12")
    }

    @Test func nonExhaustiveSwitchOverAnEnum() {
        let source = """
            enum E { case a, b, c }
            func f(_ e: E) -> Int {
                switch e {
                case .a: return 1
                case .b: return 2
                }
            }
            """
        expectOne(source, "switch must be exhaustive", at: "3:5")
    }

    @Test func actorsAreOutsideTheSubset() {
        expectOne("actor C {\n    var x = 1\n}", "actor", at: "1:1")
    }

    /// One error per cause: the uses of a refused declaration say nothing new.
    @Test func usesOfARefusedDeclarationAreNotReportedAgain() {
        expectOne("actor A { var x = 1 }\nfunc f() -> Int { let a = A(); return a.x }", "actor", at: "1:1")
    }

    @Test func throwAndDoCatchAreOutsideTheSubset() {
        let d = diagnostics(
            """
            enum Oops: Error { case bad }
            func g() throws -> Int { throw Oops.bad }
            func f() -> Int {
                do {
                    return try g()
                } catch {
                    return 0
                }
            }
            """)
        #expect(!d.isEmpty)
        #expect(d.contains { $0.location.line == 2 && $0.message.contains("throw") })
        #expect(d.contains { $0.location.line == 4 && $0.message.contains("catch") })
    }

    @Test func deferIsOutsideTheSubset() {
        expectOne("func f() -> Int {\n    defer { }\n    return 1\n}", "defer", at: "2:5")
    }

    @Test func topLevelStatementsAreOutsideTheSubset() {
        expectOne("let a = 1\nprint(a)", "top-level statements", at: "2:1")
    }

    @Test func aKeysReduceCannotUseAGlobalVar() {
        let source = "var counter = 0\nstruct K: PreferenceKey {\n    static var defaultValue = 0\n    static func reduce(value: inout Int, nextValue: () -> Int) { value += counter }\n}"
        expectOne(source, "must be a pure function", at: "4:75")
    }

    @Test func geometryTypesCompileAndTheMissingPartsAreNamed() {
        let source = """
            struct BoundsKey: PreferenceKey {
                static var defaultValue: Anchor<CGRect>? = nil
                static func reduce(value: inout Anchor<CGRect>?, nextValue: () -> Anchor<CGRect>?) {
                    value = value ?? nextValue()
                }
            }
            func f(_ g: GeometryProxy) -> CGFloat { g.size.width + g.frame(in: .named("s")).minX }
            """
        #expect(diagnostics(source).isEmpty)
        expectOne(
            "import SwiftUI\nstruct V: View { var body: some View { Color.red.alignmentGuide(.leading) { _ in 0 } } }",
            "alignmentGuide", at: "2:40")
    }

    @Test func syntaxError() {
        let d = diagnostics("func f() -> Int {\n    let x = (1 + \n    return x\n}")
        #expect(!d.isEmpty)
        #expect(d.first?.location.description == "2:18")
        #expect(d.first?.message.contains("expected") == true)
    }

    @Test func syntaxErrorUnclosedBrace() {
        let d = diagnostics("struct S {\n    var x = 1\n")
        #expect(d.count == 1)
        #expect(d.first?.message.contains("}") == true)
        #expect(d.first?.location.line == 2)
    }

    @Test func severalErrorsAreAllReportedInSourceOrder() {
        let source = """
            struct S {
                var x: Nope
                func g() -> Int { missing }
            }
            func f() -> Int {
                let a: Int = "s"
                a = 3
                return S().zzz
            }
            var global: Int
            """
        let d = diagnostics(source)
        #expect(d.map(\.location.line) == [2, 3, 6, 7, 8, 10], "\(d)")
        let sorted = d.sorted { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) }
        #expect(d == sorted)
    }
}
