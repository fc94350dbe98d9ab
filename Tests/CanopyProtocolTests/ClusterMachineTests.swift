import CanopyCore
import Testing

@testable import CanopyProtocol

/// Cluster mode, input by input (docs/cluster.md): a daemon that follows a tree applies the batches another daemon
/// committed (`replicated`) and forwards its own sessions' batches to the owner (`forward`, `openedForwarded`,
/// `forwardAnswered`); an owner that loses a race to another daemon rolls back and follows it (`notCommitted`, a
/// batch read from the stream at a version it holds only pending).
@Suite struct ClusterMachineTests {
    // MARK: Helpers

    /// A durable daemon of a cluster, named by `prefix` ("d1/").
    static func daemon(_ prefix: String, programs: Bool = false) -> MachineHarness {
        MachineHarness {
            $0.sessionPrefix = prefix
            if programs { $0.programs = FakeProgramRuntime() }
        }
    }

    /// Creates tree `id` on `h` as its session 1 (open) and commits it; returns the creation it stored.
    static func created(_ h: inout MachineHarness, _ id: String = "demo") -> PersistWrite {
        let created = h.send(1, createRequest(id))
        precondition(created.persists.count == 1)
        _ = h.commit(created.persists[0].0)
        return created.persists[0].1
    }

    static func createRequest(_ id: String) -> JSON {
        ["type": "createTree", "tree": .string(id), "keys": [MachineHarness.sumKey], "root": MachineHarness.root]
    }

    /// What `notCommitted` answers for the write of `ticket`.
    static func notCommitted(
        _ h: inout MachineHarness, _ ticket: CommitTicket, _ reason: ProtocolMachine.NotCommitted,
        _ message: String = "fenced"
    ) -> Actions {
        Actions(h.machine.notCommitted(ticket, reason, message: message, now: h.now))
    }

    /// Daemon d1 with its session 1 open, owner of the trees it creates.
    static func owner() -> MachineHarness {
        var a = daemon("d1/")
        a.open(1)
        return a
    }

    /// A daemon named `prefix` following the tree of `creation`.
    static func follower(_ prefix: String, of creation: PersistWrite, programs: Bool = false) -> MachineHarness {
        var b = daemon(prefix, programs: programs)
        _ = Actions(b.machine.replicated(creation, now: b.now))
        return b
    }

    /// Sends an edit as `s` and commits its write at once; returns the stored write and what the commit released.
    static func committedEdit(_ h: inout MachineHarness, _ s: SessionID, _ edit: JSON) -> (PersistWrite, Actions) {
        let sent = h.send(s, edit)
        precondition(sent.persists.count == 1, "the edit was not sequenced: \(sent.sent.map(\.message))")
        return (sent.persists[0].1, h.commit(sent.persists[0].0))
    }

    static func replicate(_ h: inout MachineHarness, _ write: PersistWrite) -> Actions {
        Actions(h.machine.replicated(write, now: h.now))
    }

    static func diffBytes(_ write: PersistWrite) -> [UInt8] {
        guard case .append(_, _, _, _, let diff) = write else { return [] }
        return diff
    }

    static func version(_ write: PersistWrite) -> Int? {
        guard case .append(_, let version, _, _, _) = write else { return nil }
        return version
    }

    /// The raw bytes of every message sent to `s`.
    static func bytes(_ actions: Actions, to s: SessionID) -> [[UInt8]] {
        actions.all.compactMap {
            guard case .send(let to, let m) = $0, to == s else { return nil }
            return m.bytes
        }
    }

    static func diffs(_ actions: Actions, to s: SessionID) -> [JSON] {
        actions.to(s).filter { $0["type"] == "diff" }
    }

    static func forwards(_ actions: Actions) -> [ForwardedBatch] {
        actions.all.compactMap {
            guard case .forward(let batch) = $0 else { return nil }
            return batch
        }
    }

    static func logs(_ actions: Actions) -> [(LogLevel, String)] {
        actions.all.compactMap {
            guard case .log(let level, let text) = $0 else { return nil }
            return (level, text)
        }
    }

    static func json(_ bytes: [UInt8]) -> JSON { try! JSONParser.parse(bytes: bytes) }

    /// The owner handles a forwarded batch as session `s`, a session of its own: what its machine did at once, and
    /// (if it asked for a commit) what the commit released.
    static func handle(_ a: inout MachineHarness, _ batch: ForwardedBatch, as s: SessionID) -> (Actions, Actions) {
        a.machine.openedForwarded(s, client: batch.client, author: batch.author, now: a.now)
        let handled = Actions(a.machine.received(s, .message(json(batch.message)), now: a.now))
        let released = a.commitAll(handled)
        return (handled, released)
    }

    /// The one message the owner sent to forwarded session `s`: the answer the runner carries back.
    static func answer(_ actions: Actions, to s: SessionID) -> [UInt8]? {
        let all = bytes(actions, to: s)
        return all.count == 1 ? all[0] : nil
    }

