import CanopyCore
import Testing

/// PROGRAMS.md §3: the program's own views, generic containers and `extension View` methods.
@Suite struct CustomViewTests {
    @Test func aCustomViewShowsItsStoredPropertiesAndItsBody() throws {
        var p = try ProgramFixture(
            """
            struct Row: View {
                let title: String
                var count: Int = 2
                @State private var open = false
                var body: some View {
                    HStack {
                        Text(title)
                        Text("\\(count)")
                    }
                }
            }
            struct Root: View {
                @State var n = 1
                var body: some View {
                    VStack {
                        Row(title: "first")
                        Row(title: "second", count: n)
                        Button("More") { n += 1 }
                    }
                }
            }
            """, view: "Root")
        let row = try #require(p.node("Root/0:VStack/1:Row"))
        #expect(row.type == "Row")
        #expect(row.props == ["title": "second", "count": 1])
        #expect(p.node("Root/0:VStack/0:Row")?.props == ["title": "first", "count": 2])
        #expect(p.kids("Root/0:VStack/1:Row") == ["Root/0:VStack/1:Row/0:HStack"])
        #expect(p.node("Root/0:VStack/1:Row/0:HStack/1:Text")?.props == ["text": "1"])
        #expect(p.cell("Root/0:VStack/1:Row", "open") == false)

        try p.send("Root/0:VStack/2:Button", "tap")
        #expect(p.bodies == ["Root", "Root/0:VStack/1:Row"])
        #expect(
            p.last.diff.ops == [
                .setProps(node: "Root/0:VStack/1:Row", props: ["count": 2]),
                .setProps(node: "Root/0:VStack/1:Row/0:HStack/1:Text", props: ["text": "2"]),
            ])
    }

    @Test func aViewExtensionAppliesWhatItsBodyReturns() throws {
        let p = try ProgramFixture(
            """
            extension View {
                func card(_ radius: Double) -> some View {
                    self.padding().cornerRadius(radius)
                }
            }
            struct Root: View {
                var body: some View {
                    Text("t").card(4)
                }
            }
            """, view: "Root")
        #expect(
            p.node("Root/0:Text")?.modifiers == [
                .other(kind: "padding", args: [:]), .other(kind: "cornerRadius", args: ["_0": 4]),
            ])
    }

    @Test func aGenericContainerViewShowsItsContent() throws {
        let p = try ProgramFixture(
            """
            struct Card<Content: View>: View {
                let title: String
                @ViewBuilder var content: () -> Content
                var body: some View {
                    VStack {
                        Text(title)
                        content()
                    }
                }
            }
            struct Root: View {
                var body: some View {
                    Card(title: "T") {
                        Text("one")
                        Text("two")
                    }
                }
            }
            """, view: "Root")
        #expect(p.node("Root/0:Card")?.props == ["title": "T"])
        #expect(
            p.kids("Root/0:Card/0:VStack") == [
                "Root/0:Card/0:VStack/0:Text", "Root/0:Card/0:VStack/1:Text", "Root/0:Card/0:VStack/2:Text",
            ])
        #expect(p.node("Root/0:Card/0:VStack/2:Text")?.props == ["text": "two"])
    }
}

/// Views that cannot become a tree.
@Suite struct ViewNodeErrorTests {
    @Test func aViewThatShowsItselfIsARuntimeErrorNotACrash() {
        let code = errorCode {
            _ = try ProgramFixture(
                """
                struct Loop: View {
                    var body: some View { VStack { Loop() } }
                }
                """, view: "Loop")
        }
        #expect(code == .runtimeError)
    }

    @Test func anUnknownNameInABodyDoesNotCompile() {
        let code = errorCode {
            _ = try ProgramFixture(
                """
                struct Root: View {
                    var body: some View { Txet("x") }
                }
                """, view: "Root")
        }
        #expect(code == .compileError)
    }
}
