import CanopyCore
import Testing

/// The program steps of a trace say where their code is written: `line` and `column` (1-based) of a body's getter, a
/// reader's or `onChange`'s closure, and the handler an event ran (or the control it happened on).
@Suite struct TraceLineTests {
    static let source = """
        import SwiftUI
        struct ResetButton: View {
            let onReset: () -> Void
            var body: some View { Button("Reset", action: onReset) }
        }
        struct Root: View {
            @State var count = 0
            @State var log: [String] = []
            var body: some View {
                VStack {
                    Button("Add") { count += 1 }
                    ResetButton(onReset: { count = 0 })
                    Stepper("Count", value: $count)
                    TextField("Note", text: .constant(""))
                        .onSubmit { log.append("submit") }
                    Text("\\(count)")
                }
                .onChange(of: count) { log.append("changed") }
                .onReceive(NotificationCenter.default.publisher(for: Notification.Name("ping"))) { _ in
                    log.append("ping")
                }
            }
        }
        """

    static let stack = "Root/0:VStack"

    /// `[line, column]` of the last transaction's steps of kind `e`, in order (`[]` for a step without them).
    static func places(_ p: ProgramFixture, _ e: String) -> [[Int]] {
        p.steps(e).map { step in [step["line"], step["column"]].compactMap { $0?.number.map { Int($0) } } }
    }

    @Test func aButtonsActionIsTheClosureItRuns() throws {
        var p = try ProgramFixture(Self.source, view: "Root")
        #expect(p.steps("body").map { $0["view"] } == ["Root", "ResetButton"])
        #expect(Self.places(p, "body") == [[9, 9], [4, 9]])
        try p.send(Self.stack + "/0:Button", "tap")
        #expect(Self.places(p, "action") == [[11, 27]])
        #expect(p.steps("action").first?["node"] == .string(Self.stack + "/0:Button"))
        // The count changed: the body that shows it, then onChange's closure.
        #expect(Self.places(p, "body") == [[9, 9]])
        #expect(Self.places(p, "onChange") == [[18, 30]])
    }

    @Test func anActionPassedDownIsWhereItsClosureIsWritten() throws {
        var p = try ProgramFixture(Self.source, view: "Root")
        try p.send(Self.stack + "/0:Button", "tap")
        try p.send(Self.stack + "/1:ResetButton/0:Button", "tap")
        #expect(p.cell("Root", "count") == 0)
        // Not the Button in ResetButton's body (line 4): the closure Root gave it.
        #expect(Self.places(p, "action") == [[12, 34]])
    }

    @Test func aBindingsEventIsWhereTheControlWasBuilt() throws {
        var p = try ProgramFixture(Self.source, view: "Root")
        try p.send(Self.stack + "/2:Stepper", "increment")
        #expect(p.cell("Root", "count") == 1)
        #expect(Self.places(p, "action") == [[13, 13]])
    }

    @Test func aCommitWithoutOnCommitIsTheFirstOnSubmit() throws {
        var p = try ProgramFixture(Self.source, view: "Root")
        try p.send(Self.stack + "/3:TextField", "commit")
        #expect(p.cell("Root", "log") == ["submit"])
        #expect(Self.places(p, "action") == [[15, 27]])
    }

    @Test func aPostIsItsFirstOnReceive() throws {
        var p = try ProgramFixture(Self.source, view: "Root")
        try p.send(nil, "post", name: "ping")
        #expect(Self.places(p, "action") == [[19, 90]])
        try p.send(nil, "post", name: "nobody.listens")
        #expect(Self.places(p, "action") == [[]])
    }

    @Test func validatedSignupStepsPointIntoItsSource() throws {
        var p = try ExamplePrograms.start("validated-signup")
        let S = ValidatedSignupExampleTests.self
        try p.send(S.emailText, "setText", "a")
        // setText writes the field's binding: its step is where the TextField is built in ValidatedField's body.
        #expect(Self.places(p, "action") == [[80, 17]])
        // ValidatedField's body, the form's `.onPreferenceChange(ValidationMessages.self) { messages = $0 }`, then
        // SignupForm's body.
        #expect(p.steps("body").map { $0["view"] } == ["ValidatedField", "SignupForm"])
        #expect(Self.places(p, "body") == [[75, 9], [103, 9]])
        #expect(p.steps("perform").map { $0["reader"] } == [.string(S.form + "#0")])
        #expect(Self.places(p, "perform") == [[121, 54]])
    }
}
