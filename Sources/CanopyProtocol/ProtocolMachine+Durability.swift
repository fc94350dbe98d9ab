import CanopyCore

/// What comes back from the store: commits, failed commits, written snapshots.
extension ProtocolMachine {
    /// The write named by `ticket` is durable (writes commit in the order they were asked for).
    public mutating func committed(_ ticket: CommitTicket, now: Double) -> [ProtocolAction] {
        // Only fields are read here: a copy of the channel held across the mutation below would make Swift copy
        // its arrays (the whole diff log) on every commit.
        guard channels[ticket.tree]?.incarnation == ticket.incarnation else { return [] }
        switch ticket.kind {
        case .create:
            return committedCreation(ticket.tree)
        case .append(let version):
            guard channels[ticket.tree]?.epoch == ticket.epoch else { return [] }  // rolled back meanwhile
            return committedAppend(ticket.tree, through: version)
        case .delete:
            guard case .deleting(let replyTo)? = channels[ticket.tree]?.phase else { return [] }
            return committedDeletion(ticket.tree, replyTo)
        }
    }

    /// The write named by `ticket` failed (disk full, I/O error): a creation is undone, a deletion is called off, and
    /// a batch's failure rolls the tree back to its durable state (`rollBack`).
    public mutating func commitFailed(_ ticket: CommitTicket, message: String, now: Double) -> [ProtocolAction] {
        guard let channel = channels[ticket.tree], channel.incarnation == ticket.incarnation else { return [] }
        let error = CanopyError(.storageError, "not stored: \(message)")
        switch ticket.kind {
        case .create:
            var out: [ProtocolAction] = [.log(.error, "tree \(ticket.tree) could not be stored: \(message)")]
            let replyTo: ReplyTo? =
                if case .creating(let r) = channel.phase { r } else { nil }
            out += drop(ticket.tree)
            if let replyTo, sessions[replyTo.session] != nil {
                out.append(reply(replyTo.session, error: error, rid: replyTo.rid))
            }
            return out
        case .append:
            guard channel.epoch == ticket.epoch else { return [] }
            return rollBack(ticket.tree, message, now: now)
        case .delete:
            guard case .deleting(let replyTo) = channel.phase else { return [] }
            channels[ticket.tree]!.phase = .live
            var out: [ProtocolAction] = [
                .log(.error, "the deletion of tree \(ticket.tree) could not be stored: \(message)")
            ]
            if sessions[replyTo.session] != nil { out.append(reply(replyTo.session, error: error, rid: replyTo.rid)) }
            return out
        }
    }

    /// A snapshot handed out by `writeSnapshot` was stored (`bytes`: what was stored), or could not be.
    public mutating func snapshotWritten(_ ticket: SnapshotTicket, _ result: Result<[UInt8], StoreFailure>)
        -> [ProtocolAction]
    {
        guard channels[ticket.tree]?.incarnation == ticket.incarnation else { return [] }
        if case .writing(let version)? = channels[ticket.tree]?.snapshot, version == ticket.version {
            channels[ticket.tree]!.snapshot = .idle
        }
        switch result {
        case .success(let bytes):
            // A snapshot only ever shows durable batches, so a rollback since does not make it wrong.
            if ticket.version > (channels[ticket.tree]!.base?.version ?? -1) {
                channels[ticket.tree]!.base = (ticket.version, bytes)
            }
            channels[ticket.tree]!.log.trim(
                keep: configuration.diffLogLength, anchor: channels[ticket.tree]!.base!.version)
            return []
        case .failure(let failure):
            return [
                .log(.error, "tree \(ticket.tree): snapshot \(ticket.version) could not be stored: \(failure.message)")
            ]
        }
    }

