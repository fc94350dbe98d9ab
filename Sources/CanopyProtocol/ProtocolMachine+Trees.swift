import CanopyCore

/// Creating, listing, deleting and restoring trees.
extension ProtocolMachine {
    func listTrees(_ s: SessionID) -> JSON {
        let session = sessions[s]
        let visible = (Array(channels.keys) + Array(loading.keys)).sorted().filter { session?.sees($0) == true }
        let list: [JSON] = visible.map { id in
            guard let channel = channels[id] else {
                // Still being restored at start: its version and `about` are known, its node count is not yet.
                let t = loading[id]!
                var o: JSONObject = [
                    "tree": .string(id), "version": .int(Int64(t.version)), "subscribers": 0, "loading": true,
                ]
                o.merge(t.about)
                return .object(o)
            }
            var o: JSONObject = [
                "tree": .string(id), "version": .int(Int64(channel.tree.version)),
                "nodes": .int(Int64(channel.tree.nodeCount)), "subscribers": .int(Int64(channel.subscribers.count)),
            ]
            if channel.program != nil { o["program"] = true }
            o.merge(channel.about)
            return .object(o)
        }
        return ["type": "trees", "trees": .array(list)]
    }

    mutating func createTree(
        _ s: SessionID, _ o: JSONObject, rid: JSON?, now: Double, prepared: PreparedTree? = nil
    ) throws(CanopyError) -> [ProtocolAction] {
        guard let session = sessions[s] else { throw CanopyError(.unauthorized, "this session has ended") }
        try session.authorize(try Self.treeID(o), .admin, "create trees")
        let id = try makeTree(o, replyTo: ReplyTo(session: s, rid: rid), now: now, prepared: prepared)
        let nodes = channels[id]!.tree.nodeCount
        return [.log(.info, "\(Session.name(s)) created tree \(id) (\(nodes) nodes)")]
            + persistCreation(id, snapshot: prepared?.snapshot)
    }

    /// The expensive part of a `createTree` of data, for the runner to do off the service thread when the message is
    /// large: building the tree from `keys` and `root` (with its first evaluation) and, for a durable machine, encoding
    /// its version-0 snapshot. Returns the message without `keys` and `root` (what the service thread still reads) and
    /// the result; nil when `message` is not such a createTree: a program, or Swift keys, compile on the service
    /// thread, whose compilers keep caches of their own.
    public static func prepareCreate(_ message: JSON, limits: Limits, durable: Bool) -> (JSON, PreparedTree)? {
        guard var o = message.object, o["type"]?.string == "createTree", o["source"] == nil else { return nil }
        if let keys = o["keys"]?.array, keys.contains(where: { $0["swift"] != nil }) { return nil }
        let prepared: PreparedTree
        do throws(CanopyError) {
            let tree = try dataTree(o, limits: limits, compiler: nil)
            let snapshot = durable ? SnapshotEncoding.encode(tree, acks: [], program: nil) : nil
            prepared = PreparedTree(result: .success(tree), snapshot: snapshot)
        } catch {
            prepared = PreparedTree(result: .failure(error), snapshot: nil)
        }
        o["keys"] = nil
        o["root"] = nil
        return (.object(o), prepared)
    }

    /// Creates a tree from a `createTree` body (`tree`, optional `keys`, `root`, `title` and `description`) outside
    /// any session: the daemon's example loader. Returns the tree's id and the actions (its `persist`).
    public mutating func createTree(body o: JSONObject, now: Double) throws(CanopyError) -> (String, [ProtocolAction]) {
        let id = try makeTree(o, replyTo: nil, now: now)
        return (id, persistCreation(id))
    }

    /// The creation's `persist`; without a store the tree is live (and its author answered) at once. `snapshot`: the
    /// version-0 snapshot when it was encoded already (`prepareCreate`).
    private mutating func persistCreation(_ id: String, snapshot encoded: [UInt8]? = nil) -> [ProtocolAction] {
        let channel = channels[id]!
        guard durable else { return committedCreation(id) }
        var about: [UInt8] = []
        JSON.object(channel.about).write(into: &about)
        let snapshot = encoded ?? SnapshotEncoding.encode(channel.tree, acks: [], program: channel.storedProgram)
        channels[id]!.base = (0, snapshot)
        let ticket = CommitTicket(tree: id, incarnation: channel.incarnation, epoch: channel.epoch, kind: .create)
        return [.persist(ticket, .createTree(id: id, about: about, snapshot: snapshot))]
    }

    mutating func committedCreation(_ id: String) -> [ProtocolAction] {
        guard case .creating(let replyTo) = channels[id]!.phase else { return [] }
        channels[id]!.phase = .live
        guard let replyTo, sessions[replyTo.session] != nil else { return [] }
        return [send(replyTo.session, ["type": "created", "tree": .string(id), "version": 0], rid: replyTo.rid)]
    }

