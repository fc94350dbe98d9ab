/// A snapshot too large for one transaction, being stored in pieces (docs/storage.md, "Large snapshots in chunks"):
/// one chunk per transaction of its own, so that other trees' commits go between them, then a last transaction that
/// writes the `snapshots` row (and for a new tree its `trees` row) that makes them a snapshot.
struct ChunkedWrite {
    let pending: PendingWrite
    /// Its chunks' id in `snapshot_chunks`.
    let id: Int
    let tree: String
    let version: Int
    let snapshot: [UInt8]
    let chunkBytes: Int
    /// A snapshot at or below the tree's latest version leaves that version as it is, so later appends to the tree
    /// may commit before it; a new tree, or a snapshot that re-bases the log, is waited for by every later write of
    /// its tree.
    let admitsAppends: Bool
    /// Chunks committed so far.
    var written = 0

    init(_ pending: PendingWrite, id: Int, chunkBytes: Int, latest: Int?) {
        self.pending = pending
        self.id = id
        self.chunkBytes = chunkBytes
        switch pending.write {
        case .createTree(let id, _, let snapshot):
            (tree, version, self.snapshot, admitsAppends) = (id, 0, snapshot, false)
        case .snapshot(let tree, let version, let snapshot):
            (self.tree, self.version, self.snapshot) = (tree, version, snapshot)
            admitsAppends = latest.map { version <= $0 } ?? false
        case .append, .deleteTree:
            preconditionFailure("only a tree's snapshot is written in chunks")
        }
    }

    var count: Int { (snapshot.count + chunkBytes - 1) / chunkBytes }
    var isComplete: Bool { written == count }

    /// Whether `write`, queued after this one, may be committed before it.
    func admits(_ write: StoreWrite) -> Bool {
        guard write.tree == tree else { return true }
        if case .append = write { return admitsAppends }
        return false
    }

    /// "chunk 3 of 35 of the snapshot of tree "big" at version 0".
    func describe(chunk index: Int) -> String {
        "chunk \(index + 1) of \(count) of the snapshot of tree \(quoted(tree)) at version \(version)"
    }
}

/// The writer's side of `snapshot_chunks`: writing a chunk, finding the chunks that snapshot rows leave behind when
/// they are replaced, compacted or deleted, and deleting such released chunks a few at a time. Released chunks (and
/// those of a write that failed or never finished) are garbage: no snapshot row refers to them, so nothing reads
/// them; the writer deletes them in small transactions of their own, and `init` deletes what a crash left.
final class SnapshotChunks {
    /// Snapshots larger than this are written in chunks of this size.
    let chunkBytes: Int
    /// Chunks deleted per garbage transaction: deleting a chunk reads its pages, about 4 ms per MiB here.
    static let deletedPerCommit = 2

    private let connection: SQLiteConnection
    private let insert, ofVersion, below, ofTree: SQLiteStatement
    private let deletePiece, deleteAll, deleteTree: SQLiteStatement
    /// Chunk ids no snapshot refers to, oldest first.
    private(set) var garbage: [Int] = []
    private var nextID = 1

    init(connection: SQLiteConnection, chunkBytes: Int) throws(StoreError) {
        self.connection = connection
        self.chunkBytes = max(4096, chunkBytes)
        insert = try connection.prepare(
            "INSERT INTO snapshot_chunks(chunks, idx, tree, version, bytes) VALUES(?1, ?2, ?3, ?4, ?5)")
        ofVersion = try connection.prepare(
            "SELECT chunks FROM snapshots WHERE tree = ?1 AND version = ?2 AND chunks IS NOT NULL")
        below = try connection.prepare(
            "SELECT chunks FROM snapshots WHERE tree = ?1 AND version < ?2 AND chunks IS NOT NULL")
        ofTree = try connection.prepare("SELECT chunks FROM snapshots WHERE tree = ?1 AND chunks IS NOT NULL")
        deletePiece = try connection.prepare(
            "DELETE FROM snapshot_chunks WHERE rowid IN "
                + "(SELECT rowid FROM snapshot_chunks WHERE chunks = ?1 ORDER BY idx LIMIT \(Self.deletedPerCommit))")
        deleteAll = try connection.prepare("DELETE FROM snapshot_chunks WHERE chunks = ?1")
        deleteTree = try connection.prepare("DELETE FROM snapshot_chunks WHERE tree = ?1")
        try removeLeftovers()
    }

