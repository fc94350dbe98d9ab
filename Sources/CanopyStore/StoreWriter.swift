import CanopySupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Counters kept by the writer thread, read by anyone.
public struct StoreStatistics: Sendable {
    public var commits = 0  // transactions committed
    var writes = 0  // writes in them
    var failedCommits = 0  // transactions rolled back (each of their writes failed)
    var rejected = 0  // writes refused before the transaction (unknown tree, wrong version, …)
    var largestGroup = 0  // most writes taken from the queue at once
    public var reserveReleases = 0  // times a full disk made a deletion give up the reserve (`StoreReserve`)
    var chunks = 0  // chunks of large snapshots committed (a transaction each)
    var chunkedWrites = 0  // large snapshots completed (made visible by their last transaction)
    var garbageCommits = 0  // transactions that deleted released chunks or gave free pages back
    public var commitNanoseconds: UInt64 = 0  // time spent in committed transactions (BEGIN to COMMIT, fsync included)
}

/// The writer thread's side of the store: its own connection, prepared statements, and what it knows of every tree
/// (latest version, newest snapshot) to check writes before they reach SQL. Only the writer thread touches it, except
/// `queue` and `statistics`.
///
/// Each step commits the writes taken from the queue in one transaction (a group), then, if a large snapshot is being
/// written in chunks, one chunk of it (or its last transaction) in a transaction of its own, then, if there is
/// garbage, a transaction deleting a few released chunks. So other trees' writes never wait for more than one chunk.
/// A tree's writes still commit in queue order: those queued behind its chunked write wait (`held`), except appends
/// behind a snapshot that does not move the tree's latest version (`ChunkedWrite.admits`).
final class StoreWriter: @unchecked Sendable {
    /// A group holds at most this many writes…
    static let maxGroupWrites = 8192
    /// …and this many payload bytes (but always at least one write), so one transaction and the WAL stay bounded.
    static let maxGroupBytes = 64 << 20
    /// Pages one incremental vacuum gives back at most; the next transactions go on while the file is mostly free.
    static let vacuumPagesPerCommit = 2048

    /// What the writer knows of one tree.
    struct TreeState {
        var latest: Int  // latest version stored (diff or snapshot)
        var newestSnapshot: Int
    }

    let queue = WriteQueue()
    let statistics = Locked(StoreStatistics())
    let connection: SQLiteConnection
    private let keepSnapshots: Int
    let reserve: StoreReserve?
    var trees: [String: TreeState] = [:]
    let chunks: SnapshotChunks
    /// The large snapshot being written in chunks (one at a time).
    var job: ChunkedWrite?
    /// Writes taken from the queue that wait for an earlier write of their tree, in queue order.
    private var held: [PendingWrite] = []
    /// An incremental vacuum left free pages to give back: the next steps go on with it.
    var vacuumDue = false
    /// Deleting garbage failed: not tried again until something else commits.
    var garbagePaused = false
    /// For tests: told of each step of a chunked write, on the writer thread, before it runs.
    let hook: (@Sendable (ChunkedWriteEvent) -> Void)?

    let begin, commit: SQLiteStatement
    private let insertTree, insertSnapshot, insertChunkedSnapshot, insertDiff: SQLiteStatement
    private let oldestKeptSnapshot, dropOldSnapshots, dropOldDiffs: SQLiteStatement
    private let deleteDiffs, deleteSnapshots, deleteTree: SQLiteStatement
    private let freelistCount, pageCount, incrementalVacuum, boundedVacuum: SQLiteStatement

