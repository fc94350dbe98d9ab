import CanopyCore
import Foundation
import Synchronization
import Testing

@testable import CanopyServer
@testable import CanopyWebSocket
@testable import CanopyStore

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon as its clients see it: a `Hub` behind a `ServiceLoop` on an ephemeral loopback port, driven by real
/// WebSocket connections (the blocking client of TestWebSocketClient.swift). `HubTests` checks the protocol state
/// machine without sockets; this suite checks the contract of PROTOCOL.md over the wire: every message type, every
/// error code a client can cause (each followed by proof that the session still works), a message of exactly the size
/// limit sent in small fragments, and eight clients editing one tree at once whose replicas must all converge.
///
/// Transport-only behaviour is in `ServiceLoopTests` (the 1009 close for an oversized message, loopback-only binds,
/// slow readers, shutdown); SIGTERM → exit 0 of the real binary is in Tests/e2e/daemon_smoke.py.
@Suite struct DaemonSocketTests {
    static let grants = [
        TokenGrant(token: "v-token", role: .viewer), TokenGrant(token: "e-token", role: .editor, trees: ["team-*"]),
        TokenGrant(token: "a-token", role: .admin),
    ]

    // MARK: Session

    @Test func withTokensHelloWelcomesEachRoleAndAnythingElseIsUnauthorizedAndClosed() throws {
        let daemon = try DaemonUnderTest(hub: { $0.tokens = Self.grants })
        defer { daemon.stop() }
        var sessions: [String] = []
        for (token, role) in [("v-token", "viewer"), ("e-token", "editor"), ("a-token", "admin")] {
            let client = try daemon.connect()
            let welcome = try client.request(["type": "hello", "client": "cli", "token": .string(token), "rid": 1])
            #expect(welcome["type"] == "welcome")
            #expect(welcome["role"] == .string(role))
            #expect(welcome["protocol"] == 1)
            #expect(welcome["rid"] == 1)
            #expect(welcome["server"]?.string?.hasPrefix("canopyd/") == true)
            sessions.append(welcome["session"]?.string ?? "")
            #expect(try client.answersListTrees())
        }
        #expect(sessions == ["s1", "s2", "s3"])

        let refused: [(String, JSON)] = [
            ("a message before hello", ["type": "listTrees", "rid": "early"]),
            ("createTree before hello", ["type": "createTree", "tree": "sneaky", "rid": "early"]),
            ("a wrong token", ["type": "hello", "client": "mallory", "token": "guess", "rid": "early"]),
            ("no token", ["type": "hello", "client": "mallory", "rid": "early"]),
        ]
        for (what, message) in refused {
            let client = try daemon.connect()
            let error = try client.request(message)
            #expect(error["type"] == "error", "\(what)")
            #expect(error["code"] == "unauthorized", "\(what)")
            #expect(error["rid"] == "early", "\(what)")
            #expect(try client.nextEvent() == .close(code: 1008, reason: "unauthorized"), "\(what)")
            try client.webSocket.sendClose(code: 1008)
        }
        let admin = try daemon.connect()
        _ = try admin.request(["type": "hello", "token": "a-token"])
        #expect(try admin.request(["type": "listTrees"])["trees"] == [])  // the refused createTree created nothing
    }

    @Test func rolesAndTreePatternsDecideWhatASessionMayDo() throws {
        let daemon = try DaemonUnderTest(hub: { $0.tokens = Self.grants })
        defer { daemon.stop() }
        let admin = try daemon.connect()
        let editor = try daemon.connect()
        let viewer = try daemon.connect()
        for (client, token) in [(admin, "a-token"), (editor, "e-token"), (viewer, "v-token")] {
            #expect(try client.request(["type": "hello", "token": .string(token)])["type"] == "welcome")
        }
        for id in ["team-a", "other"] {
            #expect(try admin.request(Fixture.create(id))["type"] == "created")
        }
        func forbidden(_ client: DaemonClient, _ message: JSON, _ what: String) throws {
            let reply = try client.request(message.setting("rid", "no"))
            #expect(reply["type"] == (message["type"] == "edit" ? "rejected" : "error"), "\(what): \(reply.encoded())")
            #expect(reply["code"] == "forbidden", "\(what): \(reply.encoded())")
            #expect(reply["rid"] == "no", "\(what)")
            #expect(try client.answersListTrees(), "\(what)")
        }

        // A viewer reads everything and changes nothing.
        #expect(
            try viewer.request(["type": "listTrees"])["trees"]?.array?.compactMap { $0["tree"] } == ["other", "team-a"])
        #expect(try viewer.request(["type": "subscribe", "tree": "other"])["type"] == "snapshot")
        #expect(try viewer.next()["type"] == "clients")
        #expect(try viewer.request(["type": "probe", "tree": "other", "node": "root", "key": "S"])["value"] == 3)
        #expect(try viewer.request(["type": "history", "tree": "other"])["diffs"] == [])
        try forbidden(viewer, Fixture.edit("other", seq: 1, [Fixture.setS("a", 9)]), "viewer edits")
        try forbidden(viewer, Fixture.create("mine"), "viewer creates")
        try forbidden(viewer, ["type": "deleteTree", "tree": "other"], "viewer deletes")

        // An editor limited to team-* edits there and sees nothing else.
        #expect(try editor.request(["type": "listTrees"])["trees"]?.array?.compactMap { $0["tree"] } == ["team-a"])
        let diff = try editor.request(Fixture.edit("team-a", seq: 1, [Fixture.setS("a", 9)]))
        #expect(diff["type"] == "diff")
        #expect(diff["changes"] == [Fixture.rootReader(11)])
        try forbidden(editor, Fixture.edit("other", seq: 2, [Fixture.setS("a", 9)]), "editor edits outside its trees")
        try forbidden(editor, ["type": "subscribe", "tree": "other"], "editor reads outside its trees")
        try forbidden(editor, ["type": "probe", "tree": "other", "node": "a", "key": "S"], "editor probes outside")
        try forbidden(editor, ["type": "history", "tree": "other"], "editor asks history outside")
        try forbidden(editor, Fixture.create("team-b"), "editor creates")
        try forbidden(editor, ["type": "deleteTree", "tree": "team-a"], "editor deletes")

