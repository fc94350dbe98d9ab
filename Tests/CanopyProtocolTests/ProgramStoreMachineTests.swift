import CanopyCore
import Testing

@testable import CanopyProtocol

/// Program trees through the machine's store actions: the snapshot keeps the spec and cells, the log the events'
/// cell changes and new sources, and a restart or a rollback starts the program again from them.
@Suite struct ProgramStoreMachineTests {
    typealias P = ProgramMachineTests

    /// The batches of `stored()`: taps, a source that drops the cell, one that brings it back, more events.
    static let batches: [JSON] = [
        P.tap(seq: 1), P.tap(seq: 2), P.setSource("blank", seq: 3),
        P.setSource("counter step 2", seq: 4),
        P.tap(seq: 5),
        ["type": "event", "tree": "p", "seq": 6, "node": "button", "event": "setValue", "value": 40],
        P.tap(seq: 7),
    ]

    /// What a store holds after `batches` (a snapshot every 3 batches): the creation's snapshot, the latest stored
    /// one, every logged batch; and the harness that made them.
    static func stored() -> (creation: TreeRecord, latest: TreeRecord, harness: MachineHarness) {
        var h = P.harness { $0.snapshotEveryBatches = 3 }
        _ = h.send(1, ["type": "hello", "client": "alice"])
        let created = h.send(1, P.create())
        var base: (version: Int, bytes: [UInt8]) = (0, [])
        if case .createTree(_, _, let bytes)? = created.persists.first?.1 { base.bytes = bytes }
        let creation = base
        _ = h.commitAll(created)
        var logged: [(version: Int, client: String, seq: String?, diff: [UInt8])] = []
        for message in batches {
            let sent = h.send(1, message)
            guard case .append(_, let version, let client, let seq, let diff)? = sent.persists.first?.1
            else {
                Issue.record("no append for \(message.encoded())")
                continue
            }
            logged.append((version, client, seq, diff))
            let released = h.commitAll(sent)
            for (ticket, bytes) in released.snapshotBytes { base = (ticket.version, bytes) }
            h.storeSnapshots(released)
        }
        func record(_ snapshot: (version: Int, bytes: [UInt8])) -> TreeRecord {
            TreeRecord(
                id: "p", about: Array("{}".utf8), snapshotVersion: snapshot.version,
                snapshot: snapshot.bytes,
                batches: logged.filter { $0.version > snapshot.version })
        }
        return (record(creation), record(base), h)
    }

    /// The snapshot message a new subscriber of `p` gets, without the fields that name sessions.
    static func seen(_ h: inout MachineHarness, session: SessionID) -> JSON? {
        h.open(session)
        guard
            case .object(var o)? = h.send(session, ["type": "subscribe", "tree": "p"]).to(session).first
        else {
            return nil
        }
        for field in ["clients", "clientCount"] { o[field] = nil }
        return .object(o)
    }

    @Test func aRestartGivesTheTreeCellsReadersAndVersionClientsSaw() throws {
        let (creation, latest, made) = Self.stored()
        var h = made
        #expect(latest.snapshotVersion == 6)
        let snapshot = try SnapshotEncoding.parse(latest.snapshot)
        #expect(snapshot["program"]?["source"] == "counter step 2")
        #expect(snapshot["state"] == [["node": "root", "name": "count", "value": 40]])
        let expected = Self.seen(&h, session: 9)
        #expect(expected?["version"] == 7)
        #expect(expected?["state"] == [["node": "root", "name": "count", "value": 42]])
        #expect(expected?["readers"]?[0]?["value"] == 42)
        for record in [latest, creation] {
            var restarted = P.harness()
            try restarted.machine.restore([record], now: 0)
            #expect(Self.seen(&restarted, session: 9) == expected)
            #expect(restarted.machine.tree("p")?.root == h.machine.tree("p")?.root)
            // The restored program goes on, and the batches it restored are still known.
            _ = restarted.send(1, ["type": "hello", "client": "alice"])
            #expect(restarted.send(1, P.tap(seq: 7)).to(1).first?["duplicate"] == true)
            let next = restarted.commitAll(restarted.send(1, P.tap(seq: 8))).to(1).first
            #expect(next?["version"] == 8)
            #expect(next?["state"] == [["node": "root", "name": "count", "value": 44]])
        }
    }

