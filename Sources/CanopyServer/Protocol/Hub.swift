import CanopyCore
import Dispatch
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// Settings of the protocol layer (the daemon's config file fills them).
public struct HubConfiguration: Sendable {
    /// Empty: no `hello` needed and every session is admin (the loopback default).
    public var tokens: [TokenGrant] = []
    public var limits: Limits = .default
    /// Maximum JSON nesting of a message. A node nests two levels below its parent (object, `children` array), and
    /// three through an attached subtree (`modifiers` array, modifier, node): 800 lets a tree at the default depth
    /// limit (256) travel in one message.
    public var maxJSONDepth = 800
    /// Diffs kept in memory per tree for `subscribe` with `since` and `history`.
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

    public init() {}
}

/// The protocol state machine (PROTOCOL.md): sessions, trees and their subscribers, fed with complete messages
/// and answering with transport actions. No sockets: the service loop calls it on its thread, and tests call it
/// directly.
///
/// With a `TreeStore` attached (`attach(store:schedule:)`), every created tree, accepted batch and deletion is
/// written through the store's group-committing writer thread, and what depends on it — `created`, the batch's
/// `diff` to its author and every subscriber, `deleted` — is released only once it is durable, from a job the
/// store's completion schedules back onto the service thread. Reads (snapshots, probes) see the tree as applied,
/// which may be a few milliseconds ahead of the disk (docs/storage.md). Without a store everything is released at
/// once.
public final class Hub: ConnectionHandler, @unchecked Sendable {  // used on the service thread only (see above)
    private struct Session {
        var client = ""
        var role: Role
        var grant: TokenGrant?
        var authenticated: Bool
        var subscriptions: Set<String> = []
        var traced: Set<String> = []
        var bucket: Double
        var lastRefill: Double = 0
        /// Limit codes already logged for this session (each is logged once).
        var loggedLimits: Set<ErrorCode> = []
    }

    /// A diff as kept in the log: its JSON (without trace), for `history` and catch-up.
    private struct LoggedDiff {
        var version: Int
        var message: OutgoingMessage
        var json: JSON
    }

    /// An applied batch waiting for its commit.
    private struct PendingDiff {
        var version: Int
        var author: SessionID
        /// The edit's `rid`, for a rejection sent after the commit failed.
        var rid: JSON?
        var plain: OutgoingMessage
        var traced: OutgoingMessage?
        var json: JSON
        /// Ops in the batch as sent (for the metrics).
        var opCount: Int
        /// Sessions that resubmitted the same (client, seq) meanwhile (with their `rid`): they get the diff too.
        var resubmitters: [(session: SessionID, rid: JSON?)] = []
        var seq: JSON { json["seq"] ?? .null }
    }

    /// A snapshot answered to a `subscribe` while batches it shows were not durable yet: sent once they are.
    private struct HeldSnapshot {
        var session: SessionID
        var version: Int
        var message: OutgoingMessage
    }

    private final class TreeEntry: @unchecked Sendable {  // touched on the service thread only
        var tree: Tree
        /// Optional `title` and `description` from `createTree`, shown by listTrees, snapshots and the inspector.
        let about: JSONObject
        var subscribers: [SessionID] = []
        /// The version each subscriber's state starts from (its snapshot's, or its catch-up's): released diffs at or
        /// below it are not sent to it.
        var joinedAt: [SessionID: Int] = [:]
        var log: [LoggedDiff] = []
        /// Batches applied to `tree` and not yet durable, in version order.
        var pending: [PendingDiff] = []
        /// The highest durable version (the tree's version when there is no store).
        var durableVersion = 0
        /// Bumped when the tree is rolled back to its durable state: completions of older writes are ignored.
        var epoch = 0
        /// (client, seq) → version of the batches since the latest snapshot (idempotent resubmission).
        var acks: [String: Int] = [:]
        var ackVersions: [(version: Int, key: String)] = []
        var lastSnapshotVersion = 0
        var lastSnapshotTime = 0.0
        /// When `clients` was last broadcast to this tree's subscribers (see `presence`).
        var presenceSentAt = -Double.infinity
        /// A snapshot is being taken (its copy waits for its version's commit, or is being encoded and written).
        var snapshotInFlight = false
        /// The tree as of a version due for a snapshot, taken when that batch was applied; encoded once it commits.
        var snapshotCopy: Tree?
        var held: [HeldSnapshot] = []
        /// A `deleteTree` is waiting for its commit: the tree takes no requests meanwhile.
        var deleting = false

        init(tree: Tree, about: JSONObject) {
            self.tree = tree
            self.about = about
            durableVersion = tree.version
            lastSnapshotVersion = tree.version
        }

        /// The key of `acks`: a batch's client and its `seq` as encoded JSON (the store keeps the same pair).
        static func ackKey(client: String, seq: String) -> String { client + "\u{0}" + seq }

        /// Indexes an accepted batch's (client, seq) key for idempotent resubmission.
        func rememberAck(_ key: String, version: Int) {
            acks[key] = version
            ackVersions.append((version, key))
        }
    }