    static func sameTree(_ a: MachineHarness, _ b: MachineHarness, _ id: String = "demo") -> Bool {
        guard let x = a.machine.tree(id), let y = b.machine.tree(id) else { return false }
        return x.version == y.version && x.root.json == y.root.json
            && x.readers.map(\.value) == y.readers.map(\.value)
    }

    static func edit(_ tree: String = "demo", seq: JSON, value: Int, rid: JSON? = nil) -> JSON {
        guard case .object(var o) = MachineHarness.edit(tree, seq: seq, value: value) else { return .null }
        if let rid { o["rid"] = rid }
        return .object(o)
    }

    // MARK: Following

    @Test func aFollowerAppliesTheOwnersBatchesAndPassesTheirBytesOnUnchanged() {
        var a = Self.owner()
        let creation = Self.created(&a)
        #expect(a.machine.owns("demo"))
        var writes: [PersistWrite] = []
        for (i, value) in [5, 7, 9].enumerated() {
            let (write, released) = Self.committedEdit(&a, 1, Self.edit(seq: .int(Int64(i + 1)), value: value))
            writes.append(write)
            #expect(Self.diffs(released, to: 1).first?["author"] == "d1/s1")  // the owner's prefix on the wire
        }
        #expect(writes.compactMap(Self.version) == [1, 2, 3])

        var b = Self.daemon("d2/")
        let installed = Self.replicate(&b, creation)
        #expect(Self.logs(installed).map(\.0) == [.info])
        #expect(!b.machine.owns("demo"))
        #expect(b.machine.appliedVersion("demo") == 0)
        #expect(b.machine.tree("demo")?.root.json == MachineHarness.treeJSON(after: 1))
        b.open(5)
        let subscribed = b.send(5, ["type": "subscribe", "tree": "demo"])
        #expect(subscribed.to(5).first?["type"] == "snapshot")
        #expect(subscribed.to(5).first?["version"] == 0)

        let first = Self.replicate(&b, writes[0])
        #expect(Self.bytes(first, to: 5) == [Self.diffBytes(writes[0])])
        #expect(Self.diffs(first, to: 5).first?["author"] == "d1/s1")
        #expect(first.persists.isEmpty)  // what another daemon committed is not stored again
        #expect(b.machine.appliedVersion("demo") == 1)
        #expect(b.machine.tree("demo")?.readers.first?.value == 5)

        // A batch already held is passed over.
        let again = Self.replicate(&b, writes[0])
        #expect(again.all.isEmpty)
        #expect(b.machine.appliedVersion("demo") == 1)

        // A gap: logged, not applied, nothing sent.
        let gap = Self.replicate(&b, writes[2])
        #expect(gap.sent.isEmpty)
        #expect(Self.logs(gap).map(\.0) == [.critical])
        #expect(Self.logs(gap).first?.1.contains("missing") == true)
        #expect(b.machine.appliedVersion("demo") == 1)
        #expect(b.machine.tree("demo")?.readers.first?.value == 5)

        // Then in order again: one version per batch, each diff as it was stored.
        for (write, expected) in zip(writes[1...], [2, 3]) {
            let applied = Self.replicate(&b, write)
            #expect(Self.bytes(applied, to: 5) == [Self.diffBytes(write)])
            #expect(b.machine.appliedVersion("demo") == expected)
        }
        #expect(Self.sameTree(a, b))
        #expect(b.machine.tree("demo")?.readers.first?.value == 9)
        #expect(b.machine.tree("demo")?.root.json == MachineHarness.treeJSON(after: 9))

        // A late subscriber of the follower catches up from its log.
        b.open(6)
        let late = b.send(6, ["type": "subscribe", "tree": "demo", "since": 1])
        #expect(Self.bytes(late, to: 6).prefix(2) == [Self.diffBytes(writes[1]), Self.diffBytes(writes[2])])
        #expect(late.to(6).map { $0["type"] }.prefix(3) == ["diff", "diff", "subscribed"])
    }

    @Test func aFollowerRemembersReplicatedBatchesForDeduplication() {
        var a = Self.owner()
        let creation = Self.created(&a)
        _ = a.send(1, ["type": "hello", "client": "writer"])
        let (write, _) = Self.committedEdit(&a, 1, Self.edit(seq: 1, value: 5))
        guard case .append(_, _, let client, let seq, _) = write else {
            Issue.record("no append")
            return
        }
        #expect(client == "writer" && seq == "1")
        var b = Self.follower("d2/", of: creation)
        _ = Self.replicate(&b, write)
        // The same client resubmitting through the follower is answered there: a duplicate, nothing forwarded.
        b.open(3)
        _ = b.send(3, ["type": "hello", "client": "writer"])
        let resent = b.send(3, Self.edit(seq: 1, value: 5, rid: "again"))
        #expect(Self.forwards(resent).isEmpty)
        #expect(resent.to(3).count == 1)
        #expect(resent.to(3).first?["type"] == "diff")
        #expect(resent.to(3).first?["duplicate"] == true)
        #expect(resent.to(3).first?["version"] == 1)
        #expect(resent.to(3).first?["rid"] == "again")
        #expect(b.machine.appliedVersion("demo") == 1)
    }