    /// At open: chunks that no snapshot row refers to (a write cut short by a crash, or released ones not yet
    /// deleted) are deleted in one transaction. If that fails (a full disk), they are left to the running writer.
    private func removeLeftovers() throws(StoreError) {
        let context = "looking for incomplete snapshot chunks"
        let largest = try connection.integer(
            "SELECT max(coalesce((SELECT max(chunks) FROM snapshot_chunks), 0), "
                + "coalesce((SELECT max(chunks) FROM snapshots), 0))", context)
        nextID = largest + 1
        let unreferenced = try connection.rows(
            "SELECT DISTINCT chunks FROM snapshot_chunks WHERE chunks NOT IN "
                + "(SELECT chunks FROM snapshots WHERE chunks IS NOT NULL) ORDER BY chunks", context
        ).compactMap { Int($0) }
        guard !unreferenced.isEmpty else { return }
        do throws(StoreError) {
            try connection.execute(
                """
                BEGIN IMMEDIATE;
                DELETE FROM snapshot_chunks WHERE chunks NOT IN (SELECT chunks FROM snapshots WHERE chunks IS NOT NULL);
                COMMIT;
                """, "deleting incomplete snapshot chunks")
        } catch {
            connection.rollbackIfNeeded()
            garbage = unreferenced
        }
    }

    /// Whether `write` is a snapshot stored in chunks (more than one).
    func isLarge(_ write: StoreWrite) -> Bool {
        switch write {
        case .createTree(_, _, let snapshot), .snapshot(_, _, let snapshot): return snapshot.count > chunkBytes
        case .append, .deleteTree: return false
        }
    }

    func newID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    /// Inserts the next chunk of `job` (inside the caller's transaction).
    func insertNext(of job: ChunkedWrite) throws(StoreError) {
        let index = job.written
        let start = index * job.chunkBytes
        let end = min(job.snapshot.count, start + job.chunkBytes)
        let result: Result<Void, StoreError> = job.snapshot.withUnsafeBytes { all in
            do throws(StoreError) {
                try insert.run { (s) throws(StoreError) in
                    try s.bind(1, job.id)
                    try s.bind(2, index)
                    try s.bind(3, job.tree)
                    try s.bind(4, job.version)
                    try s.withBlob(5, UnsafeRawBufferPointer(rebasing: all[start..<end])) { () throws(StoreError) in
                        try s.execute("storing \(job.describe(chunk: index))")
                    }
                }
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    // MARK: Released chunks

    /// The chunks of the snapshot row `tree`@`version` (about to be replaced), of the rows below `version` (about to
    /// be compacted away), or of every row of `tree` (about to be deleted): they become garbage once that commits.
    func referenced(tree: String, version: Int? = nil, below limit: Int? = nil) throws(StoreError) -> [Int] {
        let statement = version != nil ? ofVersion : limit != nil ? below : ofTree
        return try statement.run { (s) throws(StoreError) in
            try s.bind(1, tree)
            if let number = version ?? limit { try s.bind(2, number) }
            var ids: [Int] = []
            while try s.step("reading the snapshot chunks of tree \(quoted(tree))") { ids.append(s.int(0)) }
            return ids
        }
    }

    /// Adds chunk ids that no snapshot refers to any more (after the transaction that released them committed).
    func release(_ ids: [Int]) { garbage += ids }

    /// Deletes a few chunks of the oldest garbage (inside the caller's transaction). Returns the ids that are then
    /// gone entirely: call `deleted` with them once the transaction committed.
    func deleteSomeGarbage() throws(StoreError) -> [Int] {
        guard let id = garbage.first else { return [] }
        try deletePiece.run { (s) throws(StoreError) in
            try s.bind(1, id)
            try s.execute("deleting released snapshot chunks")
        }
        return connection.changes < Self.deletedPerCommit ? [id] : []
    }

    /// Deletes every chunk of the garbage and of `trees` at once (inside the caller's transaction): for a deletion on
    /// a full disk, where freeing space cannot wait. Call `deleted` with the garbage once it committed.
    func deleteAllGarbage(andTrees trees: [String]) throws(StoreError) {
        for id in garbage {
            try deleteAll.run { (s) throws(StoreError) in
                try s.bind(1, id)
                try s.execute("deleting released snapshot chunks")
            }
        }
        for tree in trees {
            try deleteTree.run { (s) throws(StoreError) in
                try s.bind(1, tree)
                try s.execute("deleting the snapshot chunks of tree \(quoted(tree))")
            }
        }
    }

    /// Forgets garbage ids whose chunks are all deleted (committed).
    func deleted(_ ids: [Int]) {
        guard !ids.isEmpty else { return }
        let gone = Set(ids)
        garbage.removeAll { gone.contains($0) }
    }
}
