import CanopyCore
import Testing

@testable import CanopyProtocol

/// The holes a hostile-input probe found in the protocol layer (issue 12), each held by a test.
@Suite struct HoleTests {
    static let tokens = [
        TokenGrant(token: "root", role: .admin), TokenGrant(token: "shared-only", role: .viewer, trees: ["shared"]),
    ]

    // Hole 1: free text is bounded, and presence is marked so a queue keeps only its latest.
    @Test func namesRidsAndSeqsAreBoundedAndPresenceSupersedesItself() {
        var h = MachineHarness { $0.maxLabelBytes = 16 }
        h.open(1)
        let long = String(repeating: "x", count: 17)
        #expect(h.send(1, ["type": "hello", "client": .string(long)]).to(1).first?["code"] == "bad_message")
        #expect(h.send(1, ["type": "listTrees", "rid": .string(long)]).to(1).first?["code"] == "bad_message")
        h.createTree()
        let edit: JSON = [
            "type": "edit", "tree": "demo", "seq": .string(long),
            "ops": [["op": "setProps", "node": "a", "props": ["x": 1]]],
        ]
        #expect(h.send(1, edit).to(1).first?["code"] == "bad_message")
        #expect(h.machine.tree("demo")?.version == 0)
        let subscribed = h.send(1, ["type": "subscribe", "tree": "demo"])
        let presence = subscribed.all.compactMap { action -> OutgoingMessage? in
            guard case .send(_, let m) = action, m.supersedes != nil else { return nil }
            return m
        }
        #expect(presence.map(\.supersedes) == ["clients:demo"])
    }

    // Hole 2: a second hello with a narrower token drops the subscriptions it does not cover.
    @Test func reHelloWithANarrowerTokenEndsTheSubscriptionsItDoesNotCover() {
        var h = MachineHarness(durable: false) { $0.tokens = Self.tokens }
        h.open(1)
        _ = h.send(1, ["type": "hello", "token": "root"])
        _ = h.send(1, ["type": "createTree", "tree": "secret1"])
        _ = h.send(1, ["type": "createTree", "tree": "shared"])
        _ = h.send(1, ["type": "subscribe", "tree": "secret1"])
        _ = h.send(1, ["type": "subscribe", "tree": "shared"])
        let downgrade = h.send(1, ["type": "hello", "token": "shared-only", "rid": 2])
        #expect(downgrade.to(1).map { $0["type"] } == ["unsubscribed", "welcome"])
        #expect(downgrade.to(1).first?["tree"] == "secret1")
        #expect(downgrade.to(1).last?["role"] == "viewer")
        // Another admin session edits both trees: only `shared`'s diff reaches session 1.
        h.open(2)
        _ = h.send(2, ["type": "hello", "token": "root"])
        let set: JSON = ["op": "setProps", "node": "root", "props": ["x": 1]]
        let secret = h.send(2, ["type": "edit", "tree": "secret1", "ops": [set]])
        #expect(secret.to(1).isEmpty)
        let shared = h.send(2, ["type": "edit", "tree": "shared", "ops": [set]])
        #expect(shared.types(to: 1) == ["diff"])
    }

    // Hole 3: no message tells whether a tree outside the token exists.
    @Test(arguments: ["subscribe", "unsubscribe", "probe", "history", "edit", "deleteTree", "createTree"])
    func everyMessageAboutAnUnseenTreeIsForbiddenWhetherItExistsOrNot(type: String) {
        var h = MachineHarness(durable: false) { $0.tokens = Self.tokens }
        h.open(1)
        _ = h.send(1, ["type": "hello", "token": "root"])
        _ = h.send(1, ["type": "createTree", "tree": "secret1"])
        h.open(2)
        _ = h.send(2, ["type": "hello", "token": "shared-only"])
        var answers: [JSON] = []
        for tree in ["secret1", "nothere"] {
            var message: JSONObject = ["type": .string(type), "tree": .string(tree), "node": "root", "key": "K"]
            message["ops"] = [["op": "setProps", "node": "root", "props": ["x": 1]]]
            let reply = h.send(2, .object(message)).to(2).first
            answers.append(reply?["code"] ?? .null)
        }
        #expect(answers == ["forbidden", "forbidden"])
    }

    // Hole 4: sessions awaiting hello have a deadline and a cap.
    @Test func sessionsAwaitingHelloAreClosedAtTheDeadlineAndCapped() {
        var h = MachineHarness(durable: false) {
            $0.tokens = Self.tokens
            $0.helloTimeoutSeconds = 10
            $0.maxSessionsAwaitingHello = 2
        }
        h.open(1)
        h.open(2)
        #expect(h.open(3).closes.map(\.1) == [1013])
        #expect(h.machine.hasDeferredWork)
        _ = h.send(2, ["type": "hello", "token": "root"])
        h.advance(5)
        h.open(4)  // session 2 no longer awaits: room for one more (its deadline is at 15 s)
        h.advance(4.9)
        #expect(h.tick().closes.isEmpty)
        h.advance(0.2)
        let expired = h.tick()
        #expect(expired.closes.map(\.0) == [1])
        #expect(expired.closes.map(\.1) == [1008])
        #expect(expired.to(1).first?["code"] == "unauthorized")
        _ = h.close(1)
        h.advance(5)
        #expect(h.tick().closes.map(\.0) == [4])
        _ = h.close(4)
        #expect(!h.machine.hasDeferredWork)
        // Without tokens hello is optional: no deadline.
        var open = MachineHarness(durable: false)
        open.open(1)
        open.advance(1000)
        #expect(open.tick().closes.isEmpty)
    }