    /// Builds a tree from a `createTree` body and registers it (in memory), in phase `creating`. With `source` it
    /// is a program tree, started by the configured `ProgramRuntime`.
    private mutating func makeTree(
        _ o: JSONObject, replyTo: ReplyTo?, now: Double, prepared: PreparedTree? = nil
    ) throws(CanopyError) -> String {
        let id = try Self.treeID(o)
        guard channels[id] == nil else { throw CanopyError(.treeExists, "tree \"\(id)\" already exists") }
        let about = try Self.about(o)
        var tree: Tree
        var program: (any ProgramInstance)?
        if let prepared {
            tree = try prepared.result.get()
        } else if let spec = try Self.programSpec(o) {
            // A compile error (or any failure to start) throws before anything is registered or stored.
            (tree, program) = try startProgram(spec, state: ProgramState(), version: 0)
        } else {
            tree = try Self.dataTree(o, limits: configuration.limits, compiler: configuration.keyCompiler)
        }
        channels[id] = TreeChannel(
            id: id, incarnation: takeIncarnation(), tree: tree, program: program, about: about,
            phase: .creating(replyTo), acksPerClient: configuration.acksPerClient, now: now)
        return id
    }

    /// The tree of a `createTree` body's `keys` and `root`.
    static func dataTree(_ o: JSONObject, limits: Limits, compiler: (any KeyCompiler)?) throws(CanopyError)
        -> Tree
    {
        var keys: [KeyDeclaration] = []
        if let k = o["keys"] {
            guard let list = k.array else { throw CanopyError(.badMessage, "\"keys\" must be an array") }
            for (i, d) in list.enumerated() {
                do { keys.append(try KeyDeclaration(json: d)) } catch {
                    throw CanopyError(error.code, "key \(i): \(error.message)", details: error.details)
                }
            }
        }
        let root =
            try o["root"].map { (j) throws(CanopyError) -> Node in try Node(json: j) } ?? Node(id: "root", type: "Root")
        // Compiles the Swift keys (a compile_error throws before anything is registered or stored).
        return try Tree(keys: keys, root: root, limits: limits, compiler: compiler)
    }

    /// The optional `title` and `description` of a `createTree` body.
    private static func about(_ o: JSONObject) throws(CanopyError) -> JSONObject {
        var about = JSONObject()
        for (field, limit) in [("title", 200), ("description", 4000)] {
            guard let value = o[field] else { continue }
            guard let text = value.string, text.utf8.count <= limit else {
                throw CanopyError(.badMessage, "\"\(field)\" must be a string of at most \(limit) bytes")
            }
            if !text.isEmpty { about[field] = .string(text) }
        }
        return about
    }

    mutating func takeIncarnation() -> Int {
        defer { nextIncarnation += 1 }
        return nextIncarnation
    }

    mutating func deleteTree(_ s: SessionID, _ o: JSONObject, rid: JSON?) throws(CanopyError) -> [ProtocolAction] {
        let id = try existingTree(s, o, .admin, "delete trees")
        let replyTo = ReplyTo(session: s, rid: rid)
        guard durable else { return committedDeletion(id, replyTo) }
        // The tree takes no requests until the deletion is durable; then it goes. If the deletion cannot be stored,
        // nothing changed and the tree is served on.
        channels[id]!.phase = .deleting(replyTo)
        let ticket = CommitTicket(
            tree: id, incarnation: channels[id]!.incarnation, epoch: channels[id]!.epoch, kind: .delete)
        return [.persist(ticket, .deleteTree(id: id))]
    }

    mutating func committedDeletion(_ id: String, _ replyTo: ReplyTo) -> [ProtocolAction] {
        [.log(.info, "\(Session.name(replyTo.session)) deleted tree \(id)")] + drop(id, except: replyTo.session)
            + (sessions[replyTo.session] == nil
                ? [] : [send(replyTo.session, ["type": "deleted", "tree": .string(id)], rid: replyTo.rid)])
    }

    /// Removes `id` from memory: its subscribers (but `except`) get `deleted`, and the authors of its batches still
    /// waiting for their commit get `rejected` (`no_such_tree`).
    mutating func drop(_ id: String, except: SessionID? = nil) -> [ProtocolAction] {
        guard let channel = channels.removeValue(forKey: id) else { return [] }
        presenceDue.remove(id)
        var out: [ProtocolAction] = []
        let shared = encoded(["type": "deleted", "tree": .string(id)])
        for sub in channel.subscribers {
            sessions[sub.session]?.subscriptions.remove(id)
            if sub.session != except { out.append(.send(sub.session, shared)) }
        }
        return out + rejectPending(channel, Self.noSuchTree(id))
    }

    /// `rejected` with `error` to the author and every resubmitter of each batch still waiting for its commit.
    mutating func rejectPending(_ channel: TreeChannel, _ error: CanopyError) -> [ProtocolAction] {
        var out: [ProtocolAction] = []
        for p in channel.pending {
            for to in [p.author] + p.resubmitters where sessions[to.session] != nil {
                out.append(sendRejection(to, channel.id, p.seq, error))
            }
        }
        return out
    }
}

/// A `createTree` of data built off the service thread (`ProtocolMachine.prepareCreate`): the tree, or why it could not
/// be built (answered exactly as if the service thread had tried), and its encoded version-0 snapshot.
public struct PreparedTree: Sendable {
    public let result: Result<Tree, CanopyError>
    public let snapshot: [UInt8]?
}
