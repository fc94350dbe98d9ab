import CanopyCore

/// Requests for a tree still being restored at start (`beginLoading`) wait until it is served. A session's messages
/// are handled in order, so once one of them waits, its later messages wait behind it — those naming other trees
/// too; other sessions go on. `install` resumes them.
extension ProtocolMachine {
    /// A session holds at most this many waiting messages; more are refused with `too_many` (and nothing else).
    static let maxWaitingMessages = 4096

    /// Whether `incoming` must wait: its session already has messages waiting, or it names a tree being loaded
    /// that the session may see (anything else is answered at once: `unauthorized` before a hello, `forbidden`
    /// outside the token's patterns, as for any tree). If so it is queued and the refusal (if the queue is full)
    /// returned; nil when it is to be handled now.
    mutating func holdIfLoading(_ s: SessionID, _ incoming: Incoming) -> [ProtocolAction]? {
        if waiting[s] == nil {
            guard let tree = Self.treeNamed(by: incoming), loading[tree] != nil, let session = sessions[s],
                session.isReady, session.sees(tree)
            else { return nil }
        }
        guard (waiting[s]?.count ?? 0) < Self.maxWaitingMessages else {
            let e = CanopyError(
                .tooMany, "more than \(Self.maxWaitingMessages) requests wait for trees still loading at start")
            return refusal(s, incoming, e)
        }
        waiting[s, default: []].append(incoming)
        return []
    }

    /// Handles the waiting messages of every session, in order, up to the first that names a tree still loading.
    mutating func resumeWaiting(now: Double) -> [ProtocolAction] {
        var out: [ProtocolAction] = []
        for s in waiting.keys.sorted() {
            while let queue = waiting[s], let next = queue.first {
                if let tree = Self.treeNamed(by: next), loading[tree] != nil { break }
                waiting[s]!.removeFirst()
                if waiting[s]!.isEmpty { waiting[s] = nil }
                out += handleNow(s, next, now: now)
            }
        }
        return out
    }

    /// The tree a message names in its `tree` field, if any.
    static func treeNamed(by incoming: Incoming) -> String? {
        switch incoming {
        case .message(let json), .prepared(let json, _): return json["tree"]?.string
        case .malformed: return nil
        }
    }

    /// The answer to a message refused before it is handled: `rejected` for a batch naming its tree, else `error`.
    private mutating func refusal(_ s: SessionID, _ incoming: Incoming, _ e: CanopyError) -> [ProtocolAction] {
        guard case .message(let json) = incoming, let o = json.object else { return [reply(s, error: e, rid: nil)] }
        let rid = try? self.rid(o)
        if let type = o["type"]?.string, Self.batchTypes.contains(type), let tree = o["tree"]?.string {
            return [sendRejection(ReplyTo(session: s, rid: rid), tree, o["seq"] ?? .null, e)]
        }
        return [reply(s, error: e, rid: rid)]
    }
}
