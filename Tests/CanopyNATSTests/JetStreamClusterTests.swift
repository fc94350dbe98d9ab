import CanopyNATS
import Foundation
import Synchronization
import Testing

/// The engine layer against a real 3-server R3 cluster that each test starts and kills (serialized: every test has
/// its own cluster, and the failover timing should not share two cores with another cluster).
@Suite("JetStream on a 3-server cluster", .serialized)
struct JetStreamClusterTests {
    @Test("a publisher with a stale expected sequence is fenced; only the other's message is stored")
    func fencing() throws {
        let cluster = try TestCluster()
        defer { cluster.shutdown() }
        let owner = try JetStream(connect(cluster, server: 0, name: "owner"))
        let stale = try JetStream(connect(cluster, server: 1, name: "stale-owner"))
        try treeStream(owner, cluster: cluster)

        // Both saw the subject empty; the owner commits first.
        let first = try owner.publish("tree.a", payload: bytes("v1 by owner"), msgID: "tree.a/v1",
                                      expectedLastSubjectSequence: 0)
        #expect(!first.duplicate)
        let attempt = Result { () throws(PublishError) -> PubAck in
            try stale.publish("tree.a", payload: bytes("v1 by stale"), msgID: "tree.a/v1-stale",
                              expectedLastSubjectSequence: 0)
        }
        var fenced = false
        if case .failure(.fenced(let subject, let expected, let error)) = attempt {
            fenced = true
            #expect(subject == "tree.a" && expected == 0)
            #expect(error.jetStreamCode == PublishError.wrongLastSequenceCode)
        }
        #expect(fenced, "the stale publisher must be fenced")
        // The owner goes on from its own acknowledged sequence; the stale one, still behind, is fenced again.
        let second = try owner.publish("tree.a", payload: bytes("v2 by owner"), msgID: "tree.a/v2",
                                       expectedLastSubjectSequence: first.sequence)
        #expect(throws: PublishError.self) {
            try stale.publish("tree.a", payload: bytes("v2 by stale"), expectedLastSubjectSequence: first.sequence)
        }
        let stored = try readAll(owner, stream: "TREES", subject: "tree.a", from: 1)
        #expect(stored.map { text($0.payload) } == ["v1 by owner", "v2 by owner"])
        #expect(stored.map(\.sequence) == [first.sequence, second.sequence])
    }

    /// Each racer publishes as an owner does: a `.retryable` answer (here: 10164, the subject busy with the other's
    /// publish) is retried unchanged, and the retry is then stored or fenced for good.
    @Test("concurrent publishes with the same expected sequence: exactly one wins each round (nats-server 4320)")
    func concurrentFencing() throws {
        let cluster = try TestCluster()
        defer { cluster.shutdown() }
        let publishers = try (0..<2).map { (index: Int) in
            try JetStream(connect(cluster, server: index, name: "racer-\(index)"))
        }
        try treeStream(publishers[0], cluster: cluster)
        var last: UInt64 = 0
        let rounds = 20
        for round in 0..<rounds {
            let results = Mutex<[Int: Result<PubAck, any Error>]>([:])
            let expected = last
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                let result = Result { () throws -> PubAck in
                    try publishUntilAcknowledged(
                        publishers[index], stream: "TREES", subject: "tree.race",
                        payload: bytes("round \(round) by \(index)"), msgID: "race/\(round)/\(index)",
                        expected: expected, timeout: .seconds(5)
                    ).ack
                }
                results.withLock { $0[index] = result }
            }
            let outcome = results.withLock { $0 }
            let acks = outcome.values.compactMap { try? $0.get() }
            let fenced = outcome.values.filter {
                if case .failure(let e) = $0 { (e as? PublishError)?.isFenced == true } else { false }
            }
            let summary = outcome.sorted { $0.key < $1.key }.map { index, result in
                switch result {
                case .success(let ack): "\(index): ack \(ack.sequence)"
                case .failure(let error): "\(index): \(String(describing: error).prefix(300))"
                }
            }
            #expect(acks.count == 1 && fenced.count == 1, "round \(round): \(summary)")
            guard let ack = acks.first else { return }
            last = ack.sequence
        }
        let stored = try readAll(publishers[0], stream: "TREES", subject: "tree.race", from: 1)
        #expect(stored.count == rounds)
        #expect(stored.last?.sequence == last)
    }

    @Test("the same message ID twice within the window is stored once; the second ack says duplicate")
    func deduplication() throws {
        let cluster = try TestCluster()
        defer { cluster.shutdown() }
        let jetStream = try JetStream(connect(cluster))
        try treeStream(jetStream, cluster: cluster)
        let first = try jetStream.publish("tree.d", payload: bytes("batch 1"), msgID: "tree.d/v1")
        let again = try jetStream.publish("tree.d", payload: bytes("batch 1"), msgID: "tree.d/v1")
        #expect(!first.duplicate)
        #expect(again.duplicate)
        #expect(again.sequence == first.sequence)
        #expect(try readAll(jetStream, stream: "TREES", subject: "tree.d", from: 1).count == 1)

        // An owner retrying an unacknowledged publish repeats it unchanged, expected sequence included: the
        // retry of a publish that was in fact stored must be answered as a duplicate, not fenced.
        let next = try jetStream.publish("tree.d", payload: bytes("batch 2"), msgID: "tree.d/v2",
                                         expectedLastSubjectSequence: first.sequence)
        let retry = try jetStream.publish("tree.d", payload: bytes("batch 2"), msgID: "tree.d/v2",
                                          expectedLastSubjectSequence: first.sequence)
        #expect(retry.duplicate && retry.sequence == next.sequence)
        #expect(try readAll(jetStream, stream: "TREES", subject: "tree.d", from: 1).count == 2)
    }

    @Test("leases in KV: create once, stale revisions fail, the key expires after the TTL")
    func leases() throws {
        let cluster = try TestCluster()
        defer { cluster.shutdown() }
        let a = try JetStream(connect(cluster, server: 0, name: "daemon-a"))
        let b = try JetStream(connect(cluster, server: 2, name: "daemon-b"))
        let ttl = Duration.seconds(1)
        let config = KeyValueConfig(bucket: "leases", replicas: 3, ttl: ttl)
        let leasesA = try untilNotTransient("create the bucket") { try a.keyValue(config) }
        let leasesB = try untilNotTransient("open the bucket") { try b.keyValue(config) }

        try writable(leasesA, probe: "probe-a")
        try writable(leasesB, probe: "probe-b")

        let taken = try leasesA.create("tree-a", value: bytes("daemon-a"))
        let second = Result { () throws(KeyValueError) -> UInt64 in
            try leasesB.create("tree-a", value: bytes("daemon-b"))
        }
        var refused = false
        if case .failure(.exists(let key, _)) = second { refused = key == "tree-a" }
        #expect(refused, "a second create of a held lease must fail with .exists")

        let renewed = try leasesA.update("tree-a", value: bytes("daemon-a"), revision: taken)
        #expect(renewed > taken)
        let staleUpdate = Result { () throws(KeyValueError) -> UInt64 in
            try leasesB.update("tree-a", value: bytes("daemon-b"), revision: taken)
        }
        var stale = false
        if case .failure(.wrongRevision(_, let revision, _)) = staleUpdate { stale = revision == taken }
        #expect(stale, "an update with a stale revision must fail with .wrongRevision")
        #expect(try leasesB.get("tree-a")?.value == bytes("daemon-a"))

        // Nobody renews: after the TTL the key is gone and another daemon's create succeeds.
        let released = ContinuousClock.now
        try eventually("the lease expires", timeout: .seconds(15)) { try leasesB.get("tree-a") == nil }
        let takenOver = try leasesB.create("tree-a", value: bytes("daemon-b"))
        let waited = milliseconds(from: released, to: .now)
        print("lease: TTL 1000 ms, expired and taken over \(Int(waited)) ms after the last renewal")
        #expect(try leasesA.get("tree-a")?.value == bytes("daemon-b"))

        // A checked delete releases a lease one still holds; create works again over the delete marker.
        #expect(throws: KeyValueError.self) { try leasesA.delete("tree-a", revision: renewed) }
        try leasesB.delete("tree-a", revision: takenOver)
        #expect(try leasesA.get("tree-a") == nil)
        try leasesA.create("tree-a", value: bytes("daemon-a"))
    }

    @Test("a KV watch reads each key's latest write, then every write as it is made, deletes included")
    func watchKeyValue() throws {
        let cluster = try TestCluster()
        defer { cluster.shutdown() }
        let a = try JetStream(connect(cluster, server: 0, name: "daemon-a"))
        let b = try JetStream(connect(cluster, server: 1, name: "daemon-b"))
        let config = KeyValueConfig(bucket: "watched", replicas: 3)
        let kvA = try untilNotTransient("create the bucket") { try a.keyValue(config) }
        let kvB = try untilNotTransient("open the bucket") { try b.keyValue(config) }
        try writable(kvA, probe: "probe")
        try kvA.delete("probe")
        let first = try kvA.create("tree.one", value: bytes("a"))
        let renewed = try kvA.update("tree.one", value: bytes("a"), revision: first)
        let two = try kvA.create("two", value: bytes("a"))

        // What is stored: the latest write of each key (history 1), in stream order; the older write is gone.
        let watch = try untilNotTransient("start a watch") { try kvB.watch() }
        defer { watch.close() }
        var seen: [KeyValueChange] = []
        while seen.count < 3, let change = try watch.next(timeout: .seconds(5)) { seen.append(change) }
        #expect(seen == [
            KeyValueChange(key: "probe", value: nil, revision: seen.first?.revision ?? 0),
            KeyValueChange(key: "tree.one", value: bytes("a"), revision: renewed),
            KeyValueChange(key: "two", value: bytes("a"), revision: two),
        ])
        #expect(try watch.next(timeout: .milliseconds(200)) == nil, "nothing else is stored")

        // Then each write as it happens, from any client: an update, a delete, a create over the delete marker.
        let moved = try kvA.update("two", value: bytes("b"), revision: two)
        try kvA.delete("tree.one", revision: renewed)
        let again = try kvB.create("tree.one", value: bytes("b"))
        var live: [KeyValueChange] = []
        while live.count < 3, let change = try watch.next(timeout: .seconds(5)) { live.append(change) }
        #expect(live.map(\.key) == ["two", "tree.one", "tree.one"])
        #expect(live.map(\.value) == [bytes("b"), nil, bytes("b")])
        #expect(live.first?.revision == moved && live.last?.revision == again)
    }

    @Test("asynchronous updates: many keys renewed at once, each answered once; a stale revision is refused")
    func updateManyKeysAtOnce() throws {
        let cluster = try TestCluster()
        defer { cluster.shutdown() }
        let jetStream = try JetStream(connect(cluster))
        let kv = try untilNotTransient("create the bucket") {
            try jetStream.keyValue(KeyValueConfig(bucket: "renewed", replicas: 3))
        }
        try writable(kv, probe: "probe")
        let keys = (0..<200).map { "tree-\($0)" }
        let revisions = try keys.map { try kv.create($0, value: bytes("a")) }
        let answers = Mutex<[String: [Result<UInt64, KeyValueError>]]>([:])
        let done = DispatchGroup()
        for (key, revision) in zip(keys, revisions) {
            done.enter()
            // The first key is sent with a stale revision: it must be refused, the others renewed.
            kv.updateAsync(key, value: bytes("a"), revision: key == keys[0] ? revision - 1 : revision) { result in
                answers.withLock { $0[key, default: []].append(result) }
                done.leave()
            }
        }
        #expect(done.wait(timeout: .now() + 30) == .success, "every update is answered")
        let all = answers.withLock { $0 }
        #expect(all.count == keys.count && all.values.allSatisfy { $0.count == 1 }, "each answered once")
        var refused = false
        if case .failure(.wrongRevision(let key, _, _)) = all[keys[0]]?.first { refused = key == keys[0] }
        #expect(refused, "a stale revision fails with .wrongRevision: \(String(describing: all[keys[0]]))")
        for (key, revision) in zip(keys, revisions).dropFirst() {
            let renewed = try? all[key]?.first?.get()
            #expect(renewed.map { $0 > revision } == true, "\(key)")
            #expect(try kv.get(key)?.revision == renewed, "\(key)")
        }
    }

    @Test("reading a subject from a sequence returns its messages in order with their headers, then follows it")
    func readFromSequence() throws {
        let cluster = try TestCluster()
        defer { cluster.shutdown() }
        let jetStream = try JetStream(connect(cluster))
        try treeStream(jetStream, cluster: cluster)
        var sequences: [UInt64] = []
        for version in 1...10 {
            let ack = try jetStream.publish(
                "tree.r", payload: bytes("batch \(version)"), headers: ["Canopy-Version": "\(version)"],
                msgID: "tree.r/v\(version)", expectedLastSubjectSequence: sequences.last ?? 0)
            sequences.append(ack.sequence)
            try jetStream.publish("tree.other", payload: bytes("noise \(version)"))  // gaps in the stream sequence
        }
        let read = try readAll(jetStream, stream: "TREES", subject: "tree.r", from: sequences[3])
        #expect(read.map(\.sequence) == Array(sequences[3...]))
        #expect(read.map { text($0.payload) } == (4...10).map { "batch \($0)" })
        #expect(read.map { $0.headers["Canopy-Version"] } == (4...10).map { "\($0)" })
        #expect(read.map { $0.headers["Nats-Msg-Id"] } == (4...10).map { "tree.r/v\($0)" })
        #expect(read.allSatisfy { $0.subject == "tree.r" && $0.timestamp > 0 })

        // A reader keeps following the subject: a message published after it started arrives too.
        let reader = try untilNotTransient("start a reader") {
            try jetStream.readSubject(stream: "TREES", subject: "tree.r", from: sequences[9])
        }
        defer { reader.close() }
        #expect(try reader.next(timeout: .seconds(5))?.sequence == sequences[9])
        let ack = try jetStream.publish("tree.r", payload: bytes("batch 11"), headers: ["Canopy-Version": "11"],
                                        expectedLastSubjectSequence: sequences[9])
        let followed = try reader.next(timeout: .seconds(5))
        #expect(followed?.sequence == ack.sequence && followed?.headers["Canopy-Version"] == "11")
        #expect(try jetStream.lastMessage(stream: "TREES", subject: "tree.r")?.sequence == ack.sequence)
        #expect(try jetStream.lastMessage(stream: "TREES", subject: "tree.none") == nil)
    }

    @Test("request/reply: a follower's request reaches the owner's responder and its reply comes back")
    func requestReply() throws {
        let cluster = try TestCluster()
        defer { cluster.shutdown() }
        let owner = try connect(cluster, server: 0, name: "owner")
        let follower = try connect(cluster, server: 2, name: "follower")
        let responder = try owner.respond(to: "canopy.edit.*") { request in
            // Replied from another thread, later: as an owner replies once JetStream acknowledged the batch.
            DispatchQueue.global().async {
                try? request.reply(payload: Array(request.message.payload.reversed()),
                                   headers: ["Canopy-Tree": String(request.message.subject.dropFirst(12))])
            }
        }
        defer { responder.stop() }
        try owner.flush()  // the subscription is known to the server before the follower asks
        try eventually("the owner's interest reaches the follower's server") {
            (try? follower.request("canopy.edit.t1", payload: bytes("ping"), timeout: .seconds(1))) != nil
        }
        let reply = try follower.request("canopy.edit.t1", payload: bytes("edit 42"), timeout: .seconds(5))
        #expect(text(reply.payload) == "24 tide")
        #expect(reply.headers["Canopy-Tree"] == "t1")

        responder.stop()
        try eventually("the stopped responder's interest is gone") {
            do {
                _ = try follower.request("canopy.edit.t1", payload: bytes("x"), timeout: .seconds(1))
                return false
            } catch { return (error as? NATSError)?.isNoResponders == true }
        }
    }

    @Test("asynchronous publishes: several in flight, each completed once with its own acknowledgement")
    func asynchronousPublishes() throws {
        let cluster = try TestCluster()
        defer { cluster.shutdown() }
        let jetStream = try JetStream(connect(cluster))
        try treeStream(jetStream, cluster: cluster)
        let count = 32
        let done = DispatchSemaphore(value: 0)
        let results = Mutex<[Int: Result<PubAck, PublishError>]>([:])
        for index in 0..<count {
            try jetStream.publishAsync("tree.async\(index % 4)", payload: bytes("batch \(index)"),
                                       msgID: "async/\(index)") { result in
                results.withLock { $0[index] = result }
                done.signal()
            }
        }
        for _ in 0..<count { #expect(done.wait(timeout: .now() + 10) == .success) }
        let acks = results.withLock { $0 }.values.compactMap { try? $0.get() }
        #expect(acks.count == count)
        #expect(Set(acks.map(\.sequence)).count == count)

        // A fenced asynchronous publish completes with .fenced.
        let fenced = DispatchSemaphore(value: 0)
        let outcome = Mutex<PublishError?>(nil)
        try jetStream.publishAsync("tree.async0", payload: bytes("stale"), expectedLastSubjectSequence: 1) { result in
            if case .failure(let error) = result { outcome.withLock { $0 = error } }
            fenced.signal()
        }
        #expect(fenced.wait(timeout: .now() + 10) == .success)
        #expect(outcome.withLock { $0?.isFenced } == true)
    }
}
