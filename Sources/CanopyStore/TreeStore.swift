import CanopySupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The durable store: an embedded SQLite database (`<directory>/canopy.db`, WAL mode) holding every tree's snapshots
/// and the log of diffs after them. One writer thread commits queued writes in groups (one transaction, one fsync per
/// group); a separate read connection answers `load`, `diffs` and `version` from any thread. docs/storage.md.
public final class TreeStore: @unchecked Sendable {  // `reader`, `lifecycle`: locked; `writer`: its thread's
    public let path: String
    private let writer: StoreWriter
    private let reserve: StoreReserve
    private let reader: Locked<StoreReader?>
    private let lifecycle: Locked<Lifecycle>

    private struct Lifecycle {
        var thread: pthread_t?
        var closed = false
        /// `canopy.lock`, held (flock) while the store is open: one daemon per data directory.
        var lock: Int32 = -1
    }

    /// Opens or creates the database (the directory must exist), sets WAL mode and the durability, checks that it is a
    /// Canopy database of a known schema version, runs `PRAGMA quick_check`, migrates a schema-1 file to the current
    /// schema, deletes snapshot chunks that no snapshot refers to (a chunked write cut short), and starts the writer
    /// thread. Any failure (unreadable, truncated, corrupt, not a database, wrong schema) throws a StoreError naming
    /// the file.
    public init(options: StoreOptions) throws(StoreError) {
        let directory = options.directory
        path = Self.databasePath(in: directory)
        let lock = try Self.lockDirectory(path)
        do throws(StoreError) {
            try Self.prepareFile(path, durability: options.durability)

            let connection = try SQLiteConnection(file: path, create: false)
            let schema = try StoreSchema.check(connection)
            let mode = try connection.text("PRAGMA journal_mode = WAL", "setting WAL mode")
            guard mode == "wal" else {
                throw StoreError(file: path, message: "cannot switch to WAL mode (journal_mode is \(mode))")
            }
            try connection.execute(
                """
                PRAGMA synchronous = \(options.durability == .fsync ? "FULL" : "OFF");
                PRAGMA journal_size_limit = \(32 << 20);
                PRAGMA cache_size = -16384;
                """, "configuring the connection")
            if let pages = options.maxPageCount {
                _ = try connection.text("PRAGMA max_page_count = \(max(1, pages))", "setting max_page_count")
            }
            let problems = try connection.rows("PRAGMA quick_check", "checking the database (quick_check)")
            guard problems == ["ok"] else {
                // Rows such as "*** in database main ***\nPage 5: btreeInitPage() returns error code 11": one line each.
                let lines = problems.flatMap { $0.split(separator: "\n") }.filter { !$0.hasPrefix("***") }
                let shown = lines.prefix(3).joined(separator: "; ")
                throw StoreError(
                    file: path,
                    message: "database disk image is malformed (quick_check: \(shown)\(lines.count > 3 ? "; …" : ""))")
            }
            try StoreSchema.migrate(connection, from: schema)
            // Taken only when there is room for it and as much again; otherwise after a later commit (StoreReserve).
            reserve = StoreReserve(directory: directory, size: options.reserveBytes)
            reserve.fill()
            writer = try StoreWriter(
                connection: connection, keepSnapshots: options.keepSnapshots, chunkBytes: options.snapshotChunkBytes,
                reserve: reserve, hook: options.chunkHook)
            reader = Locked(try StoreReader(connection: SQLiteConnection(file: path, create: false)))
            lifecycle = Locked(Lifecycle(lock: lock))
            let thread = try Self.startThread(writer, file: path)
            lifecycle.withLock { $0.thread = thread }
        } catch {
            Glibc.close(lock)
            throw error
        }
    }

    /// The database file of a store kept in `directory`.
    public static func databasePath(in directory: String) -> String {
        directory.isEmpty || directory.hasSuffix("/") ? directory + "canopy.db" : directory + "/canopy.db"
    }

