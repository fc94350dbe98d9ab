import CanopyCore
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

    public init() {}
}

/// The protocol state machine (PROTOCOL.md): sessions, trees and their subscribers, fed with complete messages
/// and answering with transport actions. No sockets, no threads: the service loop calls it on its thread, and
/// tests call it directly.
public final class Hub: ConnectionHandler {
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

    private final class TreeEntry {
        var tree: Tree
        /// Optional `title` and `description` from `createTree`, shown by listTrees, snapshots and the inspector.
        let about: JSONObject
        var subscribers: [SessionID] = []
        var log: [LoggedDiff] = []

        init(tree: Tree, about: JSONObject) {
            self.tree = tree
            self.about = about
        }
    }

    public let configuration: HubConfiguration
    /// Tree creation and deletion (info), sessions (debug), limits hit (notice, once per session and code). Silent
    /// until the daemon hands in its logger.
    public var logger = Logger(label: "canopyd.hub", factory: { _ in SwiftLogNoOpLogHandler() })
    private var sessions: [SessionID: Session] = [:]
    private var trees: [String: TreeEntry] = [:]
    /// Monotonic seconds, for the edit rate limit; injectable for tests.
    private let clock: @Sendable () -> Double

    public init(configuration: HubConfiguration, clock: @escaping @Sendable () -> Double = Hub.monotonicSeconds) {
        self.configuration = configuration
        self.clock = clock
    }

