import CanopyCore
import Testing

@testable import CanopyProtocol

/// Trees restored in the background at start: listed at once, requests naming them wait (with the rest of their
/// session's messages) until `install` serves them, other sessions and trees go on meanwhile.
@Suite struct BackgroundRestoreTests {
    /// A stored tree as the store gives it back: `MachineHarness`'s tree created as `id`, then `a` set to 5 by
    /// client "alice" with seq 1 (version 1, logged after the version-0 snapshot).
    static func record(_ id: String) -> TreeRecord {
        var h = MachineHarness()
        h.open(1)
        _ = h.send(1, ["type": "hello", "client": "alice"])
        let created = h.send(
            1, ["type": "createTree", "tree": .string(id), "keys": [MachineHarness.sumKey], "root": MachineHarness.root])
        guard case .createTree(_, _, let snapshot)? = created.persists.first?.1 else { preconditionFailure() }
        _ = h.commitAll(created)
        let edit = h.send(1, MachineHarness.edit(id, seq: 1, value: 5))
        guard case .append(_, let version, let client, let seq, let diff)? = edit.persists.first?.1 else {
            preconditionFailure()
        }
        return TreeRecord(
            id: id, about: Array(#"{"title":"Big"}"#.utf8), snapshotVersion: 0, snapshot: snapshot,
            batches: [(version, client, seq, diff)])
    }

    /// A machine serving "small" and loading "big", with sessions 1 and 2 open; the incarnation to rebuild with.
    static func loading() throws -> (MachineHarness, Int) {
        var h = MachineHarness()
        try h.machine.restore([record("small")], now: 0)
        let incarnations = try h.machine.beginLoading([record("big")])
        h.open(1)
        h.open(2)
        return (h, incarnations[0])
    }

    @Test func aLoadingTreeIsListedWithItsVersionAndAbout() throws {
        var (h, _) = try Self.loading()
        let trees = h.send(1, ["type": "listTrees"]).to(1).first?["trees"]?.array ?? []
        #expect(trees.count == 2)
        #expect(trees.first == ["tree": "big", "version": 1, "subscribers": 0, "loading": true, "title": "Big"])
        #expect(trees.last?["tree"] == "small" && trees.last?["nodes"] == 2 && trees.last?["loading"] == nil)
        #expect(h.machine.loadingTrees == ["big"])
        #expect(h.machine.statistics.trees == 2)
    }

    @Test func requestsWaitForTheTreeInOrderWhileOthersAreServed() throws {
        var (h, incarnation) = try Self.loading()
        #expect(h.send(1, ["type": "subscribe", "tree": "big", "rid": "b"]).all.isEmpty)
        // Session 1's later messages wait behind it, whatever tree they name.
        #expect(h.send(1, ["type": "probe", "tree": "small", "node": "root", "key": "K", "rid": "p"]).all.isEmpty)
        #expect(h.send(1, ["type": "createTree", "tree": "big", "rid": "c"]).all.isEmpty)
        // Session 2 is served at once.
        let other = h.send(2, ["type": "subscribe", "tree": "small", "rid": "s"])
        #expect(other.types(to: 2).filter { $0 != "clients" } == ["snapshot"])

        let restored = try ProtocolMachine.rebuild(
            Self.record("big"), incarnation: incarnation, configuration: h.machine.configuration, now: 1)
        let resumed = Actions(h.machine.install(restored, now: 1))
        let replies = resumed.to(1).filter { $0["type"] != "clients" }  // presence aside
        #expect(replies.map { $0["type"]?.string ?? "?" } == ["snapshot", "value", "error"])
        #expect(replies[0]["rid"] == "b" && replies[0]["version"] == 1)
        #expect(replies[0]["readers"]?.array?.first?["value"] == 5)
        #expect(replies[1]["rid"] == "p" && replies[1]["value"] == 5)
        #expect(replies[2]["rid"] == "c" && replies[2]["code"] == "tree_exists")
        #expect(h.machine.loadingTrees.isEmpty)
        #expect(h.machine.tree("big")?.readers.first?.value == 5)
        // Served now: answered at once, and listed with its node count.
        #expect(h.send(1, ["type": "probe", "tree": "big", "node": "a", "key": "K"]).to(1).first?["value"] == 5)
        let trees = h.send(2, ["type": "listTrees"]).to(2).first?["trees"]?.array ?? []
        #expect(trees.first?["nodes"] == 2 && trees.first?["loading"] == nil && trees.first?["title"] == "Big")
    }

    @Test func theRebuiltTreeIsTheRestoredOne() throws {
        var direct = MachineHarness()
        try direct.machine.restore([Self.record("big")], now: 0)
        let rebuilt = try ProtocolMachine.rebuild(
            Self.record("big"), incarnation: 9, configuration: direct.machine.configuration, now: 0)
        var installed = MachineHarness()
        _ = installed.machine.install(rebuilt, now: 0)
        #expect(installed.machine.tree("big")?.root == direct.machine.tree("big")?.root)
        #expect(installed.machine.tree("big")?.readers == direct.machine.tree("big")?.readers)
        #expect(installed.machine.tree("big")?.version == 1)
        // The logged batch's identity survives: resubmitting it is a duplicate.
        installed.open(3)
        _ = installed.send(3, ["type": "hello", "client": "alice"])
        let again = installed.send(3, MachineHarness.edit("big", seq: 1, value: 5))
        #expect(again.persists.isEmpty && again.to(3).first?["duplicate"] == true)
    }

    @Test func aSessionThatClosesWhileWaitingIsForgotten() throws {
        var (h, incarnation) = try Self.loading()
        _ = h.send(1, ["type": "subscribe", "tree": "big"])
        _ = h.close(1)
        let restored = try ProtocolMachine.rebuild(
            Self.record("big"), incarnation: incarnation, configuration: h.machine.configuration, now: 1)
        #expect(Actions(h.machine.install(restored, now: 1)).sent.isEmpty)
    }

    @Test func aTreeOutsideTheTokenOrBeforeHelloIsAnsweredAtOnce() throws {
        var h = MachineHarness { $0.tokens = [TokenGrant(token: "v", role: .viewer, trees: ["small"])] }
        _ = try h.machine.beginLoading([Self.record("big")])
        h.open(1)
        let early = h.send(1, ["type": "subscribe", "tree": "big"])
        #expect(early.to(1).first?["code"] == "unauthorized" && early.closes.map(\.1) == [1008])
        h.open(2)
        _ = h.send(2, ["type": "hello", "token": "v"])
        let forbidden = h.send(2, ["type": "subscribe", "tree": "big", "rid": 1]).to(2)
        #expect(forbidden.first?["code"] == "forbidden" && forbidden.first?["rid"] == 1)
        #expect(h.send(2, ["type": "listTrees"]).to(2).first?["trees"] == [])
    }

    @Test func aFullWaitingQueueRefusesTheNextRequest() throws {
        var (h, _) = try Self.loading()
        for seq in 1...ProtocolMachine.maxWaitingMessages {
            #expect(h.send(1, MachineHarness.edit("big", seq: .int(Int64(seq)), value: seq)).all.isEmpty)
        }
        let refused = h.send(1, MachineHarness.edit("big", seq: "last", value: 0)).to(1)
        #expect(refused.count == 1)
        #expect(refused.first?["type"] == "rejected" && refused.first?["seq"] == "last")
        #expect(refused.first?["code"] == "too_many")
    }

    @Test func aSnapshotThatDoesNotParseNamesTheTree() {
        var bad = Self.record("big")
        bad.snapshot = Array(#"{"keys":[],"root":"#.utf8)
        #expect {
            _ = try ProtocolMachine.rebuild(bad, incarnation: 1, configuration: HubConfiguration(), now: 0)
        } throws: { error in
            let e = error as? CanopyError
            return e?.code == .storageError && e?.message.hasPrefix("tree big: snapshot 0 is unreadable") == true
        }
    }
}
