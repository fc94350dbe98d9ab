import CanopyCore
import Synchronization
import Testing

@testable import CanopyServer
@testable import CanopyWebSocket

/// Drives a `Hub` the way the service loop does, and decodes what it sends.
final class HubHarness {
    let hub: ProtocolRunner

    init(_ configure: (inout HubConfiguration) -> Void = { _ in }) {
        var c = HubConfiguration()
        configure(&c)
        let box = NowBox()
        hub = ProtocolRunner(configuration: c, clock: { box.value.withLock { $0 } })
        self.box = box
    }

    private let box: NowBox

    func advance(_ seconds: Double) { box.value.withLock { $0 += seconds } }

    /// Opens a session; returns what it was sent.
    @discardableResult
    func open(_ s: SessionID) -> [Sent] { decode(hub.opened(s, peer: "127.0.0.1")) }

    func close(_ s: SessionID) -> [Sent] { decode(hub.closed(s)) }

    /// What the service loop's periodic tick sends (deferred presence updates).
    func tick() -> [Sent] { decode(hub.tick()) }

    func send(_ s: SessionID, _ message: JSON) -> [Sent] { decode(hub.received(s, message: Array(message.encoded().utf8))) }

    func sendRaw(_ s: SessionID, _ text: String) -> [Sent] { decode(hub.received(s, message: Array(text.utf8))) }

    struct Sent: CustomStringConvertible {
        var to: SessionID
        var message: JSON?
        var close: UInt16?
        var type: String { message?["type"]?.string ?? "close" }
        var description: String { "→s\(to) \(message?.encoded() ?? "close \(close!)")" }
    }

    private func decode(_ actions: [TransportAction]) -> [Sent] {
        actions.compactMap { a in
            switch a {
            case .send(let s, let m): return Sent(to: s, message: try? JSONParser.parse(String(decoding: m.bytes, as: UTF8.self)))
            case .close(let s, let code, _): return Sent(to: s, message: nil, close: code)
            case .wake: return nil  // a snapshot body encoded at once (no loop): its messages are already decoded
            }
        }
    }
}

final class NowBox: Sendable {
    let value = Mutex<Double>(0)
}

@Suite struct HubTests {
    static let sumKey: JSON = ["key": "K", "reducer": "sum", "default": 0]
    static let root: JSON = [
        "id": "root", "type": "VStack", "modifiers": [["kind": "onPreferenceChange", "key": "K"]],
        "children": [["id": "a", "type": "Text", "modifiers": [["kind": "preference", "key": "K", "value": 1]]]],
    ]

    func treeHarness(_ configure: (inout HubConfiguration) -> Void = { _ in }) -> HubHarness {
        let h = HubHarness(configure)
        h.open(1)
        let created = h.send(1, ["type": "createTree", "tree": "demo", "keys": [Self.sumKey], "root": Self.root, "rid": 7])
        #expect(created.map(\.message) == [["type": "created", "tree": "demo", "version": 0, "rid": 7]])
        return h
    }

    @Test func withTokensEvenAMalformedMessageBeforeHelloIsUnauthorizedAndCloses() {
        let h = HubHarness { $0.tokens = [TokenGrant(token: "t", role: .admin, trees: [])] }
        h.open(1)
        let r = h.sendRaw(1, "{bad")
        #expect(r.map(\.type) == ["error", "close"])
        #expect(r.first?.message?["code"] == "unauthorized")
        #expect(r.last?.close == 1008)
    }

    @Test(arguments: [
        ["type": "subscribe", "tree": "demo", "since": 2.5] as JSON, ["type": "subscribe", "tree": "demo", "since": "1"],
        ["type": "subscribe", "tree": "demo", "since": 1e300], ["type": "subscribe", "tree": "demo", "trace": "yes"],
        ["type": "history", "tree": "demo", "from": -1e300], ["type": "history", "tree": "demo", "to": [1]],
    ])
    func numbersAndFlagsOfTheWrongKindAreBadMessages(message: JSON) {
        let h = treeHarness()
        let r = h.send(1, message)
        #expect(r.map(\.type) == ["error"])
        #expect(r.first?.message?["code"] == "bad_message")
        #expect(r.first?.message?["message"]?.string?.contains("must be") == true)
    }

