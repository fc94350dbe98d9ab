import CanopyCore
import CanopyViews
import Testing

/// Keystrokes in a form whose fields report messages through a preference key the form counts (the shape of
/// `canopy-bench --programs`): only the typed field's body runs unless the count changes, and a form that re-runs
/// keeps its fields, their cells and their nodes.
@Suite struct FormKeystrokeTests {
    static let source = """
        import SwiftUI

        struct Messages: PreferenceKey {
            static var defaultValue: [String] = []
            static func reduce(value: inout [String], nextValue: () -> [String]) {
                value.append(contentsOf: nextValue())
            }
        }

        struct Field: View {
            let index: Int
            @State private var text = ""
            var body: some View {
                let message: String? = text.count < 3 ? "Field \\(index) needs \\(3 - text.count) more" : nil
                TextField("Field \\(index)", text: $text)
                    .preference(key: Messages.self, value: message.map { [$0] } ?? [])
            }
        }

        struct Form3: View {
            @State private var count = 0
            var body: some View {
                VStack {
                    Text("\\(count) messages")
                    ForEach(0..<3, id: \\.self) { i in Field(index: i) }
                }
                .onPreferenceChange(Messages.self) { count = $0.count }
            }
        }
        """

    static let field1 = "Form3/0:VStack/1:ForEach/[1]:Field/0:TextField"
    static let count = "Form3/0:VStack/0:Text"

    @Test func aKeystrokeRunsItsFieldAndTheFormOnlyWhenTheCountChanges() throws {
        var p = try ProgramFixture(Self.source, view: "Form3")
        #expect(p.node(Self.count)?.props["text"] == "3 messages")

        // The message changes, the count does not: the form's closure runs, its body does not.
        var t = try p.send(Self.field1, "setText", "ab")
        #expect(p.bodies == ["Form3/0:VStack/1:ForEach/[1]:Field"])
        #expect(t.diff.changes.count == 1)
        #expect(t.diff.ops == [.setProps(node: Self.field1, props: ["text": "ab"]),
            .setModifiers(node: Self.field1, modifiers: [
                .preference(key: "Messages", value: ["Field 1 needs 1 more"])])])

        // The message goes: the count changes and the form re-runs, changing only its text.
        t = try p.send(Self.field1, "setText", "abc")
        #expect(p.bodies == ["Form3/0:VStack/1:ForEach/[1]:Field", "Form3"])
        #expect(t.diff.ops.last == .setProps(node: Self.count, props: ["text": "2 messages"]))
        #expect(t.diff.ops.count == 3)
        #expect(p.cell("Form3/0:VStack/1:ForEach/[1]:Field", "text") == "abc")

        // After the form's re-run its fields still take events, and their cells were kept.
        t = try p.send(Self.field1, "setText", "")
        #expect(p.bodies == ["Form3/0:VStack/1:ForEach/[1]:Field", "Form3"])
        #expect(p.node(Self.count)?.props["text"] == "3 messages")
        #expect(p.node(Self.field1)?.props["text"] == "")
    }
}