    public let configuration: HubConfiguration
    /// Tree creation and deletion (info), sessions (debug), limits hit (notice, once per session and code). Silent
    /// until the daemon hands in its logger.
    public var logger = Logger(label: "canopyd.hub", factory: { _ in SwiftLogNoOpLogHandler() })
    private var sessions: [SessionID: Session] = [:]
    private var trees: [String: TreeEntry] = [:]
    /// Trees with a presence change not yet broadcast (see `presence`).
    private var presenceDue: Set<String> = []
    /// At most this many subscribers are listed in `clients` messages and snapshots; `clientCount` has them all.
    static let presenceListLimit = 100
    /// Monotonic seconds, for the edit rate limit; injectable for tests.
    private let clock: @Sendable () -> Double
    private var store: TreeStore?
    /// Runs a job on the service thread and applies its actions (`ServiceLoop.post`).
    private var schedule: (@Sendable (@escaping @Sendable () -> [TransportAction]) -> Void)?
    /// Set by a failed commit: edits are rejected until `until`.
    private var storageFailure: (message: String, until: Double)?
    /// Encodes snapshots off the service thread.
    private let snapshotQueue = DispatchQueue(label: "canopyd.snapshots")
    /// What `/metrics` reports of edits and deliveries (service thread only, like everything here).
    var counters = HubCounters()

    public init(configuration: HubConfiguration, clock: @escaping @Sendable () -> Double = Hub.monotonicSeconds) {
        self.configuration = configuration
        self.clock = clock
    }

    public static func monotonicSeconds() -> Double {
        Double(monotonicNanoseconds()) / 1e9
    }

    // MARK: ConnectionHandler

    public func opened(_ session: SessionID, peer: String) -> [TransportAction] {
        let open = configuration.tokens.isEmpty
        sessions[session] = Session(
            role: open ? .admin : .viewer, grant: nil, authenticated: open,
            bucket: max(configuration.editsPerSecond, 1))
        logger.debug("\(Hub.name(session)) connected from \(peer)")
        return []
    }

    public func closed(_ session: SessionID) -> [TransportAction] {
        guard let s = sessions.removeValue(forKey: session) else { return [] }
        logger.debug("\(Hub.name(session)) disconnected")
        var out: [TransportAction] = []
        for id in s.subscriptions {
            guard let entry = trees[id] else { continue }
            entry.subscribers.removeAll { $0 == session }
            entry.joinedAt[session] = nil
            out += presence(id, entry)
        }
        return out
    }

    public func received(_ session: SessionID, message: [UInt8]) -> [TransportAction] {
        guard let state = sessions[session] else { return [] }
        let parsed = message.withUnsafeBytes { bytes in
            Result { () throws(CanopyError) -> JSON in try JSONBridge.parse(bytes, maxDepth: configuration.maxJSONDepth) }
        }
        let json: JSON
        switch parsed {
        case .success(let j): json = j
        case .failure(let e):
            if !state.authenticated { return unauthorized(session, rid: nil) }
            logLimit(session, e)
            return [reply(session, error: e, rid: nil)]
        }
        let rid = json["rid"].flatMap { $0.string != nil || $0.isNumber ? $0 : nil }
        do {
            return try handle(session, json, rid: rid)
        } catch {
            if error.code == .unauthorized || sessions[session]?.authenticated == false {
                return unauthorized(session, rid: rid, error.code == .unauthorized ? error.message : nil)
            }
            logLimit(session, error)
            // An edit naming its tree is answered with `rejected` (its seq identifies the batch), whatever failed.
            if json["type"]?.string == "edit", let tree = json["tree"]?.string {
                return [sendRejection(session, rejected(tree, json["seq"] ?? .null, error), rid: rid)]
            }
            return [reply(session, error: error, rid: rid)]
        }
    }

    /// `unauthorized` and a 1008 close: before a successful hello (with tokens), nothing else is answered.
    private func unauthorized(_ s: SessionID, rid: JSON?, _ message: String? = nil) -> [TransportAction] {
        let e = CanopyError(.unauthorized, message ?? "send hello with a valid token first")
        return [reply(s, error: e, rid: rid), .close(s, code: 1008, reason: "unauthorized")]
    }

    /// Logs the first time `session` hits each size or rate limit.
    private func logLimit(_ s: SessionID, _ e: CanopyError) {
        let limits: Set<ErrorCode> = [.tooLarge, .tooDeep, .tooMany, .rateLimited]
        let isDepth = e.code == .badJSON && e.message.contains("deep")
        guard limits.contains(e.code) || isDepth, sessions[s]?.loggedLimits.insert(e.code).inserted == true else {
            return
        }
        logger.notice("\(Hub.name(s)) (\(sessions[s]?.client ?? "")) hit a limit: \(e.code.rawValue): \(e.message)")
    }

    // MARK: Dispatch

    private func handle(_ s: SessionID, _ m: JSON, rid: JSON?) throws(CanopyError) -> [TransportAction] {
        guard let o = m.object else { throw CanopyError(.badMessage, "a message is a JSON object") }
        guard let type = o["type"]?.string else { throw CanopyError(.badMessage, "missing \"type\"") }
        if type == "hello" { return try hello(s, o, rid: rid) }
        guard sessions[s]!.authenticated else {
            throw CanopyError(.unauthorized, "send hello with a valid token first")
        }
        switch type {
        case "listTrees": return [send(s, listTrees(s), rid: rid)]
        case "createTree": return try createTree(s, o, rid: rid)
        case "deleteTree": return try deleteTree(s, o, rid: rid)
        case "subscribe": return try subscribe(s, o, rid: rid)
        case "unsubscribe": return try unsubscribe(s, o, rid: rid)
        case "edit": return try edit(s, o, rid: rid)
        case "probe": return try probe(s, o, rid: rid)
        case "history": return try history(s, o, rid: rid)
        default:
            throw CanopyError(
                .unknownType,
                "unknown message type \"\(type)\" (expected hello, listTrees, createTree, deleteTree, subscribe, "
                    + "unsubscribe, edit, probe, history)")
        }
    }

