import CanopyCore
@_exported import CanopyProtocol
import CanopyStore
import CanopySupport
import CanopyWebSocket
import Dispatch
import Logging

/// Runs the protocol machine on the service thread: turns transport events into its inputs (with the time), and
/// performs its actions — sends and closes through the transport, writes through the store's writer thread,
/// snapshot encoding on a queue of its own, store reads, log lines — feeding their outcomes back as inputs.
public final class ProtocolRunner: ConnectionHandler, @unchecked Sendable {  // used on the service thread only
    /// The state machine; only this runner mutates it.
    public private(set) var machine: ProtocolMachine
    /// Where the machine's log lines go; silent until the daemon hands in its logger.
    public var logger = Logger(label: "canopyd.hub", factory: { _ in SwiftLogNoOpLogHandler() })
    private let clock: @Sendable () -> Double
    private let store: TreeStore?
    /// Cluster mode: where writes, forwarded batches and snapshots go instead of a store (docs/cluster.md).
    private var cluster: ClusterLink?
    /// Runs a job on the service thread and applies its actions (`ServiceLoop.post`); set by `attach(post:)`.
    private var post: (@Sendable (@escaping @Sendable () -> [TransportAction]) -> Void)?
    /// Encodes snapshots for the store off the service thread.
    private let snapshotQueue = DispatchQueue(label: "canopyd.snapshots")
    /// Encodes the bodies of subscribers' snapshots off the service thread (a queue of its own: a store snapshot of
    /// one big tree must not hold up another tree's subscribers).
    private let subscribeQueue = DispatchQueue(label: "canopyd.subscribe-snapshots")
    /// Parses large messages (and builds the tree of a large createTree) off the service thread.
    private let largeMessageQueue = DispatchQueue(label: "canopyd.large-messages")
    /// Rebuilds the large stored trees at start, after the daemon started serving the others.
    private let restoreQueue = DispatchQueue(label: "canopyd.restore")
    /// Sessions with a large message being handled off the service thread, and the messages they sent since, which
    /// wait for it (a session's messages are handled in order).
    private var backlog: [SessionID: [[UInt8]]] = [:]
    /// Time the machine took for each accepted edit (apply, evaluate, encode).
    var evaluation = DurationHistogram()

    /// A runner; with `store`, every write goes through it (call `attach(post:)` before the loop runs). `clustered`:
    /// writes go to a cluster instead (`attach(cluster:)`).
    public init(
        configuration: HubConfiguration, store: TreeStore? = nil, clustered: Bool = false,
        clock: @escaping @Sendable () -> Double = ProtocolRunner.monotonicSeconds
    ) {
        var configuration = configuration
        configuration.headroom = webSocketFrameHeadroom
        machine = ProtocolMachine(configuration: configuration, durable: store != nil || clustered)
        self.store = store
        self.clock = clock
    }

    var storeStatistics: StoreStatistics? { store?.detailedStatistics }

    public static func monotonicSeconds() -> Double { Double(monotonicNanoseconds()) / 1e9 }

    /// Hands in the service loop's `post`, by which store completions come back to the service thread.
    public func attach(post: @escaping @Sendable (@escaping @Sendable () -> [TransportAction]) -> Void) {
        self.post = post
    }

    /// Hands in the cluster link (before the loop runs).
    func attach(cluster: ClusterLink) { self.cluster = cluster }

    /// Feeds the machine an input on the service thread and performs what it asks.
    func feed(_ input: (inout ProtocolMachine, Double) -> [ProtocolAction]) -> [TransportAction] {
        let now = clock()
        return perform(input(&machine, now))
    }

    /// Rebuilds trees read from a cluster (see `ProtocolMachine.restore`).
    func restore(records: [TreeRecord]) throws(CanopyError) {
        try machine.restore(records, now: clock())
    }

    /// Rebuilds the stored trees (see `ProtocolMachine.restore`).
    public func restore(_ stored: [StoredTree]) throws(CanopyError) {
        try restore(records: stored.map(Self.record))
    }

    /// Lists `stored` as loading (requests naming them wait) and rebuilds them one after another on a queue of their
    /// own, serving each as soon as it is rebuilt; call after `attach(post:)`. If one does not rebuild, `failed` runs
    /// on the service thread with the reason (naming the tree) and the rest are not rebuilt.
    public func restoreInBackground(
        _ stored: [StoredTree], failed: @escaping @Sendable (String) -> Void
    ) throws(CanopyError) {
        guard let post else { preconditionFailure("restoring in the background needs the loop (attach(post:))") }
        guard !stored.isEmpty else { return }
        let records = stored.map(Self.record)
        let incarnations = try machine.beginLoading(records)
        let configuration = machine.configuration
        let clock = self.clock
        restoreQueue.async { [self] in
            for (t, incarnation) in zip(records, incarnations) {
                let started = clock()
                let rebuilt = Result { () throws(CanopyError) -> RestoredTree in
                    try ProtocolMachine.rebuild(t, incarnation: incarnation, configuration: configuration, now: started)
                }
                DaemonFiles.returnFreedMemory()  // what parsing the snapshot took (some 800 MB for 1M nodes)
                let milliseconds = Int((clock() - started) * 1000)
                post { [self] in
                    switch rebuilt {
                    case .success(let restored):
                        logger.info("tree \(t.id) restored in the background in \(milliseconds) ms")
                        return perform(machine.install(restored, now: clock()))
                    case .failure(let error):
                        failed(error.message)
                        return []
                    }
                }
                if case .failure = rebuilt { return }
            }
        }
    }

