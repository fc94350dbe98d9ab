import CanopyCore
import Testing

/// A method of `extension View` applied to SwiftUI's own views, not only to the program's view structs.
@Suite struct ViewExtensionTests {
    @Test func anExtensionMethodAppliesToALibraryView() throws {
        let source = """
            import SwiftUI

            extension View {
                func card(_ title: String) -> some View {
                    padding().border(.gray).accessibilityLabel(title)
                }
            }

            struct Screen: View {
                var body: some View {
                    VStack {
                        Text("Hello").card("Greeting")
                    }
                }
            }
            """
        let p = try ProgramFixture(source, view: "Screen")
        let text = try #require(p.node("Screen/0:VStack/0:Text"))
        #expect(text.modifiers.map { $0.json.object?["kind"] } == ["padding", "border", "accessibilityLabel"])
        #expect(text.modifiers.last?.json.object?["args"] == ["_0": "Greeting"])
    }
}