    /// Takes `canopy.lock` beside `path` (an exclusive flock, released when the store closes or the process dies),
    /// so a second daemon on the same data directory stops at start instead of writing the same trees.
    private static func lockDirectory(_ path: String) throws(StoreError) -> Int32 {
        let lockPath = String(path.dropLast("canopy.db".count)) + "canopy.lock"
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw StoreError(file: path, message: "cannot open \(lockPath): \(String(cString: strerror(errno)))")
        }
        // A lock just released can still be held for a moment by a child process another thread of this process is
        // spawning (it shares the open file until it execs), so a busy lock is retried for up to two seconds.
        var status = flock(fd, LOCK_EX | LOCK_NB)
        var attempts = 0
        while status != 0 && errno == EWOULDBLOCK && attempts < 40 {
            usleep(50_000)
            attempts += 1
            status = flock(fd, LOCK_EX | LOCK_NB)
        }
        guard status == 0 else {
            let busy = errno == EWOULDBLOCK
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw StoreError(
                file: path,
                message: busy
                    ? "another canopyd is using this data directory (\(lockPath) is locked)"
                    : "cannot lock \(lockPath): \(reason)")
        }
        return fd
    }

    deinit { close() }

    /// Refuses files that would silently become an empty store; creates a new database only where there is none.
    private static func prepareFile(_ path: String, durability: Durability) throws(StoreError) {
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFREG else {
                throw StoreError(file: path, message: "not a regular file")
            }
            guard info.st_size > 0 else {
                throw StoreError(
                    file: path,
                    message: "the file is empty (0 bytes): not a Canopy database, or truncated; "
                        + "remove it to start with an empty store")
            }
            return
        }
        guard errno == ENOENT else {
            throw StoreError(file: path, message: "cannot read: \(String(cString: strerror(errno)))")
        }
        if stat(path + "-wal", &info) == 0, info.st_size > 0 {
            throw StoreError(
                file: path,
                message: "the database is missing but its write-ahead log \(path)-wal is not: "
                    + "refusing to start an empty store (move the -wal file away to do so)")
        }
        unlink(path + "-wal")
        unlink(path + "-shm")
        try StoreSchema.create(file: path, durability: durability)
    }

    /// Every tree: latest snapshot + log after it. Throws (naming the file and the tree) if anything is inconsistent.
    public func load() throws(StoreError) -> [StoredTree] {
        try read { (r) throws(StoreError) in try r.load() }
    }

    /// Queues `write` for the writer thread, which commits everything queued so far in one transaction (with fsync
    /// when durability is .fsync). `completion` runs on the writer thread once that transaction committed or failed;
    /// the completions of one tree's writes run in queue order. A snapshot larger than `snapshotChunkBytes` is written
    /// in chunks, each in a transaction of its own, and completes after its last one: other trees' writes queued
    /// behind it commit (and complete) in between, while its own tree's later writes wait for it (appends after a
    /// snapshot that does not re-base the log need not). A write that cannot apply (unknown tree, not the next
    /// version, …) fails alone before the transaction; if the transaction fails (disk full, I/O error) every write in
    /// it fails with that error. After `close`, `completion` runs at once, on the caller's thread, with a failure.
    public func enqueue(_ write: StoreWrite, completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        guard writer.queue.put(PendingWrite(write: write, completion: completion)) else {
            completion(.failure(StoreError(file: path, message: "the store is closed")))
            return
        }
    }

    /// Logged diffs of `tree` with from <= version <= to, in order: only what is committed and still kept (after the
    /// oldest kept snapshot). Callable from any thread while writes go on.
    public func diffs(tree: String, from: Int, to: Int) throws(StoreError) -> [StoredDiff] {
        try read { (r) throws(StoreError) in try r.diffs(tree: tree, from: from, to: to) }
    }

    /// The version of the (newest committed, still kept) batch `client` sent with `seq` to `tree`.
    public func version(tree: String, client: String, seq: String) throws(StoreError) -> Int? {
        try read { (r) throws(StoreError) in try r.version(tree: tree, client: client, seq: seq) }
    }

    /// Bytes the database uses on disk now (the database and WAL files).
    public func diskBytes() -> Int {
        var total = 0
        for file in [path, path + "-wal"] {
            var info = stat()
            if stat(file, &info) == 0 { total += Int(info.st_size) }
        }
        return total
    }

    /// Bytes held in `canopy.reserve` now (`StoreOptions.reserveBytes` when whole, less after a full disk).
    public var reservedBytes: Int { reserve.heldBytes }

    /// Transactions committed, and writes in them (writes/commits is the average group).
    public var statistics: (commits: Int, writes: Int) {
        let s = writer.statistics.withLock { $0 }
        return (s.commits, s.writes)
    }

    /// Everything the writer counts (failed commits, refused writes, the largest group).
    public var detailedStatistics: StoreStatistics { writer.statistics.withLock { $0 } }

    /// Finishes every queued write (runs their completions), stops the writer thread, checkpoints and closes.
    /// Idempotent. Called from a completion (on the writer thread) it cannot wait for itself: it closes the read side,
    /// and the writer thread finishes the queue and closes the database when that completion returns.
    public func close() {
        let thread: pthread_t? = lifecycle.withLock { state in
            if state.closed { return nil }
            state.closed = true
            defer { state.thread = nil }
            return state.thread
        }
        writer.queue.stop()
        if let thread {
            if pthread_equal(thread, pthread_self()) != 0 {
                pthread_detach(thread)
            } else {
                pthread_join(thread, nil)
            }
        }
        // Closed last when the writer is done: the last connection to close checkpoints and removes the WAL.
        reader.withLock { reader in
            reader?.close()
            reader = nil
        }
        // The lock goes with the last connection; when close runs on the writer thread, the thread still finishes
        // the queue afterwards, so the lock is released then only by process exit or `deinit`.
        if thread == nil || pthread_equal(thread!, pthread_self()) == 0 {
            let lock = lifecycle.withLock { state in
                defer { state.lock = -1 }
                return state.lock
            }
            if lock >= 0 { Glibc.close(lock) }
        }
    }

    private func read<R>(_ body: (StoreReader) throws(StoreError) -> R) throws(StoreError) -> R {
        let result: Result<R, StoreError> = reader.withLock { reader in
            guard let reader else { return .failure(StoreError(file: path, message: "the store is closed")) }
            do throws(StoreError) { return .success(try body(reader)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    private static func startThread(_ writer: StoreWriter, file: String) throws(StoreError) -> pthread_t {
        let box = Unmanaged.passRetained(writer).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, canopyStoreWriterThread, box)
        guard status == 0 else {
            Unmanaged<StoreWriter>.fromOpaque(box).release()
            throw StoreError(file: file, message: "cannot start the writer thread (error \(status))")
        }
        return thread
    }

    /// For tests: runs `sql` on a connection of its own (e.g. to damage a closed store on purpose).
    static func executeForTesting(file: String, _ sql: String, create: Bool = false) throws(StoreError) {
        let connection = try SQLiteConnection(file: file, create: create)
        defer { connection.close() }
        try connection.execute(sql, "running \(sql)")
    }

    /// For tests: the first column of every row of `sql`, as text, read on a connection of its own.
    static func queryForTesting(file: String, _ sql: String) throws(StoreError) -> [String] {
        let connection = try SQLiteConnection(file: file, create: false)
        defer { connection.close() }
        return try connection.rows(sql, "running \(sql)")
    }
}

/// The writer thread: runs the writer it was handed (retained by `startThread`) until its queue is stopped and drained.
private func canopyStoreWriterThread(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let argument else { return nil }
    let writer = Unmanaged<StoreWriter>.fromOpaque(argument).takeRetainedValue()
    writer.run()
    return nil
}