    private func hello(_ s: SessionID, _ o: JSONObject, rid: JSON?) throws(CanopyError) -> [TransportAction] {
        var session = sessions[s]!
        session.client = o["client"]?.string ?? ""
        if !configuration.tokens.isEmpty {
            guard let token = o["token"]?.string, let grant = grant(of: token)
            else { throw CanopyError(.unauthorized, "unknown or missing token") }
            session.grant = grant
            session.role = grant.role
            session.authenticated = true
        }
        sessions[s] = session
        let welcome: JSON = [
            "type": "welcome", "session": .string(Hub.name(s)), "server": .string(configuration.serverName),
            "protocol": 1, "role": .string(session.role.rawValue),
        ]
        return [send(s, welcome, rid: rid)]
    }

    // MARK: Trees

    private func listTrees(_ s: SessionID) -> JSON {
        let visible = trees.keys.sorted().filter { sessions[s]!.grant?.covers($0) ?? true }
        let list: [JSON] = visible.map { id in
            let e = trees[id]!
            var o: JSONObject = [
                "tree": .string(id), "version": .int(Int64(e.tree.version)), "nodes": .int(Int64(e.tree.nodeCount)),
                "subscribers": .int(Int64(e.subscribers.count)),
            ]
            o.merge(e.about)
            return .object(o)
        }
        return ["type": "trees", "trees": .array(list)]
    }

    private func createTree(_ s: SessionID, _ o: JSONObject, rid: JSON?) throws(CanopyError) -> [TransportAction] {
        try authorize(s, try treeID(o), .admin, "create trees")
        let (id, entry) = try makeTree(o)
        logger.info("\(Hub.name(s)) created tree \(id) (\(entry.tree.nodeCount) nodes)")
        return persist(creationOf: id, entry) { [self] result in
            switch result {
            case .success: return [send(s, ["type": "created", "tree": .string(id), "version": 0], rid: rid)]
            case .failure(let error): return [reply(s, error: error, rid: rid)]
            }
        }
    }

    /// Creates a tree from a `createTree` body (`tree`, optional `keys`, `root`, `title` and `description`) and
    /// stores it; returns its id. The daemon's example loader, outside any session.
    public func createTree(body o: JSONObject) throws(CanopyError) -> String {
        let (id, entry) = try makeTree(o)
        _ = persist(creationOf: id, entry) { _ in [] }
        return id
    }

    /// Writes a new tree's version 0; `then` runs once it is durable (or at once without a store). If the write
    /// fails, the tree is dropped again (its subscribers hear `deleted`) and `then` gets a `storage_error`.
    private func persist(
        creationOf id: String, _ entry: TreeEntry,
        then: @escaping @Sendable (Result<Void, CanopyError>) -> [TransportAction]
    ) -> [TransportAction] {
        guard store != nil else { return then(.success(())) }
        entry.lastSnapshotTime = clock()
        let write = StoreWrite.createTree(id: id, about: Hub.bytes(.object(entry.about)), snapshot: Hub.snapshotBytes(entry.tree))
        return persist(write) { [self] result in
            switch result {
            case .success:
                return then(.success(()))
            case .failure(let error):
                logger.error("tree \(id) could not be stored: \(error)")
                var out: [TransportAction] = []
                if trees[id] === entry { out += drop(id) }
                return out + then(.failure(storageError(error)))
            }
        }
    }

    /// Builds a tree from a `createTree` body and registers it (in memory).
    private func makeTree(_ o: JSONObject) throws(CanopyError) -> (String, TreeEntry) {
        let id = try treeID(o)
        guard trees[id] == nil else { throw CanopyError(.treeExists, "tree \"\(id)\" already exists") }
        var keys: [KeyDeclaration] = []
        if let k = o["keys"] {
            guard let list = k.array else { throw CanopyError(.badMessage, "\"keys\" must be an array") }
            for (i, d) in list.enumerated() {
                do { keys.append(try KeyDeclaration(json: d)) } catch {
                    throw CanopyError(error.code, "key \(i): \(error.message)")
                }
            }
        }
        let root = try o["root"].map { (j) throws(CanopyError) -> Node in try Node(json: j) } ?? Node(id: "root", type: "Root")
        var about = JSONObject()
        for (field, limit) in [("title", 200), ("description", 4000)] {
            guard let value = o[field] else { continue }
            guard let text = value.string, text.utf8.count <= limit else {
                throw CanopyError(.badMessage, "\"\(field)\" must be a string of at most \(limit) bytes")
            }
            if !text.isEmpty { about[field] = .string(text) }
        }
        let entry = TreeEntry(tree: try Tree(keys: keys, root: root, limits: configuration.limits), about: about)
        trees[id] = entry
        return (id, entry)
    }

    private func deleteTree(_ s: SessionID, _ o: JSONObject, rid: JSON?) throws(CanopyError) -> [TransportAction] {
        let id = try treeID(o)
        try authorize(s, id, .admin, "delete trees")
        guard let entry = trees[id], !entry.deleting else { throw noSuchTree(id) }
        // The tree takes no requests until the deletion is durable; then it goes. If the deletion cannot be
        // stored, nothing changed and the tree is served on.
        entry.deleting = true
        return persist(.deleteTree(id: id)) { [self] result in
            guard trees[id] === entry else { return [] }
            switch result {
            case .success:
                logger.info("\(Hub.name(s)) deleted tree \(id)")
                return drop(id, except: s) + [send(s, ["type": "deleted", "tree": .string(id)], rid: rid)]
            case .failure(let error):
                logger.error("the deletion of tree \(id) could not be stored: \(error)")
                entry.deleting = false
                return [reply(s, error: storageError(error), rid: rid)]
            }
        }
    }