    private static func record(_ t: StoredTree) -> TreeRecord {
        TreeRecord(
            id: t.id, about: t.about, snapshotVersion: t.snapshotVersion, snapshot: t.snapshot,
            batches: t.diffs.map { ($0.version, $0.client, $0.seq, $0.diff) })
    }

    /// Creates a tree from a `createTree` body outside any session (the example loader); returns its id.
    public func createTree(body: JSONObject) throws(CanopyError) -> String {
        let (id, actions) = try machine.createTree(body: body, now: clock())
        _ = perform(actions)
        return id
    }

    /// Applies reloaded settings (see `ProtocolMachine.reload`); call on the service thread (`ServiceLoop.post`).
    public func reload(tokens: [TokenGrant], editsPerSecond: Double) -> [TransportAction] {
        perform(machine.reload(tokens: tokens, editsPerSecond: editsPerSecond, now: clock()))
    }

    // MARK: ConnectionHandler

    public func opened(_ session: SessionID, peer: String) -> [TransportAction] {
        perform(machine.opened(session, now: clock()))
    }

    public func closed(_ session: SessionID) -> [TransportAction] {
        backlog[session] = nil
        return perform(machine.closed(session, now: clock()))
    }

    /// Messages of at least this many bytes are parsed off the service thread, and a createTree of data among them
    /// is built there too (`ProtocolMachine.prepareCreate`): one session's 28 MB tree must not stall the others.
    public static let largeMessageBytes = 256 << 10

    public func received(_ session: SessionID, message: [UInt8]) -> [TransportAction] {
        if backlog[session] != nil {
            backlog[session]!.append(message)
            return []
        }
        if message.count >= Self.largeMessageBytes, post != nil {
            handleLarge(session, message)
            return []
        }
        return handle(session, Self.parse(message, maxDepth: machine.configuration.maxJSONDepth))
    }

    private static func parse(_ message: [UInt8], maxDepth: Int) -> Incoming {
        do throws(CanopyError) {
            return .message(try JSONParser.parse(bytes: message, maxDepth: maxDepth))
        } catch {
            return .malformed(error)
        }
    }

    /// Parses `message` (and builds a createTree's tree) on the large-message queue; the session's later messages
    /// wait in its backlog meanwhile. What the work leaves behind — the parsed request, the input tree — is freed
    /// there too, and the heap trimmed, so the service thread only gets the result.
    private func handleLarge(_ session: SessionID, _ message: [UInt8]) {
        guard let post else { return }
        if backlog[session] == nil { backlog[session] = [] }
        let maxDepth = machine.configuration.maxJSONDepth
        let limits = machine.configuration.limits
        let durable = machine.durable
        largeMessageQueue.async { [self] in
            let incoming = Self.prepare(Self.parse(message, maxDepth: maxDepth), limits: limits, durable: durable)
            DaemonFiles.returnFreedMemory()  // a 1M-node createTree left some 700 MB with the daemon
            post { [self] in handle(session, incoming) + drainBacklog(session) }
        }
    }

    /// A createTree of data with its tree built; any other message as it is.
    private static func prepare(_ incoming: Incoming, limits: Limits, durable: Bool) -> Incoming {
        guard case .message(let json) = incoming,
            let (light, prepared) = ProtocolMachine.prepareCreate(json, limits: limits, durable: durable)
        else { return incoming }
        return .prepared(light, prepared)
    }

    /// The messages a session sent while a large one was handled, in order, until the next large one.
    private func drainBacklog(_ session: SessionID) -> [TransportAction] {
        var out: [TransportAction] = []
        while let queued = backlog[session] {
            guard let next = queued.first else {
                backlog[session] = nil
                break
            }
            backlog[session]!.removeFirst()
            if next.count >= Self.largeMessageBytes {
                handleLarge(session, next)
                break
            }
            out += handle(session, Self.parse(next, maxDepth: machine.configuration.maxJSONDepth))
        }
        return out
    }

    private func handle(_ session: SessionID, _ incoming: Incoming) -> [TransportAction] {
        let applied = machine.counters.editsApplied
        let start = monotonicNanoseconds()
        let actions = machine.received(session, incoming, now: clock())
        if machine.counters.editsApplied != applied { evaluation.observe(nanoseconds: monotonicNanoseconds() - start) }
        return perform(actions)
    }

    public var hasDeferredWork: Bool { machine.hasDeferredWork }

    public func tick() -> [TransportAction] { perform(machine.tick(now: clock())) }

