import CanopyCore
import Testing

/// PROGRAMS.md §6: every event of every kind of view, and the errors of events that cannot run.
@Suite struct EventTests {
    static let form = """
        import SwiftUI
        struct Root: View {
            @State var name = ""
            @State var secret = ""
            @State var log: [String] = []
            @State var on = false
            @State var level = 0.5
            @State var qty = 9
            @State var custom = 0
            var body: some View {
                Form {
                    TextField("Name", text: $name, onEditingChanged: { editing in log.append("focus \\(editing)") },
                              onCommit: { log.append("commit \\(name)") })
                        .onChange(of: name) { old, new in log.append("\\(old)->\\(new)") }
                    SecureField("Secret", text: $secret)
                        .onSubmit { log.append("submit secret") }
                    Toggle("On", isOn: $on)
                    Slider(value: $level, in: 0...2, step: 0.5, onEditingChanged: { e in log.append("slide \\(e)") })
                    Stepper("Qty", value: $qty, in: 1...10, step: 1)
                    Stepper("Custom", onIncrement: { custom += 5 }, onDecrement: { custom -= 1 })
                    Text("log: \\(log.joined(separator: ", "))")
                }
                .onSubmit { log.append("submit form") }
                .onReceive(NotificationCenter.default.publisher(for: UIApplication.didBecomeActiveNotification)) { _ in
                    log.append("active")
                }
                .onReceive(NotificationCenter.default.publisher(for: Notification.Name("app.ping"))) { _ in
                    log.append("ping")
                }
            }
        }
        """

    static let f = "Root/0:Form"

    @Test func setTextRunsTheBindingThenOnChange() throws {
        var p = try ProgramFixture(Self.form, view: "Root")
        try p.send(Self.f + "/0:TextField", "setText", "bo")
        #expect(p.cell("Root", "name") == "bo")
        #expect(p.cell("Root", "log") == ["->bo"])
        #expect(p.onChanged == [Self.f + "/0:TextField"])
        #expect(p.node(Self.f + "/0:TextField")?.props["text"] == "bo")
        #expect(p.tree.version == 1)
    }

    @Test func focusRunsOnEditingChanged() throws {
        var p = try ProgramFixture(Self.form, view: "Root")
        try p.send(Self.f + "/0:TextField", "focus", true)
        try p.send(Self.f + "/0:TextField", "focus", false)
        #expect(p.cell("Root", "log") == ["focus true", "focus false"])
        #expect(p.tree.version == 2)
    }

    @Test func commitRunsOnCommitThenTheOnSubmitsAbove() throws {
        var p = try ProgramFixture(Self.form, view: "Root")
        try p.send(Self.f + "/0:TextField", "setText", "al")
        try p.send(Self.f + "/0:TextField", "commit")
        #expect(p.cell("Root", "log") == ["->al", "commit al", "submit form"])
        try p.send(Self.f + "/1:SecureField", "commit")
        #expect(p.cell("Root", "log") == ["->al", "commit al", "submit form", "submit secret", "submit form"])
    }

    @Test func secureFieldTakesTextButNotFocus() throws {
        var p = try ProgramFixture(Self.form, view: "Root")
        try p.send(Self.f + "/1:SecureField", "setText", "pw")
        #expect(p.cell("Root", "secret") == "pw")
        #expect(p.node(Self.f + "/1:SecureField")?.props == ["title": "Secret", "text": "pw"])
        #expect(p.failure(Self.f + "/1:SecureField", "focus", true) == .badEvent)
    }

    @Test func toggleSetValueWritesIsOn() throws {
        var p = try ProgramFixture(Self.form, view: "Root")
        try p.send(Self.f + "/2:Toggle", "setValue", true)
        #expect(p.cell("Root", "on") == true)
        #expect(p.last.diff.ops == [.setProps(node: Self.f + "/2:Toggle", props: ["isOn": true])])
        #expect(p.failure(Self.f + "/2:Toggle", "setValue", 1) == .typeMismatch)
        #expect(p.failure(Self.f + "/2:Toggle", "tap") == .badEvent)
    }

    @Test func sliderValuesAreClampedAndRoundedToTheStep() throws {
        var p = try ProgramFixture(Self.form, view: "Root")
        let slider = Self.f + "/3:Slider"
        try p.send(slider, "setValue", 1.2)
        #expect(p.cell("Root", "level") == 1.0)
        try p.send(slider, "setValue", 1.3)
        #expect(p.cell("Root", "level") == 1.5)
        try p.send(slider, "setValue", 7)
        #expect(p.cell("Root", "level") == 2.0)
        try p.send(slider, "setValue", -3)
        #expect(p.cell("Root", "level") == 0.0)
        #expect(p.node(slider)?.props["value"] == 0.0)
        try p.send(slider, "focus", true)
        #expect(p.cell("Root", "log") == ["slide true"])
        #expect(p.failure(slider, "setValue", "high") == .typeMismatch)
    }