    @Test func aRateBelowOneEditPerSecondStillAdmitsEdits() {
        let h = treeHarness { $0.editsPerSecond = 0.5 }
        let edit: JSON = ["type": "edit", "tree": "demo", "seq": 1, "ops": [["op": "setProps", "node": "a", "props": ["x": 1]]]]
        #expect(h.send(1, edit).map(\.type) == ["diff"])
        #expect(h.send(1, edit).first?.message?["code"] == "rate_limited")
        h.advance(2)  // 0.5/s: one more after two seconds
        #expect(h.send(1, edit).map(\.type) == ["diff"])
    }

    @Test func catchUpBeyondItsByteBudgetIsASnapshot() {
        let h = treeHarness { $0.catchUpMaxBytes = 600 }
        for seq in 1...6 {
            let edit: JSON = [
                "type": "edit", "tree": "demo", "seq": .int(Int64(seq)),
                "ops": [["op": "setProps", "node": "a", "props": ["pad": .string(String(repeating: "x", count: 100))]]],
            ]
            #expect(h.send(1, edit).map(\.type) == ["diff"])
        }
        h.open(2)
        // Two diffs (about 250 bytes each) fit in 600 bytes; six do not.
        #expect(
            h.send(2, ["type": "subscribe", "tree": "demo", "since": 4]).map(\.type) == [
                "diff", "diff", "subscribed", "clients",
            ])
        h.advance(1)
        #expect(h.send(2, ["type": "subscribe", "tree": "demo", "since": 0]).map(\.type) == ["snapshot", "clients"])
    }

    @Test func titleAndDescriptionAreKeptAndShownByListTreesAndSnapshots() {
        let h = HubHarness()
        h.open(1)
        let body: JSON = [
            "type": "createTree", "tree": "t", "title": "A title", "description": "What it shows", "rid": 1,
        ]
        #expect(h.send(1, body).map(\.type) == ["created"])
        #expect(h.send(1, ["type": "createTree", "tree": "plain", "title": ""]).map(\.type) == ["created"])
        let list = h.send(1, ["type": "listTrees"])[0].message?["trees"]?.array ?? []
        #expect(list.map { $0["tree"] } == ["plain", "t"])  // sorted by id
        #expect(list.last?["title"] == "A title")
        #expect(list.last?["description"] == "What it shows")
        #expect(list.first?["title"] == nil)  // empty strings are left out
        let snapshot = h.send(1, ["type": "subscribe", "tree": "t"])[0].message
        #expect(snapshot?["title"] == "A title")
        #expect(snapshot?["description"] == "What it shows")
        #expect(snapshot?["root"]?["id"] == "root")
    }

    @Test(arguments: [
        ["title": 3] as JSON, ["description": ["x"]], ["title": .string(String(repeating: "é", count: 101))],
    ])
    func badTitlesAreBadMessagesAndCreateNothing(extra: JSON) {
        let h = HubHarness()
        h.open(1)
        var body: JSONObject = ["type": "createTree", "tree": "t"]
        body.merge(extra.object!)
        let reply = h.send(1, .object(body))
        #expect(reply.map(\.type) == ["error"])
        #expect(reply.first?.message?["code"] == "bad_message")
        #expect(h.send(1, ["type": "listTrees"])[0].message?["trees"] == [])
    }

    @Test func helloIsAnsweredWithWelcomeAndAdminRoleWithoutTokens() {
        let h = HubHarness()
        h.open(3)
        let r = h.send(3, ["type": "hello", "client": "alice"])
        #expect(r.count == 1)
        #expect(r[0].message?["session"] == "s3")
        #expect(r[0].message?["role"] == "admin")
        #expect(r[0].message?["protocol"] == 1)
    }

    @Test func withTokensAnythingBeforeHelloIsUnauthorizedAndCloses() {
        let h = HubHarness { $0.tokens = [TokenGrant(token: "t-view", role: .viewer)] }
        h.open(1)
        let r = h.send(1, ["type": "listTrees"])
        #expect(r.map(\.type) == ["error", "close"])
        #expect(r[0].message?["code"] == "unauthorized")
        #expect(r[1].close == 1008)
        h.open(2)
        #expect(h.send(2, ["type": "hello", "token": "wrong"]).map(\.type) == ["error", "close"])
        h.open(3)
        #expect(h.send(3, ["type": "hello", "token": "t-view"]).first?.message?["role"] == "viewer")
        #expect(h.send(3, ["type": "listTrees"]).first?.message == ["type": "trees", "trees": []])
    }

    @Test func rolesAndTreePatternsAreEnforced() {
        let h = HubHarness {
            $0.tokens = [
                TokenGrant(token: "v", role: .viewer), TokenGrant(token: "e", role: .editor, trees: ["team-*"]),
                TokenGrant(token: "a", role: .admin),
            ]
        }
        for (s, t) in [(1, "v"), (2, "e"), (3, "a")] as [(SessionID, String)] {
            h.open(s)
            _ = h.send(s, ["type": "hello", "token": .string(t)])
        }
        #expect(h.send(1, ["type": "createTree", "tree": "x"]).first?.message?["code"] == "forbidden")
        #expect(h.send(2, ["type": "createTree", "tree": "team-a"]).first?.message?["code"] == "forbidden")
        #expect(h.send(3, ["type": "createTree", "tree": "team-a"]).first?.type == "created")
        #expect(h.send(3, ["type": "createTree", "tree": "other"]).first?.type == "created")
        let ops: JSON = [["op": "setProps", "node": "root", "props": ["a": 1]]]
        #expect(h.send(1, ["type": "edit", "tree": "team-a", "seq": 1, "ops": ops]).first?.message?["code"] == "forbidden")
        #expect(h.send(2, ["type": "edit", "tree": "other", "seq": 1, "ops": ops]).first?.message?["code"] == "forbidden")
        #expect(h.send(2, ["type": "edit", "tree": "team-a", "seq": 1, "ops": ops]).first?.type == "diff")
        #expect(h.send(2, ["type": "listTrees"]).first?.message?["trees"]?.array?.count == 1)
    }

    @Test func subscribeGivesASnapshotWithReaderValuesAndClients() throws {
        let h = treeHarness()
        _ = h.send(1, ["type": "hello", "client": "alice"])
        let r = h.send(1, ["type": "subscribe", "tree": "demo"])
        #expect(r.map(\.type) == ["snapshot", "clients"])
        let snap = try #require(r[0].message)
        #expect(snap["version"] == 0)
        #expect(snap["readers"] == [["reader": "root#0", "node": "root", "key": "K", "present": true, "value": 1]])
        #expect(snap["clients"] == [["session": "s1", "client": "alice"]])
        #expect(snap["root"]?["children"]?.array?.count == 1)
    }

    @Test func anEditReachesEverySubscriberAndTheAuthorWithContiguousVersions() throws {
        let h = treeHarness()
        h.open(2)
        h.open(3)
        _ = h.send(2, ["type": "subscribe", "tree": "demo"])
        let insert: JSON = [
            "op": "insert", "parent": "root",
            "node": ["id": "b", "type": "Text", "modifiers": [["kind": "preference", "key": "K", "value": 41]]],
        ]
        let r = h.send(3, ["type": "edit", "tree": "demo", "seq": 5, "ops": [insert]])
        #expect(r.map(\.to).sorted() == [2, 3])
        let diff = try #require(r[0].message)
        #expect(diff["type"] == "diff")
        #expect(diff["version"] == 1)
        #expect(diff["author"] == "s3")
        #expect(diff["seq"] == 5)
        #expect(diff["changes"] == [["reader": "root#0", "node": "root", "key": "K", "present": true, "value": 42]])
        #expect(diff["ops"]?[0]?["index"] == 1)
        let second = h.send(3, ["type": "edit", "tree": "demo", "seq": 6, "ops": [["op": "remove", "node": "b"]]])
        #expect(second.first?.message?["version"] == 2)
    }

    @Test func aRejectedEditGoesToTheAuthorOnlyAndChangesNothing() {
        let h = treeHarness()
        h.open(2)
        _ = h.send(2, ["type": "subscribe", "tree": "demo"])
        let r = h.send(1, ["type": "edit", "tree": "demo", "seq": 9, "ops": [
            ["op": "setProps", "node": "a", "props": ["x": 1]], ["op": "remove", "node": "nope"],
        ]])
        #expect(r.count == 1)
        #expect(r[0].to == 1)
        #expect(r[0].message?["type"] == "rejected")
        #expect(r[0].message?["code"] == "no_such_node")
        #expect(r[0].message?["op"] == 1)
        #expect(r[0].message?["seq"] == 9)
        #expect(h.send(1, ["type": "listTrees"]).first?.message?["trees"]?[0]?["version"] == 0)
        #expect(h.send(1, ["type": "probe", "tree": "demo", "node": "a", "key": "K"]).first?.message?["value"] == 1)
    }

    @Test(arguments: [
        ("{", "bad_json"), ("[1,2]", "bad_message"), ("{\"x\":1}", "bad_message"), ("{\"type\":\"frob\"}", "unknown_type"),
        ("{\"type\":\"subscribe\",\"tree\":\"nope\"}", "no_such_tree"), ("{\"type\":\"subscribe\",\"tree\":\"../x\"}", "bad_message"),
        ("{\"type\":\"createTree\",\"tree\":\"demo\"}", "tree_exists"), ("{\"type\":\"edit\",\"tree\":\"demo\"}", "bad_message"),
        ("{\"type\":\"probe\",\"tree\":\"demo\",\"node\":\"zz\",\"key\":\"K\"}", "no_such_node"),
        ("{\"type\":\"probe\",\"tree\":\"demo\",\"node\":\"a\",\"key\":\"Q\"}", "bad_key"),
        ("{\"type\":\"createTree\",\"tree\":\"t2\",\"root\":{\"id\":\"r\",\"type\":\"R\",\"modifiers\":[{\"kind\":\"preference\",\"key\":\"K\",\"value\":1}]}}", "bad_key"),
        ("{\"type\":\"listTrees\",\"n\":NaN}", "bad_json"),
    ])
    func badMessagesGetAnErrorAndChangeNothing(_ text: String, _ code: String) {
        let h = treeHarness()
        let r = h.sendRaw(1, text)
        #expect(r.count == 1)
        // An edit naming its tree is answered with `rejected`, anything else with `error`.
        #expect(r.first?.message?["type"] == (text.contains("\"edit\"") ? "rejected" : "error"))
        #expect(r.first?.message?["code"] == .string(code))
        let trees = h.send(1, ["type": "listTrees"]).first?.message?["trees"]
        #expect(trees == [["tree": "demo", "version": 0, "nodes": 2, "subscribers": 0]])
    }

    @Test func subscribeSinceReplaysMissedDiffsOrFallsBackToASnapshot() {
        let h = treeHarness { $0.diffLogLength = 3 }
        for i in 1...5 {
            _ = h.send(1, ["type": "edit", "tree": "demo", "seq": .int(Int64(i)), "ops": [["op": "setPreference", "node": "a", "key": "K", "value": .int(Int64(i * 10))]]])
        }
        h.open(2)
        let caughtUp = h.send(2, ["type": "subscribe", "tree": "demo", "since": 3])
        // The missed diffs, then `subscribed` (carrying the request's rid, if any), then presence.
        #expect(caughtUp.map(\.type) == ["diff", "diff", "subscribed", "clients"])
        #expect(caughtUp.compactMap { $0.message?["version"] } == [4, 5, 5])
        h.open(3)
        #expect(h.send(3, ["type": "subscribe", "tree": "demo", "since": 1]).first?.type == "snapshot")
        h.open(4)
        h.advance(1)
        let upToDate = h.send(4, ["type": "subscribe", "tree": "demo", "since": 5, "rid": "up"]).filter { $0.to == 4 }
        #expect(upToDate.map(\.type) == ["subscribed", "clients"])
        #expect(upToDate.first?.message?["rid"] == "up")
        let hist = h.send(1, ["type": "history", "tree": "demo", "from": 4, "to": 5]).first?.message
        #expect(hist?["diffs"]?.array?.compactMap { $0["version"] } == [4, 5])
    }

    @Test func traceSubscribersGetTheTraceOthersDoNot() throws {
        let h = treeHarness()
        h.open(2)
        _ = h.send(1, ["type": "subscribe", "tree": "demo", "trace": true])
        _ = h.send(2, ["type": "subscribe", "tree": "demo"])
        let r = h.send(1, ["type": "edit", "tree": "demo", "seq": 1, "ops": [["op": "setPreference", "node": "a", "key": "K", "value": 2]]])
        let mine = try #require(r.first { $0.to == 1 }?.message)
        let theirs = try #require(r.first { $0.to == 2 }?.message)
        #expect(mine["trace"]?["summary"]?["evaluated"] != nil)
        #expect(theirs["trace"] == nil)
        #expect(mine["changes"] == theirs["changes"])
    }

    @Test func presenceIsBroadcastOnJoinAndLeave() {
        let h = treeHarness()
        h.open(2)
        _ = h.send(1, ["type": "subscribe", "tree": "demo"])
        h.advance(1)
        let joined = h.send(2, ["type": "subscribe", "tree": "demo"]).filter { $0.type == "clients" }
        #expect(joined.map(\.to).sorted() == [1, 2])
        #expect(joined.first?.message?["clients"]?.array?.count == 2)
        h.advance(1)
        let left = h.close(2)
        #expect(left.map(\.to) == [1])
        #expect(left.first?.message?["clients"]?.array?.count == 1)
        #expect(left.first?.message?["clientCount"] == 1)
    }

    @Test func presenceChangesWithinAGapAreCoalescedIntoOneUpdateSentByTheTick() {
        let h = treeHarness()
        for s: SessionID in 2...5 { h.open(s) }
        #expect(h.send(1, ["type": "subscribe", "tree": "demo"]).map(\.type) == ["snapshot", "clients"])
        // Three joins and a leave within 100 ms: no update yet; each joiner has the list in its snapshot.
        for s: SessionID in 2...4 {
            let r = h.send(s, ["type": "subscribe", "tree": "demo"])
            #expect(r.map(\.type) == ["snapshot"])
            #expect(r.first?.message?["clientCount"] == .int(Int64(s)))
        }
        #expect(h.close(3).isEmpty)
        h.advance(0.05)
        #expect(h.tick().isEmpty)
        h.advance(0.06)
        let update = h.tick()
        #expect(update.map(\.to).sorted() == [1, 2, 4])
        #expect(update.first?.message?["clients"]?.array?.compactMap { $0["session"]?.string } == ["s1", "s2", "s4"])
        #expect(h.tick().isEmpty)
    }

    @Test func presenceListsAtMostAHundredSubscribersAndCountsThemAll() {
        let h = treeHarness()
        for s: SessionID in 2...150 { h.open(s) }
        for s: SessionID in 1...150 { _ = h.send(s, ["type": "subscribe", "tree": "demo"]) }
        h.advance(1)
        let sent = h.send(2, ["type": "subscribe", "tree": "demo"])
        let snapshot = sent.first { $0.type == "snapshot" }?.message
        #expect(snapshot?["clients"]?.array?.count == 100)
        #expect(snapshot?["clientCount"] == 150)
        // The gap has passed: the update goes out at once, to all 150, listing 100.
        let update = sent.filter { $0.type == "clients" }
        #expect(update.count == 150)
        #expect(update.first?.message?["clients"]?.array?.count == 100)
    }

    @Test func deleteTreeTellsTheCallerAndEverySubscriber() {
        let h = treeHarness()
        h.open(2)
        _ = h.send(2, ["type": "subscribe", "tree": "demo"])
        let r = h.send(1, ["type": "deleteTree", "tree": "demo"])
        #expect(r.map(\.to).sorted() == [1, 2])
        #expect(r.allSatisfy { $0.type == "deleted" })
        #expect(h.send(1, ["type": "listTrees"]).first?.message?["trees"] == [])
    }

    @Test func editsBeyondTheRateLimitAreRejected() {
        let h = treeHarness { $0.editsPerSecond = 2 }
        let edit: JSON = ["type": "edit", "tree": "demo", "ops": [["op": "setProps", "node": "a", "props": ["x": 1]]]]
        #expect(h.send(1, edit).first?.type == "diff")
        #expect(h.send(1, edit).first?.type == "diff")
        let third = h.send(1, edit).first?.message
        #expect(third?["type"] == "rejected")
        #expect(third?["code"] == "rate_limited")
        h.advance(1)
        #expect(h.send(1, edit).first?.type == "diff")
    }
}
