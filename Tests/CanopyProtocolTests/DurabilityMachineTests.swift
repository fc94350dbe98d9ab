import CanopyCore
import Testing

@testable import CanopyProtocol

/// The durability paths, driven input by input: nothing is released before its commit, a failed commit rolls back
/// from what the machine holds, snapshots come due by count and by age, catch-up comes from the log or the store.
@Suite struct DurabilityMachineTests {
    @Test func createdAndDiffsAreReleasedOnlyByTheirCommits() {
        var h = MachineHarness()
        h.open(1)
        h.open(2)
        let create = h.send(
            1,
            [
                "type": "createTree", "tree": "demo", "keys": [MachineHarness.sumKey], "root": MachineHarness.root,
                "rid": 1,
            ])
        #expect(create.sent.isEmpty)
        guard case .createTree(let id, _, let snapshot)? = create.persists.first?.1 else {
            Issue.record("no createTree write")
            return
        }
        #expect(id == "demo")
        #expect(String(decoding: snapshot, as: UTF8.self).contains("\"root\""))
        #expect(h.commit(create.persists[0].0).to(1) == [["type": "created", "tree": "demo", "version": 0, "rid": 1]])
        _ = h.send(2, ["type": "subscribe", "tree": "demo"])

        let first = h.send(1, MachineHarness.edit(seq: 1, value: 5))
        let second = h.send(1, MachineHarness.edit(seq: 2, value: 7))
        #expect(first.sent.isEmpty && second.sent.isEmpty)
        #expect(first.persists.map(\.0.kind) == [.append(version: 1)])
        // Committing the second releases both, in order, to the subscriber and the author.
        let released = h.commit(second.persists[0].0)
        #expect(released.to(2).compactMap { $0["version"] } == [1, 2])
        #expect(released.to(1).compactMap { $0["version"] } == [1, 2])
        // The first's own commit, arriving late, releases nothing again.
        #expect(h.commit(first.persists[0].0).all.isEmpty)
        #expect(h.machine.counters.editsAccepted == 2)
    }

    @Test func aFailedCommitRejectsItsBatchAndRollsTheTreeBackFromWhatTheMachineHolds() {
        var h = MachineHarness { $0.storageRetrySeconds = 5 }
        h.open(1)
        h.open(2)
        h.createTree()
        _ = h.send(2, ["type": "subscribe", "tree": "demo"])
        let kept = h.send(1, MachineHarness.edit(seq: 1, value: 5))
        _ = h.commit(kept.persists[0].0)
        let lost = h.send(1, MachineHarness.edit(seq: 2, value: 9))
        let late = h.send(1, MachineHarness.edit(seq: 3, value: 11))
        #expect(h.machine.tree("demo")?.version == 3)

        let failed = h.fail(lost.persists[0].0)
        // Both unstored batches are rejected to their author; the subscriber gets a snapshot of the durable tree.
        #expect(failed.to(1).map { $0["code"] } == ["storage_error", "storage_error"])
        #expect(failed.to(1).compactMap { $0["seq"] } == [2, 3])
        let snapshot = failed.to(2).first
        #expect(snapshot?["type"] == "snapshot")
        #expect(snapshot?["version"] == 1)
        #expect(snapshot?["readers"]?.array?.first?["value"] == 5)
        #expect(h.machine.tree("demo")?.version == 1)
        // The later batch's commit (same transaction, failed too) is stale now.
        #expect(h.fail(late.persists[0].0).all.isEmpty)

        // Edits are refused while the store is given time, then accepted from version 2 again.
        #expect(h.send(1, MachineHarness.edit(seq: 4, value: 1)).to(1).first?["code"] == "storage_error")
        h.advance(5)
        let retried = h.send(1, MachineHarness.edit(seq: 2, value: 9))
        #expect(retried.persists.map(\.0.kind) == [.append(version: 2)])
        #expect(h.commit(retried.persists[0].0).to(2).first?["version"] == 2)
    }

    @Test func aRollbackReplaysTheLogAfterTheLastStoredSnapshot() {
        var h = MachineHarness { $0.snapshotEveryBatches = 2 }
        h.open(1)
        h.createTree()
        var stored: [Int] = []
        for i in 1...5 {
            let released = h.commitAll(h.send(1, MachineHarness.edit(seq: .int(Int64(i)), value: i * 10)))
            stored += h.storeSnapshots(released)
        }
        #expect(stored == [2, 4])
        let failing = h.send(1, MachineHarness.edit(seq: 6, value: 999))
        _ = h.fail(failing.persists[0].0)
        // Rebuilt from snapshot 4 and batch 5 from the log: the durable state, evaluated.
        #expect(h.machine.tree("demo")?.version == 5)
        #expect(h.machine.tree("demo")?.readers.first?.value == 50)
        #expect(h.machine.tree("demo")?.root.json == MachineHarness.treeJSON(after: 50))
    }