    public static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
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
                return [send(session, rejected(tree, json["seq"] ?? .null, error), rid: rid)]
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
            guard let token = o["token"]?.string, let grant = configuration.tokens.first(where: { $0.token == token })
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
        let id = try createTree(body: o)
        logger.info("\(Hub.name(s)) created tree \(id) (\(trees[id]?.tree.nodeCount ?? 0) nodes)")
        return [send(s, ["type": "created", "tree": .string(id), "version": 0], rid: rid)]
    }

    /// Creates a tree from a `createTree` body (`tree`, optional `keys`, `root`, `title` and `description`); returns
    /// its id. Also the daemon's example loader, outside any session.
    public func createTree(body o: JSONObject) throws(CanopyError) -> String {
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
        trees[id] = TreeEntry(tree: try Tree(keys: keys, root: root, limits: configuration.limits), about: about)
        return id
    }

    private func deleteTree(_ s: SessionID, _ o: JSONObject, rid: JSON?) throws(CanopyError) -> [TransportAction] {
        let id = try treeID(o)
        try authorize(s, id, .admin, "delete trees")
        guard let entry = trees.removeValue(forKey: id) else { throw noSuchTree(id) }
        logger.info("\(Hub.name(s)) deleted tree \(id)")
        let deleted: JSON = ["type": "deleted", "tree": .string(id)]
        var out = [send(s, deleted, rid: rid)]
        let shared = Hub.encode(deleted)
        for sub in entry.subscribers {
            sessions[sub]?.subscriptions.remove(id)
            sessions[sub]?.traced.remove(id)
            if sub != s { out.append(.send(sub, shared)) }
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
        if let since, let missed = missedDiffs(entry, since: since) {
            out += missed.map { .send(s, $0.message) }
        } else {
            out.append(send(s, snapshot(id, entry, trace: trace), rid: rid))
        }
        out += presence(id, entry)
        return out
    }

    /// The logged diffs after `since`, if the log still has all of them and they fit `catchUpMaxBytes`.
    private func missedDiffs(_ entry: TreeEntry, since: Int) -> [LoggedDiff]? {
        let now = entry.tree.version
        if since >= now { return since == now ? [] : nil }
        guard since >= 0, let first = entry.log.first, first.version <= since + 1 else { return nil }
        let missed = entry.log[(since + 1 - first.version)...]
        var bytes = 0
        for diff in missed {
            bytes += diff.message.bytes.count
            if bytes > configuration.catchUpMaxBytes { return nil }
        }
        return Array(missed)
    }

    private func unsubscribe(_ s: SessionID, _ o: JSONObject, rid: JSON?) throws(CanopyError) -> [TransportAction] {
        let (id, entry) = try existingTree(s, o, nil, "")
        sessions[s]!.subscriptions.remove(id)
        sessions[s]!.traced.remove(id)
        entry.subscribers.removeAll { $0 == s }
        return [send(s, ["type": "unsubscribed", "tree": .string(id)], rid: rid)] + presence(id, entry)
    }

    private func edit(_ s: SessionID, _ o: JSONObject, rid: JSON?) throws(CanopyError) -> [TransportAction] {
        let (id, entry) = try existingTree(s, o, .editor, "edit this tree")
        let seq = o["seq"] ?? .null
        guard let opsJSON = o["ops"] else { throw CanopyError(.badMessage, "edit: missing \"ops\"") }
        if !takeEditToken(s) {
            return [send(s, rejected(id, seq, CanopyError(.rateLimited, "more than \(configuration.editsPerSecond) edits per second")), rid: rid)]
        }
        let ops: [Op]
        do { ops = try [Op](json: opsJSON) } catch { return [send(s, rejected(id, seq, error), rid: rid)] }
        let wantsTrace = entry.subscribers.contains { sessions[$0]?.traced.contains(id) == true }
        let diff: Diff
        do { diff = try entry.tree.apply(ops, trace: wantsTrace) } catch {
            return [send(s, rejected(id, seq, error), rid: rid)]
        }
        var message: JSONObject = [
            "type": "diff", "tree": .string(id), "version": .int(Int64(entry.tree.version)),
            "author": .string(Hub.name(s)), "seq": seq, "ops": .array(diff.ops.map(\.json)),
            "changes": .array(diff.changes.map(\.json)),
        ]
        let plain = Hub.encode(.object(message))
        var traced: OutgoingMessage? = nil
        if let trace = diff.trace {
            message["trace"] = trace.json
            traced = Hub.encode(.object(message))
            message["trace"] = nil
        }
        entry.log.append(LoggedDiff(version: entry.tree.version, message: plain, json: .object(message)))
        if entry.log.count > configuration.diffLogLength { entry.log.removeFirst(entry.log.count - configuration.diffLogLength) }
        var out: [TransportAction] = []
        for sub in entry.subscribers {
            let wants = sessions[sub]?.traced.contains(id) == true
            out.append(.send(sub, wants ? traced ?? plain : plain))
        }
        if !entry.subscribers.contains(s) { out.append(.send(s, plain)) }
        return out
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
        let from = try integer(o, "from") ?? 1
        let to = try integer(o, "to") ?? entry.tree.version
        let diffs = entry.log.filter { $0.version >= from && $0.version <= to }.map(\.json)
        return [send(s, ["type": "history", "tree": .string(id), "diffs": .array(diffs)], rid: rid)]
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
        if trace, let t = entry.tree.evaluateFromScratch(trace: true).trace { o["trace"] = t.json }
        return .object(o)
    }

    private func clients(_ entry: TreeEntry) -> JSON {
        .array(entry.subscribers.map { ["session": .string(Hub.name($0)), "client": .string(sessions[$0]?.client ?? "")] })
    }

    /// `clients` to every subscriber of the tree.
    private func presence(_ id: String, _ entry: TreeEntry) -> [TransportAction] {
        let shared = Hub.encode(["type": "clients", "tree": .string(id), "clients": clients(entry)])
        return entry.subscribers.map { .send($0, shared) }
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
        guard let entry = trees[id] else { throw noSuchTree(id) }
        return (id, entry)
    }

    private func noSuchTree(_ id: String) -> CanopyError { CanopyError(.noSuchTree, "no tree \"\(id)\"") }

    private func send(_ s: SessionID, _ message: JSON, rid: JSON?) -> TransportAction {
        guard let rid, case .object(var o) = message else { return .send(s, Hub.encode(message)) }
        o["rid"] = rid
        return .send(s, Hub.encode(.object(o)))
    }

    private func reply(_ s: SessionID, error e: CanopyError, rid: JSON?) -> TransportAction {
        send(s, ["type": "error", "code": .string(e.code.rawValue), "message": .string(e.message)], rid: rid)
    }

    static func name(_ s: SessionID) -> String { "s\(s)" }

    static func encode(_ j: JSON) -> OutgoingMessage {
        var bytes: [UInt8] = []
        j.write(into: &bytes)
        return OutgoingMessage(bytes: bytes)
    }
}
