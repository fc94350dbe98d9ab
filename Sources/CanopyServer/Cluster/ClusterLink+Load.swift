import CanopyCore
import CanopyNATS
import CanopyProtocol
import CanopySupport
import CanopyWebSocket
import Foundation

/// What a daemon joining the cluster reads before it serves: every tree alive at the stream's last message, as the
/// store would give it (latest snapshot and the batches after it).
struct ClusterLoad {
    var records: [TreeRecord] = []
    /// Each live tree's last sequence (its durable version's), and each id's last deletion (a creation expects it).
    var durableSequences: [String: UInt64] = [:]
    var deletions: [String: UInt64] = [:]
    /// Each live tree's creation sequence (its snapshots carry it).
    var created: [String: UInt64] = [:]
    /// Where each live tree's versions are in the stream.
    var versions: [String: ClusterLink.VersionIndex] = [:]
    /// The stream's last sequence when the load began: the reader goes on after it.
    var position: UInt64 = 0
}

extension ClusterLink {
    /// Header of a snapshot: the stream sequence of its tree's creation (so a tree deleted and created again never
    /// gets an old life's snapshot) and the version it shows.
    static let createdHeader = "Canopy-Created"

    /// Reads the tree stream from its start to its last message, then the latest snapshot of every tree alive, and
    /// returns each tree as its snapshot and the batches after it.
    func load() throws(CanopyFailure) -> ClusterLoad {
        let deadline = ProtocolRunner.monotonicSeconds() + 30
        let last = try Self.retrying("read stream \(ClusterNames.treeStream) on the NATS servers", until: deadline) {
            [jetStream] () throws(NATSError) in try jetStream.streamInfo(ClusterNames.treeStream).lastSequence
        }
        var load = ClusterLoad(position: last)
        guard last > 0 else { return load }
        var alive: [String: (record: TreeRecord, created: UInt64, last: UInt64)] = [:]
        let reader = try Self.retrying("read stream \(ClusterNames.treeStream) on the NATS servers", until: deadline) {
            [jetStream] () throws(NATSError) in
            try jetStream.readSubject(stream: ClusterNames.treeStream, subject: ClusterNames.treeSubjects, from: 1)
        }
        defer { reader.close() }
        var position: UInt64 = 0
        while position < last {
            let next: NATSMessage?
            do throws(NATSError) {
                next = try reader.next(timeout: .seconds(10))
            } catch {
                throw CanopyFailure(.start, "reading stream \(ClusterNames.treeStream): \(error.description)")
            }
            guard let message = next else {
                throw CanopyFailure(
                    .start, "reading stream \(ClusterNames.treeStream): no message after \(position) of \(last) in 10 s")
            }
            position = message.sequence
            guard position <= last else { break }
            let record: StreamRecord
            switch StreamRecord.read(message) {
            case .success(let r): record = resolved(r)
            case .failure(let failure):
                logger.error("cluster: \(failure.message): skipped")
                continue
            }
            let id = record.write.tree
            switch record.write {
            case .createTree(_, let about, let snapshot):
                load.versions[id] = ClusterLink.VersionIndex()
                alive[id] = (
                    TreeRecord(id: id, about: about, snapshotVersion: 0, snapshot: snapshot, batches: []),
                    record.sequence, record.sequence
                )
            case .append(_, let version, let client, let seq, let diff):
                alive[id]?.record.batches.append((version, client, seq, diff))
                alive[id]?.last = record.sequence
                load.versions[id]?.note(version, record.sequence)
            case .deleteTree:
                alive[id] = nil
                load.versions[id] = nil
                load.deletions[id] = record.sequence
            }
        }
        for (id, tree) in alive.sorted(by: { $0.key < $1.key }) {
            var record = tree.record
            if let snapshot = latestSnapshot(id, created: tree.created),
                snapshot.version <= (record.batches.last?.version ?? 0)
            {
                record.snapshot = snapshot.bytes
                record.snapshotVersion = snapshot.version
                record.batches.removeAll { $0.version <= snapshot.version }
                logger.info(
                    "cluster: tree \(id): from its snapshot at version \(snapshot.version) (\(snapshot.bytes.count) bytes) and \(record.batches.count) batches after it"
                )
            }
            load.records.append(record)
            load.durableSequences[id] = tree.last
            load.created[id] = tree.created
        }
        return load
    }

    /// The newest snapshot of the life of tree `id` created at stream sequence `created`, if one was stored.
    private func latestSnapshot(_ id: String, created: UInt64) -> (version: Int, bytes: [UInt8])? {
        let message: NATSMessage?
        do throws(NATSError) {
            message = try jetStream.lastMessage(
                stream: ClusterNames.snapshotStream, subject: ClusterNames.snapshotSubject(id))
        } catch {
            logger.notice("cluster: tree \(id): no snapshot read (\(error.description)): replaying its whole log")
            return nil
        }
        guard let message, message.headers[Self.createdHeader] == String(created),
            let version = message.headers[StreamRecord.Header.version].flatMap(Int.init)
        else { return nil }
        do throws(NATSError) {
            return (version, try assembled(message))
        } catch {
            logger.notice("cluster: tree \(id): snapshot \(version) unreadable (\(error.description)): replaying its log")
            return nil
        }
    }
}