    init(
        connection: SQLiteConnection, keepSnapshots: Int, chunkBytes: Int = 1 << 20, reserve: StoreReserve? = nil,
        hook: (@Sendable (ChunkedWriteEvent) -> Void)? = nil
    ) throws(StoreError) {
        self.connection = connection
        self.keepSnapshots = max(1, keepSnapshots)
        self.reserve = reserve
        self.hook = hook
        chunks = try SnapshotChunks(connection: connection, chunkBytes: chunkBytes)
        begin = try connection.prepare("BEGIN IMMEDIATE")
        commit = try connection.prepare("COMMIT")
        insertTree = try connection.prepare("INSERT INTO trees(id, about, created) VALUES(?1, ?2, ?3)")
        insertSnapshot = try connection.prepare(
            "INSERT OR REPLACE INTO snapshots(tree, version, snapshot, time) VALUES(?1, ?2, ?3, ?4)")
        insertChunkedSnapshot = try connection.prepare(
            "INSERT OR REPLACE INTO snapshots(tree, version, snapshot, time, chunks, size) "
                + "VALUES(?1, ?2, NULL, ?3, ?4, ?5)")
        insertDiff = try connection.prepare(
            "INSERT INTO diffs(tree, version, client, seq, diff, time) VALUES(?1, ?2, ?3, ?4, ?5, ?6)")
        oldestKeptSnapshot = try connection.prepare(
            "SELECT min(version) FROM (SELECT version FROM snapshots WHERE tree = ?1 ORDER BY version DESC LIMIT ?2)")
        dropOldSnapshots = try connection.prepare("DELETE FROM snapshots WHERE tree = ?1 AND version < ?2")
        dropOldDiffs = try connection.prepare("DELETE FROM diffs WHERE tree = ?1 AND version <= ?2")
        deleteDiffs = try connection.prepare("DELETE FROM diffs WHERE tree = ?1")
        deleteSnapshots = try connection.prepare("DELETE FROM snapshots WHERE tree = ?1")
        deleteTree = try connection.prepare("DELETE FROM trees WHERE id = ?1")
        freelistCount = try connection.prepare("PRAGMA freelist_count")
        pageCount = try connection.prepare("PRAGMA page_count")
        incrementalVacuum = try connection.prepare("PRAGMA incremental_vacuum")
        boundedVacuum = try connection.prepare("PRAGMA incremental_vacuum(\(Self.vacuumPagesPerCommit))")
        try loadTreeStates()
    }

    private func loadTreeStates() throws(StoreError) {
        let statement = try connection.prepare(
            """
            SELECT id, (SELECT max(version) FROM snapshots WHERE tree = id),
                   (SELECT max(version) FROM diffs WHERE tree = id)
            FROM trees
            """)
        try statement.run { (s) throws(StoreError) in
            while try s.step("reading the trees") {
                let id = s.text(0) ?? ""
                let snapshot = s.isNull(1) ? -1 : s.int(1)
                let diff = s.isNull(2) ? -1 : s.int(2)
                trees[id] = TreeState(latest: max(snapshot, diff), newestSnapshot: snapshot)
            }
        }
    }

    // MARK: The thread

