import CanopyCore

/// Why a store read was asked for, so its answer can be finished.
enum PendingRead {
    /// `history`: the reply takes the stored diffs, then the log's through `to`.
    case history(ReplyTo, incarnation: Int, to: Int)
    /// `subscribe` with a `since` older than the log: the stored diffs, then what the log has after them.
    case catchUp(ReplyTo, incarnation: Int, since: Int)
    /// A resubmission whose original diff is no longer in the log.
    case duplicate(ReplyTo, incarnation: Int, version: Int, seq: JSON)
}

/// Subscriptions, probes and history.
extension ProtocolMachine {
    mutating func subscribe(_ s: SessionID, _ o: JSONObject, rid: JSON?, now: Double) throws(CanopyError)
        -> [ProtocolAction]
    {
        let id = try existingTree(s, o, .viewer, "read this tree")
        let since = try Self.integer(o, "since")
        guard o["trace"] == nil || o["trace"]?.bool != nil else {
            throw CanopyError(.badMessage, "\"trace\" must be true or false")
        }
        let trace = o["trace"]?.bool ?? false
        sessions[s]?.subscriptions.insert(id)
        // Fields only, no channel copy: one held across `subscribe` below would copy the subscriber list.
        let version = channels[id]!.tree.version
        let durableVersion = channels[id]!.durableVersion
        if let since, since >= 0, since <= version {
            if let missed = channels[id]!.catchUp(after: since, maxBytes: configuration.catchUpMaxBytes) {
                // Batches still waiting for their commit follow when they are released.
                channels[id]!.subscribe(s, from: max(since, durableVersion), traced: trace)
                return missed.map { .send(s, $0) } + [subscribed(s, id, rid: rid)] + presence(id, now: now)
            }
            if durable && since < (channels[id]!.log.first ?? durableVersion + 1) {
                // Older than the log: the store may still have it. Diffs released meanwhile wait in the log.
                channels[id]!.subscribe(s, from: durableVersion, traced: trace, catchingUp: true)
                let read = PendingRead.catchUp(
                    ReplyTo(session: s, rid: rid), incarnation: channels[id]!.incarnation, since: since)
                return startRead(read, tree: id, from: since + 1, to: durableVersion) + presence(id, now: now)
            }
        }
        channels[id]!.subscribe(s, from: version, traced: trace)
        return sendSnapshot(s, id, trace: trace, rid: rid) + presence(id, now: now)
    }

    /// The end of a catch-up: the subscription is current as of `version`, and the request's rid is answered.
    func subscribed(_ s: SessionID, _ id: String, rid: JSON?) -> ProtocolAction {
        let version = channels[id]!.durableVersion
        return send(s, ["type": "subscribed", "tree": .string(id), "version": .int(Int64(version))], rid: rid)
    }

    /// The tree's snapshot to `s`, at once, or — when it shows batches whose commit is under way — right after the
    /// last of them is released.
    mutating func sendSnapshot(_ s: SessionID, _ id: String, trace: Bool, rid: JSON?) -> [ProtocolAction] {
        let (message, encode) = snapshotMessage(s, id, trace: trace, rid: rid)
        let encoding = encode.map { [$0] } ?? []
        let version = channels[id]!.tree.version
        guard version > channels[id]!.durableVersion else { return [.send(s, message)] + encoding }
        channels[id]!.held.append(.init(session: s, version: version, message: message))
        return encoding
    }

    mutating func unsubscribe(_ s: SessionID, _ o: JSONObject, rid: JSON?, now: Double) throws(CanopyError)
        -> [ProtocolAction]
    {
        let id = try existingTree(s, o, .viewer, "read this tree")
        sessions[s]?.subscriptions.remove(id)
        channels[id]!.unsubscribe(s)
        return [send(s, ["type": "unsubscribed", "tree": .string(id)], rid: rid)] + presence(id, now: now)
    }

    mutating func probe(_ s: SessionID, _ o: JSONObject, rid: JSON?) throws(CanopyError) -> [ProtocolAction] {
        let id = try existingTree(s, o, .viewer, "read this tree")
        guard let node = o["node"]?.string, let key = o["key"]?.string else {
            throw CanopyError(.badMessage, "probe: \"node\" and \"key\" must be strings")
        }
        let value = try channels[id]!.tree.probe(node: node, key: key)
        var reply: JSONObject = [
            "type": "value", "tree": .string(id), "version": .int(Int64(channels[id]!.tree.version)),
            "node": .string(node), "key": .string(key), "present": .bool(value != nil),
        ]
        if let value { reply["value"] = value }
        return [send(s, .object(reply), rid: rid)]
    }

    mutating func history(_ s: SessionID, _ o: JSONObject, rid: JSON?) throws(CanopyError) -> [ProtocolAction] {
        let id = try existingTree(s, o, .viewer, "read this tree")
        let channel = channels[id]!
        let from = max(1, try Self.integer(o, "from") ?? 1)
        let to = min(channel.durableVersion, try Self.integer(o, "to") ?? channel.durableVersion)
        let replyTo = ReplyTo(session: s, rid: rid)
        // What the in-memory log no longer holds comes from the store (as far as it keeps the log).
        let logStart = channel.log.first ?? channel.durableVersion + 1
        if durable && from < logStart && from <= to {
            let read = PendingRead.history(replyTo, incarnation: channel.incarnation, to: to)
            return startRead(read, tree: id, from: from, to: min(to, logStart - 1))
        }
        return [historyReply(replyTo, id, stored: [], from: from, to: to)]
    }

