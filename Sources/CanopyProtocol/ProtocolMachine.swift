import CanopyCore

/// The protocol of PROTOCOL.md as a pure state machine: sessions, trees and their channels. Each input is a mutating
/// call that returns the actions to perform; a runner on the service thread performs them (sockets, the store,
/// timers) and feeds back what came of them. No I/O, no clock (every input says what time it is), no threads.
///
/// With a store (`durable`), every created tree, accepted batch and deletion becomes a `persist` action, and what
/// depends on it — `created`, the batch's `diff` to its author and every subscriber, `deleted` — is released only
/// by its `committed` input. Reads (snapshots, probes) see the tree as applied, which may be a few milliseconds
/// ahead of the disk (docs/storage.md). Without a store everything is released at once.
public struct ProtocolMachine {
    public internal(set) var configuration: HubConfiguration
    /// Whether a store makes writes durable (the runner answers `persist`, `writeSnapshot` and `readHistory`).
    public let durable: Bool
    var sessions: [SessionID: Session] = [:]
    var channels: [String: TreeChannel] = [:]
    /// Stored trees being rebuilt off the service thread at start (`beginLoading`), by id.
    var loading: [String: LoadingTree] = [:]
    /// Messages of sessions waiting for a tree in `loading`, in arrival order (`ProtocolMachine+Waiting`).
    var waiting: [SessionID: [Incoming]] = [:]
    /// Sessions awaiting `hello`, in the order of their deadlines (equal timeouts: the order they opened in).
    var helloDeadlines: [(deadline: Double, session: SessionID)] = []
    var helloDeadlinesHead = 0
    var awaitingHello = 0
    /// Trees with a presence change not yet sent (see `presence`).
    var presenceDue: Set<String> = []
    /// Set by a failed commit: edits are rejected until `until`.
    var storageFailure: (message: String, until: Double)?
    /// Store reads under way, by `HistoryRead.id`.
    var reads: [Int: (tree: String, purpose: PendingRead)] = [:]
    var nextReadID = 1
    var nextIncarnation = 1
    /// What `/metrics` reports of edits and deliveries.
    public internal(set) var counters = ProtocolCounters()

    /// At most this many subscribers are listed in `clients` messages and snapshots; `clientCount` has them all.
    static let presenceListLimit = 100

    public init(configuration: HubConfiguration, durable: Bool) {
        self.configuration = configuration
        self.durable = durable
    }

    // MARK: Connections

    public mutating func opened(_ s: SessionID, now: Double) -> [ProtocolAction] {
        let open = configuration.tokens.isEmpty
        if !open && awaitingHello >= configuration.maxSessionsAwaitingHello {
            return [
                .log(.notice, "\(Session.name(s)): \(awaitingHello) sessions await hello already: closing with 1013"),
                .close(s, code: 1013, reason: "too many sessions awaiting hello"),
            ]
        }
        let deadline = now + Double(configuration.helloTimeoutSeconds)
        sessions[s] = Session(
            phase: open ? .ready : .awaitingHello(deadline: deadline), role: open ? .admin : .viewer, grant: nil,
            bucket: max(configuration.editsPerSecond, 1), lastRefill: now)
        if !open {
            awaitingHello += 1
            helloDeadlines.append((deadline, s))
        }
        return [.log(.debug, "\(Session.name(s)) connected")]
    }

    public mutating func closed(_ s: SessionID, now: Double) -> [ProtocolAction] {
        guard let session = sessions.removeValue(forKey: s) else { return [] }
        waiting[s] = nil
        if !session.isReady { awaitingHello -= 1 }
        var out: [ProtocolAction] = [.log(.debug, "\(Session.name(s)) disconnected")]
        for id in session.subscriptions where channels[id] != nil {
            channels[id]!.unsubscribe(s)
            out += presence(id, now: now)
        }
        return out
    }

    /// Whether `tick` has work: presence updates waiting for their gap, sessions waiting for their hello deadline.
    public var hasDeferredWork: Bool { !presenceDue.isEmpty || awaitingHello > 0 }

    /// Sends the presence updates whose gap has passed and closes sessions whose hello deadline passed.
    public mutating func tick(now: Double) -> [ProtocolAction] {
        var out: [ProtocolAction] = []
        while helloDeadlinesHead < helloDeadlines.count, helloDeadlines[helloDeadlinesHead].deadline <= now {
            let s = helloDeadlines[helloDeadlinesHead].session
            helloDeadlinesHead += 1
            guard let session = sessions[s], !session.isReady else { continue }
            sessions[s]?.phase = .ready  // counted out now; the close below ends it
            awaitingHello -= 1
            let e = CanopyError(.unauthorized, "no hello within \(configuration.helloTimeoutSeconds) s")
            out += [reply(s, error: e, rid: nil), .close(s, code: 1008, reason: "hello timeout")]
        }
        if helloDeadlinesHead > 1024 && helloDeadlinesHead * 2 > helloDeadlines.count {
            helloDeadlines.removeFirst(helloDeadlinesHead)
            helloDeadlinesHead = 0
        }
        for id in presenceDue {
            guard let channel = channels[id] else {
                presenceDue.remove(id)
                continue
            }
            if now - channel.presenceSentAt >= presenceGap(channel) {
                presenceDue.remove(id)
                out += broadcastPresence(id, now: now)
            }
        }
        return out
    }

    // MARK: Statistics

    /// Trees (those still loading at start included), nodes in those served, and batches waiting for their commit: walks every tree (for a scrape, not per message).
    public var statistics: (trees: Int, nodes: Int, pending: Int) {
        var nodes = 0
        var pending = 0
        for channel in channels.values {
            nodes += channel.tree.nodeCount
            pending += channel.pending.count
        }
        return (channels.count + loading.count, nodes, pending)
    }

    /// The tree `id` as applied (for tests).
    public func tree(_ id: String) -> Tree? { channels[id]?.tree }
}

/// What the machine counts for `/metrics`: plain integers, a few increments per edit batch.
public struct ProtocolCounters: Sendable {
    /// Batches whose diff was released (after their durable commit).
    public var editsAccepted = 0
    /// `rejected` messages sent.
    public var editsRejected = 0
    /// Resubmissions of an accepted (client, seq) answered with the original diff marked `duplicate`.
    public var editsDuplicate = 0
    /// Ops (as sent) in accepted batches.
    public var ops = 0
    /// Diff messages of released batches queued to subscribers and authors (one per copy).
    public var diffsDelivered = 0
    /// Batches applied (accepted by the sequencer, before their commit).
    public var editsApplied = 0
    /// Preview modifiers' shared contexts program trees computed, and those they reused (PROGRAMS.md §4).
    public var previewContextsComputed = 0
    public var previewContextsReused = 0
}