    /// Removes `id` from memory: its subscribers (but `except`) get `deleted`, and the authors of its batches still
    /// waiting for their commit get `rejected` (`no_such_tree`).
    private func drop(_ id: String, except: SessionID? = nil) -> [TransportAction] {
        guard let entry = trees.removeValue(forKey: id) else { return [] }
        var out: [TransportAction] = []
        let shared = OutgoingMessage(encoding: ["type": "deleted", "tree": .string(id)])
        for sub in entry.subscribers {
            sessions[sub]?.subscriptions.remove(id)
            sessions[sub]?.traced.remove(id)
            if sub != except { out.append(.send(sub, shared)) }
        }
        return out + rejectPending(id, entry, noSuchTree(id))
    }

    /// `rejected` with `error` to the author and every resubmitter of each batch still waiting for its commit.
    private func rejectPending(_ id: String, _ entry: TreeEntry, _ error: CanopyError) -> [TransportAction] {
        var out: [TransportAction] = []
        for p in entry.pending {
            let rejection = rejected(id, p.seq, error)
            for (session, rid) in [(p.author, p.rid)] + p.resubmitters where sessions[session] != nil {
                out.append(sendRejection(session, rejection, rid: rid))
            }
        }
        return out
    }

    private func subscribe(_ s: SessionID, _ o: JSONObject, rid: JSON?) throws(CanopyError) -> [TransportAction] {
        let (id, entry) = try existingTree(s, o, .viewer, "read this tree")
        let since = try integer(o, "since")
        guard o["trace"] == nil || o["trace"]?.bool != nil else {
            throw CanopyError(.badMessage, "\"trace\" must be true or false")
        }
        let trace = o["trace"]?.bool ?? false
        sessions[s]!.subscriptions.insert(id)
        if trace { sessions[s]!.traced.insert(id) } else { sessions[s]!.traced.remove(id) }
        if !entry.subscribers.contains(s) { entry.subscribers.append(s) }
        var out: [TransportAction] = []
        if let since, let missed = missedDiffs(id, entry, since: since) {
            out += missed.map { .send(s, $0) }
            // Batches still waiting for their commit follow when they are released.
            entry.joinedAt[s] = max(since, entry.durableVersion)
        } else {
            let message = send(s, snapshot(id, entry, trace: trace), rid: rid)
            entry.joinedAt[s] = entry.tree.version
            if entry.tree.version > entry.durableVersion, case .send(_, let encoded) = message {
                // It shows batches whose commit is under way: it goes out right after the last of them.
                entry.held.removeAll { $0.session == s }
                entry.held.append(HeldSnapshot(session: s, version: entry.tree.version, message: encoded))
            } else {
                out.append(message)
            }
        }
        out += presence(id, entry)
        return out
    }

    /// The durable diffs after `since` — from the in-memory log, or from the store for what the log no longer
    /// holds — if they are all still kept and fit `catchUpMaxBytes`; nil means "send a snapshot".
    private func missedDiffs(_ id: String, _ entry: TreeEntry, since: Int) -> [OutgoingMessage]? {
        if since >= entry.durableVersion { return since <= entry.tree.version ? [] : nil }
        guard since >= 0 else { return nil }
        var missed: [OutgoingMessage] = []
        let inLog = entry.log.first.map { since + 1 >= $0.version } ?? false
        if inLog {
            missed = entry.log[(since + 1 - entry.log[0].version)...].map(\.message)
        } else {
            guard let store, let stored = try? store.diffs(tree: id, from: since + 1, to: entry.durableVersion),
                stored.count == entry.durableVersion - since
            else { return nil }
            missed = stored.map { OutgoingMessage(bytes: $0.diff) }
        }
        var bytes = 0
        for diff in missed {
            bytes += diff.count
            if bytes > configuration.catchUpMaxBytes { return nil }
        }
        return missed
    }

    private func unsubscribe(_ s: SessionID, _ o: JSONObject, rid: JSON?) throws(CanopyError) -> [TransportAction] {
        let (id, entry) = try existingTree(s, o, nil, "")
        sessions[s]!.subscriptions.remove(id)
        sessions[s]!.traced.remove(id)
        entry.subscribers.removeAll { $0 == s }
        entry.joinedAt[s] = nil
        return [send(s, ["type": "unsubscribed", "tree": .string(id)], rid: rid)] + presence(id, entry)
    }

