import CanopyCore
import CanopyViews
import Testing

/// PROGRAMS.md §4 and §7: the view `#Preview` shows, preview modifiers and their shared contexts.
@Suite struct PreviewTests {
    /// A program with a preview modifier; `tag` makes the source (and so its context cache) unique to a test.
    static func source(_ tag: String, preview: String) -> String {
        """
        // \(tag)
        struct NamesKey: EnvironmentKey { static let defaultValue: [String] = [] }
        extension EnvironmentValues {
            var names: [String] {
                get { self[NamesKey.self] }
                set { self[NamesKey.self] = newValue }
            }
        }
        enum PreviewModifierDemo {
            struct SampleData: PreviewModifier {
                static func makeSharedContext() async throws -> [String] {
                    var out: [String] = []
                    for i in 1...3 { out.append("user\\(i)") }
                    return out
                }
                func body(content: Content, context: [String]) -> some View {
                    content.environment(\\.names, context)
                }
            }
        }
        struct Roster: View {
            @Environment(\\.names) var names
            var body: some View {
                List { ForEach(names, id: \\.self) { n in Text(n) } }
            }
        }
        struct Other: View {
            var body: some View { Text("other") }
        }
        \(preview)
        """
    }

    @Test func theDefaultViewIsWhatPreviewShows() throws {
        let p = try ProgramFixture(Self.source("default", preview: "#Preview { Other() }"))
        #expect(p.program.spec.view == "Other")
        #expect(p.tree.root.id == "Other")
        #expect(p.node("Other/0:Text")?.props["text"] == "other")
        #expect(p.program.previewContexts == [])
    }

    @Test func withoutAPreviewTheDefaultIsContentView() throws {
        let p = try ProgramFixture(
            """
            struct ContentView: View { var body: some View { Text("hello") } }
            struct Other: View { var body: some View { Text("other") } }
            """)
        #expect(p.program.spec.view == "ContentView")
        #expect(p.node("ContentView/0:Text")?.props["text"] == "hello")
    }

    @Test func anUnknownViewIsABadMessage() {
        let code = errorCode {
            _ = try ProgramFixture(Self.source("unknown", preview: ""), view: "Nowhere")
        }
        #expect(code == .badMessage)
    }

    @Test func previewTraitsApplyTheModifierWithItsContext() throws {
        let p = try ProgramFixture(
            Self.source("traits", preview: "#Preview(traits: .modifier(PreviewModifierDemo.SampleData())) { Roster() }"))
        #expect(p.program.spec.view == "Roster")
        #expect(p.tree.root.id == "Roster")
        #expect(p.tree.root.modifiers == [
            .other(kind: "environment", args: ["key": "names", "value": ["user1", "user2", "user3"]])
        ])
        #expect(
            p.kids("Roster/0:List/0:ForEach") == [
                "Roster/0:List/0:ForEach/[user1]:Text", "Roster/0:List/0:ForEach/[user2]:Text",
                "Roster/0:List/0:ForEach/[user3]:Text",
            ])
        #expect(p.program.previewContexts == [PreviewContextUse(modifier: "PreviewModifierDemo.SampleData", reused: false)])
    }

    @Test func previewModifiersOfTheSpecApplyByQualifiedName() throws {
        let p = try ProgramFixture(
            Self.source("spec", preview: ""), view: "Roster", previewModifiers: ["PreviewModifierDemo.SampleData"])
        #expect(p.node("Roster/0:List/0:ForEach/[user2]:Text")?.props["text"] == "user2")
        #expect(p.program.previewContexts == [PreviewContextUse(modifier: "PreviewModifierDemo.SampleData", reused: false)])
    }

    @Test func theSharedContextIsComputedOnceAndReusedByLaterTrees() throws {
        let source = Self.source("shared", preview: "")
        let first = try ProgramFixture(source, view: "Roster", previewModifiers: ["PreviewModifierDemo.SampleData"])
        let second = try ProgramFixture(source, view: "Roster", previewModifiers: ["PreviewModifierDemo.SampleData"])
        #expect(first.program.previewContexts == [PreviewContextUse(modifier: "PreviewModifierDemo.SampleData", reused: false)])
        #expect(second.program.previewContexts == [PreviewContextUse(modifier: "PreviewModifierDemo.SampleData", reused: true)])
        #expect(first.tree.root == second.tree.root)
        // A tree without the modifier computes nothing and sees the key's default.
        let plain = try ProgramFixture(source, view: "Roster")
        #expect(plain.program.previewContexts == [])
        #expect(plain.kids("Roster/0:List/0:ForEach") == [])
    }

    @Test func anUnknownPreviewModifierIsRejected() {
        let code = errorCode {
            _ = try ProgramFixture(Self.source("nomod", preview: ""), view: "Roster", previewModifiers: ["Missing"])
        }
        #expect(code == .badMessage)
    }
}