        // Nothing forbidden changed anything; the admin deletes.
        let trees = try admin.request(["type": "listTrees"])["trees"]
        #expect(
            trees?.array?.map { JSON.array([$0["tree"] ?? .null, $0["version"] ?? .null]) } == [
                ["other", 0], ["team-a", 1],
            ])
        #expect(try admin.request(["type": "deleteTree", "tree": "other"])["type"] == "deleted")
        #expect(try viewer.next()["type"] == "deleted")  // it was subscribed
    }

    // MARK: Errors

    /// Every code of `ErrorCode` that a client without tokens or rate limit can cause, each over the same session,
    /// which keeps answering, while the tree stays as it was and a subscriber hears nothing of it. `unauthorized`,
    /// `forbidden` and `rate_limited` need a configured daemon and have their own tests; `too_large` is never sent:
    /// an oversized message closes the connection with 1009 instead (see the big-message test).
    @Test func everyErrorCodeAClientCanCauseArrivesOverTheSocketAndChangesNothing() throws {
        let daemon = try DaemonUnderTest(hub: {
            $0.limits = Limits(maxDepth: 4, maxNodes: 12, maxModifiers: 3, fuel: 3)
            $0.keyCompiler = SumKeyCompiler()
        })
        defer { daemon.stop() }
        let client = try daemon.connect()
        let watcher = try daemon.connect()
        #expect(try client.request(Fixture.create("t", keys: [Fixture.sumKey, Fixture.lastKey]))["type"] == "created")
        #expect(try watcher.request(["type": "subscribe", "tree": "t"])["type"] == "snapshot")
        #expect(try watcher.next()["type"] == "clients")

        var seen = Set<String>()
        var seq: Int64 = 0
        func expectError(_ what: String, _ reply: JSON, type: String = "error", code: String, rid: JSON?) {
            #expect(reply["type"] == .string(type), "\(what): \(reply.encoded())")
            #expect(reply["code"] == .string(code), "\(what): \(reply.encoded())")
            #expect(reply["message"]?.string?.isEmpty == false, "\(what)")
            #expect(reply["rid"] == rid, "\(what): \(reply.encoded())")
            seen.insert(reply["code"]?.string ?? "")
        }
        func text(_ what: String, _ text: String, _ code: String) throws {
            try client.send(text: text)
            expectError(what, try client.next(), code: code, rid: nil)
            #expect(try client.answersListTrees(), "\(what)")
        }
        func message(_ what: String, _ body: JSON, _ code: String) throws {
            let reply = try client.request(body.setting("rid", .string(what)))
            // An edit that names its tree is answered with `rejected` (carrying its seq) whatever failed.
            let isEdit = body["type"] == "edit" && body["tree"]?.string != nil
            expectError(what, reply, type: isEdit ? "rejected" : "error", code: code, rid: .string(what))
            if isEdit { #expect(reply["seq"] == body["seq"], "\(what)") }
            #expect(try client.answersListTrees(), "\(what)")
        }
        /// A batch whose first op is valid (it would change the reader) and whose second fails.
        func batch(_ what: String, _ failing: JSON, _ code: String, op: Int? = 1) throws {
            seq += 1
            let ops: [JSON] = [Fixture.setS("a", 100), failing]
            let reply = try client.request(Fixture.edit("t", seq: .int(seq), ops).setting("rid", .string(what)))
            expectError(what, reply, type: "rejected", code: code, rid: .string(what))
            #expect(reply["seq"] == .int(seq), "\(what)")
            #expect(reply["tree"] == "t", "\(what)")
            #expect(reply["op"] == op.map { .int(Int64($0)) }, "\(what): \(reply.encoded())")
            #expect(try client.answersListTrees(), "\(what)")
        }

        // bad_json: anything that is not exactly one valid JSON text.
        try text("truncated", #"{"type":"listTrees""#, "bad_json")
        try text("NaN", #"{"type":"listTrees","n":NaN}"#, "bad_json")
        try text("a duplicate key", #"{"type":"listTrees","type":"listTrees"}"#, "bad_json")
        try text("trailing data", #"{"type":"listTrees"} {}"#, "bad_json")
        try text("single quotes", "{'type':'listTrees'}", "bad_json")
        try text("an integer beyond 64 bits", #"{"type":"listTrees","n":123456789012345678901234567890}"#, "bad_json")
        try text("an empty message", "", "bad_json")
        let tooDeep = HubConfiguration().maxJSONDepth + 1
        let deep = String(repeating: "[", count: tooDeep) + String(repeating: "]", count: tooDeep)
        try text("nesting deeper than the limit", #"{"type":"listTrees","x":"# + deep + "}", "bad_json")
        // In a binary frame: in a text frame, invalid UTF-8 closes the session with 1007 (WebSocketConformanceTests).
        try client.webSocket.send(
            bytes: Array(#"{"type":"listTrees","x":""#.utf8) + [0xC3, 0x28] + Array("\"}".utf8), opcode: 2)
        expectError("invalid UTF-8", try client.next(), code: "bad_json", rid: nil)
        #expect(try client.answersListTrees())

        // bad_message and unknown_type: valid JSON that is not a valid message.
        try text("an array", "[1,2]", "bad_message")
        try text("a string", #""listTrees""#, "bad_message")
        try message("no type", ["kind": "listTrees"], "bad_message")
        try message("a type that is not a string", ["type": 7], "bad_message")
        try message("an unknown type", ["type": "frobnicate"], "unknown_type")
        try message("an edit without ops", ["type": "edit", "tree": "t", "seq": 1], "bad_message")
        try message("a probe without node", ["type": "probe", "tree": "t", "key": "S"], "bad_message")
        try message("a tree id that is a path", ["type": "subscribe", "tree": "../t"], "bad_message")
        try message("a tree id with a space", ["type": "createTree", "tree": "a b"], "bad_message")
        try message("an empty tree id", ["type": "createTree", "tree": ""], "bad_message")
        try message("a tree id of 129 characters", Fixture.create(String(repeating: "x", count: 129)), "bad_message")
        try message("a tree id that is a number", ["type": "subscribe", "tree": 5], "bad_message")
        try message("a root without a type", ["type": "createTree", "tree": "u", "root": ["id": "r"]], "bad_message")

        // Trees that do or do not exist.
        for type in ["subscribe", "unsubscribe", "probe", "inspect", "history", "deleteTree"] {
            try message(
                "\(type) of a missing tree", ["type": .string(type), "tree": "nope", "node": "a", "key": "S"],
                "no_such_tree")
        }
        try message("an edit of a missing tree", Fixture.edit("nope", seq: 1, [Fixture.setS("a", 1)]), "no_such_tree")
        try message("creating an existing tree", Fixture.create("t"), "tree_exists")

        // Probes.
        try message(
            "a probe of a missing node", ["type": "probe", "tree": "t", "node": "zz", "key": "S"], "no_such_node")
        try message("a probe of an undeclared key", ["type": "probe", "tree": "t", "node": "a", "key": "Q"], "bad_key")

        // createTree validates like an edit.
        try message("a root writing an undeclared key", Fixture.create("u", keys: []), "bad_key")
        try message(
            "a default of the wrong type",
            Fixture.create("u", keys: [["key": "S", "reducer": "sum", "default": "zero"]]), "type_mismatch")
        try message(
            "a root with a duplicate id",
            Fixture.create(
                "u", root: ["id": "r", "type": "VStack", "children": [Fixture.leaf("x"), Fixture.leaf("x")]]),
            "duplicate_id")
        try message(
            "a root deeper than the limit", Fixture.create("u", root: Fixture.chain("d", length: 6)), "too_deep")
        try message(
            "a root with more nodes than the limit",
            Fixture.create(
                "u", root: ["id": "r", "type": "VStack", "children": .array((0..<12).map { Fixture.leaf("x\($0)") })]),
            "too_many")

        // Batches: rejected to the author, naming the failing op; the valid op before it is undone.
        try batch("remove a missing node", ["op": "remove", "node": "zz"], "no_such_node")
        try batch(
            "insert an existing id", ["op": "insert", "parent": "root", "node": Fixture.leaf("c")], "duplicate_id")
        try batch("move a node into its own child", ["op": "move", "node": "b", "parent": "c"], "cycle")
        try batch("move a node into itself", ["op": "move", "node": "b", "parent": "b"], "cycle")
        try batch(
            "insert at an index past the end",
            ["op": "insert", "parent": "root", "node": Fixture.leaf("x"), "index": 3],
            "bad_index")
        try batch(
            "insert after a node of another parent",
            ["op": "insert", "parent": "root", "node": Fixture.leaf("x"), "after": "c"], "bad_index")
        try batch("write an undeclared key", ["op": "setPreference", "node": "a", "key": "Q", "value": 1], "bad_key")
        try batch(
            "write a string to a sum", ["op": "setPreference", "node": "a", "key": "S", "value": "many"],
            "type_mismatch")
        try batch(
            "re-declare a key its writers no longer fit",
            ["op": "declareKey", "key": "S", "reducer": "nest", "default": ""],
            "type_mismatch")
        try batch(
            "insert below the depth limit", ["op": "insert", "parent": "c", "node": Fixture.chain("d", length: 3)],
            "too_deep")
        try batch(
            "insert past the node limit",
            [
                "op": "insert", "parent": "root",
                "node": ["id": "x", "type": "VStack", "children": .array((0..<8).map { Fixture.leaf("x\($0)") })],
            ],
            "too_many")
        try batch(
            "set more modifiers than the limit",
            ["op": "setModifiers", "node": "a", "modifiers": .array((0..<4).map { _ in ["kind": "padding"] })],
            "too_many")
        try batch("remove the root", ["op": "remove", "node": "root"], "bad_message")
        try batch("an unknown op", ["op": "explode", "node": "a"], "bad_message")
        // Keys written in Swift (SumKeyCompiler): code that does not compile, faults, or runs out of fuel.
        let badKey: JSON = ["key": "S", "swift": "struct S {"]
        try message("a Swift key that does not compile", Fixture.create("u", keys: [badKey]), "compile_error")
        try batch(
            "declare a Swift key that does not compile", ["op": "declareKey", "key": "S", "swift": "struct S {"],
            "compile_error")
        #expect(try client.request(Fixture.create("w", keys: [["key": "S", "swift": "sum"]]))["type"] == "created")
        try message("a Swift reduce that faults", Fixture.edit("w", seq: 1, [Fixture.setS("a", 2000)]), "runtime_error")
        let writers: [JSON] = (0..<3).map { ["op": "insert", "parent": "root", "node": Fixture.text("w\($0)", 1)] }
        try message("Swift code out of fuel", Fixture.edit("w", seq: 2, writers), "too_expensive")
        #expect(try client.request(["type": "deleteTree", "tree": "w"])["type"] == "deleted")

        seq += 1
        let notAnArray = try client.request([
            "type": "edit", "tree": "t", "seq": .int(seq), "ops": ["op": "remove"], "rid": 0,
        ])
        expectError("ops that are not an array", notAnArray, type: "rejected", code: "bad_message", rid: 0)
        #expect(notAnArray["op"] == nil)

        let expected = Set(ErrorCode.allCases.map(\.rawValue)).subtracting([
            "unauthorized", "forbidden", "rate_limited", "too_large",
            "storage_error",  // needs a failing store: TreeStore and durability tests
            "program_tree", "bad_event",  // program trees: ProgramTransactionTests, over the socket too
            "unavailable",  // cluster mode only: ClusterMachineTests, Tests/e2e/cluster_test.py
        ])
        #expect(seen == expected)

        // Nothing changed: the version, the reader's value, the trees; the subscriber heard only the next real edit.
        let trees = try client.request(["type": "listTrees"])["trees"]
        #expect(trees == [["tree": "t", "version": 0, "nodes": 4, "subscribers": 1]])
        #expect(try client.request(Fixture.probe("t", "root"))["value"] == 3)
        let accepted = try client.request(Fixture.edit("t", seq: "ok", [Fixture.setS("a", 5)]))
        #expect(accepted["version"] == 1)
        let heard = try watcher.next()
        #expect(heard["type"] == "diff")
        #expect(heard["seq"] == "ok")
        #expect(heard["changes"] == [Fixture.rootReader(7)])
    }

    @Test func editsBeyondTheConfiguredRateAreRejectedWithRateLimited() throws {
        let daemon = try DaemonUnderTest(hub: { $0.editsPerSecond = 2 })
        defer { daemon.stop() }
        let author = try daemon.connect()
        let watcher = try daemon.connect()
        #expect(try author.request(Fixture.create("t"))["type"] == "created")
        #expect(try watcher.request(["type": "subscribe", "tree": "t"])["type"] == "snapshot")
        #expect(try watcher.next()["type"] == "clients")

        // Ten edits in one write: the bucket holds two.
        let burst = 10
        var wire: [UInt8] = []
        for i in 1...burst {
            let edit = Fixture.edit("t", seq: .int(Int64(i)), [Fixture.setS("a", i)]).setting("rid", .int(Int64(i)))
            wire += TestWebSocket.frame(opcode: 1, payload: Array(edit.encoded().utf8), final: true)
        }
        let start = Date()
        try author.webSocket.socket.write(wire)
        var accepted: [JSON] = []
        var limited: [JSON] = []
        for _ in 1...burst {
            let reply = try author.next()
            if reply["type"] == "diff" { accepted.append(reply) } else { limited.append(reply) }
        }
        let elapsed = Date().timeIntervalSince(start)
        #expect(accepted.count >= 2)
        #expect(Double(accepted.count) <= 2 + 2 * elapsed + 1, "\(accepted.count) accepted in \(elapsed) s")
        #expect(!limited.isEmpty)
        for reply in limited {
            #expect(reply["type"] == "rejected")
            #expect(reply["code"] == "rate_limited")
            #expect(reply["rid"] != nil && reply["rid"] == reply["seq"])
        }
        #expect(accepted.compactMap { $0["version"] } == (1...accepted.count).map { .int(Int64($0)) })
        // The subscriber got exactly the accepted diffs, and the bucket refills with time.
        for diff in accepted { #expect(try watcher.next()["version"] == diff["version"]) }
        usleep(1_100_000)
        let later = try author.request(Fixture.edit("t", seq: "later", [Fixture.setS("a", 0)]))
        #expect(later["type"] == "diff")
        #expect(later["version"] == .int(Int64(accepted.count + 1)))
        #expect(try watcher.next()["seq"] == "later")
    }

    // MARK: Trees

    @Test func treesAreListedCreatedAndDeletedAndDeletionReachesEverySubscriber() throws {
        let daemon = try DaemonUnderTest()
        defer { daemon.stop() }
        let admin = try daemon.connect()
        let subscriber = try daemon.connect()
        #expect(try admin.request(["type": "listTrees", "rid": 1]) == ["type": "trees", "trees": [], "rid": 1])

        let created = try admin.request(Fixture.create("demo").setting("rid", "c1"))
        #expect(created["type"] == "created")
        #expect(created["tree"] == "demo")
        #expect(created["version"] == 0)
        #expect(created["rid"] == "c1")
        let longest = String(repeating: "x", count: 128)
        for id in ["bare", "Az09._-", longest] {
            #expect(try admin.request(["type": "createTree", "tree": .string(id)])["type"] == "created", "\(id)")
        }
        let bare = try subscriber.request(["type": "subscribe", "tree": "bare"])
        #expect(bare["root"] == ["id": "root", "type": "Root", "props": [:], "modifiers": [], "children": []])
        #expect(bare["keys"] == [])
        #expect(bare["readers"] == [])
        #expect(try subscriber.next()["type"] == "clients")

        #expect(try subscriber.request(["type": "subscribe", "tree": "demo"])["version"] == 0)
        #expect(try subscriber.next()["type"] == "clients")
        #expect(try admin.request(["type": "subscribe", "tree": "demo"])["type"] == "snapshot")
        #expect(try admin.next()["type"] == "clients")
        #expect(try subscriber.next()["type"] == "clients")
        let listed = try admin.request(["type": "listTrees"])["trees"]
        #expect(
            listed == [
                ["tree": "Az09._-", "version": 0, "nodes": 1, "subscribers": 0],
                ["tree": "bare", "version": 0, "nodes": 1, "subscribers": 1],
                ["tree": "demo", "version": 0, "nodes": 4, "subscribers": 2],
                ["tree": .string(longest), "version": 0, "nodes": 1, "subscribers": 0],
            ])

        // Deleting: one `deleted` to the caller (subscribed itself) and one to the other subscriber, nothing more.
        #expect(
            try admin.request(["type": "deleteTree", "tree": "demo", "rid": "d"]) == [
                "type": "deleted", "tree": "demo", "rid": "d",
            ])
        #expect(try subscriber.next() == ["type": "deleted", "tree": "demo"])
        #expect(try admin.answersListTrees())
        #expect(try subscriber.answersListTrees())
        #expect(
            try admin.request(["type": "listTrees"])["trees"]?.array?.compactMap { $0["tree"] } == [
                "Az09._-", "bare", .string(longest),
            ])
        #expect(try admin.request(Fixture.edit("demo", seq: 1, [Fixture.setS("a", 1)]))["code"] == "no_such_tree")

        // A tree created again under the same id starts over, without the old subscribers.
        #expect(try admin.request(Fixture.create("demo"))["version"] == 0)
        let diff = try admin.request(Fixture.edit("demo", seq: 1, [Fixture.setS("a", 1)]))
        #expect(diff["type"] == "diff")
        #expect(diff["version"] == 1)
        #expect(try subscriber.answersListTrees())  // the diff did not reach it
        #expect(try admin.request(["type": "history", "tree": "demo"])["diffs"]?.array?.count == 1)
    }

    @Test func subscribeSinceReplaysTheMissedDiffsOrFallsBackToASnapshot() throws {
        let daemon = try DaemonUnderTest(hub: { $0.diffLogLength = 3 })
        defer { daemon.stop() }
        let author = try daemon.connect()
        #expect(try author.request(Fixture.create("log"))["type"] == "created")
        var broadcast: [String] = []
        for i in 1...5 {
            try author.send(Fixture.edit("log", seq: .int(Int64(i)), [Fixture.setS("a", i * 10)]))
            broadcast.append(try author.nextText())
        }
        let versions = try broadcast.map { try JSONParser.parse($0)["version"] }
        #expect(versions == [1, 2, 3, 4, 5])

        // The log (3 long) still covers `since` 2, 3 and 4: exactly the missed diffs, byte for byte, then presence.
        for since in 2...4 {
            let late = try daemon.connect()
            try late.send(["type": "subscribe", "tree": "log", "since": .int(Int64(since))])
            for missed in broadcast[since...] { #expect(try late.nextText() == missed, "since \(since)") }
            #expect(try late.next()["type"] == "subscribed", "since \(since)")
            #expect(try late.next()["type"] == "clients", "since \(since)")
            #expect(try late.answersListTrees())
        }
        // Up to date: `subscribed` (with the rid) and the presence update.
        let current = try daemon.connect()
        try current.send(["type": "subscribe", "tree": "log", "since": 5, "rid": 9])
        let subscribed = try current.next()
        #expect(subscribed == ["type": "subscribed", "tree": "log", "version": 5, "rid": 9])
        #expect(try current.next()["type"] == "clients")
        #expect(try current.answersListTrees())
        // Older than the log, ahead of the tree, or no since: a snapshot.
        for since: JSON? in [1, 0, -4, 9, nil] {
            let fresh = try daemon.connect()
            var subscribe: JSON = ["type": "subscribe", "tree": "log", "rid": "s"]
            if let since { subscribe = subscribe.setting("since", since) }
            let snapshot = try fresh.request(subscribe)
            #expect(snapshot["type"] == "snapshot", "since \(since?.encoded() ?? "none")")
            #expect(snapshot["version"] == 5)
            #expect(snapshot["rid"] == "s")
            #expect(snapshot["readers"] == [Fixture.rootReader(52)])
            #expect(try fresh.next()["type"] == "clients")
        }

        // History: what the log keeps, as broadcast.
        let logged = try broadcast[2...].map { try JSONParser.parse($0) }
        #expect(try author.request(["type": "history", "tree": "log"])["diffs"] == .array(logged))
        #expect(try author.request(["type": "history", "tree": "log", "from": 4, "to": 4])["diffs"] == [logged[1]])
        #expect(try author.request(["type": "history", "tree": "log", "from": 1, "to": 2])["diffs"] == [])
    }

    @Test func presenceFollowsSubscribersJoiningUnsubscribingAndDisconnecting() throws {
        let daemon = try DaemonUnderTest()
        defer { daemon.stop() }
        let alice = try daemon.connect(as: "alice")
        let bob = try daemon.connect(as: "bob")
        let anonymous = try daemon.connect()
        #expect(try alice.request(Fixture.create("p"))["type"] == "created")
        let aliceEntry: JSON = ["session": .string(alice.session), "client": "alice"]
        let bobEntry: JSON = ["session": .string(bob.session), "client": "bob"]
        let presence = { (clients: JSON) -> JSON in
            ["type": "clients", "tree": "p", "clients": clients, "clientCount": .int(Int64(clients.array!.count))]
        }

        #expect(try alice.request(["type": "subscribe", "tree": "p"])["clients"] == [aliceEntry])
        #expect(try alice.next() == presence([aliceEntry]))
        #expect(try bob.request(["type": "subscribe", "tree": "p"])["clients"] == [aliceEntry, bobEntry])
        #expect(try bob.next() == presence([aliceEntry, bobEntry]))
        #expect(try alice.next() == presence([aliceEntry, bobEntry]))

        // Unsubscribing: a reply with the rid, presence to those left, and no more diffs.
        #expect(
            try bob.request(["type": "unsubscribe", "tree": "p", "rid": 4]) == [
                "type": "unsubscribed", "tree": "p", "rid": 4,
            ])
        #expect(try alice.next() == presence([aliceEntry]))
        _ = try anonymous.request(Fixture.edit("p", seq: 1, [Fixture.setS("a", 2)]))
        #expect(try alice.next()["type"] == "diff")
        #expect(try bob.answersListTrees())

        // A session without hello is listed with an empty name; a disconnect counts as leaving.
        #expect(try anonymous.request(["type": "subscribe", "tree": "p"])["type"] == "snapshot")
        let anonymousEntry: JSON = ["session": .string("s3"), "client": ""]
        #expect(try anonymous.next() == presence([aliceEntry, anonymousEntry]))
        #expect(try alice.next() == presence([aliceEntry, anonymousEntry]))
        try anonymous.webSocket.sendClose()
        #expect(try alice.next() == presence([aliceEntry]))
        #expect(try alice.request(["type": "listTrees"])["trees"]?[0]?["subscribers"] == 1)
    }

    // MARK: Edits

    @Test func anAcceptedEditReachesEverySubscriberAndTheAuthorAsTheSameDiff() throws {
        let daemon = try DaemonUnderTest()
        defer { daemon.stop() }
        let author = try daemon.connect(as: "author")
        let first = try daemon.connect()
        let second = try daemon.connect()
        #expect(try author.request(Fixture.create("t"))["type"] == "created")
        _ = try first.request(["type": "subscribe", "tree": "t"])
        _ = try first.next()
        _ = try second.request(["type": "subscribe", "tree": "t"])
        _ = try second.next()
        #expect(try first.next()["type"] == "clients")

        // The author is not subscribed and still gets the diff; all three get the same bytes.
        try author.send(
            Fixture.edit(
                "t", seq: "first",
                [
                    ["op": "insert", "parent": "root", "node": Fixture.text("d", 4), "after": "a"],
                    ["op": "setProps", "node": "a", "props": ["label": "A", "gone": .null]],
                ]))
        let text = try author.nextText()
        #expect(try first.nextText() == text)
        #expect(try second.nextText() == text)
        let diff = try JSONParser.parse(text)
        #expect(diff["type"] == "diff")
        #expect(diff["tree"] == "t")
        #expect(diff["version"] == 1)
        #expect(diff["author"] == .string(author.session))
        #expect(diff["seq"] == "first")
        // Ops come back normalized: the position as an index, the node in full.
        #expect(
            diff["ops"]?[0] == [
                "op": "insert", "parent": "root",
                "node": [
                    "id": "d", "type": "Text", "props": [:], "modifiers": [Fixture.writer("S", 4)], "children": [],
                ],
                "index": 1,
            ])
        #expect(diff["changes"] == [Fixture.rootReader(7)])

        // A move that keeps the sum fires nothing; the version still grows by one.
        try author.send(Fixture.edit("t", seq: 2, [["op": "move", "node": "d", "parent": "root", "before": "a"]]))
        let moved = try author.nextText()
        #expect(try first.nextText() == moved)
        #expect(try second.nextText() == moved)
        #expect(try JSONParser.parse(moved)["version"] == 2)
        #expect(try JSONParser.parse(moved)["ops"] == [["op": "move", "node": "d", "parent": "root", "index": 0]])
        #expect(try JSONParser.parse(moved)["changes"] == [])

        let snapshot = try author.request(["type": "subscribe", "tree": "t"])
        #expect(snapshot["root"]?["children"]?.array?.compactMap { $0["id"] } == ["d", "a", "b"])
        #expect(snapshot["root"]?["children"]?[1]?["props"] == ["label": "A"])
        #expect(snapshot["version"] == 2)
    }

    @Test func probeEvaluatesOnDemandAndReportsAbsentValues() throws {
        let daemon = try DaemonUnderTest()
        defer { daemon.stop() }
        let client = try daemon.connect()
        let root: JSON = [
            "id": "root", "type": "VStack",
            "children": [
                Fixture.text("a", 1),
                ["id": "b", "type": "Text", "modifiers": [["kind": "background", "node": Fixture.text("bg", 5)]]],
            ],
        ]
        #expect(
            try client.request(Fixture.create("t", keys: [Fixture.sumKey, Fixture.lastKey], root: root))["type"]
                == "created")
        let probe = try client.request(Fixture.probe("t", "root").setting("rid", "p"))
        #expect(
            probe == [
                "type": "value", "tree": "t", "version": 0, "node": "root", "key": "S", "present": true, "value": 6,
                "rid": "p",
            ])
        #expect(try client.request(Fixture.probe("t", "bg"))["value"] == 5)
        let absent = try client.request(["type": "probe", "tree": "t", "node": "root", "key": "L"])
        #expect(absent == ["type": "value", "tree": "t", "version": 0, "node": "root", "key": "L", "present": false])
        _ = try client.request(Fixture.edit("t", seq: 1, [Fixture.setS("bg", 10)]))
        let after = try client.request(Fixture.probe("t", "root"))
        #expect(after["version"] == 1)
        #expect(after["value"] == 11)
        // A probe creates no reader: the snapshot lists none.
        #expect(try client.request(["type": "subscribe", "tree": "t"])["readers"] == [])
    }

    @Test func onlySubscribersThatAskedForTracesGetThem() throws {
        let daemon = try DaemonUnderTest()
        defer { daemon.stop() }
        let author = try daemon.connect()
        let tracing = try daemon.connect()
        let plain = try daemon.connect()
        #expect(try author.request(Fixture.create("t"))["type"] == "created")
        let traced = try tracing.request(["type": "subscribe", "tree": "t", "trace": true])
        #expect(traced["trace"]?["events"]?.array?.contains(Self.fire(3)) == true)
        #expect(traced["trace"]?["summary"]?["evaluated"]?.isNumber == true)
        _ = try tracing.next()
        #expect(try plain.request(["type": "subscribe", "tree": "t"])["trace"] == nil)
        _ = try plain.next()
        _ = try tracing.next()

        _ = try author.request(Fixture.edit("t", seq: 1, [Fixture.setS("c", 5)]))
        let withTrace = try tracing.next()
        let withoutTrace = try plain.next()
        let events = withTrace["trace"]?["events"]?.array ?? []
        #expect(events.contains(Self.fire(6)))
        #expect(events.contains { $0["e"] == "reduce" && ($0["depth"]?.number ?? 0) >= 1 })
        #expect(events.allSatisfy { $0["depth"]?.isNumber == true })
        #expect(withoutTrace["trace"] == nil)
        #expect(withTrace.removing("trace") == withoutTrace)

        // Subscribing again without trace turns it off; then nobody gets a trace.
        #expect(try tracing.request(["type": "subscribe", "tree": "t"])["trace"] == nil)
        _ = try tracing.next()
        _ = try plain.next()
        let quiet = try author.request(Fixture.edit("t", seq: 2, [Fixture.setS("c", 6)]))
        #expect(quiet["trace"] == nil)
        #expect(try tracing.next()["trace"] == nil)
        #expect(try plain.next()["trace"] == nil)
    }

    static func fire(_ value: Int) -> JSON {
        [
            "e": "fire", "reader": "root#0", "node": "root", "key": "S", "present": true, "value": .int(Int64(value)),
            "depth": 0,
        ]
    }

    @Test func everyDirectReplyEchoesTheRequestsRid() throws {
        let daemon = try DaemonUnderTest()
        defer { daemon.stop() }
        let client = try daemon.connect()
        let requests: [(JSON, String)] = [
            (["type": "hello", "client": "r"], "welcome"),
            (["type": "listTrees"], "trees"),
            (Fixture.create("t"), "created"),
            (["type": "subscribe", "tree": "t"], "snapshot"),
            (Fixture.probe("t", "a"), "value"),
            (["type": "history", "tree": "t"], "history"),
            (["type": "unsubscribe", "tree": "t"], "unsubscribed"),
            (Fixture.edit("t", seq: 1, [["op": "remove", "node": "zz"]]), "rejected"),
            (["type": "frobnicate"], "error"),
            (["type": "deleteTree", "tree": "t"], "deleted"),
        ]
        for rid: JSON in ["r-1", 42, 2.5, ""] {
            for (request, type) in requests {
                let reply = try client.request(request.setting("rid", rid))
                #expect(reply["type"] == .string(type), "\(request.encoded())")
                #expect(reply["rid"] == rid, "\(reply.encoded())")
                if type == "snapshot" { _ = try client.next() }  // the presence update carries no rid
            }
        }
        // A rid is a string or a number: anything else is a bad_message (without the rid), and nothing is done.
        for rid: JSON in [["x": 1], [1], true, .null] {
            try client.send(["type": "listTrees", "rid": rid])
            let reply = try client.next()
            #expect(reply["type"] == "error")
            #expect(reply["code"] == "bad_message")
            #expect(reply["rid"] == nil, "\(rid.encoded())")
        }
    }

    /// A subscriber that stops reading is closed with 1008 once its outgoing queue overflows (ServiceLoopTests covers
    /// the transport side). What it read before the close is a gap-free prefix of the diffs, and it gets back in step
    /// with `history` from the first diff it missed (pages of at most half the queue, each naming the `next` version
    /// to ask from) and then `subscribe` with `since`: its replica ends up equal to the server's tree.
    @Test func aSubscriberClosedForOverflowGetsBackInStepWithHistoryAndSince() throws {
        let daemon = try DaemonUnderTest(service: Self.smallQueue)
        defer { daemon.stop() }
        guard var slow = try Self.overflowASlowSubscriber(daemon) else { return }
        let back = try daemon.connect()
        var diffs: [JSON] = []
        var from = JSON.int(Int64(slow.applied + 1))
        while true {
            let page = try back.request(["type": "history", "tree": "t", "from": from])
            diffs += page["diffs"]?.array ?? []
            guard let next = page["next"] else { break }
            from = next
        }
        #expect(diffs.compactMap { $0["version"] } == ((slow.applied + 1)...slow.rounds).map { .int(Int64($0)) })
        for diff in diffs { _ = try slow.replica.apply(try [Op](json: diff["ops"] ?? .null)) }
        try back.send(["type": "subscribe", "tree": "t", "since": .int(Int64(slow.rounds))])
        #expect(try back.next()["type"] == "subscribed")  // up to date: nothing else
        #expect(try back.next()["type"] == "clients")
        #expect(try slow.matchesServer(slow.author))
    }

    /// After a 1008 overflow close, `subscribe` with `since` resynchronises (PROTOCOL.md). The missed diffs always
    /// include the dropped queue plus the message that overflowed it, so replaying them would overflow the queue
    /// again: the Hub replays them only within `catchUpMaxBytes` (half the queue in canopyd) and otherwise sends a
    /// snapshot. Here the gap is megabytes, so it is a snapshot, and the replica rebuilt from it matches.
    @Test func aSubscriberClosedForOverflowCatchesUpWithSubscribeSince() throws {
        let daemon = try DaemonUnderTest(service: Self.smallQueue)
        defer { daemon.stop() }
        guard var slow = try Self.overflowASlowSubscriber(daemon) else { return }
        let back = try daemon.connect()
        try back.send(["type": "subscribe", "tree": "t", "since": .int(Int64(slow.applied))])
        let snapshot = try back.next()
        #expect(snapshot["type"] == "snapshot")
        #expect(snapshot["version"] == .int(Int64(slow.rounds)))
        slow.replica = try Tree(
            keys: try (snapshot["keys"]?.array ?? []).map { j throws(CanopyError) in try KeyDeclaration(json: j) },
            root: try Node(json: snapshot["root"] ?? .null))
        #expect(try back.next()["type"] == "clients")
        #expect(try slow.matchesServer(slow.author))
        // A small gap still comes as the missed diffs themselves.
        _ = try slow.author.request(Fixture.edit("t", seq: 9_999, [["op": "setProps", "node": "root", "props": ["x": 1]]]))
        let again = try daemon.connect()
        try again.send(["type": "subscribe", "tree": "t", "since": .int(Int64(slow.rounds))])
        let diff = try again.next()
        #expect(diff["type"] == "diff")
        #expect(diff["version"] == .int(Int64(slow.rounds + 1)))
    }

    @Test func aSnapshotLargerThanTheQueueLimitIsSentAndThePresenceAfterItToo() throws {
        let daemon = try DaemonUnderTest(service: DaemonSocketTests.smallQueue)
        defer { daemon.stop() }
        let admin = try daemon.connect(as: "admin")
        // About 200 KiB of props: the snapshot alone is over the 128 KiB limit.
        let children: [JSON] = (0..<200).map {
            ["id": .string("n\($0)"), "type": "Text", "props": ["text": .string(String(repeating: "x", count: 1000))]]
        }
        #expect(try admin.request(Fixture.create("big", root: ["id": "root", "type": "VStack", "children": .array(children)]))["type"] == "created")
        let reader = try daemon.connect(as: "reader")
        let snapshot = try reader.request(["type": "subscribe", "tree": "big"])
        #expect(snapshot["type"] == "snapshot")
        #expect(snapshot["root"]?["children"]?.array?.count == 200)
        #expect(try reader.next()["type"] == "clients")
        #expect(try reader.answersListTrees())
    }

    static func smallQueue(_ service: inout ServiceConfiguration) {
        service.maxQueueBytes = 128 << 10
        service.closeTimeoutSeconds = 30  // the close frame waits until the slow client reads again
    }

    /// A subscriber with its replica, after it stopped reading while an author made about 8 MiB of diffs (more than
    /// the kernel buffers and a 128 KiB queue hold) and then read up to its 1008 close.
    struct OverflowedSubscriber {
        var author: DaemonClient
        var replica: Tree
        /// Diffs it read (and applied) before the close.
        var applied: Int
        var rounds: Int

        /// Whether the replica equals the server's tree and reader values.
        func matchesServer(_ client: DaemonClient) throws -> Bool {
            let now = try client.request(["type": "subscribe", "tree": "t"])
            let serverRoot = try Node(json: now["root"] ?? .null).json.encoded()
            return now["version"] == .int(Int64(rounds))
                && replica.root.json.encoded() == serverRoot
                && JSON.array(replica.readers.map(\.json)) == now["readers"]
                && now["readers"] == [Fixture.rootReader(rounds + 2)]
        }
    }

    static func overflowASlowSubscriber(_ daemon: DaemonUnderTest) throws -> OverflowedSubscriber? {
        let author = try daemon.connect()
        #expect(try author.request(Fixture.create("t"))["type"] == "created")
        let slow = try DaemonClient(port: daemon.port, receiveBuffer: 4096)
        let snapshot = try slow.request(["type": "subscribe", "tree": "t"])
        var replica = try Tree(
            keys: (snapshot["keys"]?.array ?? []).map { try KeyDeclaration(json: $0) },
            root: try Node(json: snapshot["root"] ?? .null))
        #expect(try slow.next()["type"] == "clients")

        let rounds = 256
        let padding = JSON.string(String(repeating: "x", count: 32 << 10))
        for round in 1...rounds {
            let ops: [JSON] = [
                ["op": "setProps", "node": "root", "props": ["round": .int(Int64(round)), "padding": padding]],
                Fixture.setS("a", round),
            ]
            let diff = try author.request(Fixture.edit("t", seq: .int(Int64(round)), ops))
            guard diff["version"] == .int(Int64(round)) else {
                Issue.record("round \(round): \(diff["type"]?.encoded() ?? "?")")
                return nil
            }
        }
        var applied = 0
        while true {
            let event = try slow.nextEvent()
            guard case .text(let text) = event else {
                #expect(event == .close(code: 1008, reason: "outgoing queue overflow"))
                break
            }
            let diff = try JSONParser.parse(text)
            guard diff["version"] == .int(Int64(applied + 1)) else {
                Issue.record("after \(applied) diffs the slow client got \(diff["version"]?.encoded() ?? "?")")
                return nil
            }
            _ = try replica.apply(try [Op](json: diff["ops"] ?? .null))
            applied += 1
        }
        #expect(applied > 0 && applied < rounds, "\(applied) diffs before the close")
        return OverflowedSubscriber(author: author, replica: replica, applied: applied, rounds: rounds)
    }

    // MARK: Big messages

    /// An edit of exactly the default limit (1 MiB), sent in 1–4 KiB fragments, inserts its ~9,000 nodes; the same
    /// content one byte longer closes the session with 1009 and changes nothing.
    @Test func anEditOfExactlyTheSizeLimitInSmallFragmentsIsAppliedAndOneByteMoreCloses() throws {
        let daemon = try DaemonUnderTest()
        defer { daemon.stop() }
        let limit = ServiceConfiguration().maxMessageBytes
        #expect(limit == 1 << 20)
        let author = try daemon.connect()
        let watcher = try daemon.connect()
        #expect(
            try author.request(
                Fixture.create("big", root: ["id": "root", "type": "VStack", "modifiers": [Fixture.reader("S")]]))[
                    "type"] == "created")
        _ = try watcher.request(["type": "subscribe", "tree": "big"])
        _ = try watcher.next()

        var rng = SplitMix64(seed: 0xB16_F4A6)
        let (message, leaves) = Self.bulkInsert(tree: "big", prefix: "k", bytes: limit)
        #expect(message.count == limit)
        let fragments = try author.sendInFragments(message, sizes: 1024...4096, using: &rng)
        #expect(fragments > 250)
        let text = try author.nextText()
        #expect(try watcher.nextText() == text)
        let diff = try JSONParser.parse(text)
        #expect(diff["type"] == "diff")
        #expect(diff["version"] == 1)
        #expect(
            diff["changes"] == [
                ["reader": "root#0", "node": "root", "key": "S", "present": true, "value": .int(Int64(leaves))]
            ])
        #expect(diff["ops"]?[0]?["node"]?["children"]?.array?.count == leaves)
        #expect(
            diff["ops"]?[0]?["node"]?["children"]?[leaves - 1]?["props"] == ["label": .string("leaf \(leaves - 1)")])
        #expect(try author.request(Fixture.probe("big", "k\(leaves - 1)"))["value"] == 1)
        #expect(try author.request(Fixture.probe("big", "bulk"))["value"] == .int(Int64(leaves)))

        let (over, _) = Self.bulkInsert(tree: "big", prefix: "m", bytes: limit + 1)
        #expect(over.count == limit + 1)
        _ = try author.sendInFragments(over, sizes: 1024...4096, using: &rng)
        #expect(try author.nextEvent() == .close(code: 1009, reason: "message too big"))
        #expect(try watcher.answersListTrees())  // no diff came first
        let listed = try watcher.request(["type": "listTrees"])["trees"]
        #expect(listed == [["tree": "big", "version": 1, "nodes": .int(Int64(leaves + 2)), "subscribers": 1]])
    }

    /// An `edit` inserting a `bulk` VStack of leaves that write S = 1, padded to exactly `bytes` bytes.
    static func bulkInsert(tree: String, prefix: String, bytes: Int) -> (message: [UInt8], leaves: Int) {
        func message(_ children: [JSON], pad: String) -> [UInt8] {
            let node: JSON = [
                "id": "bulk", "type": "VStack", "props": ["pad": .string(pad)], "children": .array(children),
            ]
            let edit = Fixture.edit(tree, seq: 1, [["op": "insert", "parent": "root", "node": node]])
            return Array(edit.encoded().utf8)
        }
        let empty = message([], pad: "").count
        var children: [JSON] = []
        var size = empty
        while true {
            let i = children.count
            let leaf: JSON = [
                "id": .string("\(prefix)\(i)"), "type": "Text", "props": ["label": .string("leaf \(i)")],
                "modifiers": [Fixture.writer("S", 1)],
            ]
            let added = leaf.encoded().utf8.count + (children.isEmpty ? 0 : 1)
            if size + added > bytes - 64 { break }
            children.append(leaf)
            size += added
        }
        let unpadded = message(children, pad: "")
        return (message(children, pad: String(repeating: "x", count: bytes - unpadded.count)), children.count)
    }

    // MARK: Many clients at once

    /// Eight clients subscribe to one tree and each pipelines 300 random batches (up to 8 in flight), built from what
    /// its own replica knows, so races make some of them fail. Every client keeps a replica (the snapshot plus every
    /// diff's ops, in version order) and the reader values the diffs report. In the end every replica equals the
    /// server's tree, versions were contiguous for everyone, each batch got exactly one answer, and the reported reader
    /// values equal a from-scratch evaluation. Set CANOPY_TEST_SEED to replay a run.
    @Test func eightClientsEditingOneTreeConcurrentlyAllConvergeOnTheServersTree() throws {
        let seed = ProcessInfo.processInfo.environment["CANOPY_TEST_SEED"].flatMap { UInt64($0) } ?? 0x5EED_CA40_0001
        let editors = 8
        let batches = 300
        let daemon = try DaemonUnderTest()
        defer { daemon.stop() }
        let coordinator = try daemon.connect()
        let created = try coordinator.request(
            Fixture.create("shared", keys: ConcurrentEditor.keys, root: ConcurrentEditor.root))
        #expect(created["type"] == "created")

        let rendezvous = EditorRendezvous()
        let port = daemon.port
        for index in 0..<editors {
            Thread {
                let report = ConcurrentEditor(index: index, seed: seed, batches: batches).run(
                    port: port, editors: editors, rendezvous: rendezvous)
                rendezvous.returned(report)
            }.start()
        }
        let finishedInTime = rendezvous.wait(seconds: 90) { $0.finished == editors }
        #expect(finishedInTime, "seed \(seed): editors did not finish")
        guard finishedInTime else { return }

        // A last edit after every batch was answered: its diff tells each editor that nothing else will come.
        let final = try coordinator.request(
            Fixture.edit("shared", seq: "final", [["op": "setProps", "node": "root", "props": ["final": true]]]))
        #expect(final["type"] == "diff")
        let finalVersion = Int(final["version"]?.number ?? -1)
        #expect(
            rendezvous.wait(seconds: 60) { $0.reports.count == editors },
            "seed \(seed): editors did not see the final diff")
        let snapshot = try coordinator.request(["type": "subscribe", "tree": "shared"])
        #expect(snapshot["version"] == .int(Int64(finalVersion)))
        let serverRoot = try Node(json: snapshot["root"] ?? .null).json.encoded()
        let serverKeys = try JSON.array((snapshot["keys"]?.array ?? []).map { try KeyDeclaration(json: $0).json })
            .encoded()

        let all = rendezvous.reports.sorted { $0.index < $1.index }
        #expect(all.count == editors)
        let accepted = all.reduce(0) { $0 + $1.accepted }
        let rejected = all.reduce(0) { $0 + $1.rejected }
        #expect(finalVersion == accepted + 1, "seed \(seed)")
        #expect(
            accepted > editors * batches / 3, "seed \(seed): only \(accepted) of \(editors * batches) batches applied")
        #expect(rejected > 0, "seed \(seed): no batch was rejected")
        for r in all {
            let who = "seed \(seed), client \(r.index)"
            #expect(r.failures.isEmpty, "\(who):\n\(r.failures.joined(separator: "\n"))")
            #expect(r.sent == batches, "\(who)")
            #expect(r.accepted + r.rejected == r.sent, "\(who)")
            #expect(r.versions == Array(1...max(1, finalVersion)), "\(who): versions not contiguous")
            #expect(r.rootJSON == serverRoot, "\(who): replica differs from the server's tree")
            #expect(r.keysJSON == serverKeys, "\(who)")
            #expect(r.incremental == r.fromScratch, "\(who): replica readers differ from a from-scratch evaluation")
            #expect(JSON.array(r.fromScratch) == snapshot["readers"], "\(who): server readers differ")
            for reader in r.fromScratch {
                let name = "\(reader["reader"]?.string ?? "")/\(reader["key"]?.string ?? "")"
                let reported =
                    r.reported[name] ?? [
                        "reader": reader["reader"] ?? .null, "node": reader["node"] ?? .null,
                        "key": reader["key"] ?? .null, "present": false,
                    ]
                #expect(reported == reader, "\(who): reader \(name) was last reported as \(reported.encoded())")
            }
            if r.index == 0 {
                #expect(r.tracedDiffs == r.versions.count && r.untracedDiffs == 0, "\(who): traces missing")
            } else {
                #expect(r.tracedDiffs == 0, "\(who): got traces it did not ask for")
            }
            #expect(r.probesAnswered > 0, "\(who)")
        }
    }

    // MARK: Numbers out of range

    // Regression: Hub converted `since` (subscribe) and `from`/`to` (history) with `Int(Double)`, which trapped for a
    // number outside Int's range: one message killed the daemon for every client. Now they are bad_message.
    @Test
    func aSinceBeyondTheIntegerRangeIsAnsweredWithoutCrashingTheDaemon() throws {
        let daemon = try DaemonUnderTest()
        defer { daemon.stop() }
        let client = try daemon.connect()
        #expect(try client.request(Fixture.create("t"))["type"] == "created")
        try client.send(text: #"{"type":"subscribe","tree":"t","since":1e300}"#)
        let reply = try client.next()
        #expect(reply["code"] == "bad_message")
        #expect(try client.answersListTrees())
    }

    // Regression: the same trap through `history`.
    @Test
    func aHistoryRangeBeyondTheIntegerRangeIsAnsweredWithoutCrashingTheDaemon() throws {
        let daemon = try DaemonUnderTest()
        defer { daemon.stop() }
        let client = try daemon.connect()
        #expect(try client.request(Fixture.create("t"))["type"] == "created")
        try client.send(text: #"{"type":"history","tree":"t","from":-1e300,"to":1e300}"#)
        let reply = try client.next()
        #expect(reply["code"] == "bad_message")
        #expect(try client.answersListTrees())
    }
}

// MARK: - Harness

/// A daemon without a store, built as canopyd builds one (`Daemon`), on an ephemeral loopback port and serviced on its
/// own thread. Stopping drops the connections at once (no drain), so a test never waits for clients that stopped
/// reading.
final class DaemonUnderTest: Sendable {
    let daemon: Daemon

    init(
        hub configureHub: (inout HubConfiguration) -> Void = { _ in },
        service configureService: (inout ServiceConfiguration) -> Void = { _ in }
    ) throws {
        daemon = try Daemon(configuration: .forTests(hub: configureHub, service: configureService), storage: .none)
        daemon.start()
    }

    var loop: ServiceLoop { daemon.loop }
    var port: Int { daemon.port }

    /// A new session; with `name`, it says hello first (and learns its session name).
    func connect(as name: String? = nil) throws -> DaemonClient {
        let client = try DaemonClient(port: port)
        if let name {
            let welcome = try client.request(["type": "hello", "client": .string(name)])
            client.session = welcome["session"]?.string ?? ""
        }
        return client
    }

    func stop() { daemon.stopAndWait() }
}

extension DaemonConfiguration {
    /// An in-process test daemon's settings: port 0, no drain, no files, no examples; then the test's changes.
    static func forTests(
        hub configureHub: (inout HubConfiguration) -> Void = { _ in },
        service configureService: (inout ServiceConfiguration) -> Void = { _ in }
    ) -> DaemonConfiguration {
        var c = DaemonConfiguration()
        c.service.port = 0
        c.service.drainTimeoutSeconds = 0
        c.webRoot = nil
        c.examplesDirectory = ""
        configureHub(&c.hub)
        configureService(&c.service)
        return c
    }
}

/// One WebSocket session with the daemon, exchanging JSON messages. Reads wait up to `timeout` seconds (generous:
/// the suite runs on busy machines) and throw rather than hang.
final class DaemonClient {
    let webSocket: TestWebSocket
    var session = ""

    init(port: Int, timeout: Double = 20, receiveBuffer: Int? = nil) throws {
        webSocket = try TestWebSocket(
            port: port, subprotocol: ServiceConfiguration.subprotocol, receiveBuffer: receiveBuffer)
        webSocket.socket.setTimeout(timeout)
    }

    func send(_ message: JSON) throws { try webSocket.send(message.encoded()) }

    func send(text: String) throws { try webSocket.send(text) }

    /// The next message's text; throws if a close or the end of the stream comes instead.
    func nextText() throws -> String {
        let event = try webSocket.next()
        guard case .text(let text) = event else {
            throw TestSocketError(description: "expected a message, got \(event)")
        }
        return text
    }

    func next() throws -> JSON { try JSONParser.parse(try nextText()) }

    /// The next event: a message, the server's close frame or the end of the stream.
    func nextEvent() throws -> TestWebSocket.Event { try webSocket.next() }

    /// Sends `message` and returns the next message, which must be its answer.
    func request(_ message: JSON) throws -> JSON {
        try send(message)
        return try next()
    }

    /// Sends `message` and returns the next message that is not a presence update (`clients`): its answer when other
    /// sessions come and go on the same tree.
    func answer(_ message: JSON) throws -> JSON {
        try send(message)
        while true {
            let reply = try next()
            if reply["type"] != "clients" { return reply }
        }
    }

    /// Whether the session still works and had nothing else queued: the very next message answers a `listTrees`.
    func answersListTrees() throws -> Bool {
        let reply = try request(["type": "listTrees", "rid": "alive?"])
        return reply["type"] == "trees" && reply["rid"] == "alive?"
    }

    /// Whether the socket has bytes to read right now (bytes the client already buffered do not count).
    func hasDataToRead() -> Bool {
        var entry = pollfd(fd: webSocket.socket.fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0 && entry.revents & Int16(POLLIN) != 0
    }

    /// Sends one text message as a first frame and continuation frames of random sizes within `sizes`; returns the
    /// number of frames.
    func sendInFragments(_ message: [UInt8], sizes: ClosedRange<Int>, using rng: inout SplitMix64) throws -> Int {
        var wire: [UInt8] = []
        var offset = 0
        var frames = 0
        while offset < message.count {
            let end = min(message.count, offset + Int.random(in: sizes, using: &rng))
            wire += TestWebSocket.frame(
                opcode: frames == 0 ? 1 : 0, payload: Array(message[offset..<end]), final: end == message.count)
            frames += 1
            offset = end
            if wire.count >= 256 << 10 {
                try webSocket.socket.write(wire)
                wire.removeAll(keepingCapacity: true)
            }
        }
        try webSocket.socket.write(wire)
        return frames
    }
}

extension DaemonSocketTests {
    /// Messages and nodes the tests build on. The default tree is `VStack{a(S 1); b: VStack{c(S 2)}}` with a sum reader
    /// `root#0` on the root (value 3).
    enum Fixture {
        static let sumKey: JSON = ["key": "S", "reducer": "sum", "default": 0]
        static let lastKey: JSON = ["key": "L", "reducer": "last", "default": "none"]
        static let root: JSON = [
            "id": "root", "type": "VStack", "modifiers": [reader("S")],
            "children": [text("a", 1), ["id": "b", "type": "VStack", "children": [text("c", 2)]]],
        ]

        static func create(_ tree: String, keys: [JSON] = [sumKey], root: JSON = root) -> JSON {
            ["type": "createTree", "tree": .string(tree), "keys": .array(keys), "root": root]
        }

        static func edit(_ tree: String, seq: JSON, _ ops: [JSON]) -> JSON {
            ["type": "edit", "tree": .string(tree), "seq": seq, "ops": .array(ops)]
        }

        static func probe(_ tree: String, _ node: String, key: String = "S") -> JSON {
            ["type": "probe", "tree": .string(tree), "node": .string(node), "key": .string(key)]
        }

        static func setS(_ node: String, _ value: Int) -> JSON {
            ["op": "setPreference", "node": .string(node), "key": "S", "value": .int(Int64(value))]
        }

        static func writer(_ key: String, _ value: JSON) -> JSON {
            ["kind": "preference", "key": .string(key), "value": value]
        }

        static func reader(_ key: String) -> JSON { ["kind": "onPreferenceChange", "key": .string(key)] }

        static func leaf(_ id: String) -> JSON { ["id": .string(id), "type": "Text"] }

        /// A leaf writing S = `value`.
        static func text(_ id: String, _ value: Int) -> JSON {
            ["id": .string(id), "type": "Text", "modifiers": [writer("S", .int(Int64(value)))]]
        }

        /// `length` nodes, each the only child of the one before.
        static func chain(_ prefix: String, length: Int) -> JSON {
            var node: JSON = leaf("\(prefix)\(length - 1)")
            for i in stride(from: length - 2, through: 0, by: -1) {
                node = ["id": .string("\(prefix)\(i)"), "type": "VStack", "children": [node]]
            }
            return node
        }

        /// The root's sum reader as a snapshot or a diff lists it.
        static func rootReader(_ value: Int) -> JSON {
            ["reader": "root#0", "node": "root", "key": "S", "present": true, "value": .int(Int64(value))]
        }
    }

}

extension JSON {
    /// This object with `key` set to `value` (appended, or replaced in place).
    func setting(_ key: String, _ value: JSON) -> JSON {
        guard case .object(var o) = self else { return self }
        o[key] = value
        return .object(o)
    }

    /// This object without `key`.
    func removing(_ key: String) -> JSON {
        guard case .object(var o) = self else { return self }
        o[key] = nil
        return .object(o)
    }
}

// MARK: - Concurrent editors

/// Where the editor threads and the test meet: how many subscribed, how many got every answer.
final class EditorRendezvous: Sendable {
    struct State {
        var subscribed = 0
        /// Editors that got an answer to each of their batches (or gave up).
        var finishedIndexes: Set<Int> = []
        var reports: [EditorReport] = []
        var finished: Int { finishedIndexes.count }
    }

    private let state = Mutex(State())

    func subscribed() { state.withLock { $0.subscribed += 1 } }

    func finishedEditing(_ index: Int) { state.withLock { _ = $0.finishedIndexes.insert(index) } }

    func returned(_ report: EditorReport) { state.withLock { $0.reports.append(report) } }

    var reports: [EditorReport] { state.withLock { $0.reports } }

    /// Polls until `condition` holds or `seconds` pass.
    func wait(seconds: Double, until condition: (State) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if state.withLock({ condition($0) }) { return true }
            usleep(2_000)
        }
        return state.withLock { condition($0) }
    }
}

/// What one concurrent editor did and saw, for the test thread to check.
struct EditorReport: Sendable {
    var index: Int
    var sent = 0
    var accepted = 0
    var rejected = 0
    var rejectionCodes: [String: Int] = [:]
    var probesAnswered = 0
    var versions: [Int] = []
    var tracedDiffs = 0
    var untracedDiffs = 0
    /// The replica's tree and keys at the end, written by the same writer as the server's snapshot.
    var rootJSON = ""
    var keysJSON = ""
    /// Per `reader/key`: the last change a diff (or the snapshot) reported.
    var reported: [String: JSON] = [:]
    /// The replica's readers from a from-scratch evaluation, and as its incremental evaluation has them.
    var fromScratch: [JSON] = []
    var incremental: [JSON] = []
    var failures: [String] = []
}

/// One client of the concurrent test, run on its own thread: subscribes, keeps a replica, pipelines random batches.
final class ConcurrentEditor {
    private typealias Fixture = DaemonSocketTests.Fixture

    static let keys: [JSON] = [
        ["key": "S", "reducer": "sum", "default": 0], ["key": "L", "reducer": "last", "default": "none"],
        ["key": "B", "reducer": "or", "default": false], ["key": "N", "reducer": "nest", "default": ""],
    ]
    static let keyNames = ["S", "L", "B", "N"]
    static let root: JSON = [
        "id": "root", "type": "VStack",
        "modifiers": [Fixture.reader("S"), Fixture.reader("L"), Fixture.reader("B"), Fixture.reader("N")],
        "children": [
            [
                "id": "g1", "type": "Group", "modifiers": [Fixture.writer("S", 1)],
                "children": [
                    ["id": "t1", "type": "Text", "modifiers": [Fixture.writer("L", "a")]],
                    ["id": "t2", "type": "Text", "modifiers": [Fixture.writer("S", 2), Fixture.reader("S")]],
                ],
            ],
            [
                "id": "f1", "type": "ForEach", "modifiers": [Fixture.reader("S"), Fixture.reader("B")],
                "children": [
                    ["id": "t3", "type": "Text", "modifiers": [Fixture.writer("S", 3), Fixture.writer("B", true)]]
                ],
            ],
            ["id": "i1", "type": "If", "modifiers": [Fixture.reader("N")]],
            [
                "id": "v1", "type": "VStack",
                "modifiers": [
                    ["kind": "transformPreference", "key": "S", "transform": ["add": 5]], Fixture.reader("S"),
                    [
                        "kind": "background",
                        "node": ["id": "bg1", "type": "Color", "modifiers": [Fixture.writer("N", "x")]],
                    ],
                ],
                "children": [["id": "t4", "type": "Text", "modifiers": [Fixture.writer("N", "y")]]],
            ],
        ],
    ]
    static let window = 8

    let index: Int
    let seed: UInt64
    let batches: Int
    private var rng: SplitMix64
    private var report: EditorReport
    /// Built from the snapshot.
    private var replica: Tree!
    private var lastVersion = 0
    private var session = ""
    private var inFlight = Set<Int64>()
    private var answered = Set<Int64>()
    private var probes: [String: (node: String, key: String)] = [:]
    private var nextID = 0
    private var sawFinal = false

    init(index: Int, seed: UInt64, batches: Int) {
        self.index = index
        self.seed = seed
        self.batches = batches
        rng = SplitMix64(seed: seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
        report = EditorReport(index: index)
    }

    func run(port: Int, editors: Int, rendezvous: EditorRendezvous) -> EditorReport {
        do {
            try edit(port: port, editors: editors, rendezvous: rendezvous)
        } catch {
            fail("stopped: \(error)")
        }
        rendezvous.finishedEditing(index)
        guard let replica else { return report }
        report.rootJSON = replica.root.json.encoded()
        report.keysJSON = JSON.array(replica.keys.map(\.json)).encoded()
        report.fromScratch = replica.evaluateFromScratch().readers.map(\.json)
        report.incremental = replica.readers.map(\.json)
        return report
    }

    private func fail(_ message: String) {
        if report.failures.count < 20 { report.failures.append(message) }
    }

    private func edit(port: Int, editors: Int, rendezvous: EditorRendezvous) throws {
        let client = try DaemonClient(port: port, timeout: 30)
        session = try client.request(["type": "hello", "client": .string("editor-\(index)")])["session"]?.string ?? ""
        let snapshot = try client.request(["type": "subscribe", "tree": "shared", "trace": .bool(index == 0)])
        guard snapshot["type"] == "snapshot", let version = snapshot["version"]?.number else {
            throw TestSocketError(description: "expected a snapshot, got \(snapshot.encoded())")
        }
        lastVersion = Int(version)
        var keys: [KeyDeclaration] = []
        for k in snapshot["keys"]?.array ?? [] { keys.append(try KeyDeclaration(json: k)) }
        replica = try Tree(keys: keys, root: try Node(json: snapshot["root"] ?? .null))
        for r in snapshot["readers"]?.array ?? [] { report.reported[Self.name(r)] = r }
        if JSON.array(replica.readers.map(\.json)) != snapshot["readers"] {
            fail("snapshot readers differ from the replica's")
        }
        if (snapshot["trace"] != nil) != (index == 0) { fail("snapshot trace: \(snapshot["trace"] != nil)") }

        rendezvous.subscribed()
        guard rendezvous.wait(seconds: 60, until: { $0.subscribed == editors }) else {
            throw TestSocketError(description: "not every editor subscribed")
        }
        var seq: Int64 = 0
        while answered.count < batches {
            if inFlight.count < Self.window && seq < batches {
                // Catch up on what already arrived, so that batches are built on a fresher replica.
                var caughtUp = 0
                while caughtUp < 32 && client.hasDataToRead() {
                    try handle(try client.next())
                    caughtUp += 1
                }
                if Int.random(in: 0..<8, using: &rng) == 0 { try sendProbe(client) }
                seq += 1
                try client.send(Fixture.edit("shared", seq: .int(seq), randomBatch()))
                inFlight.insert(seq)
                report.sent += 1
            } else {
                try handle(try client.next())
            }
        }
        rendezvous.finishedEditing(index)
        while !sawFinal { try handle(try client.next()) }
        if !probes.isEmpty { fail("\(probes.count) probes unanswered") }
    }

    // MARK: Messages

    private func handle(_ m: JSON) throws {
        switch m["type"]?.string {
        case "diff": try apply(m)
        case "rejected":
            guard let seq = Self.seq(m), inFlight.remove(seq) != nil, answered.insert(seq).inserted else {
                fail("unexpected rejection \(m.encoded())")
                return
            }
            report.rejected += 1
            report.rejectionCodes[m["code"]?.string ?? "?", default: 0] += 1
        case "clients": break
        case "value":
            guard let rid = m["rid"]?.string, let probe = probes.removeValue(forKey: rid) else {
                fail("unexpected value \(m.encoded())")
                return
            }
            // Everything before the answer was queued before it: the replica is at the probed version.
            if m["version"] != .int(Int64(lastVersion)) {
                fail("probe at version \(m["version"]?.encoded() ?? "?") seen at \(lastVersion)")
            }
            let mine = try replica.probe(node: probe.node, key: probe.key)
            if m["present"] != .bool(mine != nil) || m["value"] != mine {
                fail("probe \(probe) at v\(lastVersion): server \(m.encoded()), replica \(mine?.encoded() ?? "absent")")
            }
            report.probesAnswered += 1
        case "error":
            guard let rid = m["rid"]?.string, let probe = probes.removeValue(forKey: rid), m["code"] == "no_such_node",
                replica.node(probe.node) == nil
            else {
                fail("unexpected error \(m.encoded())")
                return
            }
            report.probesAnswered += 1
        default:
            fail("unexpected message \(m.encoded())")
        }
    }

    private func apply(_ m: JSON) throws {
        let version = Int(m["version"]?.number ?? -1)
        report.versions.append(version)
        guard version == lastVersion + 1 else {
            throw TestSocketError(description: "diff version \(version) after \(lastVersion)")
        }
        lastVersion = version
        let ops = try [Op](json: m["ops"] ?? .null)
        let local: Diff
        do { local = try replica.apply(ops) } catch {
            throw TestSocketError(description: "the replica cannot apply diff \(version): \(error) (\(m.encoded()))")
        }
        if JSON.array(local.ops.map(\.json)) != m["ops"] {
            fail("diff \(version): ops normalize differently on the replica")
        }
        let changes = JSON.array(local.changes.map(\.json))
        if changes != m["changes"] {
            fail("diff \(version): server changes \(m["changes"]?.encoded() ?? "?"), replica \(changes.encoded())")
        }
        for change in m["changes"]?.array ?? [] { report.reported[Self.name(change)] = change }
        if m["trace"] != nil { report.tracedDiffs += 1 } else { report.untracedDiffs += 1 }
        if m["seq"] == "final" { sawFinal = true }
        if m["author"] == .string(session) {
            guard let seq = Self.seq(m), inFlight.remove(seq) != nil, answered.insert(seq).inserted else {
                fail("unexpected own diff \(m.encoded())")
                return
            }
            report.accepted += 1
        }
    }

    private func sendProbe(_ client: DaemonClient) throws {
        let shape = TreeShape(replica.root)
        let node = shape.ids.randomElement(using: &rng)!
        let key = Self.keyNames.randomElement(using: &rng)!
        let rid = "p\(probes.count)-\(report.sent)"
        probes[rid] = (node, key)
        try client.send([
            "type": "probe", "tree": "shared", "node": .string(node), "key": .string(key), "rid": .string(rid),
        ])
    }

    private static func name(_ reader: JSON) -> String {
        "\(reader["reader"]?.string ?? "")/\(reader["key"]?.string ?? "")"
    }

    private static func seq(_ m: JSON) -> Int64? {
        if case .int(let s) = m["seq"] { return s }
        return nil
    }

    // MARK: Random batches

    private func randomBatch() -> [JSON] {
        let shape = TreeShape(replica.root)
        return (0..<Int.random(in: 1...2, using: &rng)).map { _ in randomOp(shape) }
    }

    private func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &rng) < percent }

    private func randomOp(_ shape: TreeShape) -> JSON {
        let crowded = shape.ids.count > 50
        let node = shape.ids.randomElement(using: &rng)!
        let key = Self.keyNames.randomElement(using: &rng)!
        let movable = shape.movable.randomElement(using: &rng) ?? "root"
        let weights = [
            ("setPreference", 30), ("removePreference", 8), ("insert", crowded ? 6 : 24),
            ("remove", crowded ? 20 : 5), ("move", 12), ("setProps", 12),
        ]
        var roll = Int.random(in: 0..<weights.reduce(0) { $0 + $1.1 }, using: &rng)
        let kind = weights.first {
            roll -= $0.1
            return roll < 0
        }!.0
        switch kind {
        case "setPreference":
            return [
                "op": "setPreference", "node": .string(node), "key": .string(key),
                "value": value(for: key, wrong: chance(4)),
            ]
        case "removePreference":
            return ["op": "removePreference", "node": .string(node), "key": .string(key)]
        case "insert":
            var op: JSON = ["op": "insert", "parent": .string(node), "node": newNode(depth: 0)]
            if let position = position(in: shape, parent: node) { op = op.setting(position.0, position.1) }
            return op
        case "remove":
            return ["op": "remove", "node": .string(movable)]
        case "move":
            let parent = shape.ids.randomElement(using: &rng)!
            var op: JSON = ["op": "move", "node": .string(movable), "parent": .string(parent)]
            if let position = position(in: shape, parent: parent) { op = op.setting(position.0, position.1) }
            return op
        default:
            let q: JSON = chance(50) ? .null : .string("q\(Int.random(in: 0..<5, using: &rng))")
            return [
                "op": "setProps", "node": .string(node),
                "props": ["p": .int(Int64(Int.random(in: 0..<100, using: &rng))), "q": q],
            ]
        }
    }

    /// A position field, or nil for the end: an index (sometimes one past the valid range) or a sibling.
    private func position(in shape: TreeShape, parent: String) -> (String, JSON)? {
        let siblings = shape.children[parent] ?? []
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return nil
        case 1: return ("index", .int(Int64(Int.random(in: 0...(siblings.count + 1), using: &rng))))
        default:
            guard let sibling = siblings.randomElement(using: &rng) else { return nil }
            return (chance(50) ? "after" : "before", .string(sibling))
        }
    }

    private func value(for key: String, wrong: Bool) -> JSON {
        switch key {
        case "S": return wrong ? "lots" : .int(Int64(Int.random(in: -3...9, using: &rng)))
        case "B": return wrong ? 1 : .bool(chance(50))
        case "N": return wrong ? 3 : .string(["p", "q", "r"].randomElement(using: &rng)!)
        default: return chance(70) ? .string(["red", "green", "blue"].randomElement(using: &rng)!) : 7
        }
    }

    /// A fresh subtree (sometimes reusing an id the replica knows, which must fail with duplicate_id).
    private func newNode(depth: Int) -> JSON {
        nextID += 1
        let id = "e\(index)-\(nextID)"
        let type = ["Text", "VStack", "Group", "If", "ForEach"].randomElement(using: &rng)!
        var modifiers: [JSON] = []
        for _ in 0..<Int.random(in: 0...2, using: &rng) {
            let key = Self.keyNames.randomElement(using: &rng)!
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<5: modifiers.append(Fixture.writer(key, value(for: key, wrong: false)))
            case 5..<8: modifiers.append(Fixture.reader(key))
            case 8:
                modifiers.append([
                    "kind": "transformPreference", "key": "S",
                    "transform": ["add": .int(Int64(Int.random(in: 1...4, using: &rng)))],
                ])
            default:
                if depth == 0 { modifiers.append(["kind": "overlay", "node": newNode(depth: 1)]) }
            }
        }
        var children: [JSON] = []
        if type != "Text" && depth == 0 {
            for _ in 0..<Int.random(in: 0...2, using: &rng) { children.append(newNode(depth: 1)) }
        }
        return [
            "id": .string(depth == 0 && chance(3) ? "t3" : id), "type": .string(type), "modifiers": .array(modifiers),
            "children": .array(children),
        ]
    }
}

/// Ids and structure of a tree, for picking random targets.
struct TreeShape {
    var ids: [String] = []
    /// Nodes that may be removed or moved: neither the root nor the root of an attached subtree.
    var movable: [String] = []
    var children: [String: [String]] = [:]

    init(_ root: Node) {
        visit(root, movable: false)
    }

    private mutating func visit(_ node: Node, movable isMovable: Bool) {
        ids.append(node.id)
        if isMovable { movable.append(node.id) }
        children[node.id] = node.children.map(\.id)
        for m in node.modifiers {
            if let attached = m.attached { visit(attached, movable: false) }
        }
        for child in node.children { visit(child, movable: true) }
    }
}
