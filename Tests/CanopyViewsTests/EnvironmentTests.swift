import CanopyCore
import Testing

/// PROGRAMS.md §4: `@Environment` reads the nearest override or the key's default; a change re-runs exactly the
/// readers below it that no nearer override shadows.
@Suite struct EnvironmentTests {
    /// The environment key `theme` and a view that shows it.
    static let themeAndBadge = """
        struct ThemeKey: EnvironmentKey {
            static let defaultValue = "plain"
        }
        extension EnvironmentValues {
            var theme: String {
                get { self[ThemeKey.self] }
                set { self[ThemeKey.self] = newValue }
            }
        }
        struct Badge: View {
            @Environment(\\.theme) var theme
            var body: some View { Text("theme \\(theme)") }
        }

        """

    static let source = themeAndBadge + """
        struct Middle: View {
            var body: some View { HStack { Badge() } }
        }
        struct Quiet: View {
            var body: some View { Text("quiet") }
        }
        struct Root: View {
            @State var mode = "dark"
            var body: some View {
                VStack {
                    VStack {
                        Badge()
                        Middle()
                        Quiet()
                        VStack { Badge() }.environment(\\.theme, "fixed")
                        Button("Dim") { mode = "dim" }
                    }
                    .environment(\\.theme, mode)
                    Badge()
                }
            }
        }
        """

    static let outer = "Root/0:VStack/0:VStack"

    @Test func theInnermostOfTwoOverridesOnOneViewWins() throws {
        let source = Self.themeAndBadge + """
            struct Root: View {
                var body: some View {
                    VStack { Badge() }.environment(\\.theme, "inner").environment(\\.theme, "outer")
                }
            }
            """
        let p = try ProgramFixture(source, view: "Root")
        #expect(p.node("Root/0:VStack/0:Badge/0:Text")?.props["text"] == "theme inner")
    }

    @Test func readersSeeTheNearestOverrideOrTheDefault() throws {
        let p = try ProgramFixture(Self.source, view: "Root")
        #expect(p.node(Self.outer + "/0:Badge/0:Text")?.props["text"] == "theme dark")
        #expect(p.node(Self.outer + "/1:Middle/0:HStack/0:Badge/0:Text")?.props["text"] == "theme dark")
        #expect(p.node(Self.outer + "/3:VStack/0:Badge/0:Text")?.props["text"] == "theme fixed")
        #expect(p.node("Root/0:VStack/1:Badge/0:Text")?.props["text"] == "theme plain")
        #expect(
            p.node(Self.outer)?.modifiers == [.other(kind: "environment", args: ["key": "theme", "value": "dark"])])
        #expect(
            p.node(Self.outer + "/3:VStack")?.modifiers == [
                .other(kind: "environment", args: ["key": "theme", "value": "fixed"])
            ])
    }

    @Test func aChangeReRunsExactlyTheUnshadowedReadersBelow() throws {
        var p = try ProgramFixture(Self.source, view: "Root")
        try p.send(Self.outer + "/4:Button", "tap")
        // Root reads mode; Middle and Quiet do not read theme; the shadowed badge and the one outside keep theirs.
        #expect(p.bodies == ["Root", Self.outer + "/0:Badge", Self.outer + "/1:Middle/0:HStack/0:Badge"])
        #expect(p.steps("body").dropFirst().map { $0["because"] } == [["theme"], ["theme"]])
        #expect(p.node(Self.outer + "/0:Badge/0:Text")?.props["text"] == "theme dim")
        #expect(p.node(Self.outer + "/1:Middle/0:HStack/0:Badge/0:Text")?.props["text"] == "theme dim")
        #expect(p.node(Self.outer + "/3:VStack/0:Badge/0:Text")?.props["text"] == "theme fixed")
        #expect(p.node("Root/0:VStack/1:Badge/0:Text")?.props["text"] == "theme plain")
        #expect(
            p.last.diff.ops == [
                .setModifiers(
                    node: Self.outer, modifiers: [.other(kind: "environment", args: ["key": "theme", "value": "dim"])]),
                .setProps(node: Self.outer + "/0:Badge/0:Text", props: ["text": "theme dim"]),
                .setProps(node: Self.outer + "/1:Middle/0:HStack/0:Badge/0:Text", props: ["text": "theme dim"]),
            ])
    }

    @Test func aViewWithoutAnOverrideSeesTheDefaultFromItsKey() throws {
        let p = try ProgramFixture(
            """
            struct SizeKey: EnvironmentKey { static let defaultValue: Int = 12 }
            extension EnvironmentValues {
                var size: Int {
                    get { self[SizeKey.self] }
                    set { self[SizeKey.self] = newValue }
                }
            }
            struct Root: View {
                @Environment(\\.size) private var size
                var body: some View { Text("\\(size * 2)") }
            }
            """, view: "Root")
        #expect(p.node("Root/0:Text")?.props["text"] == "24")
    }
}
