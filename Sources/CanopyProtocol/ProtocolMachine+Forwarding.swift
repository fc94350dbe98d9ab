import CanopyCore

/// A batch sent to a daemon that follows its tree, on its way to the tree's owner (cluster mode, docs/cluster.md):
/// the runner sends `message` to the owner, which handles it as the only message of a session of its own
/// (`openedForwarded`), and hands the owner's answer back with `forwardAnswered`.
public struct ForwardedBatch: Sendable {
    public let tree: String
    /// The session that sent the batch here.
    public let session: SessionID
    let rid: JSON?
    let seq: JSON
    /// Its author's hello `client` name and wire name (`d2/s17`).
    public let client: String
    public let author: String
    /// The request as the owner handles it (with its `rid`).
    public let message: [UInt8]

    /// Whether a second copy would be answered as a duplicate (it has a client name and a `seq`).
    public var isIdempotent: Bool { !client.isEmpty && !seq.isNull }
}

/// Cluster mode: batches sent to a daemon that follows their tree travel to its owner and back.
extension ProtocolMachine {
    /// A batch for a tree this daemon follows: forwarded to its owner, which answers through `forwardAnswered`.
    /// A batch forwarded here by a daemon that took this one for the owner is refused: ownership moved on.
    mutating func forward(_ author: ReplyTo, _ id: String, seq: JSON, _ work: BatchWork) -> [ProtocolAction] {
        if sessions[author.session]?.forwardedFrom != nil {
            let e = CanopyError(.unavailable, "this daemon no longer owns tree \"\(id)\"; send it again")
            return [sendRejection(author, id, seq, e)]
        }
        var message: JSONObject
        switch work {
        case .ops(let ops): message = ["type": "edit", "tree": .string(id), "seq": seq, "ops": ops]
        case .event(let o): message = o
        case .source(let text): message = ["type": "setSource", "tree": .string(id), "seq": seq, "source": .string(text)]
        }
        message["rid"] = author.rid
        var bytes: [UInt8] = []
        JSON.object(message).write(into: &bytes)
        let batch = ForwardedBatch(
            tree: id, session: author.session, rid: author.rid, seq: seq, client: sessions[author.session]?.client ?? "",
            author: wireName(author.session), message: bytes)
        return [.forward(batch)]
    }

    /// A batch another daemon forwarded to this one, the tree's owner: `s` (an id no connection has) is a session
    /// for it alone, with its author's `client` and wire name; the runner hands in the batch with `received` and
    /// sends the one message the machine sends to `s` back as the answer, then closes `s`.
    public mutating func openedForwarded(_ s: SessionID, client: String, author: String, now: Double) {
        var session = Session(phase: .ready, role: .admin, grant: nil, bucket: 1, lastRefill: now)
        session.client = client
        session.forwardedFrom = author
        sessions[s] = session
    }

    /// The owner's answer to a forwarded batch (the message its machine sent), or why none came. A rejection or a
    /// duplicate goes to the author as it is; an accepted diff does not — it reaches this daemon through the tree's
    /// stream, and the author with it (`replicated`), exactly once. `resent`: the runner sent the batch again after
    /// an owner did not answer, so a duplicate answer naming this batch's author is its own first copy's, which the
    /// stream delivers; one naming another author (the client sent it through another session first, then
    /// reconnected here) reaches the author only as this answer.
    public mutating func forwardAnswered(
        _ batch: ForwardedBatch, _ answer: Result<[UInt8], StoreFailure>, resent: Bool = false
    ) -> [ProtocolAction] {
        guard sessions[batch.session] != nil else { return [] }
        switch answer {
        case .success(let bytes):
            guard let json = try? JSONParser.parse(bytes: bytes, maxDepth: 4096), json["type"]?.string != nil else {
                return [.log(.error, "tree \(batch.tree): the owner's answer to a forwarded batch is not a message")]
            }
            let duplicate = json["duplicate"]?.bool == true
            let ownFirstCopy = duplicate && resent && json["author"]?.string == batch.author
            if json["type"]?.string == "diff" && (!duplicate || ownFirstCopy) { return [] }
            if json["type"]?.string == "rejected" { counters.editsRejected += 1 }
            if json["duplicate"]?.bool == true { counters.editsDuplicate += 1 }
            return [.send(batch.session, OutgoingMessage(bytes: bytes, headroom: configuration.headroom))]
        case .failure(let failure):
            let e = CanopyError(
                .unavailable, "the owner of tree \"\(batch.tree)\" did not answer (\(failure.message)); send it again")
            return [sendRejection(ReplyTo(session: batch.session, rid: batch.rid), batch.tree, batch.seq, e)]
        }
    }}
