import CanopyCore
import Testing

/// The Swift real SwiftUI files are written in: memberwise initializers that take a trailing closure past defaulted
/// and `@State` properties, property-wrapper storage set in an `init`, methods passed as functions, a
/// `PreviewProvider`, and `Text + Text`.
@Suite struct SwiftUIFileTests {
    static let source = """
        import SwiftUI

        struct SizeKey: PreferenceKey {
            static var defaultValue: Int = 0
            static func reduce(value: inout Int, nextValue: () -> Int) { value += nextValue() }
        }

        struct Row: View {
            let title: String
            var subtitle: String = "none"
            @State private var taps = 0
            var onTap: () -> Void
            var body: some View {
                Button(title + subtitle) { taps += 1; onTap() }
            }
        }

        struct Field: View {
            @Binding var text: String
            @State private var draft: String
            let label: String
            init(_ label: String, text: Binding<String>) {
                self.label = label
                self._text = text
                _draft = State(initialValue: text.wrappedValue)
            }
            var body: some View {
                VStack {
                    Text(label) + Text(": ") + Text(draft)
                    TextField(label, text: $text)
                }
            }
        }

        struct Screen: View {
            @State private var name = "ann"
            @State private var count = 0
            var body: some View {
                VStack {
                    Row(title: "a") { count += 1 }
                    Row(title: "b", subtitle: "x", onTap: bump)
                    Field("Name", text: $name)
                    Text("\\(count)")
                }
                .onSubmit(perform: bump)
            }
            func bump() { count += 10 }
        }

        struct Screen_Previews: PreviewProvider {
            static var previews: some View {
                Screen()
            }
        }

        """

    @Test func aPreviewProvidersViewIsTheRoot() throws {
        let p = try ProgramFixture(Self.source)
        #expect(p.node("Screen")?.type == "Screen")
    }

    @Test func theMemberwiseInitializerTakesATrailingClosurePastDefaults() throws {
        let p = try ProgramFixture(Self.source)
        #expect(p.node("Screen/0:VStack/0:Row")?.props == ["title": "a", "subtitle": "none"])
        #expect(p.node("Screen/0:VStack/1:Row")?.props == ["title": "b", "subtitle": "x"])
        #expect(p.cell("Screen/0:VStack/0:Row", "taps") == 0)
    }

    @Test func anInitSetsWrappedStorage() throws {
        let p = try ProgramFixture(Self.source)
        #expect(p.cell("Screen/0:VStack/2:Field", "draft") == "ann")
        #expect(p.node("Screen/0:VStack/2:Field/0:VStack/1:TextField")?.props["text"] == "ann")
    }

    @Test func textPlusTextShowsBoth() throws {
        let p = try ProgramFixture(Self.source)
        let text = try #require(p.node("Screen/0:VStack/2:Field/0:VStack/0:Text"))
        #expect(text.props["text"] == "Name: ann")
        #expect(text.props["segments"]?.array?.count == 3)
    }

    @Test func closuresAndMethodReferencesRunOnTap() throws {
        var p = try ProgramFixture(Self.source)
        try p.send("Screen/0:VStack/0:Row/0:Button", "tap")
        #expect(p.cell("Screen", "count") == 1)
        #expect(p.cell("Screen/0:VStack/0:Row", "taps") == 1)
        try p.send("Screen/0:VStack/1:Row/0:Button", "tap")
        #expect(p.cell("Screen", "count") == 11)
        #expect(p.node("Screen/0:VStack/3:Text")?.props["text"] == "11")
    }

    @Test func typingThroughABindingSetInAnInitReachesItsOwner() throws {
        var p = try ProgramFixture(Self.source)
        try p.send("Screen/0:VStack/2:Field/0:VStack/1:TextField", "setText", "bob")
        #expect(p.cell("Screen", "name") == "bob")
    }
}

/// A generic view's content constrained to `View` takes modifiers; an extension of a SwiftUI view type serves as
/// an extension of `View`; a `@ViewBuilder` method returns `some View`.
@Suite struct GenericViewTests {
    @Test func constrainedContentTakesModifiersAndWritesPreferences() throws {
        let source = """
            import SwiftUI
            struct Card<T: View>: View {
                let content: T
                var body: some View {
                    content.background(Color.clear.preference(key: Total.self, value: 2))
                }
            }
            struct Total: PreferenceKey {
                static var defaultValue = 0
                static func reduce(value: inout Int, nextValue: () -> Int) { value += nextValue() }
            }
            extension TextField {
                func styled() -> some View { padding() }
            }
            struct Screen: View {
                @State private var t = 0
                @State private var name = ""
                var body: some View {
                    VStack {
                        Card(content: Text("a"))
                        Card(content: Text("b"))
                        TextField("Name", text: $name).styled()
                        label()
                        Text("\\(t)")
                    }
                    .onPreferenceChange(Total.self) { t = $0 }
                }
                @ViewBuilder func label() -> some View {
                    if t > 0 { Text("pos") } else { Text("zero") }
                }
            }
            """
        let p = try ProgramFixture(source, view: "Screen")
        #expect(p.node("Screen/0:VStack/4:Text")?.props["text"] == "4")
        #expect(p.node("Screen/0:VStack/3:If/0-0:Text")?.props["text"] == "pos")
        #expect(p.node("Screen/0:VStack/2:TextField")?.modifiers.map { $0.json.object?["kind"] } == ["padding"])
    }
}
