import CanopyCore

/// Incoming messages: checks common to all, then one handler per type.
extension ProtocolMachine {
    public mutating func received(_ s: SessionID, _ incoming: Incoming, now: Double) -> [ProtocolAction] {
        guard sessions[s] != nil else { return [] }
        if let held = holdIfLoading(s, incoming) { return held }
        return handleNow(s, incoming, now: now)
    }

    /// Handles a message that does not (or no longer) wait for a tree being loaded.
    mutating func handleNow(_ s: SessionID, _ incoming: Incoming, now: Double) -> [ProtocolAction] {
        guard let session = sessions[s] else { return [] }
        let json: JSON
        var prepared: PreparedTree?
        switch incoming {
        case .message(let j): json = j
        case .prepared(let j, let p):
            json = j
            prepared = p
        case .malformed(let e):
            if !session.isReady { return unauthorized(s, rid: nil) }
            return logLimit(s, e) + [reply(s, error: e, rid: nil)]
        }
        let o: JSONObject
        let rid: JSON?
        do throws(CanopyError) {
            guard let object = json.object else { throw CanopyError(.badMessage, "a message is a JSON object") }
            o = object
            rid = try self.rid(o)
        } catch {
            if !session.isReady { return unauthorized(s, rid: nil) }
            return [reply(s, error: error, rid: nil)]
        }
        do {
            return try handle(s, o, rid: rid, now: now, prepared: prepared)
        } catch {
            if error.code == .unauthorized || sessions[s]?.isReady == false {
                return unauthorized(s, rid: rid, error.code == .unauthorized ? error.message : nil)
            }
            // A batch (edit, event, setSource) naming its tree is answered with `rejected` (its seq identifies the
            // batch), whatever failed.
            if let type = o["type"]?.string, Self.batchTypes.contains(type), let tree = o["tree"]?.string {
                let to = ReplyTo(session: s, rid: rid)
                return logLimit(s, error) + [sendRejection(to, tree, o["seq"] ?? .null, error)]
            }
            return logLimit(s, error) + [reply(s, error: error, rid: rid)]
        }
    }

    /// `unauthorized` and a 1008 close: before a successful hello (with tokens), nothing else is answered.
    func unauthorized(_ s: SessionID, rid: JSON?, _ message: String? = nil) -> [ProtocolAction] {
        let e = CanopyError(.unauthorized, message ?? "send hello with a valid token first")
        return [reply(s, error: e, rid: rid), .close(s, code: 1008, reason: "unauthorized")]
    }

    /// Logs the first time `s` hits each size or rate limit.
    mutating func logLimit(_ s: SessionID, _ e: CanopyError) -> [ProtocolAction] {
        let limits: Set<ErrorCode> = [.tooLarge, .tooDeep, .tooMany, .rateLimited, .tooExpensive]
        guard limits.contains(e.code) || e.hitLimit, sessions[s]?.loggedLimits.insert(e.code).inserted == true else {
            return []
        }
        let client = sessions[s]?.client ?? ""
        return [.log(.notice, "\(Session.name(s)) (\(client)) hit a limit: \(e.code.rawValue): \(e.message)")]
    }

    private mutating func handle(
        _ s: SessionID, _ o: JSONObject, rid: JSON?, now: Double, prepared: PreparedTree?
    ) throws(CanopyError) -> [ProtocolAction] {
        guard let type = o["type"]?.string else { throw CanopyError(.badMessage, "missing \"type\"") }
        if type == "hello" { return try hello(s, o, rid: rid) }
        guard sessions[s]?.isReady == true else {
            throw CanopyError(.unauthorized, "send hello with a valid token first")
        }
        switch type {
        case "listTrees": return [send(s, listTrees(s), rid: rid)]
        case "createTree": return try createTree(s, o, rid: rid, now: now, prepared: prepared)
        case "deleteTree": return try deleteTree(s, o, rid: rid)
        case "subscribe": return try subscribe(s, o, rid: rid, now: now)
        case "unsubscribe": return try unsubscribe(s, o, rid: rid, now: now)
        case "edit": return try edit(s, o, rid: rid, now: now)
        case "event": return try event(s, o, rid: rid, now: now)
        case "setSource": return try setSource(s, o, rid: rid, now: now)
        case "probe": return try probe(s, o, rid: rid)
        case "inspect": return try inspect(s, o, rid: rid)
        case "history": return try history(s, o, rid: rid)
        default:
            throw CanopyError(
                .unknownType,
                "unknown message type \"\(type)\" (expected hello, listTrees, createTree, deleteTree, subscribe, "
                    + "unsubscribe, edit, event, setSource, probe, inspect, history)")
        }
    }