    // MARK: Forwarding

    @Test func anEditOnAFollowerIsForwardedAppliedByTheOwnerAndDeliveredThroughTheStreamOnce() {
        var a = Self.owner()
        let creation = Self.created(&a)
        a.open(2)
        _ = a.send(2, ["type": "subscribe", "tree": "demo"])
        var b = Self.follower("d2/", of: creation)
        b.open(1)  // not subscribed: gets the diff as its acknowledgement
        b.open(7)  // a subscriber of the follower
        _ = b.send(1, ["type": "hello", "client": "writer"])
        _ = b.send(7, ["type": "subscribe", "tree": "demo"])

        let sent = b.send(1, Self.edit(seq: 1, value: 5, rid: "r1"))
        let batches = Self.forwards(sent)
        #expect(batches.count == 1)
        #expect(sent.all.count == 1)  // nothing sent, persisted or applied here
        #expect(b.machine.appliedVersion("demo") == 0)
        guard let batch = batches.first else { return }
        #expect(batch.tree == "demo")
        #expect(batch.session == 1)
        #expect(batch.client == "writer")
        #expect(batch.author == "d2/s1")
        #expect(batch.isIdempotent)
        #expect(
            Self.json(batch.message) == [
                "type": "edit", "tree": "demo", "seq": 1, "rid": "r1",
                "ops": [["op": "setPreference", "node": "a", "key": "K", "value": 5]],
            ])

        // The owner handles it as a session of its own: released at the commit, once to that session.
        let (handled, released) = Self.handle(&a, batch, as: 1000)
        #expect(handled.sent.isEmpty)
        guard case .append(let tree, let version, let client, let seq, let diff)? = handled.persists.first?.1 else {
            Issue.record("the owner did not sequence the forwarded batch")
            return
        }
        #expect(tree == "demo" && version == 1 && client == "writer" && seq == "1")
        let answerBytes = Self.answer(released, to: 1000)
        #expect(answerBytes == diff)
        let answer = answerBytes.map(Self.json)
        #expect(answer?["type"] == "diff")
        #expect(answer?["author"] == "d2/s1")
        #expect(answer?["seq"] == 1)
        #expect(answer?["version"] == 1)
        #expect(Self.bytes(released, to: 2) == [diff])  // the owner's own subscriber
        #expect(a.machine.tree("demo")?.readers.first?.value == 5)

        // An accepted diff as the answer: the follower sends nothing (the stream brings it).
        #expect(b.machine.forwardAnswered(batch, .success(answerBytes ?? [])).isEmpty)
        #expect(b.machine.forwardAnswered(batch, .success(answerBytes ?? []), resent: true).isEmpty)

