import CanopyCore

/// What a batch asks the sequencer to run: ops (`edit`), or a transaction of a program tree (`event`, `setSource`).
enum BatchWork {
    case ops(JSON)
    case event(JSONObject)
    case source(String)
}

/// A batch the sequencer ran: the diff's fields after `seq` (`ops`, `changes`, a program's `event`/`source`,
/// `state`, `warnings`), its trace, and its op count for the metrics.
struct AppliedBatch {
    var fields: JSONObject
    var trace: Trace?
    var opCount: Int
}

/// The sequencer: batches (edits, program events and source changes) are checked, applied, given the next version
/// and made durable, then released.
extension ProtocolMachine {
    mutating func edit(_ s: SessionID, _ o: JSONObject, rid: JSON?, now: Double) throws(CanopyError)
        -> [ProtocolAction]
    {
        let id = try existingTree(s, o, .editor, "edit this tree")
        let seq = try self.seq(o)
        if channels[id]!.program != nil {
            throw CanopyError(.programTree, "tree \"\(id)\" is a program tree: send event or setSource, not ops")
        }
        guard let opsJSON = o["ops"] else { throw CanopyError(.badMessage, "edit: missing \"ops\"") }
        return sequence(ReplyTo(session: s, rid: rid), id, seq: seq, .ops(opsJSON), now: now)
    }

    /// A batch's `seq` (null when absent), refused when its encoding is longer than `maxLabelBytes`.
    func seq(_ o: JSONObject) throws(CanopyError) -> JSON {
        let seq = o["seq"] ?? .null
        if !seq.isNull, seq.encoded().utf8.count > configuration.maxLabelBytes {
            throw CanopyError(.badMessage, "\"seq\" is longer than \(configuration.maxLabelBytes) bytes encoded")
        }
        return seq
    }

    /// The path every batch takes once its tree and access are checked: a resubmitted (client, seq) is answered
    /// `duplicate`; a storage failure or the rate limit rejects it; otherwise `work` runs, the tree gains a version,
    /// and the diff is persisted (released at its commit) or, without a store, released at once.
    mutating func sequence(_ author: ReplyTo, _ id: String, seq: JSON, _ work: BatchWork, now: Double)
        -> [ProtocolAction]
    {
        let s = author.session
        let seqText = seq.isNull ? nil : seq.encoded()
        let client = sessions[s]?.client ?? ""
        if let seqText, !client.isEmpty, let version = channels[id]!.acks[client, seqText] {
            return resubmitted(author, id, version: version, seq: seq)
        }
        if let failure = storageFailure {
            if now < failure.until {
                return [sendRejection(author, id, seq, CanopyError(.storageError, failure.message))]
            }
            storageFailure = nil  // try the store again
        }
        if sessions[s]?.takeEditToken(rate: configuration.editsPerSecond, now: now) != true {
            let e = CanopyError(.rateLimited, "more than \(configuration.editsPerSecond) edits per second")
            return logLimit(s, e) + [sendRejection(author, id, seq, e)]
        }
        if !channels[id]!.owned { return forward(author, id, seq: seq, work) }
        let applied: AppliedBatch
        do { applied = try run(work, on: id) } catch {
            return logLimit(s, error) + [sendRejection(author, id, seq, error)]
        }
        counters.editsApplied += 1
        let version = channels[id]!.tree.version
        var message: JSONObject = [
            "type": "diff", "tree": .string(id), "version": .int(Int64(version)),
            "author": .string(wireName(s)), "seq": seq,
        ]
        message.merge(applied.fields)
        let plain = encoded(.object(message))
        var traced: OutgoingMessage?
        if let trace = applied.trace {
            message["trace"] = trace.json
            traced = encoded(.object(message))
            message["trace"] = nil
        }
        let batch = TreeChannel.PendingBatch(
            version: version, author: author, seq: seq, plain: plain, traced: traced, json: .object(message),
            opCount: applied.opCount)
        channels[id]!.pending.append(batch)
        if let seqText, !client.isEmpty { channels[id]!.acks.remember(client: client, seq: seqText, version: version) }
        guard durable else { return committedAppend(id, through: version) }
        if isSnapshotDue(channels[id]!, now: now) {
            // The tree as of this batch (copy-on-write: O(1) now); stored once the batch is durable.
            channels[id]!.snapshot = .waitingForCommit(channels[id]!.tree, channels[id]!.storedProgram)
            channels[id]!.lastSnapshotVersion = version
            channels[id]!.lastSnapshotTime = now
        }
        let channel = channels[id]!
        let ticket = CommitTicket(
            tree: id, incarnation: channel.incarnation, epoch: channel.epoch, kind: .append(version: version))
        return [.persist(ticket, .append(tree: id, version: version, client: client, seq: seqText, diff: plain.bytes))]
    }

