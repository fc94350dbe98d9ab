import CanopyCore
import CanopyNATS
import CanopyProtocol
import CanopySupport
import CanopyWebSocket
import Foundation

/// Logged diffs older than a daemon's in-memory log, read back from the tree stream (`history`, `subscribe` with
/// `since`, a resubmission of an old batch): the stream keeps every batch, and each daemon remembers at which stream
/// sequence each version of its trees is.
extension ClusterLink {
    /// The stream sequences of a tree's versions, contiguous from `first`.
    struct VersionIndex {
        var first = 0
        var sequences: [UInt64] = []

        /// Notes that `version` is at `sequence`; a version out of line starts the index again from it.
        mutating func note(_ version: Int, _ sequence: UInt64) {
            if !sequences.isEmpty && version < first + sequences.count { return }
            if sequences.isEmpty || version != first + sequences.count {
                first = version
                sequences = []
            }
            sequences.append(sequence)
        }

        /// The sequence of the oldest indexed version at or after `version`, with that version.
        func start(at version: Int) -> (version: Int, sequence: UInt64)? {
            let v = max(version, first)
            guard v < first + sequences.count else { return nil }
            return (v, sequences[v - first])
        }
    }

    /// Reads versions `read.from…read.to` of a tree from the stream (off the service thread) and answers the
    /// machine's `historyRead` with what was found — nothing when the index does not reach that far.
    func readHistory(_ read: HistoryRead) {
        guard let start = trees[read.tree]?.versions.start(at: read.from), start.version <= read.to else {
            post? { [self] in feed { $0.historyRead(read.id, .success([]), now: $1) } }
            return
        }
        forwarding.async { [self] in
            let result = Result { () throws(NATSError) -> [LoggedBatch] in
                let reader = try jetStream.readSubject(
                    stream: ClusterNames.treeStream, subject: ClusterNames.treeSubject(read.tree), from: start.sequence)
                defer { reader.close() }
                var batches: [LoggedBatch] = []
                while batches.last.map({ $0.version < read.to }) ?? true {
                    guard let message = try reader.next(timeout: .seconds(5)) else { break }
                    guard case .success(let record) = StreamRecord.read(message) else { continue }
                    guard case .append(_, let version, _, _, let diff) = record.write else { break }
                    if version >= read.from && version <= read.to {
                        batches.append(LoggedBatch(version: version, diff: diff))
                    }
                }
                return batches
            }
            let answer = result.mapError { StoreFailure("reading the tree stream: \($0.description)") }
            post? { [self] in feed { $0.historyRead(read.id, answer, now: $1) } }
        }
    }
}