    @Test func snapshotsComeDueByCountAndByAge() {
        var h = MachineHarness {
            $0.snapshotEveryBatches = 3
            $0.snapshotEverySeconds = 60
        }
        h.open(1)
        _ = h.send(1, ["type": "hello", "client": "writer"])
        h.createTree()
        var written: [SnapshotTicket] = []
        for i in 1...3 {
            let edit = h.send(1, MachineHarness.edit(seq: .int(Int64(i)), value: i))
            written += h.commit(edit.persists[0].0).snapshots.map(\.0)
        }
        #expect(written.map(\.version) == [3])
        // One under way: no second one is asked for until it is written.
        h.advance(61)
        let meanwhile = h.send(1, MachineHarness.edit(seq: 4, value: 4))
        #expect(h.commit(meanwhile.persists[0].0).snapshots.isEmpty)
        #expect(h.machine.snapshotWritten(written[0], .success([])).isEmpty)
        // Then age alone makes the next batch due.
        h.advance(61)
        let aged = h.send(1, MachineHarness.edit(seq: 5, value: 5))
        let snapshot = h.commit(aged.persists[0].0).snapshots
        #expect(snapshot.map(\.0.version) == [5])
        #expect(snapshot.first?.1.version == 5)
        // The snapshot carries the batch identities that must outlive the log.
        #expect(snapshot.first?.2.map(\.seq) == ["1", "2", "3", "4", "5"])
    }

    @Test func catchUpComesFromTheLogThenFromTheStoreThenAsASnapshot() {
        var h = MachineHarness {
            $0.diffLogLength = 2
            $0.snapshotEveryBatches = 4
        }
        h.open(1)
        h.createTree()
        var diffs: [[UInt8]] = []
        for i in 1...5 {
            let edit = h.send(1, MachineHarness.edit(seq: .int(Int64(i)), value: i))
            if case .append(_, _, _, _, let diff) = edit.persists[0].1 { diffs.append(diff) }
            // Once snapshot 4 is stored, the log need not reach back before it (a rollback starts there).
            for (ticket, _, _) in h.commit(edit.persists[0].0).snapshots {
                _ = h.machine.snapshotWritten(ticket, .success(Array("{}".utf8)))
            }
        }
        h.open(2)
        // From the log: versions 4 and 5, then `subscribed` with the rid.
        let fromLog = h.send(2, ["type": "subscribe", "tree": "demo", "since": 3, "rid": "a"])
        #expect(fromLog.types(to: 2) == ["diff", "diff", "subscribed", "clients"])
        #expect(fromLog.to(2)[2]["rid"] == "a")
        // Older than the log: a store read, answered with the stored diffs, then the log's.
        h.open(3)
        let asks = h.send(3, ["type": "subscribe", "tree": "demo", "since": 1, "rid": "b"])
        #expect(asks.reads.map { [$0.from, $0.to] } == [[2, 5]])
        #expect(!asks.types(to: 3).contains("diff"))
        let stored = (2...5).map { LoggedBatch(version: $0, diff: diffs[$0 - 1]) }
        let caughtUp = Actions(h.machine.historyRead(asks.reads[0].id, .success(stored), now: h.now))
        #expect(caughtUp.to(3).compactMap { $0["version"] } == [2, 3, 4, 5, 5])
        #expect(caughtUp.to(3).last?["rid"] == "b")
        // The store no longer has them either: a snapshot.
        h.open(4)
        let gone = h.send(4, ["type": "subscribe", "tree": "demo", "since": 0])
        let snapshot = Actions(h.machine.historyRead(gone.reads[0].id, .success([]), now: h.now))
        #expect(snapshot.types(to: 4) == ["snapshot"])
        #expect(snapshot.to(4).first?["version"] == 5)
    }

    @Test func aResubmissionAfterARestartIsADuplicateAndAppliesNothing() throws {
        var first = MachineHarness()
        first.open(1)
        _ = first.send(1, ["type": "hello", "client": "alice"])
        first.createTree()
        let edit = first.send(1, MachineHarness.edit(seq: 1, value: 5))
        guard case .append(_, let version, let client, let seq, let diff) = edit.persists[0].1 else {
            Issue.record("no append")
            return
        }
        #expect(client == "alice" && seq == "1")
        // A new machine restores the tree from its snapshot and the logged batch, as the store gives them back.
        let snapshot = SnapshotEncoding.encode(
            try Tree(
                keys: [try KeyDeclaration(json: MachineHarness.sumKey)], root: try Node(json: MachineHarness.root)),
            acks: [])
        var restarted = MachineHarness()
        try restarted.machine.restore(
            [
                TreeRecord(
                    id: "demo", about: Array("{}".utf8), snapshotVersion: 0, snapshot: snapshot,
                    batches: [(version, client, seq, diff)])
            ],
            now: 0)
        restarted.open(7)
        _ = restarted.send(7, ["type": "hello", "client": "alice"])
        var resubmission = MachineHarness.edit(seq: 1, value: 5).object!
        resubmission["rid"] = "r"
        let again = restarted.send(7, .object(resubmission))
        #expect(again.persists.isEmpty)
        #expect(again.to(7).first?["duplicate"] == true)
        #expect(again.to(7).first?["version"] == 1)
        #expect(again.to(7).first?["rid"] == "r")
        #expect(restarted.machine.tree("demo")?.version == 1)
    }
}