    private func edit(_ s: SessionID, _ o: JSONObject, rid: JSON?) throws(CanopyError) -> [TransportAction] {
        let (id, entry) = try existingTree(s, o, .editor, "edit this tree")
        let seq = o["seq"] ?? .null
        guard let opsJSON = o["ops"] else { throw CanopyError(.badMessage, "edit: missing \"ops\"") }
        let client = sessions[s]!.client
        let ackKey = client.isEmpty || seq.isNull ? nil : TreeEntry.ackKey(client: client, seq: seq.encoded())
        if let ackKey, let version = try acknowledged(id, entry, ackKey, client: client, seq: seq) {
            return resubmitted(s, id, entry, version: version, seq: seq, rid: rid)
        }
        if let failure = storageFailure {
            if clock() < failure.until {
                return [sendRejection(s, rejected(id, seq, CanopyError(.storageError, failure.message)), rid: rid)]
            }
            storageFailure = nil  // try the store again
        }
        if !takeEditToken(s) {
            return [sendRejection(s, rejected(id, seq, CanopyError(.rateLimited, "more than \(configuration.editsPerSecond) edits per second")), rid: rid)]
        }
        let ops: [Op]
        do { ops = try [Op](json: opsJSON) } catch { return [sendRejection(s, rejected(id, seq, error), rid: rid)] }
        let wantsTrace = entry.subscribers.contains { sessions[$0]?.traced.contains(id) == true }
        let diff: Diff
        let start = monotonicNanoseconds()
        do { diff = try entry.tree.apply(ops, trace: wantsTrace) } catch {
            return [sendRejection(s, rejected(id, seq, error), rid: rid)]
        }
        counters.evaluation.observe(nanoseconds: monotonicNanoseconds() - start)
        let version = entry.tree.version
        var message: JSONObject = [
            "type": "diff", "tree": .string(id), "version": .int(Int64(version)),
            "author": .string(Hub.name(s)), "seq": seq, "ops": .array(diff.ops.map(\.json)),
            "changes": .array(diff.changes.map(\.json)),
        ]
        let plain = OutgoingMessage(encoding: .object(message))
        var traced: OutgoingMessage? = nil
        if let trace = diff.trace {
            message["trace"] = trace.json
            traced = OutgoingMessage(encoding: .object(message))
            message["trace"] = nil
        }
        entry.pending.append(
            PendingDiff(
                version: version, author: s, rid: rid, plain: plain, traced: traced, json: .object(message),
                opCount: ops.count))
        if isSnapshotDue(entry) {
            // The tree as of this batch (copy-on-write: O(1) now); encoded and stored once the batch is durable.
            entry.snapshotInFlight = true
            entry.snapshotCopy = entry.tree
            entry.lastSnapshotVersion = version
            entry.lastSnapshotTime = clock()
        }
        if let ackKey { entry.rememberAck(ackKey, version: version) }
        let stored = StoredDiff(version: version, client: client, seq: seq.isNull ? nil : seq.encoded(), diff: plain.bytes)
        let epoch = entry.epoch
        return persist(.append(tree: id, diff: stored)) { [self] result in
            committed(id, entry, version: version, epoch: epoch, result)
        }
    }

    /// The commit of `version` finished: release it (and everything before it), or roll the tree back.
    private func committed(
        _ id: String, _ entry: TreeEntry, version: Int, epoch: Int, _ result: Result<Void, StoreError>
    ) -> [TransportAction] {
        guard trees[id] === entry, entry.epoch == epoch else { return [] }  // deleted, or rolled back meanwhile
        switch result {
        case .success:
            var out: [TransportAction] = []
            while let first = entry.pending.first, first.version <= version {
                entry.pending.removeFirst()
                out += release(id, entry, first)
                // Snapshots answered meanwhile follow the last batch they show.
                while let held = entry.held.first, held.version <= first.version {
                    entry.held.removeFirst()
                    if entry.subscribers.contains(held.session) { out.append(.send(held.session, held.message)) }
                }
            }
            entry.durableVersion = max(entry.durableVersion, version)
            storeSnapshot(id, entry)
            if store == nil { pruneAcks(entry, through: entry.durableVersion - configuration.diffLogLength) }
            return out
        case .failure(let error):
            return rollBack(id, entry, error)
        }
    }

    /// Sends a durable batch's diff to every subscriber that does not have it yet, its author and resubmitters, and
    /// logs it.
    private func release(_ id: String, _ entry: TreeEntry, _ p: PendingDiff) -> [TransportAction] {
        counters.editsAccepted += 1
        counters.ops += p.opCount
        entry.log.append(LoggedDiff(version: p.version, message: p.plain, json: p.json))
        if entry.log.count > configuration.diffLogLength { entry.log.removeFirst(entry.log.count - configuration.diffLogLength) }
        var out: [TransportAction] = []
        for sub in entry.subscribers where (entry.joinedAt[sub] ?? 0) < p.version || sub == p.author {
            let wants = sessions[sub]?.traced.contains(id) == true
            out.append(.send(sub, wants ? p.traced ?? p.plain : p.plain))
        }
        if !entry.subscribers.contains(p.author) && sessions[p.author] != nil { out.append(.send(p.author, p.plain)) }
        counters.diffsDelivered += out.count
        if !p.resubmitters.isEmpty, case .object(var duplicate) = p.json {
            duplicate["duplicate"] = true
            for (again, rid) in p.resubmitters where sessions[again] != nil {
                counters.editsDuplicate += 1
                out.append(send(again, .object(duplicate), rid: rid))
            }
        }
        return out
    }

    /// A batch whose (client, seq) was already accepted as `version`: its original diff goes to `s` (once durable),
    /// marked `duplicate`; nothing is applied again.
    private func resubmitted(_ s: SessionID, _ id: String, _ entry: TreeEntry, version: Int, seq: JSON, rid: JSON?)
        -> [TransportAction]
    {
        if let i = entry.pending.firstIndex(where: { $0.version == version }) {
            entry.pending[i].resubmitters.append((s, rid))
            return []
        }
        var original: JSON? = entry.log.last { $0.version == version }?.json
        if original == nil, let stored = try? store?.diffs(tree: id, from: version, to: version).first {
            original = try? JSONParser.parse(bytes: stored.diff, maxDepth: 4096)
        }
        guard case .object(var diff)? = original else {
            let gone = CanopyError(.storageError, "this batch was accepted as version \(version), which is no longer available")
            return [sendRejection(s, rejected(id, seq, gone), rid: rid)]
        }
        diff["duplicate"] = true
        counters.editsDuplicate += 1
        return [send(s, .object(diff), rid: rid)]
    }

    /// The version a batch with this (client, seq) was accepted as: from the index of recent batches, else (with a
    /// store) from the store's log, which also covers batches from before a restart.
    private func acknowledged(_ id: String, _ entry: TreeEntry, _ key: String, client: String, seq: JSON)
        throws(CanopyError) -> Int?
    {
        if let version = entry.acks[key] { return version }
        guard let store else { return nil }
        do {
            return try store.version(tree: id, client: client, seq: seq.encoded())
        } catch {
            throw storageError(error)
        }
    }

