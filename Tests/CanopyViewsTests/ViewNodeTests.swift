import CanopyCore
import Testing

/// PROGRAMS.md §3: views become nodes with structural ids, props and modifiers.
@Suite struct ViewNodeTests {
    @Test func libraryViewsShowTheirArgumentsAsProps() throws {
        let p = try ProgramFixture(
            """
            import SwiftUI
            struct Form1: View {
                @State private var name = "ann"
                @State private var on = true
                @State private var volume = 0.5
                @State private var count = 3
                var body: some View {
                    VStack(alignment: .leading, spacing: 8) {
                        Text("Hi \\(name), \\(count)")
                        TextField("Name", text: $name)
                        Toggle("Loud", isOn: $on)
                        Slider(value: $volume, in: 0...1, step: 0.25)
                        Stepper("Count", value: $count, in: 1...5)
                        Label("Inbox", systemImage: "tray")
                        Button("Save") { count = 0 }
                    }
                }
            }
            """, view: "Form1")
        let stack = try #require(p.node("Form1/0:VStack"))
        #expect(stack.props == ["alignment": "leading", "spacing": 8])
        #expect(
            p.kids("Form1/0:VStack") == [
                "Form1/0:VStack/0:Text", "Form1/0:VStack/1:TextField", "Form1/0:VStack/2:Toggle",
                "Form1/0:VStack/3:Slider", "Form1/0:VStack/4:Stepper", "Form1/0:VStack/5:Label",
                "Form1/0:VStack/6:Button",
            ])
        #expect(p.node("Form1/0:VStack/0:Text")?.props == ["text": "Hi ann, 3"])
        #expect(p.node("Form1/0:VStack/1:TextField")?.props == ["title": "Name", "text": "ann"])
        #expect(p.node("Form1/0:VStack/2:Toggle")?.props == ["title": "Loud", "isOn": true])
        #expect(
            p.node("Form1/0:VStack/3:Slider")?.props == [
                "value": 0.5, "in": ["lowerBound": 0, "upperBound": 1], "step": 0.25,
            ])
        #expect(
            p.node("Form1/0:VStack/4:Stepper")?.props == [
                "title": "Count", "value": 3, "in": ["lowerBound": 1, "upperBound": 5],
            ])
        #expect(p.node("Form1/0:VStack/5:Label")?.props == ["title": "Inbox", "systemImage": "tray"])
        // The action closure is left out of props.
        #expect(p.node("Form1/0:VStack/6:Button")?.props == ["title": "Save"])
        #expect(p.node("Form1/0:VStack/6:Button")?.type == "Button")
    }

    @Test func unlabeledArgumentsAfterTheFirstAreNumbered() throws {
        let p = try ProgramFixture(
            """
            struct Root: View {
                var body: some View {
                    HStack {
                        Text("a")
                        Image(systemName: "star")
                        Color.gray
                    }
                }
            }
            """, view: "Root")
        #expect(p.node("Root/0:HStack/1:Image")?.props == ["systemName": "star"])
        #expect(p.node("Root/0:HStack/2:Color")?.type == "Color")
        #expect(p.node("Root/0:HStack/2:Color")?.props == ["_0": "gray"])
    }

    @Test func anIfIsAContainerThatKeepsLaterSiblingsInPlace() throws {
        var p = try ProgramFixture(
            """
            struct Root: View {
                @State var on = false
                var body: some View {
                    VStack {
                        if on {
                            Text("On")
                        }
                        Button("Flip") { on = !on }
                    }
                }
            }
            """, view: "Root")
        #expect(p.kids("Root/0:VStack") == ["Root/0:VStack/0:If", "Root/0:VStack/1:Button"])
        #expect(p.kids("Root/0:VStack/0:If") == [])
        #expect(p.node("Root/0:VStack/0:If")?.type == "If")

        try p.send("Root/0:VStack/1:Button", "tap")
        #expect(p.kids("Root/0:VStack/0:If") == ["Root/0:VStack/0:If/0-0:Text"])
        #expect(p.node("Root/0:VStack/0:If/0-0:Text")?.props == ["text": "On"])
        let inserted = Node(id: "Root/0:VStack/0:If/0-0:Text", type: "Text", props: ["text": "On"])
        #expect(p.last.diff.ops == [.insert(parent: "Root/0:VStack/0:If", node: inserted, position: .index(0))])

        try p.send("Root/0:VStack/1:Button", "tap")
        #expect(p.kids("Root/0:VStack/0:If") == [])
        #expect(p.last.diff.ops == [.remove(node: "Root/0:VStack/0:If/0-0:Text")])
    }

    @Test func ifElseAndSwitchBranchesHaveTheirOwnIds() throws {
        var p = try ProgramFixture(
            """
            enum Mode { case a, b, c }
            struct Root: View {
                @State var flag = true
                @State var mode = Mode.a
                var body: some View {
                    VStack {
                        if flag { Text("yes") } else { Text("no"); Text("really") }
                        switch mode {
                        case .a: Text("A")
                        case .b: Image(systemName: "b")
                        case .c: EmptyView()
                        }
                        Button("Next") { flag = false; mode = mode == .a ? .b : .c }
                    }
                }
            }
            """, view: "Root")
        #expect(p.kids("Root/0:VStack/0:If") == ["Root/0:VStack/0:If/0-0:Text"])
        #expect(p.kids("Root/0:VStack/1:If") == ["Root/0:VStack/1:If/0-0:Text"])
        try p.send("Root/0:VStack/2:Button", "tap")
        #expect(p.kids("Root/0:VStack/0:If") == ["Root/0:VStack/0:If/1-0:Text", "Root/0:VStack/0:If/1-1:Text"])
        #expect(p.node("Root/0:VStack/0:If/1-1:Text")?.props == ["text": "really"])
        #expect(p.kids("Root/0:VStack/1:If") == ["Root/0:VStack/1:If/1-0:Image"])
        #expect(p.last.diff.ops.filter { $0.name == "remove" }.count == 2)
        #expect(p.last.diff.ops.filter { $0.name == "insert" }.count == 3)
    }

    @Test func ifLetShowsTheUnwrappedValue() throws {
        var p = try ProgramFixture(
            """
            struct Root: View {
                @State var picked: String? = nil
                var body: some View {
                    VStack {
                        if let picked { Text("Picked \\(picked)") } else { Text("Nothing") }
                        Button("Pick") { picked = "tea" }
                    }
                }
            }
            """, view: "Root")
        #expect(p.node("Root/0:VStack/0:If/1-0:Text")?.props == ["text": "Nothing"])
        #expect(p.cell("Root", "picked") == .null)
        try p.send("Root/0:VStack/1:Button", "tap")
        #expect(p.node("Root/0:VStack/0:If/0-0:Text")?.props == ["text": "Picked tea"])
        #expect(p.cell("Root", "picked") == "tea")
    }

    @Test func forEachChildrenAreIdentifiedByTheirElements() throws {
        var p = try ProgramFixture(
            """
            struct Item: Identifiable { let id: Int; let name: String }
            struct Root: View {
                @State var items = [Item(id: 7, name: "x"), Item(id: 3, name: "y"), Item(id: 5, name: "z")]
                var body: some View {
                    VStack {
                        ForEach(items) { item in Text(item.name) }
                        ForEach(["a", "b"], id: \\.self) { s in Text(s) }
                        Button("Drop") { items.remove(at: 1) }
                        Button("Reverse") { items = items.reversed() }
                    }
                }
            }
            """, view: "Root")
        #expect(p.node("Root/0:VStack/0:ForEach")?.type == "ForEach")
        #expect(
            p.kids("Root/0:VStack/0:ForEach") == [
                "Root/0:VStack/0:ForEach/[7]:Text", "Root/0:VStack/0:ForEach/[3]:Text",
                "Root/0:VStack/0:ForEach/[5]:Text",
            ])
        #expect(p.node("Root/0:VStack/0:ForEach/[3]:Text")?.props == ["text": "y"])
        #expect(p.kids("Root/0:VStack/1:ForEach") == ["Root/0:VStack/1:ForEach/[a]:Text", "Root/0:VStack/1:ForEach/[b]:Text"])

        try p.send("Root/0:VStack/2:Button", "tap")
        // ForEach's children go by element id; its data is not repeated as a prop.
        #expect(p.node("Root/0:VStack/0:ForEach")?.props == [:])
        #expect(p.last.diff.ops == [.remove(node: "Root/0:VStack/0:ForEach/[3]:Text")])
        #expect(p.kids("Root/0:VStack/0:ForEach") == ["Root/0:VStack/0:ForEach/[7]:Text", "Root/0:VStack/0:ForEach/[5]:Text"])

        try p.send("Root/0:VStack/3:Button", "tap")
        #expect(p.kids("Root/0:VStack/0:ForEach") == ["Root/0:VStack/0:ForEach/[5]:Text", "Root/0:VStack/0:ForEach/[7]:Text"])
        #expect(
            p.last.diff.ops.filter { $0.name != "setProps" } == [
                .move(node: "Root/0:VStack/0:ForEach/[5]:Text", parent: "Root/0:VStack/0:ForEach", position: .index(0))
            ])
    }

    @Test func anExplicitIdReplacesThePosition() throws {
        var p = try ProgramFixture(
            """
            struct Root: View {
                @State var round = 1
                var body: some View {
                    VStack {
                        Text("Round \\(round)").id(round)
                        Button("Next") { round += 1 }
                    }
                }
            }
            """, view: "Root")
        #expect(p.kids("Root/0:VStack") == ["Root/0:VStack/#1:Text", "Root/0:VStack/1:Button"])
        try p.send("Root/0:VStack/1:Button", "tap")
        // A new identity: the old view goes, a new one comes, rather than a props change.
        #expect(p.kids("Root/0:VStack") == ["Root/0:VStack/#2:Text", "Root/0:VStack/1:Button"])
        let names = p.last.diff.ops.map(\.name)
        #expect(names.sorted() == ["insert", "remove"])
    }

    @Test func modifiersAreKeptInnermostFirst() throws {
        let p = try ProgramFixture(
            """
            struct Root: View {
                var body: some View {
                    Text("t")
                        .padding()
                        .font(.caption)
                        .foregroundColor(Color.red)
                        .environment(\\.isEnabled, false)
                        .frame(width: 10, height: 20)
                }
            }
            """, view: "Root")
        let text = try #require(p.node("Root/0:Text"))
        #expect(
            text.modifiers == [
                .other(kind: "padding", args: [:]),
                .other(kind: "font", args: ["_0": "caption"]),
                .other(kind: "foregroundColor", args: ["_0": "red"]),
                .other(kind: "environment", args: ["key": "isEnabled", "value": false]),
                .other(kind: "frame", args: ["width": 10, "height": 20]),
            ])
    }

    @Test func backgroundContentIsAnAttachedSubtree() throws {
        let p = try ProgramFixture(
            """
            struct Root: View {
                var body: some View {
                    Text("t").padding().background(Rectangle().hidden())
                }
            }
            """, view: "Root")
        let text = try #require(p.node("Root/0:Text"))
        #expect(text.modifiers.count == 2)
        let attached = try #require(text.modifiers[1].attached)
        #expect(attached.id == "Root/0:Text/@1:Rectangle")
        #expect(attached.type == "Rectangle")
        #expect(attached.modifiers == [.other(kind: "hidden", args: [:])])
        if case .background = text.modifiers[1] {} else { Issue.record("expected a background, got \(text.modifiers[1])") }
    }

    @Test func theSameSourceGivesTheSameTree() throws {
        let source = """
            struct Root: View {
                @State var xs = [1, 2, 3]
                var body: some View {
                    List { ForEach(xs, id: \\.self) { x in if x % 2 == 1 { Text("\\(x)") } } }
                }
            }
            """
        let a = try ProgramFixture(source, view: "Root")
        let b = try ProgramFixture(source, view: "Root")
        #expect(a.tree.root == b.tree.root)
        #expect(a.kids("Root/0:List/0:ForEach") == ["Root/0:List/0:ForEach/[1]:If", "Root/0:List/0:ForEach/[2]:If", "Root/0:List/0:ForEach/[3]:If"])
        #expect(a.kids("Root/0:List/0:ForEach/[2]:If") == [])
    }
}
