import CanopyCore
import CanopyNATS
import CanopyProtocol
import CanopySupport
import CanopyWebSocket
import Foundation

/// Following the tree stream: every message after the load, in stream order, fed to the machine.
extension ClusterLink {
    /// The reader thread: reads the tree stream from `sequence` on and posts each message to the service thread.
    /// When the reader fails (its server died and nats.c could not recreate it), a new one starts after the last
    /// message read.
    func readStream(from sequence: UInt64) {
        var next = sequence
        while !shared.withLock({ $0.stopped }) {
            let reader: SubjectReader
            do throws(NATSError) {
                reader = try jetStream.readSubject(
                    stream: ClusterNames.treeStream, subject: ClusterNames.treeSubjects, from: next,
                    heartbeat: .seconds(1))
            } catch {
                logger.notice("cluster: cannot read the tree stream from \(next) yet: \(error.description)")
                usleep(250_000)
                continue
            }
            while !shared.withLock({ $0.stopped }) {
                let message: NATSMessage?
                do throws(NATSError) {
                    message = try reader.next(timeout: .seconds(1))
                } catch {
                    logger.notice("cluster: reading the tree stream after \(next - 1): \(error.description)")
                    break
                }
                guard let message, message.sequence >= next else { continue }
                next = message.sequence + 1
                switch StreamRecord.read(message) {
                case .success(let record):
                    let full = resolved(record)
                    post? { [self] in received(full) }
                case .failure(let failure):
                    logger.error("cluster: \(failure.message): skipped")
                    let sequence = message.sequence
                    post? { [self] in
                        shared.withLock { $0.position = max($0.position, sequence) }
                        return []
                    }
                }
            }
            reader.close()
        }
    }

    /// A tree-stream message, on the service thread: the machine follows what another daemon committed; its own
    /// publishes it already holds are passed over.
    func received(_ record: StreamRecord) -> [TransportAction] {
        defer { shared.withLock { $0.position = max($0.position, record.sequence) } }
        let id = record.write.tree
        if trees[id] == nil { trees[id] = TreeLink() }
        // This daemon's own publishes are held by the machine: those acknowledged already (feeding them again could
        // undo what came after: a tree deleted and created again), and the one under way, which its being read back
        // commits. One stored after all although it was given up is fed like another daemon's.
        let own = record.instance == instance
        if own && record.sequence <= trees[id]!.acknowledged { return [] }
        if own, let inFlight = trees[id]!.inFlightID, record.msgID == inFlight {
            // Stored: committed now, whatever its answer says when it comes.
            let ack = PubAck(stream: ClusterNames.treeStream, sequence: record.sequence, duplicate: false)
            return finish(id, inFlight, .success(ack))
        }
        let out = feed { $0.replicated(record.write, now: $1) }
        // What the machine now holds decides what this daemon's next publish to the tree expects.
        let durable = runner?.machine.durableVersion(id)
        switch record.write {
        case .createTree:
            guard durable == 0 else { break }
            trees[id]!.versions = VersionIndex()
            trees[id]!.created = record.sequence
            trees[id]!.durableSequence = record.sequence
            shared.withLock { _ = $0.held.insert(id) }
        case .append(_, let version, _, _, _):
            guard durable == version else { break }
            trees[id]!.versions.note(version, record.sequence)
            trees[id]!.durableSequence = record.sequence
        case .deleteTree:
            trees[id]!.deletedAt = record.sequence
            guard durable == nil else { break }
            trees[id]!.versions = VersionIndex()
            trees[id]!.created = 0
            trees[id]!.durableSequence = 0
            let lease = shared.withLock { state in
                state.held.remove(id)
                return state.owned.removeValue(forKey: id)
            }
            responders.removeValue(forKey: id)?.stop()
            // Deleted through another daemon: the lease goes now, or a new tree of the id would wait for it to expire.
            if let lease { io.async { [leases] in try? leases.delete(id, revision: lease.revision) } }
        }
        return out
    }
}
