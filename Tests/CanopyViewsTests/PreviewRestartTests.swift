import CanopyCore
import CanopyViews
import Testing

/// A tree whose root view comes from `#Preview` keeps the preview's modifiers when it is started again from its
/// resolved spec (a restart) and when a fault rebuilds it (a rollback).
@Suite struct PreviewRestartTests {
    static let source = """
        import SwiftUI

        struct OwnerKey: EnvironmentKey {
            static let defaultValue = "nobody"
        }

        extension EnvironmentValues {
            var owner: String {
                get { self[OwnerKey.self] }
                set { self[OwnerKey.self] = newValue }
            }
        }

        struct Sample: PreviewModifier {
            static func makeSharedContext() async throws -> String { "preview" }
            func body(content: Content, context: String) -> some View {
                content.environment(\\.owner, context)
            }
        }

        struct Badge: View {
            @Environment(\\.owner) private var owner
            @State private var taps = 0
            let allowed = [0, 1]

            var body: some View {
                VStack {
                    Text("\\(owner) \\(taps)")
                    Button("Tap") { taps += 1 }
                }
                .onChange(of: taps) { _ = allowed[taps] }
            }
        }

        #Preview(traits: .modifier(Sample())) {
            Badge()
        }
        """

    static let label = "Badge/0:VStack/0:Text"
    static let button = "Badge/0:VStack/1:Button"

    @Test func aRestartFromTheResolvedSpecAppliesThePreviewsModifiers() throws {
        var p = try ProgramFixture(Self.source)
        #expect(p.program.spec.view == "Badge")
        #expect(p.node(Self.label)?.props["text"] == "preview 0")
        try p.send(Self.button, "tap")
        #expect(p.node(Self.label)?.props["text"] == "preview 1")

        let again = try ProgramFixture(Self.source, view: p.program.spec.view, cells: p.program.cells)
        #expect(again.tree.root.json == p.tree.root.json)
        #expect(again.node(Self.label)?.props["text"] == "preview 1")
    }

    @Test func aRollbackKeepsThePreviewsModifiers() throws {
        var p = try ProgramFixture(Self.source)
        try p.send(Self.button, "tap")
        let before = p.tree.root.json
        // The second tap faults in onChange, after the body ran: the tree is rebuilt from the cells.
        #expect(throws: CanopyError.self) { try p.send(Self.button, "tap") }
        #expect(p.tree.root.json == before)
        #expect(p.node(Self.label)?.props["text"] == "preview 1")
    }
}
