import CanopyCore
import Testing

@testable import CanopyServer
@testable import CanopyWebSocket

/// A large snapshot over the wire (issue 16): its body is encoded off the service thread once for every subscriber
/// at that version and goes out in fragments, each subscriber's own head first; what is queued behind it waits.
@Suite struct SnapshotStreamingTests {
    /// A tree whose snapshot is a few fragments long: `count` texts of 300 characters under one VStack.
    static func bigTree(_ id: String, count: Int) -> JSON {
        let text = String(repeating: "ab", count: 150)
        let children: [JSON] = (0..<count).map { i in
            ["id": .string("t\(i)"), "type": "Text", "props": ["text": .string(text)],
             "modifiers": [["kind": "preference", "key": "N", "value": 1]]]
        }
        return [
            "type": "createTree", "tree": .string(id), "keys": [["key": "N", "reducer": "sum", "default": 0]],
            "root": ["id": "root", "type": "VStack", "modifiers": [["kind": "onPreferenceChange", "key": "N"]],
                     "children": .array(children)],
        ]
    }

    @Test func aLargeSnapshotArrivesInFragmentsBeforeTheDiffQueuedBehindIt() throws {
        let daemon = try DaemonUnderTest(service: { $0.maxMessageBytes = 8 << 20 })
        defer { daemon.stop() }
        let admin = try daemon.connect(as: "admin")
        #expect(try admin.request(Self.bigTree("big", count: 4_000))["type"] == "created")
        let a = try daemon.connect(as: "a")
        let b = try daemon.connect(as: "b")
        // a subscribes and, in the same breath, edits: the diff is queued while the body is still being encoded.
        try a.send(["type": "subscribe", "tree": "big", "rid": "sa"])
        try a.send(["type": "edit", "tree": "big", "seq": 1, "ops": [["op": "setPreference", "node": "t0", "key": "N", "value": 2]]])
        let framesBefore = a.webSocket.dataFramesSeen
        let snapshot = try a.next()
        let frames = a.webSocket.dataFramesSeen - framesBefore
        #expect(snapshot["type"] == "snapshot")
        #expect(snapshot["rid"] == "sa")
        #expect(snapshot["version"] == 0)
        #expect(snapshot["root"]?["children"]?.array?.count == 4_000)
        #expect(snapshot["readers"] == [["reader": "root#0", "node": "root", "key": "N", "present": true, "value": 4_000]])
        let size = snapshot.encoded().utf8.count
        #expect(size > 1 << 20)
        // The head, then the body in fragments of 256 KiB.
        let head = snapshot.encoded().utf8.count - (try #require(snapshot["root"]).encoded().utf8.count)
        #expect(frames >= 1 + (size - head) / (256 << 10) && frames <= 2 + size / (256 << 10), "\(frames) frames for \(size) bytes")
        var next = try a.next()
        while next["type"] == "clients" { next = try a.next() }
        #expect(next["type"] == "diff")
        #expect(next["version"] == 1)
        #expect(next["changes"] == [["reader": "root#0", "node": "root", "key": "N", "present": true, "value": 4_001]])

        // b at the same version shares the body: the same tree, its own head.
        let other = try b.request(["type": "subscribe", "tree": "big", "rid": "sb"])
        #expect(other["type"] == "snapshot" && other["rid"] == "sb" && other["version"] == 1)
        #expect(other["root"]?["children"]?.array?.first?["modifiers"] == [["kind": "preference", "key": "N", "value": 2]])
        // Both sessions go on: the next message that is not presence answers a listTrees.
        for client in [a, b] {
            let reply = try client.answer(["type": "listTrees", "rid": "alive"])
            #expect(reply["type"] == "trees" && reply["rid"] == "alive")
        }
    }
}

/// A message of `ProtocolRunner.largeMessageBytes` or more is parsed (and a createTree of data built) off the service
/// thread; the session's next messages wait for it, in order.
@Suite struct LargeMessageTests {
    @Test func aLargeCreateTreeIsAnsweredBeforeTheMessagesSentAfterIt() throws {
        let daemon = try DaemonUnderTest(service: { $0.maxMessageBytes = 8 << 20 })
        defer { daemon.stop() }
        let admin = try daemon.connect(as: "admin")
        let create = Self.with(SnapshotStreamingTests.bigTree("big", count: 2_000), rid: "c")
        #expect(create.encoded().utf8.count >= ProtocolRunner.largeMessageBytes)
        try admin.send(create)
        try admin.send(["type": "subscribe", "tree": "big", "rid": "s"])
        try admin.send(["type": "listTrees", "rid": "l"])
        let created = try admin.next()
        #expect(created["type"] == "created" && created["rid"] == "c")
        let snapshot = try admin.next()
        #expect(snapshot["type"] == "snapshot" && snapshot["rid"] == "s")
        #expect(snapshot["readers"] == [["reader": "root#0", "node": "root", "key": "N", "present": true, "value": 2_000]])
        var trees = try admin.next()
        while trees["type"] == "clients" { trees = try admin.next() }
        #expect(trees["type"] == "trees" && trees["rid"] == "l")
        #expect(trees["trees"]?.array?.first?["nodes"] == 2_001)

        // A large one that is wrong is answered as a small one would be; the session goes on.
        let bad = Self.with(SnapshotStreamingTests.bigTree("big", count: 2_000), rid: "again")
        let exists = try admin.request(bad)
        #expect(exists["type"] == "error" && exists["code"] == "tree_exists" && exists["rid"] == "again")
        let broken = String(bad.encoded().dropLast(5))
        try admin.send(text: broken)
        #expect(try admin.next()["code"] == "bad_json")
        #expect(try admin.answersListTrees())
    }

    static func with(_ message: JSON, rid: JSON) -> JSON {
        var o = message.object!
        o["rid"] = rid
        return .object(o)
    }
}
