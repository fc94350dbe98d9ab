import CanopyCore
import Testing

@testable import CanopyProtocol

/// A snapshot's body (tree, readers, program, trace) is encoded once per version and trace flag, off the service
/// thread, and shared by every subscriber meanwhile; each subscriber's message has its own head (issue 16).
@Suite struct SnapshotBodyTests {
    static func encodes(_ actions: Actions) -> Int {
        actions.all.filter { if case .encodeSnapshot = $0 { return true } else { return false } }.count
    }

    static func tails(_ actions: Actions) -> [SharedTail] {
        actions.all.compactMap { if case .send(_, let m) = $0 { return m.tail } else { return nil } }
    }

    @Test func subscribersAtOneVersionShareOneBodyAndEachGetsItsOwnHead() throws {
        var h = MachineHarness(durable: false)
        for s: SessionID in 1...3 { h.open(s) }
        h.createTree()
        let first = h.send(2, ["type": "subscribe", "tree": "demo", "rid": "a"])
        let second = h.send(3, ["type": "subscribe", "tree": "demo", "rid": "b"])
        #expect(Self.encodes(first) == 1)
        #expect(Self.encodes(second) == 0)
        let shared = try #require(Self.tails(first).first)
        #expect(Self.tails(second).first === shared)
        let a = try #require(first.to(2).first)
        let b = try #require(second.to(3).first)
        #expect(a["type"] == "snapshot" && b["type"] == "snapshot")
        #expect(a["rid"] == "a" && b["rid"] == "b")
        #expect(a["clientCount"] == 1 && b["clientCount"] == 2)
        #expect(a["root"] == MachineHarness.treeJSON(after: 1) && b["root"] == a["root"])
        #expect(a["readers"] == b["readers"] && a["readers"]?.array?.count == 1)
        #expect(a["version"] == 0 && b["version"] == 0)
    }

    @Test func anEditOrATraceFlagMakesAnotherBody() throws {
        var h = MachineHarness(durable: false)
        for s: SessionID in 1...4 { h.open(s) }
        h.createTree()
        let plain = h.send(2, ["type": "subscribe", "tree": "demo"])
        let traced = h.send(3, ["type": "subscribe", "tree": "demo", "trace": true])
        #expect(Self.encodes(plain) == 1 && Self.encodes(traced) == 1)
        #expect(Self.tails(plain).first !== Self.tails(traced).first)
        #expect(traced.to(3).first?["trace"]?["events"]?.array?.isEmpty == false)
        #expect(plain.to(2).first?["trace"] == nil)
        _ = h.send(1, MachineHarness.edit(seq: 1, value: 5))
        let later = h.send(4, ["type": "subscribe", "tree": "demo"])
        #expect(Self.encodes(later) == 1)
        let snapshot = try #require(later.to(4).first)
        #expect(snapshot["version"] == 1)
        #expect(snapshot["root"] == MachineHarness.treeJSON(after: 5))
    }

    @Test func aHeldSnapshotKeepsItsBodyUntilItsVersionIsDurable() throws {
        var h = MachineHarness()
        for s: SessionID in 1...2 { h.open(s) }
        h.createTree()
        let edited = h.send(1, MachineHarness.edit(seq: 1, value: 7))
        // Version 1 is applied but not committed: the snapshot waits for it, its body is encoded meanwhile.
        let subscribed = h.send(2, ["type": "subscribe", "tree": "demo"])
        #expect(subscribed.types(to: 2).contains("snapshot") == false)
        #expect(Self.encodes(subscribed) == 1)
        let released = h.commitAll(edited)
        let snapshot = try #require(released.to(2).first { $0["type"] == "snapshot" })
        #expect(snapshot["version"] == 1)
        #expect(snapshot["root"] == MachineHarness.treeJSON(after: 7))
    }
}