    private func probe(_ s: SessionID, _ o: JSONObject, rid: JSON?) throws(CanopyError) -> [TransportAction] {
        let (id, entry) = try existingTree(s, o, .viewer, "read this tree")
        guard let node = o["node"]?.string, let key = o["key"]?.string else {
            throw CanopyError(.badMessage, "probe: \"node\" and \"key\" must be strings")
        }
        let value = try entry.tree.probe(node: node, key: key)
        var reply: JSONObject = [
            "type": "value", "tree": .string(id), "version": .int(Int64(entry.tree.version)), "node": .string(node),
            "key": .string(key), "present": .bool(value != nil),
        ]
        if let value { reply["value"] = value }
        return [send(s, .object(reply), rid: rid)]
    }

    private func history(_ s: SessionID, _ o: JSONObject, rid: JSON?) throws(CanopyError) -> [TransportAction] {
        let (id, entry) = try existingTree(s, o, .viewer, "read this tree")
        let from = max(1, try integer(o, "from") ?? 1)
        let to = min(entry.durableVersion, try integer(o, "to") ?? entry.durableVersion)
        var diffs: [JSON] = []
        // What the in-memory log no longer holds comes from the store (as far as it keeps the log).
        let logStart = entry.log.first?.version ?? entry.durableVersion + 1
        if from < logStart, from <= to, let store {
            do {
                for stored in try store.diffs(tree: id, from: from, to: min(to, logStart - 1)) {
                    diffs.append(try JSONParser.parse(bytes: stored.diff, maxDepth: 4096))
                }
            } catch {
                logger.error("history of \(id) from the store: \(error)")
            }
        }
        diffs += entry.log.filter { $0.version >= from && $0.version <= to }.map(\.json)
        return [send(s, ["type": "history", "tree": .string(id), "diffs": .array(diffs)], rid: rid)]
    }

    // MARK: Metrics

    /// The trees, edits, deliveries and store metrics (see `HubCounters`). Walks the trees: meant for a scrape every
    /// few seconds, not per message.
    public func writeMetrics(into exposition: inout MetricsExposition) {
        var nodes = 0
        var pending = 0
        for entry in trees.values {
            nodes += entry.tree.nodeCount
            pending += entry.pending.count
        }
        counters.write(
            into: &exposition, trees: trees.count, nodes: nodes, pending: pending,
            store: store?.detailedStatistics)
    }

    // MARK: Durability

    /// Attaches the durable store: from now on creations, batches and deletions are written through it, and what
    /// depends on them is released by jobs handed to `schedule` (the service loop's `post`) once they are durable.
    /// Call before the service loop runs, after `restore`.
    public func attach(store: TreeStore, schedule: @escaping @Sendable (@escaping @Sendable () -> [TransportAction]) -> Void) {
        self.store = store
        self.schedule = schedule
    }

    /// Rebuilds the stored trees (latest snapshot + the log after it). Throws, naming the tree, if a snapshot does
    /// not parse or a logged batch does not apply — a store that does not replay is never served as a partial tree.
    public func restore(_ stored: [StoredTree]) throws(CanopyError) {
        for t in stored {
            func failure(_ what: String) -> CanopyError { CanopyError(.storageError, "tree \(t.id): \(what)") }
            guard trees[t.id] == nil else { throw failure("stored twice") }
            let entry: TreeEntry
            do throws(CanopyError) {
                let snapshot = try JSONParser.parse(bytes: t.snapshot, maxDepth: 4096)
                let keys = try (snapshot["keys"]?.array ?? []).map { j throws(CanopyError) in try KeyDeclaration(json: j) }
                let root = try Node(json: snapshot["root"] ?? .null)
                guard t.snapshotVersion >= 0 else { throw CanopyError(.badMessage, "negative version") }
                let tree = try Tree(keys: keys, root: root, limits: configuration.limits, version: t.snapshotVersion)
                let about = try JSONParser.parse(bytes: t.about).object ?? JSONObject()
                entry = TreeEntry(tree: tree, about: about)
            } catch {
                throw failure("snapshot \(t.snapshotVersion) is unreadable: \(error.message)")
            }
            for d in t.diffs {
                do throws(CanopyError) {
                    let json = try JSONParser.parse(bytes: d.diff, maxDepth: 4096)
                    _ = try entry.tree.apply(try [Op](json: json["ops"] ?? .null))
                    guard entry.tree.version == d.version else { throw CanopyError(.badMessage, "out of order") }
                    entry.log.append(LoggedDiff(version: d.version, message: OutgoingMessage(bytes: d.diff), json: json))
                    if let seq = d.seq, !d.client.isEmpty {
                        entry.rememberAck(TreeEntry.ackKey(client: d.client, seq: seq), version: d.version)
                    }
                } catch {
                    throw failure("logged batch \(d.version) does not apply: \(error.message)")
                }
            }
            if entry.log.count > configuration.diffLogLength { entry.log.removeFirst(entry.log.count - configuration.diffLogLength) }
            entry.durableVersion = entry.tree.version
            entry.lastSnapshotVersion = t.snapshotVersion
            entry.lastSnapshotTime = clock()
            trees[t.id] = entry
        }
    }

    /// Hands `write` to the store; `then` runs on the service thread once it committed or failed. Without a store,
    /// `then` runs at once and its actions are returned.
    private func persist(
        _ write: StoreWrite, then: @escaping @Sendable (Result<Void, StoreError>) -> [TransportAction]
    ) -> [TransportAction] {
        guard let store, let schedule else { return then(.success(())) }
        store.enqueue(write) { result in schedule { then(result) } }
        return []
    }

    private func storageError(_ error: StoreError) -> CanopyError {
        CanopyError(.storageError, "not stored: \(error.message)")
    }