    /// A commit failed: the batches waiting for it are rejected with `storage_error`, the tree goes back to its
    /// durable state — rebuilt from the last stored snapshot and the log after it, both held here — its subscribers
    /// get a fresh snapshot, and edits are refused for `storageRetrySeconds`.
    ///
    /// `rejecting` (cluster mode): the tree's batches were not committed for a reason of their own — another daemon
    /// committed to the tree first, the NATS servers did not answer, a batch was too large for them — so they are
    /// rejected with this error and other trees' edits go on.
    mutating func rollBack(_ id: String, _ message: String, now: Double, rejecting: CanopyError? = nil)
        -> [ProtocolAction]
    {
        var channel = channels[id]!
        var out: [ProtocolAction]
        if let rejecting {
            out = [.log(.notice, "tree \(id): rolling back to version \(channel.durableVersion): \(message)")]
            out += rejectPending(channel, rejecting)
        } else {
            out = [
                .log(.error, "tree \(id): a commit failed, rolling back to version \(channel.durableVersion): \(message)")
            ]
            let until = max(now + configuration.storageRetrySeconds, storageFailure?.until ?? 0)
            storageFailure = ("the daemon cannot store edits right now: \(message)", until)
            out += rejectPending(channel, CanopyError(.storageError, "not stored: \(message)"))
        }
        channel.pending = []
        channel.held = []  // every subscriber gets a fresh snapshot below
        channel.epoch += 1
        if case .waitingForCommit = channel.snapshot {
            channel.snapshot = .idle
            channel.lastSnapshotVersion = min(channel.lastSnapshotVersion, channel.durableVersion)
        }
        channel.acks.forget(after: channel.durableVersion)
        do throws(CanopyError) {
            (channel.tree, channel.program) = try rebuilt(channel)
        } catch {
            // What is held cannot be replayed (a bug): keep serving what is in memory; edits stay refused.
            channels[id] = channel
            storageFailure = ("tree \(id) cannot be rebuilt: \(error.message)", .infinity)
            return out + [.log(.critical, "tree \(id) cannot be rebuilt after a failed commit: \(error.message)")]
        }
        channels[id] = channel
        for i in channel.subscribers.indices {
            let sub = channel.subscribers[i]
            out += snapshotActions(sub.session, id, trace: sub.traced, rid: nil)
            channels[id]!.subscribers[i].joinedAt = channel.tree.version
            channels[id]!.subscribers[i].catchingUp = false
        }
        return out
    }

    /// The tree at its durable version: the last stored snapshot, then the logged batches after it (folded into a
    /// program tree's cells, which then start its program once).
    mutating func rebuilt(_ channel: TreeChannel) throws(CanopyError) -> (Tree, (any ProgramInstance)?) {
        guard let base = channel.base else { throw CanopyError(.storageError, "no stored snapshot is held") }
        let snapshot = try SnapshotEncoding.parse(base.bytes)
        var entries: ArraySlice<DiffLog.Entry> = []
        if channel.durableVersion > base.version {
            guard let held = channel.log.range(from: base.version + 1, through: channel.durableVersion),
                held.count == channel.durableVersion - base.version
            else { throw CanopyError(.storageError, "the log does not reach back to snapshot \(base.version)") }
            entries = held
        }
        if let program = try SnapshotEncoding.program(of: snapshot) {
            let start = try Self.restartProgram(
                program, diffs: entries.lazy.map(\.json), version: channel.durableVersion, configuration: configuration)
            count(previewContextsOf: start.program)
            return (start.tree, start.program)
        }
        var tree = try SnapshotEncoding.tree(
            of: snapshot, version: base.version, limits: configuration.limits, compiler: configuration.keyCompiler)
        for e in entries { _ = try tree.apply(try [Op](json: e.json["ops"] ?? .null)) }
        return (tree, nil)
    }
}

/// Why the store could not do something, as the runner reports it.
public struct StoreFailure: Error, Sendable, Equatable {
    public var message: String

    public init(_ message: String) { self.message = message }
}

extension ProtocolMachine {
    /// Whether the tree a snapshot was taken of is still held (not deleted, not deleted and created again).
    public func isCurrent(_ ticket: SnapshotTicket) -> Bool { channels[ticket.tree]?.incarnation == ticket.incarnation }
}
