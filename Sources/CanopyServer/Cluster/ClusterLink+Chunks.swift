import CanopyCore
import CanopyNATS
import CanopyProtocol
import Foundation

/// Snapshots larger than one NATS message: stored in the snapshot stream as chunks, the last of which names the
/// others. A tree's creation whose version-0 snapshot does not fit in the tree stream refers to such a snapshot.
extension ClusterLink {
    /// On a snapshot's last message: the snapshot-stream sequences of the chunks before it, in order; the snapshot
    /// is their payloads followed by its own.
    static let chunksHeader = "Canopy-Chunks"

    /// Largest payload put in one message: the servers' `max_payload` less room for the headers.
    var payloadLimit: Int { connection.maxPayload - 4096 }

    /// Publishes `bytes` to tree `id`'s snapshot subject — one message if it fits, else chunks, the last with
    /// `headers` and the chunks' sequences — and returns the last message's sequence. Blocking; each message is
    /// retried unchanged (deduplicated by its message ID) while the answer is `retryable`, for up to
    /// `publishGiveUpSeconds`.
    func publishSnapshot(_ id: String, _ bytes: [UInt8], headers: NATSHeaders) throws(PublishError) -> UInt64 {
        let limit = payloadLimit
        var random = SystemRandomNumberGenerator()
        let name = "\(id)/snapshot/\(instance)/\(String(random.next() as UInt64, radix: 36))"
        var sequences: [UInt64] = []
        var offset = 0
        var index = 0
        while true {
            let end = min(offset + limit, bytes.count)
            let last = end == bytes.count
            var fields = NATSHeaders()
            if last {
                fields = headers
                if !sequences.isEmpty { fields.add(Self.chunksHeader, sequences.map(String.init).joined(separator: ",")) }
            }
            let ack = try publishRetrying(
                ClusterNames.snapshotSubject(id), Array(bytes[offset..<end]), fields, msgID: "\(name)/\(index)")
            if last { return ack.sequence }
            sequences.append(ack.sequence)
            offset = end
            index += 1
        }
    }

    private func publishRetrying(_ subject: String, _ payload: [UInt8], _ headers: NATSHeaders, msgID: String)
        throws(PublishError) -> PubAck
    {
        let started = ProtocolRunner.monotonicSeconds()
        while true {
            let result = Result { () throws(PublishError) in
                try jetStream.publish(subject, payload: payload, headers: headers, msgID: msgID)
            }
            switch result {
            case .success(let ack): return ack
            case .failure(.retryable) where ProtocolRunner.monotonicSeconds() - started < Self.publishGiveUpSeconds:
                usleep(25_000)
            case .failure(let error): throw error
            }
        }
    }

    /// The whole snapshot a snapshot-stream message ends: the chunks it names, then its own payload.
    func assembled(_ message: NATSMessage) throws(NATSError) -> [UInt8] {
        guard let list = message.headers[Self.chunksHeader] else { return message.payload }
        var bytes: [UInt8] = []
        for text in list.split(separator: ",") {
            guard let sequence = UInt64(text),
                let chunk = try jetStream.message(stream: ClusterNames.snapshotStream, sequence: sequence)
            else {
                throw NATSError("read snapshot \(message.sequence)", wrapper: "chunk \(text) is missing")
            }
            bytes += chunk.payload
        }
        return bytes + message.payload
    }

    /// The snapshot-stream message at `sequence`, assembled.
    func snapshot(at sequence: UInt64) throws(NATSError) -> [UInt8] {
        guard let message = try jetStream.message(stream: ClusterNames.snapshotStream, sequence: sequence) else {
            throw NATSError("read snapshot \(sequence)", wrapper: "it is missing")
        }
        return try assembled(message)
    }

    /// A creation record whose snapshot is in the snapshot stream, with that snapshot in it; retried while the
    /// servers do not answer (the reader must not pass over a tree's creation).
    func resolved(_ record: StreamRecord) -> StreamRecord {
        guard let reference = record.snapshotReference, case .createTree(let id, let about, _) = record.write else {
            return record
        }
        while true {
            do throws(NATSError) {
                var full = record
                full.write = .createTree(id: id, about: about, snapshot: try snapshot(at: reference))
                full.snapshotReference = nil
                return full
            } catch {
                logger.error("cluster: tree \(id): its creation's snapshot \(reference) cannot be read yet: \(error.description)")
                if shared.withLock({ $0.stopped }) { return record }
                usleep(250_000)
            }
        }
    }
}