    /// A commit failed (disk full, I/O error): the batches waiting for it are rejected with `storage_error`, the tree
    /// goes back to its durable state (re-read from the store), its subscribers get a fresh snapshot, and edits are
    /// refused for `storageRetrySeconds`.
    private func rollBack(_ id: String, _ entry: TreeEntry, _ error: StoreError) -> [TransportAction] {
        logger.error("tree \(id): a commit failed, rolling back to version \(entry.durableVersion): \(error)")
        let retry = clock() + configuration.storageRetrySeconds
        storageFailure = ("the daemon cannot store edits right now: \(error.message)", max(retry, storageFailure?.until ?? 0))
        var out = rejectPending(id, entry, storageError(error))
        entry.held = []  // every subscriber gets a fresh snapshot below
        if entry.snapshotCopy != nil {
            entry.snapshotCopy = nil
            entry.snapshotInFlight = false
            entry.lastSnapshotVersion = min(entry.lastSnapshotVersion, entry.durableVersion)
        }
        for ack in entry.ackVersions where ack.version > entry.durableVersion { entry.acks[ack.key] = nil }
        entry.ackVersions.removeAll { $0.version > entry.durableVersion }
        entry.pending = []
        entry.epoch += 1
        do {
            guard let store, let stored = try store.load().first(where: { $0.id == id }) else {
                throw CanopyError(.storageError, "the tree is not in the store")
            }
            let scratch = Hub(configuration: configuration)
            try scratch.restore([stored])
            guard let restored = scratch.trees[id] else { return out }
            entry.tree = restored.tree
            entry.log = restored.log
            entry.durableVersion = restored.durableVersion
        } catch {
            // The store cannot even be read: keep serving what is in memory; edits stay refused.
            logger.critical("tree \(id) cannot be re-read from the store: \(error)")
            storageFailure = ("the store cannot be read: \(error)", .infinity)
            return out
        }
        for sub in entry.subscribers {
            out.append(.send(sub, OutgoingMessage(encoding: snapshot(id, entry, trace: sessions[sub]?.traced.contains(id) == true))))
            entry.joinedAt[sub] = entry.tree.version
        }
        return out
    }

    /// Whether the batch just applied to `entry` should be snapshotted: enough batches or time since its last
    /// snapshot, and no snapshot under way.
    private func isSnapshotDue(_ entry: TreeEntry) -> Bool {
        guard store != nil, !entry.snapshotInFlight else { return false }
        return entry.tree.version - entry.lastSnapshotVersion >= configuration.snapshotEveryBatches
            || clock() - entry.lastSnapshotTime >= Double(configuration.snapshotEverySeconds)
    }

    /// Once the version of the copy taken by `edit` is durable: encodes it on the snapshot queue, then queues the
    /// `snapshot` write from the service thread — only if the tree is still the same (not deleted, re-created or
    /// rolled back meanwhile). Once stored, the in-memory resubmission index keeps only the
    /// batches after it; `acknowledged` asks the store for older ones.
    private func storeSnapshot(_ id: String, _ entry: TreeEntry) {
        guard let store, let schedule, let copy = entry.snapshotCopy, copy.version <= entry.durableVersion else { return }
        entry.snapshotCopy = nil
        let version = copy.version
        let epoch = entry.epoch
        snapshotQueue.async { [self] in
            let bytes = Hub.snapshotBytes(copy)
            schedule { [self] in
                guard trees[id] === entry, entry.epoch == epoch, !entry.deleting else {
                    if trees[id] === entry { entry.snapshotInFlight = false }
                    return []
                }
                store.enqueue(.snapshot(tree: id, version: version, snapshot: bytes)) { result in
                    schedule { [self] in
                        guard trees[id] === entry else { return [] }
                        entry.snapshotInFlight = false
                        switch result {
                        case .success:
                            pruneAcks(entry, through: version)
                        case .failure(let error):
                            logger.error("tree \(id): snapshot \(version) could not be stored: \(error)")
                        }
                        return []
                    }
                }
                return []
            }
        }
    }

    private func pruneAcks(_ entry: TreeEntry, through version: Int) {
        var dropped = 0
        while dropped < entry.ackVersions.count && entry.ackVersions[dropped].version <= version {
            entry.acks[entry.ackVersions[dropped].key] = nil
            dropped += 1
        }
        if dropped > 0 { entry.ackVersions.removeFirst(dropped) }
    }

    /// A tree as a snapshot stores it: `{"keys":[…],"root":{…}}`.
    static func snapshotBytes(_ tree: Tree) -> [UInt8] {
        bytes(["keys": .array(tree.keys.map(\.json)), "root": tree.root.json])
    }

    static func bytes(_ json: JSON) -> [UInt8] {
        var out: [UInt8] = []
        json.write(into: &out)
        return out
    }

    // MARK: Pieces

    private func snapshot(_ id: String, _ entry: TreeEntry, trace: Bool) -> JSON {
        var o: JSONObject = [
            "type": "snapshot", "tree": .string(id), "version": .int(Int64(entry.tree.version)),
        ]
        o.merge(entry.about)
        o["keys"] = .array(entry.tree.keys.map(\.json))
        o["root"] = entry.tree.root.json
        o["readers"] = .array(entry.tree.readers.map(\.json))
        o["clients"] = clients(entry)
        o["clientCount"] = .int(Int64(entry.subscribers.count))
        if trace, let t = entry.tree.evaluateFromScratch(trace: true).trace { o["trace"] = t.json }
        return .object(o)
    }

    /// The first `presenceListLimit` subscribers (a presence list of every one of thousands of subscribers, sent to
    /// each of them on every join, would cost O(N²) bytes).
    private func clients(_ entry: TreeEntry) -> JSON {
        .array(entry.subscribers.prefix(Hub.presenceListLimit).map {
            ["session": .string(Hub.name($0)), "client": .string(sessions[$0]?.client ?? "")]
        })
    }

