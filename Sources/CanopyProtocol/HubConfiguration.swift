import CanopyCore

/// Settings of the protocol layer (the daemon's config file fills them).
public struct HubConfiguration: Sendable {
    /// Empty: no `hello` needed and every session is admin (the loopback default).
    public var tokens: [TokenGrant] = []
    /// Tree limits; `limits.fuel` bounds the work of Swift keys per batch.
    public var limits: Limits = .default
    /// Compiles the Swift of keys declared as `{"key","swift"}` (createTree, declareKey, restored snapshots);
    /// `nil` refuses such keys.
    public var keyCompiler: (any KeyCompiler)? = nil
    /// Runs program trees (`createTree` with `source`, `event`, `setSource`); `nil` refuses them.
    public var programs: (any ProgramRuntime)? = nil
    /// The time and random seed of each program-tree transaction (recorded in its diff): canopyd gives its wall clock
    /// and system randomness; the default steps deterministically (tests, tools).
    public var programInputs: any ProgramInputSource = SteppedInputs()
    /// Maximum JSON nesting of a message. A node nests two levels below its parent (object, `children` array), and
    /// three through an attached subtree (`modifiers` array, modifier, node): 800 lets a tree at the default depth
    /// limit (256) travel in one message.
    public var maxJSONDepth = 800
    /// Diffs kept in memory per tree for `subscribe` with `since` and `history` (more while a rollback may need them).
    public var diffLogLength = 1000
    /// Edit batches a session may send per second (burst of the same size); 0 = unlimited.
    public var editsPerSecond = 0.0
    public var serverName = "canopyd/0.1"
    /// Largest total size of the missed diffs `subscribe` with `since` replays; beyond it a snapshot is sent
    /// instead. Must stay under the transport's per-session queue limit, or the catch-up would itself overflow the
    /// queue (canopyd sets half of it).
    public var catchUpMaxBytes = 8 << 20
    /// With a store attached: a tree is snapshotted after this many batches since its last snapshot…
    public var snapshotEveryBatches = 1000
    /// …or, at its next batch, when its last snapshot is older than this many seconds.
    public var snapshotEverySeconds = 60
    /// After a failed commit (disk full, I/O error), edits are rejected with `storage_error` for this many seconds
    /// before the store is tried again; reads go on meanwhile.
    public var storageRetrySeconds = 5.0
    /// Longest `hello.client`, string `rid` and encoded `seq`, in bytes: free text that other sessions are sent
    /// (presence) or that the daemon keeps (the batch index).
    public var maxLabelBytes = 256
    /// With tokens: a session that has not said a valid `hello` within this many seconds is closed (1008).
    public var helloTimeoutSeconds = 10
    /// With tokens: sessions still waiting for their `hello` at once; more are closed at once (1013).
    public var maxSessionsAwaitingHello = 1000
    /// Accepted batches remembered per client and tree for idempotent resubmission, whatever the log compacted
    /// (at least this many of each client's most recent batches; kept in snapshots).
    public var acksPerClient = 1_000
    /// Head-room the transport wants in front of every outgoing message (`OutgoingMessage.headroom`).
    public var headroom = 0
    /// Cluster mode (docs/cluster.md): this daemon's name followed by "/" ("d1/"), which prefixes its sessions'
    /// names on the wire so an `author` names one session of the cluster; "" on a single daemon. With a prefix, trees
    /// the machine did not create itself are followed (`replicated`) until `setOwner` hands them to it.
    public var sessionPrefix = ""

    /// Whether the machine runs as one daemon of a cluster.
    public var clustered: Bool { !sessionPrefix.isEmpty }

    public init() {}
}