    public func allowsMetrics(bearerToken: String?) -> Bool { machine.allowsMetrics(bearerToken: bearerToken) }

    // MARK: Actions

    /// Performs the machine's actions in order; returns the transport's share.
    func perform(_ actions: [ProtocolAction]) -> [TransportAction] {
        var out: [TransportAction] = []
        var answered: [SessionID] = []
        for action in actions {
            switch action {
            case .send(let s, let message):
                if let cluster, cluster.isForwarded(s) {
                    cluster.answer(s, message)
                    answered.append(s)
                } else {
                    out.append(.send(s, message))
                }
            case .close(let s, let code, let reason): out.append(.close(s, code: code, reason: reason))
            case .persist(let ticket, let write):
                if let cluster { cluster.persist(ticket, write) } else { persist(ticket, write) }
            case .forward(let batch): cluster?.forward(batch)
            case .writeSnapshot(let ticket, let tree, let acks, let program):
                writeSnapshot(ticket, tree, acks, program)
            case .encodeSnapshot(let job): out += encodeSnapshot(job)
            case .readHistory(let read):
                if let cluster {
                    cluster.readHistory(read)
                } else {
                    out += perform(machine.historyRead(read.id, readDiffs(read), now: clock()))
                }
            case .log(let level, let message): logger.log(level: Logger.Level(level), "\(message)")
            }
        }
        // A forwarded batch's session ends with its one answer.
        for s in answered { out += perform(machine.closed(s, now: clock())) }
        return out
    }

    private func persist(_ ticket: CommitTicket, _ write: PersistWrite) {
        guard let store, let post else { preconditionFailure("a durable machine runs with a store and a loop") }
        store.enqueue(StoreWrite(write)) { result in
            post { [self] in
                switch result {
                case .success: return perform(machine.committed(ticket, now: clock()))
                case .failure(let error):
                    return perform(machine.commitFailed(ticket, message: error.message, now: clock()))
                }
            }
        }
    }

    /// Encodes on the snapshot queue, then queues the store write from the service thread — only if the tree is
    /// still the one the snapshot is of (a tree deleted and created again must not get an old snapshot).
    private func writeSnapshot(
        _ ticket: SnapshotTicket, _ tree: Tree, _ acks: [AckRecord], _ program: StoredProgram?
    ) {
        if let cluster, let post {
            // The owner stores it in the cluster; every daemon keeps it as the tree's base (rollbacks, log trim).
            snapshotQueue.async { [self] in
                let bytes = SnapshotEncoding.encode(tree, acks: acks, program: program)
                post { [self] in
                    guard machine.isCurrent(ticket) else { return [] }
                    if machine.owns(ticket.tree) { cluster.publishSnapshot(ticket, bytes) }
                    return perform(machine.snapshotWritten(ticket, .success(bytes)))
                }
            }
            return
        }
        guard let store, let post else { preconditionFailure("a durable machine runs with a store and a loop") }
        snapshotQueue.async { [self] in
            let bytes = SnapshotEncoding.encode(tree, acks: acks, program: program)
            post { [self] in
                guard machine.isCurrent(ticket) else { return [] }
                store.enqueue(.snapshot(tree: ticket.tree, version: ticket.version, snapshot: bytes)) { result in
                    post { [self] in
                        let outcome = result.map { bytes }.mapError { StoreFailure($0.message) }
                        return perform(machine.snapshotWritten(ticket, outcome))
                    }
                }
                return []
            }
        }
    }

    /// Encodes a snapshot body on the subscribe queue, then wakes the sessions whose queues wait for it; without a
    /// loop to come back to (before the daemon serves), at once.
    private func encodeSnapshot(_ job: SnapshotJob) -> [TransportAction] {
        guard let post else {
            job.tail.fill(job.encode())
            return [.wake(job.tail.markReady())]
        }
        subscribeQueue.async {
            job.tail.fill(job.encode())
            post { [.wake(job.tail.markReady())] }
        }
        return []
    }

    private func readDiffs(_ read: HistoryRead) -> Result<[LoggedBatch], StoreFailure> {
        guard let store else { return .success([]) }
        do {
            let diffs = try store.diffs(tree: read.tree, from: read.from, to: read.to)
            return .success(diffs.map { LoggedBatch(version: $0.version, diff: $0.diff) })
        } catch {
            return .failure(StoreFailure(error.description))
        }
    }
}

extension Logger.Level {
    init(_ level: LogLevel) {
        switch level {
        case .debug: self = .debug
        case .info: self = .info
        case .notice: self = .notice
        case .error: self = .error
        case .critical: self = .critical
        }
    }
}

extension StoreWrite {
    /// The store's form of a machine's write.
    init(_ write: PersistWrite) {
        switch write {
        case .createTree(let id, let about, let snapshot): self = .createTree(id: id, about: about, snapshot: snapshot)
        case .append(let tree, let version, let client, let seq, let diff):
            self = .append(tree: tree, diff: StoredDiff(version: version, client: client, seq: seq, diff: diff))
        case .deleteTree(let id): self = .deleteTree(id: id)
        }
    }
}
