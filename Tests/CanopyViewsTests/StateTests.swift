import CanopyCore
import Testing

/// PROGRAMS.md §4: `@State` cells, bindings, and which bodies run again.
@Suite struct StateTests {
    static let field = """
        struct Field: View {
            let label: String
            @Binding var text: String
            var body: some View {
                TextField(label, text: $text)
            }
        }
        struct Echo: View {
            let value: String
            var body: some View { Text(value) }
        }
        struct Root: View {
            @State var first = "a"
            @State var second = "b"
            var body: some View {
                VStack {
                    Field(label: "First", text: $first)
                    Field(label: "Second", text: $second)
                    Echo(value: second)
                }
            }
        }
        """

    @Test func aCellStartsWithItsInitialValueAndAnEventWritesIt() throws {
        var p = try ProgramFixture(Self.field, view: "Root")
        #expect(p.program.cells == [
            StateCell(node: "Root", name: "first", value: "a"), StateCell(node: "Root", name: "second", value: "b"),
        ])
        #expect(p.node("Root/0:VStack/0:Field/0:TextField")?.props == ["title": "First", "text": "a"])
        // The creation transaction reports the cells it created.
        #expect(p.last.state == [
            StateCell(node: "Root", name: "first", value: "a"), StateCell(node: "Root", name: "second", value: "b"),
        ])

        try p.send("Root/0:VStack/0:Field/0:TextField", "setText", "ann")
        #expect(p.cell("Root", "first") == "ann")
        #expect(p.last.state == [StateCell(node: "Root", name: "first", value: "ann")])
        #expect(p.steps("state").map { JSON.object($0) } == [
            ["e": "state", "node": "Root", "name": "first", "value": "ann"]
        ])
        #expect(p.last.diff.ops == [.setProps(node: "Root/0:VStack/0:Field/0:TextField", props: ["text": "ann"])])
    }

    @Test func passingABindingDownDoesNotMakeTheParentDepend() throws {
        var p = try ProgramFixture(Self.field, view: "Root")
        try p.send("Root/0:VStack/0:Field/0:TextField", "setText", "x")
        // Root passes $first but never reads first: only the field that reads it runs.
        #expect(p.bodies == ["Root/0:VStack/0:Field"])
        #expect(p.steps("body").first?["because"] == ["first"])
    }

    @Test func readingAValueMakesTheReaderDepend() throws {
        var p = try ProgramFixture(Self.field, view: "Root")
        try p.send("Root/0:VStack/1:Field/0:TextField", "setText", "y")
        // Root reads second (for Echo), so it runs; Echo's value changed; the first field is left alone.
        #expect(p.bodies == ["Root", "Root/0:VStack/1:Field", "Root/0:VStack/2:Echo"])
        #expect(p.node("Root/0:VStack/2:Echo/0:Text")?.props == ["text": "y"])
        #expect(
            p.last.diff.ops == [
                .setProps(node: "Root/0:VStack/2:Echo", props: ["value": "y"]),
                .setProps(node: "Root/0:VStack/1:Field/0:TextField", props: ["text": "y"]),
                .setProps(node: "Root/0:VStack/2:Echo/0:Text", props: ["text": "y"]),
            ])
    }

    @Test func aChildsOwnStateReRunsOnlyTheChild() throws {
        var p = try ProgramFixture(
            """
            struct Tally: View {
                @State var n = 0
                var body: some View {
                    Button("n=\\(n)") { n += 1 }
                }
            }
            struct Root: View {
                var body: some View {
                    VStack { Tally(); Tally() }
                }
            }
            """, view: "Root")
        #expect(p.program.cells == [
            StateCell(node: "Root/0:VStack/0:Tally", name: "n", value: 0),
            StateCell(node: "Root/0:VStack/1:Tally", name: "n", value: 0),
        ])
        try p.send("Root/0:VStack/1:Tally/0:Button", "tap")
        #expect(p.bodies == ["Root/0:VStack/1:Tally"])
        #expect(p.cell("Root/0:VStack/0:Tally", "n") == 0)
        #expect(p.cell("Root/0:VStack/1:Tally", "n") == 1)
        #expect(p.last.diff.ops == [.setProps(node: "Root/0:VStack/1:Tally/0:Button", props: ["title": "n=1"])])
    }

    @Test func aWriteOfTheSameValueRunsNoBody() throws {
        var p = try ProgramFixture(
            """
            struct Root: View {
                @State var n = 5
                var body: some View { Button("\\(n)") { n = 5 } }
            }
            """, view: "Root")
        try p.send("Root/0:Button", "tap")
        #expect(p.bodies == [])
        #expect(p.last.diff.ops == [])
        #expect(p.last.state == [])
        #expect(p.tree.version == 1)
    }

    @Test func aBindingMadeOfGetAndSetRunsItsClosures() throws {
        var p = try ProgramFixture(
            """
            struct Root: View {
                @State var name = "ann"
                var body: some View {
                    TextField("Loud", text: Binding(get: { name.uppercased() }, set: { name = $0.lowercased() }))
                }
            }
            """, view: "Root")
        #expect(p.node("Root/0:TextField")?.props["text"] == "ANN")
        try p.send("Root/0:TextField", "setText", "BoB")
        #expect(p.cell("Root", "name") == "bob")
        #expect(p.node("Root/0:TextField")?.props["text"] == "BOB")
    }

    @Test func aConstantBindingIgnoresWrites() throws {
        var p = try ProgramFixture(
            """
            struct Root: View {
                var body: some View { Toggle("Fixed", isOn: .constant(true)) }
            }
            """, view: "Root")
        #expect(p.node("Root/0:Toggle")?.props == ["title": "Fixed", "isOn": true])
        try p.send("Root/0:Toggle", "setValue", false)
        #expect(p.node("Root/0:Toggle")?.props["isOn"] == true)
        #expect(p.last.diff.ops == [])
        #expect(p.tree.version == 1)
    }

    @Test func wrappedValueReadsAndWritesThroughABinding() throws {
        var p = try ProgramFixture(
            """
            struct Bump: View {
                let count: Binding<Int>
                var body: some View {
                    Button("at \\(count.wrappedValue)") { count.wrappedValue += 10 }
                }
            }
            struct Root: View {
                @State var total = 1
                var body: some View {
                    VStack {
                        Bump(count: $total)
                        Button("direct") { $total.wrappedValue = 0 }
                    }
                }
            }
            """, view: "Root")
        #expect(p.node("Root/0:VStack/0:Bump/0:Button")?.props["title"] == "at 1")
        try p.send("Root/0:VStack/0:Bump/0:Button", "tap")
        #expect(p.cell("Root", "total") == 11)
        #expect(p.node("Root/0:VStack/0:Bump/0:Button")?.props["title"] == "at 11")
        try p.send("Root/0:VStack/1:Button", "tap")
        #expect(p.cell("Root", "total") == 0)
        #expect(p.node("Root/0:VStack/0:Bump/0:Button")?.props["title"] == "at 0")
    }

    @Test func cellsGoWithTheirViewAndStartOverWhenItComesBack() throws {
        var p = try ProgramFixture(
            """
            struct Tally: View {
                @State var n = 0
                var body: some View { Button("n=\\(n)") { n += 1 } }
            }
            struct Root: View {
                @State var shown = true
                var body: some View {
                    VStack {
                        if shown { Tally() }
                        Button("Flip") { shown = !shown }
                    }
                }
            }
            """, view: "Root")
        let tally = "Root/0:VStack/0:If/0-0:Tally"
        try p.send(tally + "/0:Button", "tap")
        #expect(p.cell(tally, "n") == 1)

        try p.send("Root/0:VStack/1:Button", "tap")
        #expect(p.cell(tally, "n") == nil)
        #expect(p.last.state == [
            StateCell(node: "Root", name: "shown", value: false),
            StateCell(node: tally, name: "n", value: .null, dropped: true),
        ])
        #expect(p.last.diff.ops == [.remove(node: tally)])

        try p.send("Root/0:VStack/1:Button", "tap")
        #expect(p.cell(tally, "n") == 0)
        #expect(p.last.state.contains(StateCell(node: tally, name: "n", value: 0)))
        #expect(p.node(tally + "/0:Button")?.props["title"] == "n=0")
    }

    @Test func toggleFlipsABoolCell() throws {
        var p = try ProgramFixture(
            """
            struct Root: View {
                @State var open = false
                var body: some View { Button(open ? "Close" : "Open") { open.toggle() } }
            }
            """, view: "Root")
        try p.send("Root/0:Button", "tap")
        #expect(p.cell("Root", "open") == true)
        #expect(p.node("Root/0:Button")?.props["title"] == "Close")
        try p.send("Root/0:Button", "tap")
        #expect(p.cell("Root", "open") == false)
    }

    @Test func cellsGivenAtStartAreRestored() throws {
        let p = try ProgramFixture(
            Self.field, view: "Root", cells: [StateCell(node: "Root", name: "second", value: "kept")])
        #expect(p.cell("Root", "second") == "kept")
        #expect(p.cell("Root", "first") == "a")
        #expect(p.node("Root/0:VStack/2:Echo/0:Text")?.props["text"] == "kept")
    }
}
