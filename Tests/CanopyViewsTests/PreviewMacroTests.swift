import CanopyCore
import Testing

/// `#Preview` at the top level of a program: swift-syntax parses it as an expression, Swift as a declaration.
@Suite struct PreviewMacroTests {
    @Test func aTopLevelPreviewChoosesTheRootView() throws {
        let source = """
            import SwiftUI

            struct Greeting: View {
                var body: some View { Text("Hello") }
            }

            struct Other: View {
                var body: some View { Text("Other") }
            }

            #Preview {
                Greeting()
            }
            """
        let p = try ProgramFixture(source)
        #expect(p.tree.root.id == "Greeting")
        #expect(p.program.spec.view == "Greeting")
        #expect(p.node("Greeting/0:Text")?.props["text"] == "Hello")
    }

    @Test func aTopLevelPreviewAppliesItsModifierTraits() throws {
        let source = """
            import SwiftUI

            struct Title: View {
                @Environment(\\.title) private var title
                var body: some View { Text(title) }
            }

            struct TitleKey: EnvironmentKey {
                static let defaultValue = "none"
            }

            extension EnvironmentValues {
                var title: String {
                    get { self[TitleKey.self] }
                    set { self[TitleKey.self] = newValue }
                }
            }

            struct Named: PreviewModifier {
                static func makeSharedContext() async throws -> String { "Preview" }
                func body(content: Content, context: String) -> some View {
                    content.environment(\\.title, context)
                }
            }

            #Preview("Titled", traits: .modifier(Named())) {
                Title()
            }
            """
        let p = try ProgramFixture(source)
        #expect(p.tree.root.id == "Title")
        #expect(p.node("Title/0:Text")?.props["text"] == "Preview")
        #expect(p.program.previewContexts == [PreviewContextUse(modifier: "Named", reused: false)])
    }
}

/// A `#Preview` that declares its own wrapper view with `@State` and returns it, as real files write it.
@Suite struct PreviewLocalTypeTests {
    @Test func aPreviewsLocalViewIsTheRoot() throws {
        let source = """
            import SwiftUI
            struct Toggler: View {
                @Binding var on: Bool
                var body: some View { Toggle("On", isOn: $on) }
            }
            #Preview {
                struct Wrapper: View {
                    @State var on = true
                    var body: some View { Toggler(on: $on) }
                }
                return Wrapper()
            }
            """
        var p = try ProgramFixture(source)
        #expect(p.node("Wrapper/0:Toggler/0:Toggle")?.props["isOn"] == true)
        try p.send("Wrapper/0:Toggler/0:Toggle", "setValue", false)
        #expect(p.cell("Wrapper", "on") == false)
    }
}