    // Hole 6: no reply goes out without the rid it was asked with, and empty batches make no version.
    @Test func ridsOfOtherTypesAreBadMessagesAndAnEmptyBatchIsRejected() {
        var h = MachineHarness(durable: false)
        h.open(1)
        for rid: JSON in [["x": 1], [1], true, .null] {
            let reply = h.send(1, ["type": "listTrees", "rid": rid]).to(1)
            #expect(reply.count == 1)
            #expect(reply.first?["code"] == "bad_message")
            #expect(reply.first?["rid"] == nil)
        }
        h.createTree()
        let empty = h.send(1, ["type": "edit", "tree": "demo", "seq": 3, "ops": [], "rid": "e"]).to(1)
        #expect(empty.first?["type"] == "rejected")
        #expect(empty.first?["code"] == "bad_message")
        #expect(empty.first?["rid"] == "e")
        #expect(h.machine.tree("demo")?.version == 0)
        let current = h.send(1, ["type": "subscribe", "tree": "demo", "since": 0, "rid": "now"]).to(1)
        #expect(current.first == ["type": "subscribed", "tree": "demo", "version": 0, "rid": "now"])
    }

    // Hole 7: a batch resubmitted after its diff was compacted is still a duplicate.
    @Test func aResubmissionAfterCompactionIsStillADuplicate() {
        var h = MachineHarness {
            $0.diffLogLength = 2
            $0.snapshotEveryBatches = 3
        }
        h.open(1)
        _ = h.send(1, ["type": "hello", "client": "alice"])
        h.createTree()
        for i in 1...10 {
            let released = h.commitAll(h.send(1, MachineHarness.edit(seq: .int(Int64(i)), value: i)))
            h.storeSnapshots(released)
        }
        var resubmitted: [JSON] = []
        for i in 1...10 {
            let again = h.send(1, MachineHarness.edit(seq: .int(Int64(i)), value: i))
            #expect(again.persists.isEmpty)
            if let read = again.reads.first {
                // Compacted out of the store as well: the answer names the batch's version.
                resubmitted += Actions(h.machine.historyRead(read.id, .success([]), now: h.now)).to(1)
            } else {
                resubmitted += again.to(1)
            }
        }
        #expect(h.machine.tree("demo")?.version == 10)
        #expect(resubmitted.map { $0["duplicate"] } == Array(repeating: true, count: 10))
        #expect(resubmitted.map { $0["version"] } == (1...10).map { .int(Int64($0)) })
        #expect(h.machine.counters.editsDuplicate == 10)
    }
}

/// Tokens and the edit rate reload while running (SIGHUP).
@Suite struct ReloadTests {
    @Test func aReloadRevokesNarrowsAndKeepsSessionsByTheirTokens() {
        var h = MachineHarness(durable: false) {
            $0.tokens = [
                TokenGrant(token: "a", role: .admin), TokenGrant(token: "b", role: .editor),
                TokenGrant(token: "c", role: .viewer),
            ]
        }
        for (s, token) in [(1, "a"), (2, "b"), (3, "c")] as [(SessionID, String)] {
            h.open(s)
            _ = h.send(s, ["type": "hello", "token": .string(token)])
        }
        _ = h.send(1, ["type": "createTree", "tree": "one"])
        _ = h.send(1, ["type": "createTree", "tree": "two"])
        _ = h.send(2, ["type": "subscribe", "tree": "one"])
        _ = h.send(2, ["type": "subscribe", "tree": "two"])
        let reloaded = Actions(
            h.machine.reload(
                tokens: [TokenGrant(token: "a", role: .admin), TokenGrant(token: "b", role: .viewer, trees: ["two"])],
                editsPerSecond: 3, now: h.now))
        // c is gone: its session is closed; b keeps only what its new pattern covers, as a viewer.
        #expect(reloaded.closes.map(\.0) == [3])
        #expect(reloaded.to(2) == [["type": "unsubscribed", "tree": "one"]])
        let edit: JSON = [
            "type": "edit", "tree": "two", "ops": [["op": "setProps", "node": "root", "props": ["x": 1]]],
        ]
        #expect(h.send(2, edit).to(2).first?["code"] == "forbidden")
        #expect(h.machine.configuration.editsPerSecond == 3)
        // Turning tokens off needs a restart.
        let off = Actions(h.machine.reload(tokens: [], editsPerSecond: 0, now: h.now))
        #expect(off.closes.isEmpty)
        #expect(h.machine.configuration.tokens.count == 2)
    }
}

/// The fuzzer's read amplification: one small `history` request made the daemon encode the whole log at once.
@Suite struct HistoryBoundTests {
    @Test func aHistoryReplyStopsAtItsByteBudgetAndSaysWhereToGoOn() {
        var h = MachineHarness(durable: false) { $0.catchUpMaxBytes = 700 }
        h.open(1)
        h.createTree()
        for i in 1...6 {
            let edit: JSON = [
                "type": "edit", "tree": "demo", "seq": .int(Int64(i)),
                "ops": [["op": "setProps", "node": "a", "props": ["pad": .string(String(repeating: "x", count: 200))]]],
            ]
            _ = h.send(1, edit)
        }
        var versions: [JSON] = []
        var from: JSON = 1
        var replies = 0
        while replies < 10 {
            replies += 1
            let reply = h.send(1, ["type": "history", "tree": "demo", "from": from, "rid": "h"]).to(1).first
            #expect(reply?["rid"] == "h")
            versions += reply?["diffs"]?.array?.compactMap { $0["version"] } ?? []
            guard let next = reply?["next"] else { break }
            from = next
        }
        // About 330 bytes a diff: two per reply, and every version exactly once.
        #expect(replies == 3)
        #expect(versions == (1...6).map { .int(Int64($0)) })
    }
}