        // The stream brings it: once to the author, once to the subscriber.
        let streamed = Self.replicate(&b, handled.persists[0].1)
        #expect(Self.bytes(streamed, to: 1) == [diff])
        #expect(Self.bytes(streamed, to: 7) == [diff])
        #expect(Self.sameTree(a, b))
    }

    /// A client's edit was committed through another daemon, which died; the client sent it again here, and the
    /// owner answers the resent copy with a duplicate naming the first session. The stream delivered the diff to that
    /// session, not here: this answer is the only one the author gets (the randomized fault test found it dropped).
    /// A duplicate naming this batch's own author is its first copy's, which the stream delivers: dropped.
    @Test func aDuplicateOfACopySentThroughAnotherSessionReachesTheAuthor() {
        var a = Self.owner()
        let creation = Self.created(&a)
        var b = Self.follower("d2/", of: creation)
        b.open(1)
        _ = b.send(1, ["type": "hello", "client": "writer"])
        guard let batch = Self.forwards(b.send(1, Self.edit(seq: 1, value: 4, rid: "r"))).first else {
            Issue.record("the edit was not forwarded")
            return
        }
        func duplicate(by author: String) -> [UInt8] {
            Array(#"{"type":"diff","tree":"demo","version":1,"author":"\#(author)","seq":1,"duplicate":true,"ops":[]}"#.utf8)
        }
        let elsewhere = b.machine.forwardAnswered(batch, .success(duplicate(by: "d3/s9")), resent: true)
        var sent: [(SessionID, [UInt8])] = []
        for action in elsewhere { if case .send(let s, let message) = action { sent.append((s, message.bytes)) } }
        #expect(sent.map(\.0) == [1])
        #expect(sent.first.map { Self.json($0.1)["author"] } == "d3/s9")
        #expect(b.machine.forwardAnswered(batch, .success(duplicate(by: "d2/s1")), resent: true).isEmpty)
    }

    /// A follower forwards a batch, takes the tree over before the owner answered, and its resent request reaches
    /// itself: its own commit is not read back from the stream, so the author here gets the diff at the release —
    /// once, and the answer (a plain diff) adds nothing.
    @Test func aBatchForwardedToItselfAfterATakeOverReachesItsAuthorOnce() {
        var a = Self.owner()
        let creation = Self.created(&a)
        var b = Self.follower("d2/", of: creation)
        b.open(1)
        _ = b.send(1, ["type": "hello", "client": "writer"])
        guard let batch = Self.forwards(b.send(1, Self.edit(seq: 1, value: 4, rid: "r"))).first else {
            Issue.record("the edit was not forwarded")
            return
        }
        _ = b.machine.setOwner("demo", true)
        let (handled, released) = Self.handle(&b, batch, as: 1 << 62)
        #expect(handled.persists.count == 1)
        let diff = Self.answer(released, to: 1 << 62)
        #expect(diff != nil)
        #expect(Self.bytes(released, to: 1) == [diff ?? []])
        #expect(b.machine.forwardAnswered(batch, .success(diff ?? []), resent: true).isEmpty)
        #expect(b.machine.tree("demo")?.readers.first?.value == 4)
    }

    @Test func anAuthorThatSubscribesGetsTheForwardedBatchOnceAsItsSubscriberCopy() {
        var a = Self.owner()
        let creation = Self.created(&a)
        var b = Self.follower("d2/", of: creation)
        b.open(4)
        _ = b.send(4, ["type": "subscribe", "tree": "demo"])
        guard let batch = Self.forwards(b.send(4, Self.edit(seq: "k", value: 3))).first else {
            Issue.record("not forwarded")
            return
        }
        #expect(batch.author == "d2/s4")
        #expect(batch.client == "")
        #expect(!batch.isIdempotent)  // no client name: a second copy would be applied again
        #expect(Self.json(batch.message)["rid"] == nil)
        let (handled, released) = Self.handle(&a, batch, as: 1000)
        #expect(Self.answer(released, to: 1000).map(Self.json)?["author"] == "d2/s4")
        let streamed = Self.replicate(&b, handled.persists[0].1)
        #expect(Self.bytes(streamed, to: 4) == [Self.diffBytes(handled.persists[0].1)])
        #expect(Self.diffs(streamed, to: 4).first?["seq"] == "k")
        #expect(b.machine.tree("demo")?.readers.first?.value == 3)
    }

    @Test func theOwnersRejectionOfAForwardedBatchGoesToItsAuthor() {
        var a = Self.owner()
        let creation = Self.created(&a)
        var b = Self.follower("d2/", of: creation)
        b.open(1)
        let bad: JSON = [
            "type": "edit", "tree": "demo", "seq": 4, "rid": "bad",
            "ops": [["op": "setProps", "node": "nowhere", "props": ["x": 1]]],
        ]
        guard let batch = Self.forwards(b.send(1, bad)).first else {
            Issue.record("not forwarded")
            return
        }
        let (handled, _) = Self.handle(&a, batch, as: 1000)
        #expect(handled.persists.isEmpty)
        let answerBytes = Self.answer(handled, to: 1000)
        let answer = answerBytes.map(Self.json)
        #expect(answer?["type"] == "rejected")
        #expect(answer?["code"] == "no_such_node")
        #expect(answer?["seq"] == 4)
        #expect(answer?["rid"] == "bad")
        #expect(a.machine.tree("demo")?.version == 0)

        let rejectedBefore = b.machine.counters.editsRejected
        let passed = Actions(b.machine.forwardAnswered(batch, .success(answerBytes ?? [])))
        #expect(Self.bytes(passed, to: 1) == [answerBytes ?? []])
        #expect(passed.all.count == 1)
        #expect(b.machine.counters.editsRejected == rejectedBefore + 1)
    }

    @Test func noAnswerFromTheOwnerIsARetryableRejectionWithTheOriginalRid() {
        var a = Self.owner()
        let creation = Self.created(&a)
        var b = Self.follower("d2/", of: creation)
        b.open(1)
        guard let batch = Self.forwards(b.send(1, Self.edit(seq: 8, value: 2, rid: 42))).first else {
            Issue.record("not forwarded")
            return
        }
        let failed = Actions(b.machine.forwardAnswered(batch, .failure(StoreFailure("no responders"))))
        #expect(failed.to(1).count == 1)
        let rejected = failed.to(1).first
        #expect(rejected?["type"] == "rejected")
        #expect(rejected?["code"] == "unavailable")
        #expect(rejected?["tree"] == "demo")
        #expect(rejected?["seq"] == 8)
        #expect(rejected?["rid"] == 42)
        #expect(rejected?["message"]?.string?.contains("no responders") == true)
        // An author gone meanwhile gets nothing.
        _ = b.close(1)
        #expect(b.machine.forwardAnswered(batch, .failure(StoreFailure("timeout"))).isEmpty)
    }

    @Test func aDuplicateAnswerReachesTheAuthorUnlessTheBatchWasResent() {
        var a = Self.owner()
        let creation = Self.created(&a)
        var b = Self.follower("d2/", of: creation)
        b.open(1)
        _ = b.send(1, ["type": "hello", "client": "writer"])
        guard let first = Self.forwards(b.send(1, Self.edit(seq: 2, value: 6, rid: "one"))).first else {
            Issue.record("not forwarded")
            return
        }
        // The owner applied it, but its answer was lost: the author is told to send it again.
        let (handled, _) = Self.handle(&a, first, as: 1000)
        #expect(handled.persists.count == 1)
        let lost = Actions(b.machine.forwardAnswered(first, .failure(StoreFailure("timeout"))))
        #expect(lost.to(1).first?["code"] == "unavailable")

        // The author sends it again before the stream brought it here: forwarded again, a duplicate at the owner.
        guard let second = Self.forwards(b.send(1, Self.edit(seq: 2, value: 6, rid: "two"))).first else {
            Issue.record("not forwarded again")
            return
        }
        let (again, _) = Self.handle(&a, second, as: 1001)
        #expect(again.persists.isEmpty)
        let duplicateBytes = Self.answer(again, to: 1001) ?? []
        let duplicate = Self.json(duplicateBytes)
        #expect(duplicate["type"] == "diff")
        #expect(duplicate["duplicate"] == true)
        #expect(duplicate["version"] == 1)
        #expect(duplicate["author"] == "d2/s1")
        #expect(duplicate["rid"] == "two")
        #expect(a.machine.tree("demo")?.version == 1)

        let passed = Actions(b.machine.forwardAnswered(second, .success(duplicateBytes)))
        #expect(Self.bytes(passed, to: 1) == [duplicateBytes])
        // Resent by the runner itself: the duplicate is its own first copy's, which the stream delivers.
        #expect(b.machine.forwardAnswered(second, .success(duplicateBytes), resent: true).isEmpty)
        // The stream then delivers the original diff to its author.
        let streamed = Self.replicate(&b, handled.persists[0].1)
        #expect(Self.bytes(streamed, to: 1) == [Self.diffBytes(handled.persists[0].1)])
    }

    @Test func aBatchForwardedToADaemonThatNoLongerOwnsTheTreeIsRefused() {
        var a = Self.owner()
        let creation = Self.created(&a)
        var b = Self.follower("d2/", of: creation)
        // d3 took d2 for the owner: d2 does not forward it further.
        b.machine.openedForwarded(2000, client: "c", author: "d3/s9", now: b.now)
        let refused = Actions(b.machine.received(2000, .message(Self.edit(seq: 1, value: 4, rid: 9)), now: b.now))
        #expect(Self.forwards(refused).isEmpty)
        #expect(refused.to(2000).count == 1)
        #expect(refused.to(2000).first?["type"] == "rejected")
        #expect(refused.to(2000).first?["code"] == "unavailable")
        #expect(refused.to(2000).first?["rid"] == 9)
        // Once the follower owns the tree it sequences batches itself, named with their author's wire name.
        _ = b.machine.setOwner("demo", true)
        #expect(b.machine.owns("demo"))
        _ = a.machine.setOwner("demo", false)
        b.machine.openedForwarded(2001, client: "c", author: "d3/s9", now: b.now)
        let owned = Actions(b.machine.received(2001, .message(Self.edit(seq: 1, value: 4, rid: 9)), now: b.now))
        #expect(owned.persists.count == 1)
        #expect(Self.answer(b.commitAll(owned), to: 2001).map(Self.json)?["author"] == "d3/s9")
        // And the former owner forwards.
        a.open(3)
        let forwarded = Self.forwards(a.send(3, Self.edit(seq: 1, value: 1)))
        #expect(forwarded.map(\.author) == ["d1/s3"])
    }

    @Test func aFollowerThatTakesTheTreeOverSequencesAfterWhatItFollowedAndRollsBackToIt() {
        var a = Self.owner()
        let creation = Self.created(&a)
        _ = a.send(1, ["type": "hello", "client": "writer"])
        var b = Self.follower("d2/", of: creation)
        for (i, value) in [4, 6].enumerated() {
            let (write, _) = Self.committedEdit(&a, 1, Self.edit(seq: .int(Int64(i + 1)), value: value))
            _ = Self.replicate(&b, write)
        }
        #expect(b.machine.appliedVersion("demo") == 2)
        _ = a.machine.setOwner("demo", false)
        let handed = Actions(b.machine.setOwner("demo", true))
        #expect(Self.logs(handed).count == 1)
        #expect(b.machine.setOwner("demo", true).isEmpty)  // already
        b.open(1)
        _ = b.send(1, ["type": "hello", "client": "writer"])
        // The batches it followed are remembered: the writer's resubmission is a duplicate, not version 3.
        let resent = b.send(1, Self.edit(seq: 2, value: 6))
        #expect(resent.persists.isEmpty)
        #expect(resent.to(1).first?["duplicate"] == true)
        #expect(resent.to(1).first?["version"] == 2)

        let lost = b.send(1, Self.edit(seq: 3, value: 100))
        #expect(lost.persists.map(\.0.kind) == [.append(version: 3)])
        #expect(b.machine.tree("demo")?.readers.first?.value == 100)
        let fenced = Self.notCommitted(&b, lost.persists[0].0, .fenced, "fenced")
        #expect(fenced.to(1).map { $0["code"] } == ["unavailable"])
        // Rebuilt from the creation's snapshot and the two batches it followed.
        #expect(b.machine.appliedVersion("demo") == 2)
        #expect(b.machine.tree("demo")?.readers.first?.value == 6)
        #expect(Self.sameTree(a, b))

        let (kept, released) = Self.committedEdit(&b, 1, Self.edit(seq: 4, value: 8))
        #expect(Self.version(kept) == 3)
        #expect(Self.diffs(released, to: 1).first?["author"] == "d2/s1")
        // The former owner follows it now.
        let followed = Self.replicate(&a, kept)
        #expect(Self.logs(followed).allSatisfy { $0.0 != .error && $0.0 != .critical })
        #expect(Self.sameTree(a, b))
    }

    // MARK: Fencing

    @Test func anOwnersPendingBatchLosesToAnotherDaemonsBatchAtTheSameVersion() {
        var a = Self.owner()
        let creation = Self.created(&a)
        // d3 took the tree over and committed version 1 while d1 still believed it owned it.
        var c = Self.follower("d3/", of: creation)
        _ = c.machine.setOwner("demo", true)
        c.open(1)
        let (theirs, _) = Self.committedEdit(&c, 1, Self.edit(seq: 1, value: 42))
        #expect(Self.version(theirs) == 1)

        a.open(2)
        a.open(4)
        _ = a.send(4, ["type": "subscribe", "tree": "demo"])
        let pending = a.send(2, Self.edit(seq: "mine", value: 5, rid: "p"))
        #expect(pending.persists.map(\.0.kind) == [.append(version: 1)])
        #expect(a.machine.appliedVersion("demo") == 1)

        let lost = Self.replicate(&a, theirs)
        #expect(lost.persists.isEmpty)
        let rejection = lost.to(2)
        #expect(rejection.count == 1)  // the author is not told of the other daemon's batch
        #expect(rejection.first?["type"] == "rejected")
        #expect(rejection.first?["code"] == "unavailable")
        #expect(rejection.first?["seq"] == "mine")
        #expect(rejection.first?["rid"] == "p")
        // The subscriber: a snapshot of the durable tree, then the other daemon's diff as it was stored.
        #expect(lost.types(to: 4).filter { $0 != "clients" } == ["snapshot", "diff"])
        #expect(lost.to(4).first?["version"] == 0)
        #expect(Self.bytes(lost, to: 4).last == Self.diffBytes(theirs))
        #expect(Self.sameTree(a, c))
        #expect(a.machine.tree("demo")?.readers.first?.value == 42)
        // The lost batch's own answer comes late and is stale.
        #expect(a.commit(pending.persists[0].0).all.isEmpty)
        #expect(a.machine.notCommitted(pending.persists[0].0, .fenced, message: "fenced", now: a.now).isEmpty)
        #expect(a.machine.appliedVersion("demo") == 1)
    }

    @Test func aFencedCreationAnswersTreeExistsAndDropsTheTree() {
        var a = Self.owner()
        _ = Self.created(&a)
        let create = a.send(1, ["type": "createTree", "tree": "x", "rid": 7])
        #expect(create.persists.map(\.0.kind) == [.create])
        #expect(a.machine.tree("x") != nil)
        let fenced = Self.notCommitted(&a, create.persists[0].0, .fenced, "fenced")
        #expect(fenced.to(1).count == 1)
        #expect(fenced.to(1).first?["type"] == "error")
        #expect(fenced.to(1).first?["code"] == "tree_exists")
        #expect(fenced.to(1).first?["rid"] == 7)
        #expect(a.machine.tree("x") == nil)
        #expect(!a.machine.owns("x"))

        // Not acknowledged in time: retryable, and the tree is dropped too.
        let again = a.send(1, ["type": "createTree", "tree": "y", "rid": 8])
        let timedOut = Self.notCommitted(&a, again.persists[0].0, .unacknowledged, "timeout")
        #expect(timedOut.to(1).first?["code"] == "unavailable")
        #expect(timedOut.to(1).first?["rid"] == 8)
        #expect(a.machine.tree("y") == nil)
        // Edits of other trees go on.
        #expect(a.send(1, Self.edit(seq: 1, value: 2)).persists.count == 1)
    }

    @Test func aFencedAppendRollsBackWithoutStoppingOtherTreesUnlikeAFailedCommit() {
        var a = Self.owner()
        _ = Self.created(&a)
        let other = a.send(1, Self.createRequest("other"))
        _ = a.commitAll(other)
        a.open(2)
        _ = a.send(2, ["type": "subscribe", "tree": "demo"])
        let (kept, _) = Self.committedEdit(&a, 1, Self.edit(seq: 1, value: 5))
        #expect(Self.version(kept) == 1)
        let lost = a.send(1, Self.edit(seq: 2, value: 9, rid: "l"))
        #expect(a.machine.appliedVersion("demo") == 2)

        let fenced = Self.notCommitted(&a, lost.persists[0].0, .fenced, "fenced")
        #expect(fenced.to(1).map { $0["code"] } == ["unavailable"])
        #expect(fenced.to(1).first?["seq"] == 2)
        #expect(fenced.to(1).first?["rid"] == "l")
        #expect(fenced.to(2).first?["type"] == "snapshot")
        #expect(fenced.to(2).first?["version"] == 1)
        #expect(a.machine.appliedVersion("demo") == 1)
        #expect(a.machine.tree("demo")?.readers.first?.value == 5)
        // Right after, another tree's edit is accepted (no storage back-off)…
        let next = a.send(1, Self.edit("other", seq: 3, value: 4))
        #expect(next.persists.map(\.0.kind) == [.append(version: 1)])
        #expect(next.to(1).isEmpty)
        _ = a.commitAll(next)

        // …where a failed commit refuses every tree's edits for a while.
        let failing = a.send(1, Self.edit(seq: 4, value: 11))
        _ = a.fail(failing.persists[0].0)
        let refused = a.send(1, Self.edit("other", seq: 5, value: 6))
        #expect(refused.persists.isEmpty)
        #expect(refused.to(1).first?["code"] == "storage_error")
    }

    @Test func aWriteTooLargeForTheServersIsRejectedTooLargeAndRolledBack() {
        var a = Self.owner()
        _ = Self.created(&a)
        let big = a.send(1, Self.edit(seq: 1, value: 8, rid: "b"))
        let refused = Self.notCommitted(&a, big.persists[0].0, .tooLarge, "over max_payload")
        #expect(refused.to(1).map { $0["code"] } == ["too_large"])
        #expect(refused.to(1).first?["seq"] == 1)
        #expect(refused.to(1).first?["rid"] == "b")
        #expect(a.machine.appliedVersion("demo") == 0)
        #expect(a.send(1, Self.edit(seq: 2, value: 1)).persists.map(\.0.kind) == [.append(version: 1)])

        let create = a.send(1, ["type": "createTree", "tree": "huge", "rid": 2])
        let notCreated = Self.notCommitted(&a, create.persists[0].0, .tooLarge, "over")
        #expect(notCreated.to(1).first?["type"] == "error")
        #expect(notCreated.to(1).first?["code"] == "too_large")
        #expect(a.machine.tree("huge") == nil)
    }

    @Test func aFencedDeletionIsCalledOffAndAnotherDaemonsDeletionDropsTheTree() {
        var a = Self.owner()
        let creation = Self.created(&a)
        let delete = a.send(1, ["type": "deleteTree", "tree": "demo", "rid": 3])
        #expect(delete.persists.map(\.0.kind) == [.delete])
        let off = Self.notCommitted(&a, delete.persists[0].0, .fenced, "fenced")
        #expect(off.to(1).first?["code"] == "unavailable")
        #expect(off.to(1).first?["rid"] == 3)
        #expect(a.machine.tree("demo") != nil)

        var b = Self.follower("d2/", of: creation)
        b.open(5)
        _ = b.send(5, ["type": "subscribe", "tree": "demo"])
        let deleted = Self.replicate(&b, .deleteTree(id: "demo"))
        #expect(deleted.to(5).map { $0["type"] } == ["deleted"])
        #expect(b.machine.tree("demo") == nil)
        #expect(Self.replicate(&b, .deleteTree(id: "demo")).all.isEmpty)
    }

    /// Two daemons create the same id at once; the other one's creation is read from the stream before this one's
    /// fenced publish is answered: this daemon's author gets `tree_exists` at once, the daemon follows the other
    /// daemon's tree, and the fenced answer changes nothing.
    @Test func aCreationThatLostTheRaceLeavesTheWinnersTree() {
        var c = Self.owner()
        let creation = Self.created(&c, "x")  // d1 created x and won
        let (theirEdit, _) = Self.committedEdit(&c, 1, Self.edit("x", seq: 1, value: 3))
        var a = Self.daemon("d2/")
        a.open(1)
        let mine = a.send(1, ["type": "createTree", "tree": "x", "rid": 1])
        #expect(mine.persists.map(\.0.kind) == [.create])

        let lost = Self.replicate(&a, creation)
        #expect(lost.to(1).map { $0["code"] } == ["tree_exists"])
        #expect(lost.to(1).first?["rid"] == 1)
        #expect(a.machine.appliedVersion("x") == 0)
        #expect(!a.machine.owns("x"))
        let fenced = Self.notCommitted(&a, mine.persists[0].0, .fenced, "fenced")
        #expect(fenced.all.isEmpty)
        let next = Self.replicate(&a, theirEdit)
        #expect(Self.logs(next).allSatisfy { $0.0 != .error && $0.0 != .critical })
        #expect(a.machine.appliedVersion("x") == 1)
        #expect(a.machine.tree("x")?.root.json == c.machine.tree("x")?.root.json)
        #expect(a.machine.tree("x")?.readers.first?.value == 3)
    }

    /// A deletion read from the stream while the id is being created here again (an earlier life's): the creation
    /// goes on and its author is answered at its commit.
    @Test func aStreamedDeletionDuringACreationIsPassedOver() {
        var a = Self.owner()
        let mine = a.send(1, ["type": "createTree", "tree": "x", "rid": 5])
        let echoed = Self.replicate(&a, .deleteTree(id: "x"))
        #expect(echoed.to(1).isEmpty)
        #expect(a.machine.tree("x") != nil)
        let late = a.commit(mine.persists[0].0)
        #expect(late.to(1).map { $0["type"] } == ["created"])
        #expect(late.to(1).map { $0["rid"] } == [5])
    }

    /// This daemon's own creation read back from the stream after its commit changes nothing.
    @Test func anOwnCreationReadBackIsPassedOver() {
        var a = Self.owner()
        let creation = Self.created(&a)
        let (write, _) = Self.committedEdit(&a, 1, Self.edit(seq: 1, value: 2))
        #expect(Self.replicate(&a, creation).sent.isEmpty)
        #expect(Self.replicate(&a, write).all.isEmpty)
        #expect(a.machine.owns("demo"))
        #expect(a.machine.appliedVersion("demo") == 1)
        #expect(a.machine.tree("demo")?.readers.first?.value == 2)
    }

    // MARK: Program trees

    @Test func aProgramTreeIsFollowedAndItsEventsForwarded() {
        var a = Self.daemon("d1/", programs: true)
        a.open(1)
        let created = a.send(1, ProgramMachineTests.create())
        guard let creation = created.persists.first?.1 else {
            Issue.record("no creation")
            return
        }
        _ = a.commitAll(created)
        var b = Self.follower("d2/", of: creation, programs: true)
        #expect(!b.machine.owns("p"))
        #expect(b.machine.tree("p")?.root.children.first?.props["text"] == "0")
        b.open(3)
        _ = b.send(3, ["type": "subscribe", "tree": "p"])

        // The owner's own event, followed: the transaction is not run again, its cells are.
        let tapped = a.send(1, ProgramMachineTests.tap(seq: 1))
        _ = a.commitAll(tapped)
        let followed = Self.replicate(&b, tapped.persists[0].1)
        #expect(Self.bytes(followed, to: 3) == [Self.diffBytes(tapped.persists[0].1)])
        #expect(b.machine.appliedVersion("p") == 1)
        #expect(b.machine.tree("p")?.root.children.first?.props["text"] == "1")

        // An event on the follower goes to the owner as it was sent.
        b.open(4)
        var event = ProgramMachineTests.tap(seq: 9)
        if case .object(var o) = event {
            o["rid"] = "e"
            event = .object(o)
        }
        guard let batch = Self.forwards(b.send(4, event)).first else {
            Issue.record("not forwarded")
            return
        }
        #expect(batch.author == "d2/s4")
        let message = Self.json(batch.message)
        #expect(message["type"] == "event")
        #expect(message["node"] == "button")
        #expect(message["event"] == "tap")
        #expect(message["seq"] == 9)
        #expect(message["rid"] == "e")
        let (handled, released) = Self.handle(&a, batch, as: 1000)
        let answer = Self.answer(released, to: 1000).map(Self.json)
        #expect(answer?["author"] == "d2/s4")
        #expect(answer?["state"] == [["node": "root", "name": "count", "value": 2]])
        let streamed = Self.replicate(&b, handled.persists[0].1)
        #expect(Self.bytes(streamed, to: 4) == [Self.diffBytes(handled.persists[0].1)])
        #expect(Self.bytes(streamed, to: 3) == [Self.diffBytes(handled.persists[0].1)])
        #expect(b.machine.tree("p")?.root.children.first?.props["text"] == "2")
        #expect(Self.sameTree(a, b, "p"))

        // setSource is forwarded as a setSource.
        let source = Self.forwards(b.send(4, ProgramMachineTests.setSource("counter step 5", seq: 10)))
        #expect(source.count == 1)
        #expect(source.first.map { Self.json($0.message) } == [
            "type": "setSource", "tree": "p", "seq": 10, "source": "counter step 5",
        ])
        if let source = source.first {
            let (applied, _) = Self.handle(&a, source, as: 1001)
            _ = Self.replicate(&b, applied.persists[0].1)
            let (write, _) = Self.committedEdit(&a, 1, ProgramMachineTests.tap(seq: 11))
            _ = Self.replicate(&b, write)
            #expect(b.machine.tree("p")?.root.children.first?.props["text"] == "7")
            #expect(Self.sameTree(a, b, "p"))
        }

        // The follower takes the program over: it runs from the cells it folded, and rolls back to them.
        _ = a.machine.setOwner("p", false)
        _ = b.machine.setOwner("p", true)
        let mine = b.send(4, ProgramMachineTests.tap(seq: 12))
        #expect(mine.persists.count == 1)
        #expect(b.machine.tree("p")?.root.children.first?.props["text"] == "12")
        _ = b.machine.notCommitted(mine.persists[0].0, .fenced, message: "fenced", now: b.now)
        #expect(b.machine.tree("p")?.root.children.first?.props["text"] == "7")
        #expect(Self.sameTree(a, b, "p"))
    }
}
