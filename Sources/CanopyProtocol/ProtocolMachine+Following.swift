import CanopyCore

/// Cluster mode: trees committed by other daemons, followed; ownership handed over; writes that were not committed.
extension ProtocolMachine {
    /// A session that exists on no daemon: the author of a batch committed elsewhere.
    static let nobody = SessionID.max

    /// The name of session `s` on the wire: `s17`, prefixed with the daemon's name in cluster mode (`d1/s17`); a
    /// forwarded batch's session has its author's name on the daemon it came from.
    func wireName(_ s: SessionID) -> String {
        sessions[s]?.forwardedFrom ?? configuration.sessionPrefix + Session.name(s)
    }

    /// `write` was committed by another daemon and read back from the tree's stream, in stream order: the replica
    /// follows it. A batch applies to the replica and is released to this daemon's subscribers (and to its author if
    /// it is a session here); batches this daemon applied meanwhile lose (they are rolled back and rejected
    /// `unavailable`). A batch already held is ignored.
    public mutating func replicated(_ write: PersistWrite, now: Double) -> [ProtocolAction] {
        switch write {
        case .createTree(let id, let about, let snapshot): return replicatedCreation(id, about, snapshot, now: now)
        case .append(let tree, let version, let client, let seq, let diff):
            return replicatedBatch(tree, version: version, client: client, seq: seq, diff: diff, now: now)
        case .deleteTree(let id):
            guard let channel = channels[id] else { return [] }
            switch channel.phase {
            case .deleting(let replyTo): return committedDeletion(id, replyTo)
            case .creating:
                // An earlier life's deletion: the stream has it before this creation, which is then fenced or later.
                return [.log(.notice, "tree \(id): a deletion read from the stream precedes its creation here")]
            case .live: break
            }
            return [.log(.info, "tree \(id) was deleted by another daemon")] + drop(id)
        }
    }

    private mutating func replicatedCreation(_ id: String, _ about: [UInt8], _ snapshot: [UInt8], now: Double)
        -> [ProtocolAction]
    {
        var out: [ProtocolAction] = []
        if let channel = channels[id] {
            guard case .creating(let replyTo) = channel.phase else {
                return [.log(.error, "tree \(id) was created by another daemon but is held here already")]
            }
            // This daemon's creation of the same id lost: the stream has the other first, so its publish is fenced
            // (and that answer, for an incarnation gone, changes nothing). Its author learns it now.
            out += [.log(.notice, "tree \(id) was created by another daemon first")] + drop(id)
            if let replyTo, sessions[replyTo.session] != nil {
                let e = CanopyError(.treeExists, "tree \"\(id)\" was created on another daemon")
                out.append(reply(replyTo.session, error: e, rid: replyTo.rid))
            }
        }
        let record = TreeRecord(id: id, about: about, snapshotVersion: 0, snapshot: snapshot, batches: [])
        do throws(CanopyError) {
            let restored = try Self.rebuild(record, incarnation: takeIncarnation(), configuration: configuration, now: now)
            return out + [.log(.info, "tree \(id) was created by another daemon")] + install(restored, now: now)
        } catch {
            return out + [.log(.critical, "tree \(id) created by another daemon cannot be read: \(error.message)")]
        }
    }

    private mutating func replicatedBatch(
        _ id: String, version: Int, client: String, seq: String?, diff: [UInt8], now: Double
    ) -> [ProtocolAction] {
        guard channels[id] != nil else { return [.log(.error, "batch \(version) of tree \(id), which is not held")] }
        guard version > channels[id]!.durableVersion else { return [] }
        var out: [ProtocolAction] = []
        if !channels[id]!.pending.isEmpty {
            let why = "another daemon committed version \(version) first"
            out += rollBack(id, why, now: now, rejecting: CanopyError(.unavailable, "not committed: \(why); send it again"))
        }
        let held = channels[id]!.durableVersion
        guard version == held + 1 else {
            return out + [.log(.critical, "tree \(id): batch \(version) read after \(held): a batch is missing")]
        }
        let json: JSON
        var traced: OutgoingMessage?
        var opCount = 0
        do throws(CanopyError) {
            json = try JSONParser.parse(bytes: diff, maxDepth: 4096)
            let entry = DiffLog.Entry(
                version: version, message: OutgoingMessage(bytes: diff, headroom: configuration.headroom), json: json)
            if channels[id]!.program == nil {
                let ops = try [Op](json: json["ops"] ?? .null)
                opCount = ops.count
                let applied = try channels[id]!.tree.apply(ops, trace: channels[id]!.wantsTrace)
                if let trace = applied.trace, case .object(var o) = json {
                    o["trace"] = trace.json
                    traced = encoded(.object(o))
                }
            } else {
                // A program's transaction is not run again: its cells fold into the stored ones and the program
                // starts from them, as a restore does (PROGRAMS.md §7: deterministic).
                var next = channels[id]!
                next.log.append(entry)
                next.durableVersion = version
                (channels[id]!.tree, channels[id]!.program) = try rebuilt(next)
            }
        } catch {
            return out + [.log(.critical, "tree \(id): batch \(version) of another daemon does not apply: \(error.message)")]
        }
        if let seq, !client.isEmpty { channels[id]!.acks.remember(client: client, seq: seq, version: version) }
        counters.editsApplied += 1
        let author = ReplyTo(session: localAuthor(json["author"]?.string) ?? Self.nobody, rid: nil)
        channels[id]!.pending.append(
            TreeChannel.PendingBatch(
                version: version, author: author, seq: json["seq"] ?? .null,
                plain: OutgoingMessage(bytes: diff, headroom: configuration.headroom), traced: traced, json: json,
                opCount: opCount))
        if isSnapshotDue(channels[id]!, now: now) {
            channels[id]!.snapshot = .waitingForCommit(channels[id]!.tree, channels[id]!.storedProgram)
            channels[id]!.lastSnapshotVersion = version
            channels[id]!.lastSnapshotTime = now
        }
        return out + committedAppend(id, through: version)
    }