    /// The writer thread's body: takes what is queued and commits it, step after step, until the queue is stopped
    /// and drained and the chunked write and the writes waiting for it are done; then checkpoints (truncating the
    /// WAL) and closes its connection. While there is work of its own (a chunked write, held writes, garbage) it
    /// does not wait for the queue.
    func run() {
        while true {
            let busy = job != nil || !held.isEmpty || hasGarbageWork
            let taken = queue.take(maxCount: Self.maxGroupWrites, maxBytes: Self.maxGroupBytes, wait: !busy)
            guard let taken else {
                if job == nil && held.isEmpty { break }  // stopping: left garbage is deleted at the next open
                step([])
                continue
            }
            step(taken)
        }
        _ = try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)", "checkpointing at close")
        connection.close()
    }

    /// One round: the group (held writes first, then `taken`), then one step of the chunked write, then some garbage.
    private func step(_ taken: [PendingWrite]) {
        let candidates = held + taken
        held = []
        if !candidates.isEmpty { commitGroup(candidates) }
        if job != nil { advanceChunkedWrite() }
        if hasGarbageWork { collectGarbage() }
    }

    /// Checks every write against the trees' states (as the earlier writes of the group leave them), runs the valid
    /// ones in one transaction, and calls their completions in queue order. A refused write fails alone; a failing
    /// transaction fails every write that was in it and leaves the known states as they were. A large snapshot that
    /// passes its check becomes the chunked write (if none is under way; else it waits); writes behind a write of
    /// their tree that waits, wait too (`held`), as do those beyond the group's bounds.
    private func commitGroup(_ candidates: [PendingWrite]) {
        var group: [PendingWrite] = []  // decided now: committed or refused, in queue order
        var outcomes: [StoreError?] = []
        var changed: [String: TreeState?] = [:]  // .some(nil): deleted in this group
        var accepted: [Int] = []
        var waiting: Set<String> = []
        var bytes = 0
        for (position, pending) in candidates.enumerated() {
            if accepted.count >= Self.maxGroupWrites || bytes >= Self.maxGroupBytes {
                held += candidates[position...]
                break
            }
            let id = pending.write.tree
            if waiting.contains(id) || job?.admits(pending.write) == false {
                held.append(pending)
                waiting.insert(id)
                continue
            }
            let state: TreeState? = if let known = changed[id] { known } else { trees[id] }
            switch check(pending.write, state) {
            case .failure(let error):
                group.append(pending)
                outcomes.append(error)
            case .success(let next):
                if chunks.isLarge(pending.write) {
                    if job == nil {
                        job = ChunkedWrite(
                            pending, id: chunks.newID(), chunkBytes: chunks.chunkBytes, latest: state?.latest)
                    } else {
                        held.append(pending)
                        waiting.insert(id)
                    }
                    continue
                }
                changed[id] = .some(next)
                accepted.append(group.count)
                group.append(pending)
                outcomes.append(nil)
                bytes += pending.write.byteCount
            }
        }
        guard !group.isEmpty else { return }
        var committed = false
        var elapsed: UInt64 = 0
        var failure: StoreError?
        var released: [Int] = []
        if !accepted.isEmpty {
            do throws(StoreError) {
                let start = monotonicNanoseconds()
                released = try transaction(accepted.map { group[$0].write })
                elapsed = monotonicNanoseconds() - start
                committed = true
            } catch {
                connection.rollbackIfNeeded()
                for index in accepted { outcomes[index] = error }
                failure = error
            }
        }
        if committed {
            for (id, state) in changed { trees[id] = state }
            chunks.release(released)
            didCommit()
        }
        // The disk is full: the group's deletions alone get a second chance, on the reserve's space.
        let deleted = failure?.kind == .diskFull ? deleteOnFullDisk(group, accepted) : []
        for index in deleted {
            outcomes[index] = nil
            trees[group[index].write.tree] = nil
        }
        statistics.withLock {
            if committed {
                $0.commits += 1
                $0.writes += accepted.count
                $0.commitNanoseconds += elapsed
            } else if !accepted.isEmpty {
                $0.failedCommits += 1
            }
            if !deleted.isEmpty {
                $0.commits += 1
                $0.writes += deleted.count
                $0.reserveReleases += 1
            }
            $0.rejected += group.count - accepted.count
            $0.largestGroup = max($0.largestGroup, group.count)
        }
        for (pending, outcome) in zip(group, outcomes) {
            pending.completion(outcome.map { .failure($0) } ?? .success(()))
        }
    }

    /// After a transaction committed: takes the reserve again if due, and lets garbage be tried again.
    func didCommit() {
        garbagePaused = false
        reserve?.refillIfDue(now: monotonicNanoseconds())
    }

    /// After a group with deletions failed for lack of space: releases the reserve and commits the deletions alone
    /// (the other writes stay failed: they would only eat the space meant for freeing more), with the deleted trees'
    /// snapshot chunks and all garbage deleted at once rather than a few at a time. Returns the indices of the
    /// deletions that are now committed (none if even that failed).
    private func deleteOnFullDisk(_ group: [PendingWrite], _ accepted: [Int]) -> [Int] {
        let deletions = accepted.filter { if case .deleteTree = group[$0].write { true } else { false } }
        guard !deletions.isEmpty else { return [] }
        reserve?.release()
        let garbage = chunks.garbage
        do throws(StoreError) {
            // Without the incremental vacuum first: moving pages writes to the WAL, which is what there is no room for.
            _ = try transaction(deletions.map { group[$0].write }, vacuum: false, deletingChunksNow: true)
        } catch {
            connection.rollbackIfNeeded()
            return []
        }
        chunks.deleted(garbage)
        returnFreePages()
        didCommit()
        return deletions
    }

    /// Best effort, after a deletion on a full disk: a checkpoint first, which copies the WAL into the database file
    /// (growing it into the reserve's space; a checkpoint that failed for lack of space is why the WAL kept growing)
    /// so that the WAL can start over from its beginning; then an incremental vacuum in a transaction of its own,
    /// written over the WAL's old frames, and a second checkpoint, which truncates the database file to what is
    /// used and so gives the freed pages to the file system. Each step may fail for lack of space; the deletion is
    /// committed regardless, and its pages are reused by later writes either way.
    private func returnFreePages() {
        _ = try? connection.execute("PRAGMA wal_checkpoint(PASSIVE)", "checkpointing after a deletion")
        do throws(StoreError) {
            try begin.run { (s) throws(StoreError) in try s.execute("beginning a transaction") }
            try incrementalVacuum.run { (s) throws(StoreError) in try s.execute("vacuuming") }
            try commit.run { (s) throws(StoreError) in try s.execute("committing") }
        } catch {
            connection.rollbackIfNeeded()
        }
        _ = try? connection.execute("PRAGMA wal_checkpoint(PASSIVE)", "checkpointing after a vacuum")
    }

    /// The tree's state after `write`, or why the write is refused (nil state: no such tree).
    func check(_ write: StoreWrite, _ state: TreeState?) -> Result<TreeState?, StoreError> {
        func refuse(_ message: String) -> Result<TreeState?, StoreError> {
            .failure(StoreError(file: connection.file, message: message))
        }
        switch write {
        case .createTree(let id, _, let snapshot):
            if state != nil { return refuse("create tree \(quoted(id)): it already exists") }
            if snapshot.isEmpty { return refuse("create tree \(quoted(id)): the snapshot is empty") }
            return .success(TreeState(latest: 0, newestSnapshot: 0))
        case .append(let tree, let diff):
            guard let state else { return refuse("append to tree \(quoted(tree)): no such tree") }
            if diff.diff.isEmpty {
                return refuse("append to tree \(quoted(tree)): the diff of version \(diff.version) is empty")
            }
            guard diff.version == state.latest + 1 else {
                return refuse(
                    "append to tree \(quoted(tree)): version \(diff.version) is not the next one "
                        + "(the latest stored version is \(state.latest))")
            }
            return .success(TreeState(latest: diff.version, newestSnapshot: state.newestSnapshot))
        case .snapshot(let tree, let version, let snapshot):
            guard let state else { return refuse("snapshot of tree \(quoted(tree)): no such tree") }
            if snapshot.isEmpty { return refuse("snapshot of tree \(quoted(tree)) at version \(version): it is empty") }
            guard version >= state.newestSnapshot, version >= 0 else {
                return refuse(
                    "snapshot of tree \(quoted(tree)) at version \(version): older than its newest snapshot "
                        + "(version \(state.newestSnapshot))")
            }
            return .success(TreeState(latest: max(state.latest, version), newestSnapshot: version))
        case .deleteTree:
            return .success(nil)
        }
    }

    // MARK: SQL

    /// Runs `writes` in one transaction; throws (the caller rolls back) at the first failure. With `chunked`, the
    /// snapshot of its write (the only one) is the chunks already committed. Returns the chunk ids that the
    /// snapshots it replaced, compacted or deleted referred to: garbage once this commits (`deletingChunksNow`: none,
    /// they are deleted in the transaction, with all garbage).
    func transaction(
        _ writes: [StoreWrite], chunked: ChunkedWrite? = nil, vacuum: Bool = true, deletingChunksNow: Bool = false
    ) throws(StoreError) -> [Int] {
        connection.rollbackIfNeeded()  // never build on what a failed transaction may have left open
        try begin.run { (s) throws(StoreError) in try s.execute("beginning a transaction") }
        let now = Self.now()
        var freedPages = false
        var released: [Int] = []
        for write in writes {
            switch write {
            case .createTree(let id, let about, let snapshot):
                try insertTree.run { (s) throws(StoreError) in
                    try s.bind(1, id)
                    try s.bind(3, now)
                    try s.withBlob(2, about) { () throws(StoreError) in try s.execute("creating tree \(quoted(id))") }
                }
                released += try storeSnapshot(tree: id, version: 0, snapshot: snapshot, chunked: chunked, now: now)
            case .append(let tree, let diff):
                try insertDiff.run { (s) throws(StoreError) in
                    try s.bind(1, tree)
                    try s.bind(2, diff.version)
                    try s.bind(3, diff.client)
                    try s.bind(4, diff.seq)
                    try s.bind(6, now)
                    try s.withBlob(5, diff.diff) { () throws(StoreError) in
                        try s.execute("appending version \(diff.version) to tree \(quoted(tree))")
                    }
                }
            case .snapshot(let tree, let version, let snapshot):
                released += try storeSnapshot(
                    tree: tree, version: version, snapshot: snapshot, chunked: chunked, now: now)
                released += try compact(tree: tree)
                freedPages = true
            case .deleteTree(let id):
                released += try chunks.referenced(tree: id)
                for statement in [deleteDiffs, deleteSnapshots, deleteTree] {
                    try statement.run { (s) throws(StoreError) in
                        try s.bind(1, id)
                        try s.execute("deleting tree \(quoted(id))")
                    }
                }
                freedPages = true
            }
        }
        if deletingChunksNow {
            let deleted = writes.compactMap { if case .deleteTree(let id) = $0 { id } else { nil } }
            try chunks.deleteAllGarbage(andTrees: deleted)
            released = []
        }
        if freedPages && vacuum { try vacuumIfMostlyFree() }
        try commit.run { (s) throws(StoreError) in try s.execute("committing") }
        return released
    }

    /// Writes the snapshot row: the bytes themselves, or (`chunked`) a reference to the committed chunks. Returns the
    /// chunk id of the row it replaces (same tree and version), if that one was chunked.
    private func storeSnapshot(
        tree: String, version: Int, snapshot: [UInt8], chunked: ChunkedWrite?, now: Double
    ) throws(StoreError) -> [Int] {
        let replaced = try chunks.referenced(tree: tree, version: version)
        let context = "storing the snapshot of tree \(quoted(tree)) at version \(version)"
        if let chunked {
            try insertChunkedSnapshot.run { (s) throws(StoreError) in
                try s.bind(1, tree)
                try s.bind(2, version)
                try s.bind(3, now)
                try s.bind(4, chunked.id)
                try s.bind(5, chunked.snapshot.count)
                try s.execute(context)
            }
            return replaced
        }
        try insertSnapshot.run { (s) throws(StoreError) in
            try s.bind(1, tree)
            try s.bind(2, version)
            try s.bind(4, now)
            try s.withBlob(3, snapshot) { () throws(StoreError) in try s.execute(context) }
        }
        return replaced
    }

    /// Keeps the newest `keepSnapshots` snapshots of `tree` and the diffs after the oldest of them. Returns the chunk
    /// ids of the snapshots it removed (their chunks are deleted later, a few at a time).
    private func compact(tree: String) throws(StoreError) -> [Int] {
        let context = "compacting tree \(quoted(tree))"
        let oldest: Int? = try oldestKeptSnapshot.run { (s) throws(StoreError) in
            try s.bind(1, tree)
            try s.bind(2, keepSnapshots)
            guard try s.step(context), !s.isNull(0) else { return nil }
            return s.int(0)
        }
        guard let oldest else { return [] }
        let released = try chunks.referenced(tree: tree, below: oldest)
        for statement in [dropOldSnapshots, dropOldDiffs] {
            try statement.run { (s) throws(StoreError) in
                try s.bind(1, tree)
                try s.bind(2, oldest)
                try s.execute(context)
            }
        }
        return released
    }

    /// Gives free pages back to the file system (auto_vacuum = INCREMENTAL) once they are more than half the file,
    /// at most `vacuumPagesPerCommit` at a time (`vacuumDue` then asks the next steps to go on). Below half they are
    /// simply reused by later writes, which keeps the file bounded without rewriting the newest snapshot's pages into
    /// the holes after every compaction.
    func vacuumIfMostlyFree() throws(StoreError) {
        let context = "vacuuming"
        let free = try freelistCount.run { (s) throws(StoreError) in try s.step(context) ? s.int(0) : 0 }
        let pages = try pageCount.run { (s) throws(StoreError) in try s.step(context) ? s.int(0) : 0 }
        guard free >= 16, free * 2 >= pages else {
            vacuumDue = false
            return
        }
        try boundedVacuum.run { (s) throws(StoreError) in try s.execute(context) }
        let left = try freelistCount.run { (s) throws(StoreError) in try s.step(context) ? s.int(0) : 0 }
        let size = try pageCount.run { (s) throws(StoreError) in try s.step(context) ? s.int(0) : 0 }
        vacuumDue = left < free && left >= 16 && left * 2 >= size
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// A tree id as shown in messages.
func quoted(_ id: String) -> String {
    var text = "\""
    for character in id.unicodeScalars {
        switch character {
        case "\"": text += "\\\""
        case "\\": text += "\\\\"
        case _ where character.value < 0x20: text += "\\u{\(String(character.value, radix: 16))}"
        default: text.unicodeScalars.append(character)
        }
    }
    return text + "\""
}