    /// `clients` to every subscriber of the tree, at most once per `presenceGap(entry)`: a change within the gap is
    /// sent by `tick()` when the gap has passed, with the list as it is then (joins in a burst share one update).
    private func presence(_ id: String, _ entry: TreeEntry) -> [TransportAction] {
        let now = clock()
        if now - entry.presenceSentAt >= presenceGap(entry) { return broadcastPresence(id, entry, now: now) }
        presenceDue.insert(id)
        return []
    }

    private func broadcastPresence(_ id: String, _ entry: TreeEntry, now: Double) -> [TransportAction] {
        entry.presenceSentAt = now
        let shared = OutgoingMessage(encoding: [
            "type": "clients", "tree": .string(id), "clients": clients(entry),
            "clientCount": .int(Int64(entry.subscribers.count)),
        ])
        return entry.subscribers.map { .send($0, shared) }
    }

    /// 100 ms, and longer for big audiences (each update goes to every subscriber): 1 s at 10,000 subscribers.
    private func presenceGap(_ entry: TreeEntry) -> Double {
        0.1 * max(1, Double(entry.subscribers.count) / 1000)
    }

    /// Sends the presence updates whose gap has passed.
    /// Presence updates wait for their tree's gap to pass.
    public var hasDeferredWork: Bool { !presenceDue.isEmpty }

    public func tick() -> [TransportAction] {
        guard !presenceDue.isEmpty else { return [] }
        let now = clock()
        var out: [TransportAction] = []
        for id in presenceDue {
            guard let entry = trees[id] else {
                presenceDue.remove(id)
                continue
            }
            if now - entry.presenceSentAt >= presenceGap(entry) {
                presenceDue.remove(id)
                out += broadcastPresence(id, entry, now: now)
            }
        }
        return out
    }

    private func rejected(_ id: String, _ seq: JSON, _ e: CanopyError) -> JSON {
        var o: JSONObject = [
            "type": "rejected", "tree": .string(id), "seq": seq, "code": .string(e.code.rawValue),
            "message": .string(e.message),
        ]
        if let op = e.op { o["op"] = .int(Int64(op)) }
        return .object(o)
    }

    private func takeEditToken(_ s: SessionID) -> Bool {
        let rate = configuration.editsPerSecond
        guard rate > 0 else { return true }
        let now = clock()
        var session = sessions[s]!
        session.bucket = min(max(rate, 1), session.bucket + (now - session.lastRefill) * rate)
        session.lastRefill = now
        let ok = session.bucket >= 1
        if ok { session.bucket -= 1 }
        sessions[s] = session
        return ok
    }

    /// An optional integer field (a JSON number with no fraction, within Int's range).
    private func integer(_ o: JSONObject, _ field: String) throws(CanopyError) -> Int? {
        guard let value = o[field] else { return nil }
        switch value {
        case .int(let i): return Int(i)
        case .double(let d):
            if let i = Int(exactly: d) { return i }
        default: break
        }
        throw CanopyError(.badMessage, "\"\(field)\" must be an integer, got \(value.encoded())")
    }

    private func treeID(_ o: JSONObject) throws(CanopyError) -> String {
        guard let id = o["tree"]?.string else { throw CanopyError(.badMessage, "missing \"tree\" (a tree id)") }
        guard !id.isEmpty, id.utf8.count <= 128,
            id.utf8.allSatisfy({ c in
                (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2D || c == 0x5F
                    || c == 0x2E
            })
        else {
            throw CanopyError(.badMessage, "tree ids are 1–128 characters of A–Z, a–z, 0–9, '.', '_', '-'")
        }
        return id
    }

    private func authorize(_ s: SessionID, _ id: String, _ needed: Role, _ what: String) throws(CanopyError) {
        let session = sessions[s]!
        if let grant = session.grant, !grant.covers(id) {
            throw CanopyError(.forbidden, "this token gives no access to tree \"\(id)\"")
        }
        guard session.role >= needed else {
            throw CanopyError(.forbidden, "role \(session.role.rawValue) may not \(what) (needs \(needed.rawValue))")
        }
    }

    /// The message's tree, checked for access (unless `needed` is nil) and existence.
    private func existingTree(_ s: SessionID, _ o: JSONObject, _ needed: Role?, _ what: String) throws(CanopyError)
        -> (String, TreeEntry)
    {
        let id = try treeID(o)
        if let needed { try authorize(s, id, needed, what) }
        guard let entry = trees[id], !entry.deleting else { throw noSuchTree(id) }
        return (id, entry)
    }

    private func noSuchTree(_ id: String) -> CanopyError { CanopyError(.noSuchTree, "no tree \"\(id)\"") }

    /// A `rejected` message, counted for the metrics.
    private func sendRejection(_ s: SessionID, _ rejection: JSON, rid: JSON?) -> TransportAction {
        counters.editsRejected += 1
        return send(s, rejection, rid: rid)
    }

    private func send(_ s: SessionID, _ message: JSON, rid: JSON?) -> TransportAction {
        guard let rid, case .object(var o) = message else { return .send(s, OutgoingMessage(encoding: message)) }
        o["rid"] = rid
        return .send(s, OutgoingMessage(encoding: .object(o)))
    }

    private func reply(_ s: SessionID, error e: CanopyError, rid: JSON?) -> TransportAction {
        send(s, ["type": "error", "code": .string(e.code.rawValue), "message": .string(e.message)], rid: rid)
    }

    static func name(_ s: SessionID) -> String { "s\(s)" }
}
