import CanopyCore
import Testing

/// PROGRAMS.md §6: a transaction's rounds, its one version, and rolling back on a fault.
@Suite struct TransactionTests {
    static let sums = """
        struct SumKey: PreferenceKey {
            static var defaultValue = 0
            static func reduce(value: inout Int, nextValue: () -> Int) { value += nextValue() }
        }
        struct Cell: View {
            @State var n = 1
            var body: some View {
                Button("n \\(n)") { n += 1 }.preference(key: SumKey.self, value: n)
            }
        }
        struct Root: View {
            @State var total = 0
            var body: some View {
                VStack {
                    Text("total \\(total)")
                    Cell()
                    Cell()
                }
                .onPreferenceChange(SumKey.self) { total = $0 }
            }
        }
        """

    @Test func readersRunTheirClosuresWithTheFirstValuesOfANewTree() throws {
        let p = try ProgramFixture(Self.sums, view: "Root")
        #expect(p.cell("Root", "total") == 2)
        #expect(p.node("Root/0:VStack/0:Text")?.props["text"] == "total 2")
        #expect(p.performed == ["Root/0:VStack#0"])
        #expect(p.tree.version == 0)
    }

    @Test func onPreferenceChangeClosuresRunInFollowingRounds() throws {
        var p = try ProgramFixture(Self.sums, view: "Root")
        try p.send("Root/0:VStack/2:Cell/0:Button", "tap")
        #expect(p.cell("Root", "total") == 3)
        #expect(p.tree.version == 1)
        #expect(p.bodies == ["Root/0:VStack/2:Cell", "Root"])
        #expect(p.performed == ["Root/0:VStack#0"])
        #expect(p.last.diff.changes == [ReaderValue(reader: "Root/0:VStack#0", node: "Root/0:VStack", key: "SumKey", value: 3)])
        #expect(
            p.last.diff.ops == [
                .setProps(node: "Root/0:VStack/2:Cell/0:Button", props: ["title": "n 2"]),
                .setModifiers(node: "Root/0:VStack/2:Cell/0:Button", modifiers: [.preference(key: "SumKey", value: 2)]),
                .setProps(node: "Root/0:VStack/0:Text", props: ["text": "total 3"]),
            ])
        #expect(p.last.state == [
            StateCell(node: "Root/0:VStack/2:Cell", name: "n", value: 2), StateCell(node: "Root", name: "total", value: 3),
        ])
        // The trace keeps the order of the rounds: action, state, body, engine fire, perform, state, body (layout
        // steps aside).
        let order: [String] = (p.last.diff.trace?.events ?? []).compactMap {
            switch $0.kind {
            case .program(let o): return o["e"] == "layout" ? nil : o["e"]?.string
            case .fire: return "fire"
            default: return nil
            }
        }
        #expect(order == ["action", "state", "body", "fire", "perform", "state", "body"])
    }

    @Test func onChangeRunsWhenTheObservedValueChanged() throws {
        var p = try ProgramFixture(
            """
            struct Root: View {
                @State var count = 0
                @State var doubled = 0
                @State var calls = 0
                var body: some View {
                    VStack {
                        Text("\\(count) \\(doubled)")
                        Button("Add") { count += 1 }
                        Button("Same") { count += 0 }
                    }
                    .onChange(of: count) { doubled = count * 2; calls += 1 }
                }
            }
            """, view: "Root")
        #expect(p.node("Root/0:VStack")?.modifiers == [.other(kind: "onChange", args: ["of": 0])])
        try p.send("Root/0:VStack/1:Button", "tap")
        #expect(p.cell("Root", "doubled") == 2)
        #expect(p.cell("Root", "calls") == 1)
        #expect(p.onChanged == ["Root/0:VStack"])
        #expect(p.node("Root/0:VStack/0:Text")?.props["text"] == "1 2")
        #expect(p.tree.version == 1)
        try p.send("Root/0:VStack/2:Button", "tap")
        #expect(p.onChanged == [])
        #expect(p.cell("Root", "calls") == 1)
    }

    @Test func aLoopStopsAfterSixteenRoundsWithAWarning() throws {
        var p = try ProgramFixture(
            """
            struct K: PreferenceKey {
                static var defaultValue = 0
                static func reduce(value: inout Int, nextValue: () -> Int) { value = max(value, nextValue()) }
            }
            struct Root: View {
                @State var bump = 0
                @State var armed = false
                var body: some View {
                    VStack {
                        Text("\\(bump)").preference(key: K.self, value: bump)
                        Button("Go") { armed = true; bump += 1 }
                    }
                    .onPreferenceChange(K.self) { v in if armed { bump = v + 1 } }
                }
            }
            """, view: "Root")
        #expect(p.last.warnings == [])
        try p.send("Root/0:VStack/1:Button", "tap")
        #expect(p.last.warnings.count == 1)
        #expect(p.last.warnings.first?.contains("16") == true)
        #expect(p.tree.version == 1)
        #expect(p.performed.count == 15)
        // The tree shows the last state the rounds reached.
        let bump = try #require(p.cell("Root", "bump")?.number)
        #expect(p.node("Root/0:VStack/0:Text")?.props["text"] == .string("\(Int(bump))"))
        #expect(bump == 16)
    }

    static let faulty = """
        struct Root: View {
            @State var n = 0
            @State var shown = false
            var body: some View {
                VStack {
                    Text("n \\(n)")
                    if shown { Cell() }
                    Button("Crash") { n += 1; shown = true }
                    Button("Spin") { n += 1; var k = 0; while k >= 0 { k += 1 } }
                }
                .onChange(of: n) { let xs = [1, 2]; if n > 0 { _ = xs[n + 5] } }
            }
        }
        struct Cell: View {
            @State var m = 3
            var body: some View { Text("m \\(m)") }
        }
        """

    @Test func aFaultAfterBodiesRanRollsEverythingBack() throws {
        var p = try ProgramFixture(Self.faulty, view: "Root")
        let before = p.tree.root
        let cells = p.program.cells
        #expect(p.failure("Root/0:VStack/2:Button", "tap") == .runtimeError)
        #expect(p.tree.version == 0)
        #expect(p.tree.root == before)
        #expect(p.program.cells == cells)
        #expect(p.cell("Root", "n") == 0)
        #expect(p.node("Root/0:VStack/1:If/0-0:Cell") == nil)
        // The program still runs: the rebuilt instances take events.
        #expect(p.failure("Root/0:VStack/2:Button", "tap") == .runtimeError)
        #expect(p.tree.root == before)
    }

    @Test func runningOutOfFuelRollsBack() throws {
        var p = try ProgramFixture(Self.faulty, view: "Root", limits: Limits(fuel: 200_000))
        let before = p.tree.root
        #expect(p.failure("Root/0:VStack/3:Button", "tap") == .tooExpensive)
        #expect(p.tree.version == 0)
        #expect(p.tree.root == before)
        #expect(p.cell("Root", "n") == 0)
    }

    @Test func aFaultInAReaderClosureRollsBackTheEngineToo() throws {
        var p = try ProgramFixture(
            """
            struct K: PreferenceKey {
                static var defaultValue = 0
                static func reduce(value: inout Int, nextValue: () -> Int) { value += nextValue() }
            }
            struct Root: View {
                @State var v = 1
                var body: some View {
                    VStack {
                        Text("v").preference(key: K.self, value: v)
                        Button("Up") { v += 1 }
                    }
                    .onPreferenceChange(K.self) { x in if x > 1 { fatalError("too big") } }
                }
            }
            """, view: "Root")
        let before = p.tree.root
        let readers = p.tree.readers
        #expect(p.failure("Root/0:VStack/1:Button", "tap") == .runtimeError)
        #expect(p.tree.root == before)
        #expect(p.tree.readers == readers)
        #expect(p.tree.version == 0)
        #expect(p.cell("Root", "v") == 1)
    }

    @Test func setSourceKeepsTheStateOfViewsThatStillExist() throws {
        var p = try ProgramFixture(
            """
            struct Root: View {
                @State var n = 0
                var body: some View {
                    VStack {
                        Text("n \\(n)")
                        Tally()
                        Button("Add") { n += 1 }
                    }
                }
            }
            struct Tally: View {
                @State var t = 10
                var body: some View { Button("t \\(t)") { t += 1 } }
            }
            """, view: "Root")
        try p.send("Root/0:VStack/2:Button", "tap")
        try p.send("Root/0:VStack/1:Tally/0:Button", "tap")
        #expect(p.tree.version == 2)
        let t = try p.program.setSource(
            """
            struct Root: View {
                @State var n = 0
                @State var extra = "new"
                var body: some View {
                    VStack {
                        Text("count is \\(n)")
                        Text(extra)
                        Button("Add") { n += 2 }
                    }
                }
            }
            struct Tally: View {
                @State var t = 10
                var body: some View { Button("t \\(t)") { t += 1 } }
            }
            """, tree: &p.tree, trace: true)
        p.last = t
        #expect(p.tree.version == 3)
        #expect(p.cell("Root", "n") == 1)
        #expect(p.cell("Root", "extra") == "new")
        #expect(p.cell("Root/0:VStack/1:Tally", "t") == nil)
        #expect(p.node("Root/0:VStack/0:Text")?.props["text"] == "count is 1")
        #expect(p.kids("Root/0:VStack") == ["Root/0:VStack/0:Text", "Root/0:VStack/1:Text", "Root/0:VStack/2:Button"])
        #expect(t.state == [
            StateCell(node: "Root", name: "extra", value: "new"),
            StateCell(node: "Root/0:VStack/1:Tally", name: "t", value: .null, dropped: true),
        ])
        #expect(
            t.diff.ops == [
                .remove(node: "Root/0:VStack/1:Tally"),
                .setProps(node: "Root/0:VStack/0:Text", props: ["text": "count is 1"]),
                .insert(
                    parent: "Root/0:VStack", node: Node(id: "Root/0:VStack/1:Text", type: "Text", props: ["text": "new"]),
                    position: .index(1)),
            ])
        // The new closures run.
        try p.send("Root/0:VStack/2:Button", "tap")
        #expect(p.cell("Root", "n") == 3)
    }

    @Test func setSourceThatDoesNotCompileChangesNothing() throws {
        var p = try ProgramFixture(CounterTests.source, view: "Counter")
        try p.send("Counter/0:VStack/1:Button", "tap")
        let before = p.tree.root
        let source = p.program.spec.source
        let code = errorCode {
            _ = try p.program.setSource("struct Counter: View { var body: some View { Txet(\"x\") } }", tree: &p.tree, trace: false)
        }
        #expect(code == .compileError)
        #expect(p.tree.version == 1)
        #expect(p.tree.root == before)
        #expect(p.program.spec.source == source)
        #expect(p.cell("Counter", "count") == 1)
        try p.send("Counter/0:VStack/1:Button", "tap")
        #expect(p.cell("Counter", "count") == 2)
    }
}