    /// The `history` reply: the stored diffs, then the log's, as many as fit `catchUpMaxBytes` (at least one). When
    /// they do not all fit, `next` names the first version left out, for the client to ask again from there: one
    /// small request must not make the service thread encode (and a queue hold) the whole log.
    private func historyReply(
        _ to: ReplyTo, _ id: String, stored: [(json: JSON, bytes: Int)], from: Int, to last: Int
    ) -> ProtocolAction {
        let logged = channels[id]!.log.range(from: max(from, channels[id]!.log.first ?? from), through: last) ?? []
        var diffs: [JSON] = []
        var bytes = 0
        var next: JSON?
        for (json, size) in stored + logged.map({ ($0.json, $0.message.count) }) {
            if !diffs.isEmpty && bytes + size > configuration.catchUpMaxBytes {
                next = json["version"]
                break
            }
            diffs.append(json)
            bytes += size
        }
        var reply: JSONObject = ["type": "history", "tree": .string(id), "diffs": .array(diffs)]
        if let next { reply["next"] = next }
        return send(to.session, .object(reply), rid: to.rid)
    }

    mutating func startRead(_ purpose: PendingRead, tree: String, from: Int, to: Int) -> [ProtocolAction] {
        let id = nextReadID
        nextReadID += 1
        reads[id] = (tree, purpose)
        return [.readHistory(HistoryRead(id: id, tree: tree, from: from, to: to))]
    }

    /// The store answered the read `id` (the batches in version order, as far as it keeps them).
    public mutating func historyRead(_ id: Int, _ result: Result<[LoggedBatch], StoreFailure>, now: Double)
        -> [ProtocolAction]
    {
        guard let (tree, purpose) = reads.removeValue(forKey: id) else { return [] }
        let batches: [LoggedBatch]
        var out: [ProtocolAction] = []
        switch result {
        case .success(let b): batches = b
        case .failure(let failure):
            out.append(.log(.error, "reading logged diffs from the store: \(failure.message)"))
            batches = []
        }
        switch purpose {
        case .history(let to, let incarnation, let last):
            guard channels[tree]?.incarnation == incarnation, sessions[to.session] != nil else { return out }
            let stored = batches.compactMap { b in
                (try? JSONParser.parse(bytes: b.diff, maxDepth: 4096)).map { (json: $0, bytes: b.diff.count) }
            }
            let from = batches.first?.version ?? (channels[tree]!.log.first ?? 1)
            return out + [historyReply(to, tree, stored: stored, from: from, to: last)]
        case .duplicate(let to, let incarnation, let version, let seq):
            guard channels[tree]?.incarnation == incarnation, sessions[to.session] != nil else { return out }
            if let first = batches.first, let original = try? JSONParser.parse(bytes: first.diff, maxDepth: 4096) {
                return out + [duplicate(to, original)]
            }
            return out + [duplicate(to, compactedDiff(tree, version: version, seq: seq))]
        case .catchUp(let to, let incarnation, let since):
            guard channels[tree]?.incarnation == incarnation, let i = channels[tree]!.subscriberIndex(to.session),
                channels[tree]!.subscribers[i].catchingUp
            else { return out }
            return out + finishCatchUp(to, tree, at: i, since: since, stored: batches)
        }
    }

    /// Sends a catching-up subscriber the stored diffs, then the log's after them, then `subscribed`; or a snapshot
    /// when they do not join up or are too big.
    private mutating func finishCatchUp(_ to: ReplyTo, _ id: String, at i: Int, since: Int, stored: [LoggedBatch])
        -> [ProtocolAction]
    {
        let channel = channels[id]!
        var missed = stored.map { OutgoingMessage(bytes: $0.diff, headroom: configuration.headroom) }
        var next = since + 1 + stored.count
        let joined = stored.enumerated().allSatisfy { $0.element.version == since + 1 + $0.offset }
        if joined, next <= channel.durableVersion,
            let rest = channel.log.range(from: next, through: channel.durableVersion)
        {
            missed += rest.map(\.message)
            next += rest.count
        }
        channels[id]!.subscribers[i].catchingUp = false
        let bytes = missed.reduce(0) { $0 + $1.count }
        guard joined, next == channel.durableVersion + 1, bytes <= configuration.catchUpMaxBytes else {
            channels[id]!.subscribers[i].joinedAt = channel.tree.version
            return sendSnapshot(to.session, id, trace: channel.subscribers[i].traced, rid: to.rid)
        }
        channels[id]!.subscribers[i].joinedAt = channel.durableVersion
        return missed.map { .send(to.session, $0) } + [subscribed(to.session, id, rid: to.rid)]
    }
}
