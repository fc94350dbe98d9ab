import CanopyCore

/// Messages the machine sends, built in one place.
extension ProtocolMachine {
    func encoded(_ message: JSON) -> OutgoingMessage {
        OutgoingMessage(encoding: message, headroom: configuration.headroom)
    }

    func send(_ s: SessionID, _ message: JSON, rid: JSON?) -> ProtocolAction {
        guard let rid, case .object(var o) = message else { return .send(s, encoded(message)) }
        o["rid"] = rid
        return .send(s, encoded(.object(o)))
    }

    func reply(_ s: SessionID, error e: CanopyError, rid: JSON?) -> ProtocolAction {
        var o: JSONObject = ["type": "error", "code": .string(e.code.rawValue), "message": .string(e.message)]
        Self.addDetails(e, to: &o)
        return send(s, .object(o), rid: rid)
    }

    /// The error's own fields (`diagnostics` of a compile error, `line`/`column`/`stack` of a fault, PROGRAMS.md
    /// §7); they never replace the message's fields.
    static func addDetails(_ e: CanopyError, to o: inout JSONObject) {
        for m in e.details.members where o[m.key] == nil { o[m.key] = m.value }
    }

    func rejected(_ id: String, _ seq: JSON, _ e: CanopyError) -> JSON {
        var o: JSONObject = [
            "type": "rejected", "tree": .string(id), "seq": seq, "code": .string(e.code.rawValue),
            "message": .string(e.message),
        ]
        if let op = e.op { o["op"] = .int(Int64(op)) }
        Self.addDetails(e, to: &o)
        return .object(o)
    }

    /// A `rejected` message, counted for the metrics.
    mutating func sendRejection(_ to: ReplyTo, _ id: String, _ seq: JSON, _ e: CanopyError) -> ProtocolAction {
        counters.editsRejected += 1
        return send(to.session, rejected(id, seq, e), rid: to.rid)
    }

    /// The tree's snapshot message to `s` as of now (with the trace of a full evaluation if asked): this session's
    /// head, then the body shared by every subscriber at this version. The body is encoded off the service thread
    /// (an `encodeSnapshot` action, once per version and trace flag); until it is ready the message waits in the
    /// session's queue, and what is queued behind it waits too, so the order of messages holds.
    mutating func snapshotMessage(_ s: SessionID, _ id: String, trace: Bool, rid: JSON?) -> (OutgoingMessage, ProtocolAction?) {
        let channel = channels[id]!
        var head: JSONObject = [
            "type": "snapshot", "tree": .string(id), "version": .int(Int64(channel.tree.version)),
        ]
        head.merge(channel.about)
        head["clients"] = clients(channel)
        head["clientCount"] = .int(Int64(channel.subscribers.count))
        if let rid { head["rid"] = rid }
        var bytes: [UInt8] = []
        JSON.object(head).write(into: &bytes)
        bytes[bytes.count - 1] = UInt8(ascii: ",")  // the body follows: `"keys":…}`
        let version = channel.tree.version
        let epoch = channel.epoch
        if let tail = channel.snapshotBodies.body(trace: trace, version: version, epoch: epoch) {
            return (OutgoingMessage(head: bytes, tail: tail, headroom: configuration.headroom), nil)
        }
        var program: JSONObject = [:]
        if let p = channel.program {
            program["program"] = p.spec.json
            let state = p.state
            program["state"] = .array(state.cells.map(\.json))
            if !state.objects.isEmpty { program["objects"] = .object(state.objects) }
            program["previewContexts"] = .array(p.previewContexts.map(\.json))
        }
        let tail = SharedTail()
        channels[id]!.snapshotBodies.remember(tail, trace: trace, version: version, epoch: epoch)
        let job = SnapshotJob(
            tree: channel.tree, program: program, frames: channel.program?.frameTable, trace: trace, tail: tail)
        return (OutgoingMessage(head: bytes, tail: tail, headroom: configuration.headroom), .encodeSnapshot(job))
    }

    /// The snapshot to `s` as actions: the message, and the body's encoding when it is the first to need it.
    mutating func snapshotActions(_ s: SessionID, _ id: String, trace: Bool, rid: JSON?) -> [ProtocolAction] {
        let (message, encode) = snapshotMessage(s, id, trace: trace, rid: rid)
        return [.send(s, message)] + (encode.map { [$0] } ?? [])
    }

    /// The first `presenceListLimit` subscribers (a list of every one of thousands of subscribers, sent to each of
    /// them on every join, would cost O(N²) bytes).
    func clients(_ channel: TreeChannel) -> JSON {
        .array(
            channel.subscribers.prefix(Self.presenceListLimit).map {
                ["session": .string(wireName($0.session)), "client": .string(sessions[$0.session]?.client ?? "")]
            })
    }

    /// `clients` to every subscriber of the tree, at most once per `presenceGap`: a change within the gap is sent by
    /// `tick` when the gap has passed, with the list as it is then (joins in a burst share one update).
    mutating func presence(_ id: String, now: Double) -> [ProtocolAction] {
        guard let channel = channels[id] else { return [] }
        if now - channel.presenceSentAt >= presenceGap(channel) { return broadcastPresence(id, now: now) }
        presenceDue.insert(id)
        return []
    }

    mutating func broadcastPresence(_ id: String, now: Double) -> [ProtocolAction] {
        channels[id]!.presenceSentAt = now
        let channel = channels[id]!
        let shared = encoded([
            "type": "clients", "tree": .string(id), "clients": clients(channel),
            "clientCount": .int(Int64(channel.subscribers.count)),
        ])
        shared.supersedes = "clients:" + id
        return channel.subscribers.map { .send($0.session, shared) }
    }

    /// 100 ms, and longer for big audiences (each update goes to every subscriber): 1 s at 10,000 subscribers.
    func presenceGap(_ channel: TreeChannel) -> Double {
        0.1 * max(1, Double(channel.subscribers.count) / 1000)
    }

    // MARK: Fields

    /// An optional integer field (a JSON number with no fraction, within Int's range).
    static func integer(_ o: JSONObject, _ field: String) throws(CanopyError) -> Int? {
        guard let value = o[field] else { return nil }
        switch value {
        case .int(let i): return Int(i)
        case .double(let d):
            if let i = Int(exactly: d) { return i }
        default: break
        }
        throw CanopyError(.badMessage, "\"\(field)\" must be an integer, got \(value.encoded())")
    }

    static func treeID(_ o: JSONObject) throws(CanopyError) -> String {
        guard let id = o["tree"]?.string else { throw CanopyError(.badMessage, "missing \"tree\" (a tree id)") }
        guard !id.isEmpty, id.utf8.count <= 128,
            id.utf8.allSatisfy({ c in
                (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2D
                    || c == 0x5F || c == 0x2E
            })
        else {
            throw CanopyError(.badMessage, "tree ids are 1–128 characters of A–Z, a–z, 0–9, '.', '_', '-'")
        }
        return id
    }

    /// A message's `rid`: absent, or a string (of at most `maxLabelBytes`) or a number; anything else is refused, so a
    /// reply never goes out without the rid its request carried.
    func rid(_ o: JSONObject) throws(CanopyError) -> JSON? {
        guard let rid = o["rid"] else { return nil }
        if let text = rid.string {
            guard text.utf8.count <= configuration.maxLabelBytes else {
                throw CanopyError(.badMessage, "\"rid\" is longer than \(configuration.maxLabelBytes) bytes")
            }
            return rid
        }
        guard rid.isNumber else {
            throw CanopyError(.badMessage, "\"rid\" must be a string or a number, got \(rid.encoded().prefix(40))")
        }
        return rid
    }
}
