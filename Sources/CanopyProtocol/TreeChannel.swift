import CanopyCore

/// Where a reply goes: a session and the `rid` of its request.
struct ReplyTo {
    var session: SessionID
    var rid: JSON?
}

/// One tree and everything that flows through it: its sequencer (the tree and its version), the batches applied and
/// waiting for their commit, the index of accepted batches, the diff log, its subscribers and their presence, and
/// its snapshots. Pure state: the machine feeds it and turns what it returns into actions.
struct TreeChannel {
    enum Phase {
        /// `createTree` is waiting for its commit (its author is answered then; the tree is served meanwhile).
        case creating(ReplyTo?)
        case live
        /// `deleteTree` is waiting for its commit: the tree takes no requests meanwhile.
        case deleting(ReplyTo)
    }

    enum SnapshotPhase {
        case idle
        /// A copy of the tree (and a program tree's spec and cells) as of a version due for a snapshot, written once
        /// that version is durable.
        case waitingForCommit(Tree, StoredProgram?)
        /// Handed to the runner; `snapshotWritten` ends it.
        case writing(version: Int)
    }

    struct Subscriber {
        var session: SessionID
        /// The version its state starts from (its snapshot's, or its catch-up's): released diffs at or below it
        /// are not sent to it.
        var joinedAt: Int
        var traced: Bool
        /// Its missed diffs are being read from the store: diffs released meanwhile wait in the log.
        var catchingUp = false
    }

    /// An applied batch waiting for its commit.
    struct PendingBatch {
        var version: Int
        var author: ReplyTo
        var seq: JSON
        var plain: OutgoingMessage
        var traced: OutgoingMessage?
        var json: JSON
        /// Ops in the batch as sent (for the metrics).
        var opCount: Int
        /// Sessions that resubmitted the same (client, seq) meanwhile: they get the diff too, marked `duplicate`.
        var resubmitters: [ReplyTo] = []
    }

    /// A snapshot answered to a `subscribe` while batches it shows were not durable yet: sent once they are.
    struct HeldSnapshot {
        var session: SessionID
        var version: Int
        var message: OutgoingMessage
    }

    let id: String
    let incarnation: Int
    var tree: Tree
    /// What drives a program tree (`createTree` with `source`); nil for a tree of data, which `edit` changes.
    var program: (any ProgramInstance)?
    /// Optional `title` and `description` from `createTree`.
    let about: JSONObject
    var phase: Phase
    var subscribers: [Subscriber] = []
    var log = DiffLog()
    var pending: [PendingBatch] = []
    /// The highest durable version (the tree's version when there is no store).
    var durableVersion: Int
    /// Bumped by each rollback: commits asked for before it are stale.
    var epoch = 0
    var acks: AckIndex
    var snapshot = SnapshotPhase.idle
    var lastSnapshotVersion: Int
    var lastSnapshotTime: Double
    /// The last stored snapshot's bytes and version: a rollback rebuilds the tree from it and the log after it.
    var base: (version: Int, bytes: [UInt8])?
    var held: [HeldSnapshot] = []
    /// Snapshot bodies encoded (or being encoded) for subscribers at the current version.
    var snapshotBodies = SnapshotBodies()
    /// When `clients` was last sent to the subscribers.
    var presenceSentAt = -Double.infinity
    /// Cluster mode: whether this daemon sequences the tree's batches (it holds the tree's lease). A tree it follows
    /// changes only by `replicated` batches; batches sent to it are forwarded to the owner. Always true on a single
    /// daemon.
    var owned = true

    init(
        id: String, incarnation: Int, tree: Tree, program: (any ProgramInstance)? = nil, about: JSONObject,
        phase: Phase, acksPerClient: Int, now: Double
    ) {
        self.id = id
        self.incarnation = incarnation
        self.tree = tree
        self.program = program
        self.about = about
        self.phase = phase
        durableVersion = tree.version
        acks = AckIndex(window: acksPerClient)
        lastSnapshotVersion = tree.version
        lastSnapshotTime = now
    }

    var isDeleting: Bool {
        if case .deleting = phase { return true }
        return false
    }

    var wantsTrace: Bool { subscribers.contains { $0.traced } }

    /// A program tree's spec and cells as of now, for a snapshot; nil for a tree of data.
    var storedProgram: StoredProgram? { program.map(StoredProgram.init) }

    func subscriberIndex(_ s: SessionID) -> Int? { subscribers.firstIndex { $0.session == s } }

    /// Adds `s` (or updates its subscription) starting from `version`.
    mutating func subscribe(_ s: SessionID, from version: Int, traced: Bool, catchingUp: Bool = false) {
        let subscriber = Subscriber(session: s, joinedAt: version, traced: traced, catchingUp: catchingUp)
        if let i = subscriberIndex(s) { subscribers[i] = subscriber } else { subscribers.append(subscriber) }
        held.removeAll { $0.session == s }
    }

    mutating func unsubscribe(_ s: SessionID) {
        subscribers.removeAll { $0.session == s }
        held.removeAll { $0.session == s }
    }

    /// The sessions a released batch goes to (as subscribers): every subscriber whose state does not include it yet,
    /// and its author; not those catching up (the log has it for them).
    func recipients(of p: PendingBatch) -> [(session: SessionID, traced: Bool)] {
        subscribers.compactMap { sub in
            !sub.catchingUp && (sub.joinedAt < p.version || sub.session == p.author.session)
                ? (sub.session, sub.traced) : nil
        }
    }

    /// Whether a subscription starting at `version` can be served from the log and its size fits `maxBytes`.
    func catchUp(after since: Int, maxBytes: Int) -> [OutgoingMessage]? {
        guard since < durableVersion else { return [] }
        guard let entries = log.range(from: since + 1, through: durableVersion),
            entries.count == durableVersion - since
        else { return nil }
        var bytes = 0
        for e in entries {
            bytes += e.message.count
            if bytes > maxBytes { return nil }
        }
        return entries.map(\.message)
    }
}