    /// Messages the sequencer runs as batches: acknowledged by `seq`, failures answered with `rejected`.
    static let batchTypes: Set<String> = ["edit", "event", "setSource"]

    /// `hello` names the client and, with tokens, proves the role. It may come again on the same connection (a new
    /// name, another token): the new token's role and patterns then apply, and subscriptions to trees it does not
    /// cover end at once, each with `unsubscribed`, so a downgrade never keeps what the old token could see.
    private mutating func hello(_ s: SessionID, _ o: JSONObject, rid: JSON?) throws(CanopyError) -> [ProtocolAction] {
        guard var session = sessions[s] else { return [] }
        if let client = o["client"] {
            guard let name = client.string, name.utf8.count <= configuration.maxLabelBytes else {
                throw CanopyError(
                    .badMessage, "\"client\" must be a string of at most \(configuration.maxLabelBytes) bytes")
            }
            session.client = name
        }
        if !configuration.tokens.isEmpty {
            guard let token = o["token"]?.string, let grant = grant(of: token) else {
                throw CanopyError(.unauthorized, "unknown or missing token")
            }
            session.grant = grant
            session.role = grant.role
            if !session.isReady { awaitingHello -= 1 }
            session.phase = .ready
        }
        sessions[s] = session
        let out = endUnseenSubscriptions(s)
        let welcome: JSON = [
            "type": "welcome", "session": .string(wireName(s)), "server": .string(configuration.serverName),
            "protocol": 1, "role": .string(session.role.rawValue),
        ]
        return out + [send(s, welcome, rid: rid)]
    }

    /// Whether a `GET /metrics` bearing `token` (nil: none) may read the metrics: anyone without tokens; with tokens,
    /// only a request bearing one of them (the metrics reveal activity).
    public func allowsMetrics(bearerToken: String?) -> Bool {
        configuration.tokens.isEmpty || bearerToken.flatMap(grant(of:)) != nil
    }

    /// The first configured grant of `token`. Every token is compared in full, so the time taken does not tell how
    /// much of a guess was right, or which token it was near.
    func grant(of token: String) -> TokenGrant? {
        var found: TokenGrant?
        for grant in configuration.tokens {
            let equal = Self.constantTimeEqual(grant.token, token)
            if equal && found == nil { found = grant }
        }
        return found
    }

    package static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        var difference = x.count ^ y.count
        for i in 0..<max(x.count, y.count) {
            difference |= Int((i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0))
        }
        return difference == 0
    }

    /// The message's tree after the access check: `forbidden` for a tree outside the token's patterns (existing or
    /// not), then `no_such_tree`.
    func existingTree(_ s: SessionID, _ o: JSONObject, _ needed: Role, _ what: String) throws(CanopyError) -> String {
        let id = try Self.treeID(o)
        guard let session = sessions[s] else { throw CanopyError(.unauthorized, "this session has ended") }
        try session.authorize(id, needed, what)
        guard let channel = channels[id], !channel.isDeleting else { throw Self.noSuchTree(id) }
        return id
    }

    static func noSuchTree(_ id: String) -> CanopyError { CanopyError(.noSuchTree, "no tree \"\(id)\"") }
}