    @Test func stepperStepsWithinItsBounds() throws {
        var p = try ProgramFixture(Self.form, view: "Root")
        let stepper = Self.f + "/4:Stepper"
        try p.send(stepper, "increment")
        #expect(p.cell("Root", "qty") == 10)
        #expect(p.last.diff.ops == [.setProps(node: stepper, props: ["value": 10])])
        // At the upper bound: accepted, nothing changes, still one version.
        try p.send(stepper, "increment")
        #expect(p.cell("Root", "qty") == 10)
        #expect(p.last.diff.ops == [])
        #expect(p.tree.version == 2)
        try p.send(stepper, "decrement")
        #expect(p.cell("Root", "qty") == 9)
        // focus without onEditingChanged is accepted too.
        try p.send(stepper, "focus", true)
        #expect(p.tree.version == 4)
    }

    @Test func stepperWithHandlersRunsThem() throws {
        var p = try ProgramFixture(Self.form, view: "Root")
        let stepper = Self.f + "/5:Stepper"
        try p.send(stepper, "increment")
        try p.send(stepper, "increment")
        try p.send(stepper, "decrement")
        #expect(p.cell("Root", "custom") == 9)
    }

    @Test func stepperStepAndLowerBound() throws {
        var p = try ProgramFixture(
            """
            struct Root: View {
                @State var v = 4
                var body: some View { Stepper("V", value: $v, in: 0...20, step: 3) }
            }
            """, view: "Root")
        try p.send("Root/0:Stepper", "decrement")
        #expect(p.cell("Root", "v") == 1)
        try p.send("Root/0:Stepper", "decrement")
        #expect(p.cell("Root", "v") == 1)
        try p.send("Root/0:Stepper", "increment")
        #expect(p.cell("Root", "v") == 4)
        #expect(p.node("Root/0:Stepper")?.props == ["title": "V", "value": 4, "in": ["lowerBound": 0, "upperBound": 20], "step": 3])
    }

    @Test func postRunsTheMatchingOnReceives() throws {
        var p = try ProgramFixture(Self.form, view: "Root")
        try p.send(nil, "post", name: "UIApplication.didBecomeActiveNotification")
        #expect(p.cell("Root", "log") == ["active"])
        try p.send(nil, "post", name: "app.ping")
        #expect(p.cell("Root", "log") == ["active", "ping"])
        try p.send(nil, "post", name: "nobody.listens")
        #expect(p.cell("Root", "log") == ["active", "ping"])
        #expect(p.last.diff.ops == [])
        #expect(p.tree.version == 3)
        #expect(p.steps("action").map { JSON.object($0) } == [["e": "action", "event": "post", "name": "nobody.listens"]])
    }

    @Test func eventsThatCannotRunChangeNothing() throws {
        var p = try ProgramFixture(Self.form, view: "Root")
        let before = p.tree.root
        #expect(p.failure(Self.f + "/6:Text", "tap") == .badEvent)
        #expect(p.failure(Self.f + "/0:TextField", "tap") == .badEvent)
        #expect(p.failure(Self.f + "/0:TextField", "explode") == .badEvent)
        #expect(p.failure("Root/9:Nothing", "tap") == .noSuchNode)
        #expect(p.failure(Self.f + "/0:TextField", "setText", 42) == .typeMismatch)
        #expect(p.failure(Self.f + "/0:TextField", "setText") == .typeMismatch)
        #expect(p.failure(Self.f + "/0:TextField", "focus", "yes") == .typeMismatch)
        #expect(p.failure(Self.f + "/4:Stepper", "setValue", 3) == .badEvent)
        #expect(p.tree.version == 0)
        #expect(p.tree.root == before)
        #expect(p.cell("Root", "name") == "")
    }

    @Test func aButtonInsideABackgroundTakesTaps() throws {
        var p = try ProgramFixture(
            """
            struct Root: View {
                @State var n = 0
                var body: some View {
                    Text("n \\(n)").overlay(Button("Bump") { n += 1 })
                }
            }
            """, view: "Root")
        try p.send("Root/0:Text/@0:Button", "tap")
        #expect(p.cell("Root", "n") == 1)
        #expect(p.node("Root/0:Text")?.props["text"] == "n 1")
    }
}
