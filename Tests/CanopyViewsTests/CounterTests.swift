import CanopyCore
import CanopyViews
import Testing

/// A program tree from source, driven by events.
struct ProgramFixture {
    var tree: Tree
    let program: any ProgramInstance
    var last: ProgramTransaction

    init(
        _ source: String, view: String? = nil, previewModifiers: [String] = [], cells: [StateCell] = [],
        state: ProgramState? = nil, limits: Limits = .default, trace: Bool = true, canvas: CanvasSpec? = nil
    ) throws {
        let start = try ViewRuntime().start(
            ProgramSpec(source: source, view: view, previewModifiers: previewModifiers, canvas: canvas),
            state: state ?? ProgramState(cells: cells), version: 0, limits: limits, trace: trace)
        tree = start.tree
        program = start.program
        last = start.transaction
    }

    @discardableResult
    mutating func send(_ node: String?, _ event: String, _ value: JSON? = nil, name: String? = nil) throws
        -> ProgramTransaction
    {
        last = try program.handle(ProgramEvent(node: node, event: event, value: value, name: name), tree: &tree, trace: true)
        return last
    }

    func node(_ id: String) -> Node? { tree.node(id) }

    func cell(_ node: String, _ name: String) -> JSON? {
        program.cells.first { $0.node == node && $0.name == name }?.value
    }

    /// The views whose bodies ran in the last transaction, in order.
    var bodies: [String] {
        (last.diff.trace?.events ?? []).compactMap {
            if case .program(let o) = $0.kind, o["e"] == "body" { return o["node"]?.string }
            return nil
        }
    }
}

@Suite struct CounterTests {
    static let source = """
        import SwiftUI

        struct Counter: View {
            @State private var count = 0
            var body: some View {
                VStack {
                    Text("Count: \\(count)")
                    Button("Add") { count += 1 }
                }
            }
        }
        """

    @Test func aCounterShowsItsStateAndATapChangesIt() throws {
        var p = try ProgramFixture(Self.source, view: "Counter")
        #expect(p.tree.root.id == "Counter")
        #expect(p.tree.root.type == "Counter")
        let stack = try #require(p.node("Counter/0:VStack"))
        #expect(stack.children.map(\.id) == ["Counter/0:VStack/0:Text", "Counter/0:VStack/1:Button"])
        #expect(p.node("Counter/0:VStack/0:Text")?.props["text"] == "Count: 0")
        #expect(p.node("Counter/0:VStack/1:Button")?.props["title"] == "Add")
        #expect(p.cell("Counter", "count") == 0)

        let t = try p.send("Counter/0:VStack/1:Button", "tap")
        #expect(p.cell("Counter", "count") == 1)
        #expect(p.tree.version == 1)
        #expect(t.state == [StateCell(node: "Counter", name: "count", value: 1)])
        #expect(t.diff.ops == [.setProps(node: "Counter/0:VStack/0:Text", props: ["text": "Count: 1"])])
        #expect(p.bodies == ["Counter"])
    }
}

@Suite struct ClosurePropertyTests {
    static let source = """
        struct Row: View {
            let title: String
            let onTap: () -> Void
            var body: some View { Button(title) { onTap() } }
        }

        struct Parent: View {
            @State private var taps = 0
            @State private var label = "x"
            var body: some View {
                VStack {
                    Text("\\(taps)")
                    Row(title: label) { taps += 1 }
                }
            }
        }
        """

    @Test func aChildGivenAnEquivalentClosureDoesNotRunAgain() throws {
        var p = try ProgramFixture(Self.source, view: "Parent")
        try p.send("Parent/0:VStack/1:Row/0:Button", "tap")
        #expect(p.cell("Parent", "taps") == 1)
        // The parent read `taps` and ran; the row got a new closure doing the same thing over the same cells.
        #expect(p.bodies == ["Parent"])
        #expect(p.node("Parent/0:VStack/0:Text")?.props["text"] == "1")
    }
}

@Suite struct TextInflectionTests {
    @Test func aTextLiteralAgreesWithItsNumberAsSwiftUIsDoes() throws {
        var p = try ProgramFixture(
            """
            struct Taps: View {
                @State private var n = 1
                var body: some View {
                    VStack {
                        Text("Tapped ^[\\(n) time](inflect: true)")
                        Button("Tap") { n += 1 }
                    }
                }
            }
            """, view: "Taps")
        #expect(p.node("Taps/0:VStack/0:Text")?.props["text"] == "Tapped 1 time")
        try p.send("Taps/0:VStack/1:Button", "tap")
        #expect(p.node("Taps/0:VStack/0:Text")?.props["text"] == "Tapped 2 times")
    }
}

@Suite struct ElementBindingTests {
    @Test func aBindingToAnArrayElementReadsAndWritesThatElement() throws {
        var p = try ProgramFixture(
            """
            struct Row: View {
                @Binding var text: String
                var body: some View { TextField("Item", text: $text) }
            }
            struct List2: View {
                @State private var items = ["a", "b"]
                var body: some View {
                    VStack {
                        ForEach(0..<2, id: \\.self) { i in Row(text: $items[i]) }
                        Text(items.joined(separator: ","))
                    }
                }
            }
            """, view: "List2")
        let second = "List2/0:VStack/0:ForEach/[1]:Row/0:TextField"
        #expect(p.node(second)?.props["text"] == "b")
        try p.send(second, "setText", "bee")
        #expect(p.cell("List2", "items") == ["a", "bee"])
        #expect(p.node("List2/0:VStack/1:Text")?.props["text"] == "a,bee")
        #expect(p.node(second)?.props["text"] == "bee")
    }
}