    /// Runs a batch's work on tree `id`; on error nothing changed.
    private mutating func run(_ work: BatchWork, on id: String) throws(CanopyError) -> AppliedBatch {
        switch work {
        case .ops(let json):
            let ops = try [Op](json: json)
            guard !ops.isEmpty else {
                throw CanopyError(.badMessage, "edit: \"ops\" is empty (a batch has at least one op)")
            }
            let diff = try channels[id]!.tree.apply(ops, trace: channels[id]!.wantsTrace)
            let fields: JSONObject = ["ops": .array(diff.ops.map(\.json)), "changes": .array(diff.changes.map(\.json))]
            return AppliedBatch(fields: fields, trace: diff.trace, opCount: ops.count)
        case .event(let o): return try runEvent(o, on: id)
        case .source(let source): return try runSetSource(source, on: id)
        }
    }

    /// Whether the batch just applied should be snapshotted: enough batches or time since the last snapshot, and
    /// none under way.
    func isSnapshotDue(_ channel: TreeChannel, now: Double) -> Bool {
        guard case .idle = channel.snapshot else { return false }
        return channel.tree.version - channel.lastSnapshotVersion >= configuration.snapshotEveryBatches
            || now - channel.lastSnapshotTime >= Double(configuration.snapshotEverySeconds)
    }

    /// Every batch through `version` is durable: release them in order (with the snapshots answered meanwhile),
    /// then start a snapshot that was waiting for them.
    mutating func committedAppend(_ id: String, through version: Int) -> [ProtocolAction] {
        var out: [ProtocolAction] = []
        while let first = channels[id]!.pending.first, first.version <= version {
            channels[id]!.pending.removeFirst()
            out += release(id, first)
            // Snapshots answered meanwhile follow the last batch they show.
            while let held = channels[id]!.held.first, held.version <= first.version {
                channels[id]!.held.removeFirst()
                out.append(.send(held.session, held.message))
            }
        }
        channels[id]!.durableVersion = max(channels[id]!.durableVersion, version)
        let anchor = durable ? channels[id]!.base?.version ?? 0 : .max
        channels[id]!.log.trim(keep: configuration.diffLogLength, anchor: anchor)
        if case .waitingForCommit(let copy, let program) = channels[id]!.snapshot,
            copy.version <= channels[id]!.durableVersion
        {
            channels[id]!.snapshot = .writing(version: copy.version)
            let ticket = SnapshotTicket(tree: id, incarnation: channels[id]!.incarnation, version: copy.version)
            let acks = channels[id]!.acks.records(through: copy.version)
            out.append(.writeSnapshot(ticket, copy, acks: acks, program: program))
        }
        return out
    }

    /// Sends a durable batch's diff to every subscriber that does not have it yet, its author and resubmitters, and
    /// logs it.
    private mutating func release(_ id: String, _ p: TreeChannel.PendingBatch) -> [ProtocolAction] {
        counters.editsAccepted += 1
        counters.ops += p.opCount
        channels[id]!.log.append(.init(version: p.version, message: p.plain, json: p.json))
        let channel = channels[id]!
        var out: [ProtocolAction] = channel.recipients(of: p).map {
            .send($0.session, $0.traced ? p.traced ?? p.plain : p.plain)
        }
        if channel.subscriberIndex(p.author.session) == nil && sessions[p.author.session] != nil {
            out.append(.send(p.author.session, p.plain))
        }
        // Cluster mode: a batch this daemon forwarded to itself (it became the tree's owner meanwhile) is not read
        // back from the stream, so its author here gets it now.
        if let name = sessions[p.author.session]?.forwardedFrom, let local = localAuthor(name),
            channel.subscriberIndex(local) == nil
        {
            out.append(.send(local, p.plain))
        }
        counters.diffsDelivered += out.count
        if !p.resubmitters.isEmpty {
            for again in p.resubmitters where sessions[again.session] != nil {
                out.append(duplicate(again, p.json))
            }
        }
        return out
    }

    /// The original diff of a resubmitted batch, marked `duplicate`, to `to`.
    mutating func duplicate(_ to: ReplyTo, _ original: JSON) -> ProtocolAction {
        counters.editsDuplicate += 1
        guard case .object(var diff) = original else { return send(to.session, original, rid: to.rid) }
        diff["duplicate"] = true
        return send(to.session, .object(diff), rid: to.rid)
    }

    /// A batch whose (client, seq) was already accepted as `version`: its original diff goes to the sender (once
    /// durable), marked `duplicate`; nothing is applied again. When the log no longer has it, the store is asked;
    /// if that has compacted it too, the answer is the diff's identity alone (`compacted`).
    private mutating func resubmitted(_ to: ReplyTo, _ id: String, version: Int, seq: JSON) -> [ProtocolAction] {
        if let i = channels[id]!.pending.firstIndex(where: { $0.version == version }) {
            channels[id]!.pending[i].resubmitters.append(to)
            return []
        }
        if let logged = channels[id]!.log.entry(version) { return [duplicate(to, logged.json)] }
        guard durable else { return [duplicate(to, compactedDiff(id, version: version, seq: seq))] }
        return startRead(
            .duplicate(to, incarnation: channels[id]!.incarnation, version: version, seq: seq), tree: id, from: version,
            to: version)
    }

    /// What answers a resubmission whose diff is gone from the log and the store: its tree, version and seq.
    func compactedDiff(_ id: String, version: Int, seq: JSON) -> JSON {
        ["type": "diff", "tree": .string(id), "version": .int(Int64(version)), "seq": seq, "compacted": true]
    }
}
