import CanopyCore
import Testing

@testable import CanopyProtocol

/// Swift keys through the machine's store actions: their source is in the snapshots it stores, and a restart or a
/// rollback compiles them again from there.
@Suite struct SwiftKeyStoreMachineTests {
    typealias S = SwiftKeyMachineTests

    /// What a store would hold after: createTree, batches 1 and 2 (snapshot 2 written), batch 3.
    static func stored() -> (record: TreeRecord, value: JSON?) {
        var h = S.harness { $0.snapshotEveryBatches = 2 }
        _ = h.commitAll(h.send(1, S.create()))
        var snapshot: (version: Int, bytes: [UInt8])?
        var batches: [(version: Int, client: String, seq: String?, diff: [UInt8])] = []
        for (i, value) in [5, 6, 7].enumerated() {
            let edit = h.send(1, S.setA(value, seq: i + 1))
            guard case .append(_, let version, let client, let seq, let diff)? = edit.persists.first?.1 else {
                Issue.record("no append for batch \(i + 1)")
                return (TreeRecord(id: "", about: [], snapshotVersion: 0, snapshot: [], batches: []), nil)
            }
            batches.append((version, client, seq, diff))
            for (_, tree, acks) in h.commitAll(edit).snapshots {
                snapshot = (tree.version, SnapshotEncoding.encode(tree, acks: acks))
            }
        }
        #expect(snapshot?.version == 2)
        let base = snapshot?.version ?? 0
        let record = TreeRecord(
            id: "demo", about: Array("{}".utf8), snapshotVersion: base, snapshot: snapshot?.bytes ?? [],
            batches: Array(batches.drop { $0.version <= base }))
        return (record, h.machine.tree("demo")?.readers.first?.value)
    }

    @Test func theSnapshotKeepsTheSourceAndARestartCompilesItAgain() throws {
        let (record, value) = Self.stored()
        #expect(value == 19)
        let keys = try JSONParser.parse(bytes: record.snapshot)["keys"]
        #expect(keys == [S.sumKey])
        #expect(record.batches.map(\.version) == [3])

        var restarted = S.harness()
        try restarted.machine.restore([record], now: 0)
        #expect(restarted.machine.tree("demo")?.version == 3)
        #expect(S.rootValue(&restarted) == 19)
        // The restored key keeps working: edits reduce with it, and its fault is caught as before.
        let edited = restarted.commitAll(restarted.send(1, S.setA(8, seq: 9))).to(1).first
        #expect(edited?["changes"]?.array?.first?["value"] == 20)
        #expect(restarted.send(1, S.setA(5000, seq: 10)).to(1).first?["code"] == "runtime_error")
    }

    @Test func aRestartWithoutTheCompilerRefusesTheStoreNamingTheTree() {
        let (record, _) = Self.stored()
        var bare = MachineHarness()
        #expect {
            try bare.machine.restore([record], now: 0)
        } throws: { error in
            let e = error as? CanopyError
            return e?.code == .storageError && e?.message.hasPrefix("tree demo: snapshot 2 is unreadable") == true
        }
    }

    @Test func aRollbackRebuildsTheSwiftKeyFromTheStoredSnapshot() {
        var h = S.harness()
        _ = h.commitAll(h.send(1, S.create()))
        h.open(2)
        _ = h.send(2, ["type": "subscribe", "tree": "demo"])
        _ = h.commitAll(h.send(1, S.setA(5, seq: 1)))
        let lost = h.send(1, S.setA(9, seq: 2))
        let failed = h.fail(lost.persists[0].0)
        // Rebuilt from the createTree snapshot (Swift key compiled again) and batch 1 from the log.
        #expect(!failed.all.contains { if case .log(.critical, _) = $0 { true } else { false } })
        let snapshot = failed.to(2).first
        #expect(snapshot?["type"] == "snapshot")
        #expect(snapshot?["version"] == 1)
        #expect(snapshot?["keys"] == [S.sumKey])
        #expect(snapshot?["readers"]?.array?.first?["value"] == 17)
    }
}