    @Test func aRestartWithoutTheRuntimeRefusesTheStoreNamingTheTree() {
        let (_, latest, _) = Self.stored()
        var bare = MachineHarness()
        #expect {
            try bare.machine.restore([latest], now: 0)
        } throws: { error in
            let e = error as? CanopyError
            return e?.code == .storageError
                && e?.message.hasPrefix("tree p: the program does not start") == true
        }
    }

    @Test func foldingALoggedDiffSetsAddsAndDropsCellsAndTakesItsSource() throws {
        var program = StoredProgram(
            spec: ProgramSpec(source: "a"),
            cells: [StateCell(node: "n", name: "x", value: 1), StateCell(node: "n", name: "y", value: 2)])
        try program.fold(diff: [
            "source": "b",
            "state": [
                ["node": "n", "name": "x", "dropped": true], ["node": "n", "name": "y", "value": 3],
                ["node": "m", "name": "z", "value": "new"],
            ],
        ])
        #expect(program.spec.source == "b")
        #expect(
            program.cells == [
                StateCell(node: "n", name: "y", value: 3), StateCell(node: "m", name: "z", value: "new"),
            ])
    }

    @Test func foldingALoggedDiffTakesItsInputsAndBodyInputs() throws {
        var program = StoredProgram(
            spec: ProgramSpec(source: "a"), cells: [],
            bodyInputs: [
                RecordedInputs(node: "A", inputs: ProgramInputs(time: 1, seed: 1)),
                RecordedInputs(node: "B", inputs: ProgramInputs(time: 1, seed: 2)),
            ])
        try program.fold(diff: [
            "inputs": ["time": 5.5, "seed": 9],
            "bodyInputs": [["node": "A", "dropped": true], ["node": "B", "time": 5.5, "seed": 10], ["node": "C", "time": 5.5, "seed": 11]],
        ])
        #expect(program.inputs == ProgramInputs(time: 5.5, seed: 9))
        #expect(
            program.bodyInputs == [
                RecordedInputs(node: "B", inputs: ProgramInputs(time: 5.5, seed: 10)),
                RecordedInputs(node: "C", inputs: ProgramInputs(time: 5.5, seed: 11)),
            ])
        // A snapshot keeps them.
        let tree = try Tree(version: 3)
        let bytes = SnapshotEncoding.encode(tree, acks: [], program: program)
        #expect(try SnapshotEncoding.program(of: SnapshotEncoding.parse(bytes)) == program)
    }

    @Test func aProgramDiffCarriesItsTransactionsInputs() {
        var h = P.created()
        let diff = h.commitAll(h.send(1, P.tap(seq: 1))).to(1).first
        #expect(diff?["inputs"]?["time"]?.number != nil)
        #expect(diff?["inputs"]?["seed"]?.number != nil)
    }

    @Test func foldingALoggedDiffAddsAndReplacesObjectsByID() throws {
        var program = StoredProgram(
            spec: ProgramSpec(source: "a"),
            state: ProgramState(
                cells: [StateCell(node: "n", name: "a", value: ["$object": 1])],
                objects: ["1": ["class": "Counter", "fields": ["value": 0]]]))
        try program.fold(diff: [
            "state": [["node": "n", "name": "b", "value": ["$object": 2]]],
            "objects": [
                "1": ["class": "Counter", "fields": ["value": 5]],
                "2": ["class": "Counter", "fields": ["value": 7]],
            ],
        ])
        #expect(program.cells.map(\.value) == [["$object": 1], ["$object": 2]])
        #expect(
            program.state.objects == [
                "1": ["class": "Counter", "fields": ["value": 5]], "2": ["class": "Counter", "fields": ["value": 7]],
            ])
        #expect(throws: CanopyError.self) { try program.fold(diff: ["objects": [1, 2]]) }
    }

    @Test func aSnapshotKeepsTheObjectTableNextToTheCellsOnlyWhenThereIsOne() throws {
        let objects: JSONObject = ["1": ["class": "Node", "fields": ["next": ["$object": 1]]]]
        let stored = StoredProgram(
            spec: ProgramSpec(source: "s", view: "V"),
            state: ProgramState(cells: [StateCell(node: "V", name: "n", value: ["$object": 1])], objects: objects))
        let tree = try Tree(version: 3)
        let snapshot = try SnapshotEncoding.parse(SnapshotEncoding.encode(tree, acks: [], program: stored))
        #expect(snapshot["objects"] == .object(objects))
        #expect(try SnapshotEncoding.program(of: snapshot) == stored)

        let plain = StoredProgram(spec: ProgramSpec(source: "s"), cells: [StateCell(node: "V", name: "x", value: 1)])
        let without = try SnapshotEncoding.parse(SnapshotEncoding.encode(tree, acks: [], program: plain))
        #expect(without["objects"] == nil)
        #expect(try SnapshotEncoding.program(of: without) == plain)
    }

    @Test func aRollbackStartsTheProgramAgainAtItsDurableVersion() {
        var h = P.created()
        _ = h.commitAll(h.send(1, P.tap(seq: 1)))
        _ = h.commitAll(h.send(1, P.setSource("counter step 5", seq: 2)))
        let lost = h.send(1, P.tap(seq: 3))
        #expect(P.label(h) == "6")
        let failed = h.fail(lost.persists[0].0)
        #expect(!failed.all.contains { if case .log(.critical, _) = $0 { true } else { false } })
        #expect(failed.to(1).first?["code"] == "storage_error")
        // Rebuilt from the creation's snapshot and the two logged diffs: the tap's cell, the new source.
        let snapshot = failed.to(2).first
        #expect(snapshot?["type"] == "snapshot")
        #expect(snapshot?["version"] == 2)
        #expect(snapshot?["state"] == [["node": "root", "name": "count", "value": 1]])
        #expect(snapshot?["program"]?["source"] == "counter step 5")
        #expect(P.label(h) == "1")
        h.advance(10)  // past the storage retry delay
        let next = h.commitAll(h.send(1, P.tap(seq: 4))).to(2).first
        #expect(next?["version"] == 3)
        #expect(next?["state"] == [["node": "root", "name": "count", "value": 6]])
    }
}