    /// The session of this daemon an `author` names (`d1/s17` on d1), if it is still connected.
    func localAuthor(_ author: String?) -> SessionID? {
        guard let author, author.hasPrefix(configuration.sessionPrefix) else { return nil }
        let name = author.dropFirst(configuration.sessionPrefix.count)
        guard name.first == "s", let s = SessionID(name.dropFirst()), let session = sessions[s],
            session.forwardedFrom == nil
        else { return nil }
        return s
    }

    /// Whether this daemon sequences tree `id` (it took the tree's lease and read every batch committed before) or
    /// follows it.
    public mutating func setOwner(_ id: String, _ owned: Bool) -> [ProtocolAction] {
        guard let channel = channels[id], channel.owned != owned else { return [] }
        channels[id]!.owned = owned
        let what = owned ? "this daemon owns it now" : "another daemon owns it now"
        return [.log(.info, "tree \(id) at version \(channel.durableVersion): \(what)")]
    }

    /// Whether this daemon sequences tree `id`.
    public func owns(_ id: String) -> Bool { channels[id]?.owned ?? false }

    /// Why a cluster-mode write was not committed.
    public enum NotCommitted: Sendable {
        /// Another daemon committed to the tree first (the publish was fenced).
        case fenced
        /// No NATS server acknowledged it in time (an election, servers gone).
        case unacknowledged
        /// It is larger than the NATS servers take in one message.
        case tooLarge
    }

    /// Cluster mode: the write named by `ticket` was not committed and will not be. Like `commitFailed`, but edits of
    /// other trees go on, and the error says what to do: a creation fails (`tree_exists` when fenced, `too_large`,
    /// or `unavailable`: send it again), a deletion is called off (`unavailable`), and a batch's tree rolls back to its
    /// durable version, its batches rejected `unavailable` (or `too_large`).
    public mutating func notCommitted(_ ticket: CommitTicket, _ reason: NotCommitted, message: String, now: Double)
        -> [ProtocolAction]
    {
        guard let channel = channels[ticket.tree], channel.incarnation == ticket.incarnation else { return [] }
        let retry = CanopyError(.unavailable, "not committed: \(message); send it again")
        let error =
            switch reason {
            case .fenced, .unacknowledged: retry
            case .tooLarge: CanopyError(.tooLarge, "not committed: \(message)")
            }
        switch ticket.kind {
        case .create:
            let replyTo: ReplyTo? =
                if case .creating(let r) = channel.phase { r } else { nil }
            var out = [ProtocolAction.log(.notice, "tree \(ticket.tree) was not created: \(message)")]
            out += drop(ticket.tree)
            if let replyTo, sessions[replyTo.session] != nil {
                let answer =
                    if case .fenced = reason {
                        CanopyError(.treeExists, "tree \"\(ticket.tree)\" was created on another daemon")
                    } else { error }
                out.append(reply(replyTo.session, error: answer, rid: replyTo.rid))
            }
            return out
        case .append:
            guard channel.epoch == ticket.epoch else { return [] }
            return rollBack(ticket.tree, message, now: now, rejecting: error)
        case .delete:
            guard case .deleting(let replyTo) = channel.phase else { return [] }
            channels[ticket.tree]!.phase = .live
            return sessions[replyTo.session] == nil ? [] : [reply(replyTo.session, error: error, rid: replyTo.rid)]
        }
    }

    /// The version tree `id` is at as applied (durable or not), if it is held.
    public func appliedVersion(_ id: String) -> Int? { channels[id]?.tree.version }

    /// Tree `id`'s durable version, if it is held.
    public func durableVersion(_ id: String) -> Int? { channels[id]?.durableVersion }
}
