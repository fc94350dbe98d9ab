import CanopyCore
import CanopyViews
import Testing

/// The time and random draws are inputs of each transaction: the diff records them, and a tree started again from
/// its cells and recorded body inputs (a restart, a follower) or rebuilt after a fault computes the same values,
/// whatever inputs its source gives next.
@Suite struct InputReplayTests {
    static let source = """
        import SwiftUI

        struct Item: Identifiable {
            let id = UUID()
            let roll: Int
        }

        struct Board: View {
            @State private var items: [Item] = []
            @State private var stamp = Date(timeIntervalSince1970: 0)

            var body: some View {
                VStack {
                    Text("shown at \\(Date())")
                    Text("die \\(Int.random(in: 1...6)) \\(UUID().uuidString)")
                    Text("stamp \\(stamp)")
                    Button("Add") {
                        items.append(Item(roll: Int.random(in: 1...6)))
                        stamp = Date.now
                    }
                    Button("Fail") {
                        items.append(Item(roll: 1))
                        _ = items[99]
                    }
                    ForEach(items) { item in
                        Text("\\(item.roll)")
                    }
                }
            }
        }
        """

    static let shown = "Board/0:VStack/0:Text"
    static let die = "Board/0:VStack/1:Text"
    static let stamp = "Board/0:VStack/2:Text"
    static let add = "Board/0:VStack/3:Button"
    static let fail = "Board/0:VStack/4:Button"

    /// 2026-11-28 08:46:20 UTC, then one second per transaction.
    static func inputs(seed: UInt64 = 7) -> SteppedInputs { SteppedInputs(start: 1_795_855_580, seed: seed) }

    static func start(
        cells: [StateCell] = [], recorded: [RecordedInputs] = [], inputs: any ProgramInputSource = inputs()
    ) throws -> ProgramStart {
        try ViewRuntime().start(
            ProgramSpec(source: source, view: "Board"), cells: cells, recorded: recorded, inputs: inputs, version: 0,
            limits: .default, trace: false)
    }

    func text(_ tree: Tree, _ id: String) -> String? { tree.node(id)?.props["text"]?.string }

    @Test func theCreationSeesItsTimeAndRecordsTheBodysInputs() throws {
        let start = try Self.start()
        #expect(start.transaction.inputs.time == 1_795_855_580)
        #expect(text(start.tree, Self.shown) == "shown at 2026-11-28 08:46:20 +0000")
        let die = try #require(text(start.tree, Self.die))
        let roll = Int(die.split(separator: " ")[1])!
        #expect((1...6).contains(roll))
        #expect(die.split(separator: " ")[2].count == 36)
        #expect(start.transaction.bodyInputs.map(\.node) == ["Board"])
        #expect(start.transaction.bodyInputs[0].inputs.time == 1_795_855_580)
        #expect(start.program.recordedInputs == start.transaction.bodyInputs)
    }

    @Test func aHandlerDrawsFromItsTransactionAndTheDiffSaysWhich() throws {
        var start = try Self.start()
        let t = try start.program.handle(
            ProgramEvent(node: Self.add, event: "tap"), tree: &start.tree, trace: false)
        #expect(t.inputs.time == 1_795_855_581)
        #expect(text(start.tree, Self.stamp) == "stamp 2026-11-28 08:46:21 +0000")
        #expect(text(start.tree, Self.shown) == "shown at 2026-11-28 08:46:21 +0000")
        #expect(t.bodyInputs.map(\.node) == ["Board"])
        let items = try #require(t.state.first { $0.name == "items" }?.value.array)
        #expect(items.count == 1)
        #expect((1...6).contains(items[0]["roll"]?.number.map { Int($0) } ?? 0))
    }

    @Test func aRestartFromCellsAndRecordedInputsComputesTheSameTree() throws {
        var first = try Self.start()
        for _ in 0..<3 {
            _ = try first.program.handle(ProgramEvent(node: Self.add, event: "tap"), tree: &first.tree, trace: false)
        }
        // Other inputs next: only what was recorded may decide what the restarted tree shows.
        let again = try Self.start(
            cells: first.program.cells, recorded: first.program.recordedInputs,
            inputs: SteppedInputs(start: 2_000_000_000, seed: 99))
        #expect(again.tree.root.json == first.tree.root.json)
        #expect(again.program.cells == first.program.cells)

        // A tree started without the recorded inputs would show other draws and another time.
        let unrecorded = try Self.start(
            cells: first.program.cells, inputs: SteppedInputs(start: 2_000_000_000, seed: 99))
        #expect(text(unrecorded.tree, Self.shown) != text(first.tree, Self.shown))
    }

    @Test func aFaultRollsBackToTheSameDrawsAndRecords() throws {
        var p = try Self.start()
        _ = try p.program.handle(ProgramEvent(node: Self.add, event: "tap"), tree: &p.tree, trace: false)
        let before = p.tree.root.json
        let recorded = p.program.recordedInputs
        #expect(throws: CanopyError.self) {
            _ = try p.program.handle(ProgramEvent(node: Self.fail, event: "tap"), tree: &p.tree, trace: false)
        }
        #expect(p.tree.root.json == before)
        #expect(p.program.recordedInputs == recorded)
    }

    @Test func theSameInputsGiveTheSameTreeOnAnotherDaemon() throws {
        var a = try Self.start(inputs: Self.inputs(seed: 3))
        var b = try Self.start(inputs: Self.inputs(seed: 3))
        for _ in 0..<2 {
            _ = try a.program.handle(ProgramEvent(node: Self.add, event: "tap"), tree: &a.tree, trace: false)
            _ = try b.program.handle(ProgramEvent(node: Self.add, event: "tap"), tree: &b.tree, trace: false)
        }
        #expect(a.tree.root.json == b.tree.root.json)
    }

    @Test func recordedInputsCrossJSON() throws {
        let r = RecordedInputs(node: "Board", inputs: ProgramInputs(time: 1_795_855_580.25, seed: 12345))
        #expect(try RecordedInputs(json: r.json) == r)
        let gone = RecordedInputs(node: "Board/1:Row", inputs: ProgramInputs(time: 0, seed: 0), dropped: true)
        #expect(gone.json == ["node": "Board/1:Row", "dropped": true])
        #expect(throws: CanopyError.self) { try ProgramInputs(json: ["time": 1, "seed": -1]) }
    }
}
