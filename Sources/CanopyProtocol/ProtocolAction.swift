import CanopyCore

/// What the protocol machine asks its runner to do, in order. The runner performs each and feeds the outcome back
/// as an input (`committed`, `commitFailed`, `snapshotWritten`, `historyRead`).
public enum ProtocolAction: Sendable {
    /// Queue a message to a session.
    case send(SessionID, OutgoingMessage)
    /// Send a close frame with this code and reason after what is queued, then drop the session.
    case close(SessionID, code: UInt16, reason: String)
    /// Make `write` durable; answer `committed(ticket)` or `commitFailed(ticket, …)`. Writes commit in the order
    /// they were asked for.
    case persist(CommitTicket, PersistWrite)
    /// Encode the tree (with the batch identities that must survive compaction, and a program tree's spec and cells)
    /// off the service thread, store it as the tree's snapshot at `ticket.version`, and answer `snapshotWritten`.
    case writeSnapshot(SnapshotTicket, Tree, acks: [AckRecord], program: StoredProgram?)
    /// Encode a snapshot body off the service thread (`job.encode()`), fill `job.tail` with it, then — back on the
    /// service thread — mark the tail ready and wake the sessions waiting for it. Messages holding the tail are sent
    /// before this action (they wait in their queues meanwhile).
    case encodeSnapshot(SnapshotJob)
    /// Read logged diffs `read.from…read.to` of a tree from the store and answer `historyRead`.
    case readHistory(HistoryRead)
    /// Cluster mode: send a batch to its tree's owner and answer `forwardAnswered` with its answer.
    case forward(ForwardedBatch)
    /// A line for the daemon's log.
    case log(LogLevel, String)
}

/// Levels of `ProtocolAction.log`, as swift-log names them.
public enum LogLevel: String, Sendable {
    case debug, info, notice, error, critical
}

/// A durable write the machine waits for.
public enum PersistWrite: Sendable, Equatable {
    /// A new tree with its version-0 snapshot.
    case createTree(id: String, about: [UInt8], snapshot: [UInt8])
    /// One accepted batch: its diff exactly as broadcast (without trace), and who sent it.
    case append(tree: String, version: Int, client: String, seq: String?, diff: [UInt8])
    /// Every row of the tree.
    case deleteTree(id: String)
}

/// Names the write a `committed` or `commitFailed` answers.
public struct CommitTicket: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case create
        case append(version: Int)
        case delete
    }

    public var tree: String
    /// Which life of the tree id (a tree deleted and created again is another incarnation).
    public var incarnation: Int
    /// Bumped by each rollback: answers for writes from before it are stale.
    public var epoch: Int
    public var kind: Kind
}

/// Names the snapshot a `snapshotWritten` answers.
public struct SnapshotTicket: Sendable, Hashable {
    public var tree: String
    public var incarnation: Int
    public var version: Int
}

/// A request for logged diffs; `historyRead(id, …)` answers it.
public struct HistoryRead: Sendable, Equatable {
    public var id: Int
    public var tree: String
    public var from: Int
    public var to: Int
}

/// One logged batch as the store returns it: the diff exactly as broadcast.
public struct LoggedBatch: Sendable, Equatable {
    public var version: Int
    public var diff: [UInt8]

    public init(version: Int, diff: [UInt8]) {
        self.version = version
        self.diff = diff
    }
}

/// An accepted batch's identity: its author's hello `client` and its `seq` (compact JSON text), and its version.
public struct AckRecord: Sendable, Equatable {
    public var client: String
    public var seq: String
    public var version: Int

    public init(client: String, seq: String, version: Int) {
        self.client = client
        self.seq = seq
        self.version = version
    }
}

/// A tree as the store keeps it: its latest snapshot and the logged batches after it, in version order.
public struct TreeRecord: Sendable {
    public var id: String
    /// JSON object text (title/description).
    public var about: [UInt8]
    public var snapshotVersion: Int
    /// `{"keys":[…],"root":{…},"acks":[…]}`, and `program`/`state` of a program tree (see `SnapshotEncoding`).
    public var snapshot: [UInt8]
    public var batches: [(version: Int, client: String, seq: String?, diff: [UInt8])]

    public init(
        id: String, about: [UInt8], snapshotVersion: Int, snapshot: [UInt8],
        batches: [(version: Int, client: String, seq: String?, diff: [UInt8])]
    ) {
        self.id = id
        self.about = about
        self.snapshotVersion = snapshotVersion
        self.snapshot = snapshot
        self.batches = batches
    }
}

/// A complete incoming message, as the runner parsed it (or why it could not).
public enum Incoming: Sendable {
    case message(JSON)
    case malformed(CanopyError)
    /// A `createTree` of data whose tree the runner already built off the service thread
    /// (`ProtocolMachine.prepareCreate`); the message is the request without its `keys` and `root`.
    case prepared(JSON, PreparedTree)
}
