import CanopyCore
import CanopyTestSupport
import Dispatch
import Foundation
import Testing

@testable import CanopyStore
@testable import CanopySupport

/// Large snapshots stored in chunks (schema 2, docs/storage.md "Large snapshots in chunks"): byte-exact round trips,
/// a crash between chunk transactions, the migration of a schema-1 file, compaction and deletion of chunks, a full
/// disk, and the order in which other trees' writes complete while a large snapshot is written.
@Suite struct ChunkedSnapshotTests {
    static let chunk = 64 << 10

    // MARK: Round trips

    @Test func aSnapshotLargerThanAChunkRoundTripsByteForByte() throws {
        let directory = try storeDirectory()
        defer { removeStoreDirectory(directory) }
        let options = chunkedOptions(directory)
        let store = try TreeStore(options: options)
        let big = randomBytes(16 * Self.chunk + 17, seed: 1)
        try commit(store, .createTree(id: "big", about: [], snapshot: big))
        try commit(store, .createTree(id: "small", about: [], snapshot: Array("{\"keys\":[]}".utf8)))
        #expect(store.detailedStatistics.chunks == 17)
        #expect(store.detailedStatistics.chunkedWrites == 1)
        #expect(try store.load().first { $0.id == "big" }?.snapshot == big)
        #expect(try rows(store, "SELECT count(*) FROM snapshot_chunks WHERE tree = 'big'") == ["17"])
        #expect(try rows(store, "SELECT typeof(snapshot), size FROM snapshots WHERE tree = 'big'") == ["null"])
        #expect(try rows(store, "SELECT size FROM snapshots WHERE tree = 'big'") == ["\(big.count)"])
        #expect(
            try rows(store, "SELECT count(*) FROM snapshots WHERE tree = 'small' AND chunks IS NULL") == ["1"],
            "a snapshot of one chunk or less stays in one piece")
        // A snapshot of the same version replaces it; the replaced chunks go.
        let replacement = randomBytes(3 * Self.chunk, seed: 2)
        try commit(store, .snapshot(tree: "big", version: 0, snapshot: replacement))
        #expect(try store.load().first { $0.id == "big" }?.snapshot == replacement)
        try waitUntil { try rows(store, "SELECT count(*) FROM snapshot_chunks") == ["3"] }
        store.close()

        let reopened = try TreeStore(options: options)
        defer { reopened.close() }
        let trees = try reopened.load()
        #expect(trees.map(\.id) == ["big", "small"])
        #expect(trees[0].snapshot == replacement)
        #expect(try header(reopened.path, at: 60) == 2, "user_version is 2")
    }

    @Test(arguments: [
        ("DELETE FROM snapshot_chunks WHERE idx = 1", "the snapshot at version 0 is incomplete: chunk 2 is missing"),
        ("UPDATE snapshot_chunks SET bytes = x'00' WHERE idx = 2", "is incomplete: its 4 chunks hold"),
        ("UPDATE snapshots SET size = size + 1", "is incomplete: its 4 chunks hold"),
    ])
    func loadReportsADamagedChunkedSnapshot(damage: String, expected: String) throws {
        let directory = try storeDirectory()
        defer { removeStoreDirectory(directory) }
        let store = try TreeStore(options: chunkedOptions(directory))
        try commit(store, .createTree(id: "t", about: [], snapshot: randomBytes(4 * Self.chunk, seed: 8)))
        store.close()
        try TreeStore.executeForTesting(file: store.path, damage)
        let reopened = try TreeStore(options: chunkedOptions(directory))
        defer { reopened.close() }
        #expect {
            try reopened.load()
        } throws: { error in
            let error = error as! StoreError
            return error.file == store.path && error.message.contains(#"tree "t": "#)
                && error.message.contains(expected)
        }
    }

    // MARK: A crash between chunk transactions

    enum Cut: String, CaseIterable, CustomTestStringConvertible, Sendable {
        /// The process dies with every chunk of a snapshot committed, before the transaction that makes it visible.
        case snapshotBeforeItsLastTransaction
        /// The process dies after 3 chunks of a new tree.
        case createTreeAfterThreeChunks
        var testDescription: String { rawValue }
    }

    /// A child process (this test binary, running `writeChunksUntilKilled`) kills itself with SIGKILL in the middle
    /// of a chunked write; the reopened store has the tree as it was before, and no chunk left.
    @Test(arguments: Cut.allCases)
    func aCrashBetweenChunkTransactionsLeavesThePreviousStateAndRemovesTheChunks(cut: Cut) throws {
        let directory = try storeDirectory()
        defer { removeStoreDirectory(directory) }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = [
            "--testing-library", "swift-testing", "--filter", "ChunkedSnapshotTests/writeChunksUntilKilled",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["CANOPY_CHUNK_CHILD"] = directory
        environment["CANOPY_CHUNK_CUT"] = cut.rawValue
        child.environment = environment
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try ChildProcesses.start { try child.run() }
        child.waitUntilExit()
        #expect(child.terminationReason == .uncaughtSignal && child.terminationStatus == SIGKILL)

        // The chunks the child committed are there (replayed from the WAL), but no snapshot refers to them.
        let path = TreeStore.databasePath(in: directory)
        let left = try TreeStore.queryForTesting(file: path, "SELECT count(*) FROM snapshot_chunks")
        #expect(left == [cut == .snapshotBeforeItsLastTransaction ? "8" : "3"])
        let store = try TreeStore(options: chunkedOptions(directory))
        defer { store.close() }
        #expect(try rows(store, "SELECT count(*) FROM snapshot_chunks") == ["0"], "removed at open")
        let trees = try store.load()
        #expect(trees.map(\.id) == ["t"])
        let tree = try #require(trees.first)
        #expect(tree.snapshotVersion == 0 && tree.snapshot == Self.smallSnapshot)
        #expect(tree.diffs.map(\.version) == [1, 2, 3])
        // The store goes on: the same large snapshot can be written now.
        let big = randomBytes(8 * Self.chunk, seed: 7)
        try commit(store, .snapshot(tree: "t", version: 3, snapshot: big))
        #expect(try store.load().first?.snapshot == big)
    }

    static let smallSnapshot = Array(#"{"keys":[],"root":{"id":"root","type":"VStack"}}"#.utf8)

    /// The child side of `aCrashBetweenChunkTransactionsLeavesThePreviousStateAndRemovesTheChunks`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["CANOPY_CHUNK_CHILD"] != nil))
    func writeChunksUntilKilled() throws {
        let environment = ProcessInfo.processInfo.environment
        let cut = Cut(rawValue: environment["CANOPY_CHUNK_CUT"] ?? "") ?? .snapshotBeforeItsLastTransaction
        var options = chunkedOptions(environment["CANOPY_CHUNK_CHILD"]!)
        options.chunkHook = { event in
            switch (cut, event) {
            case (.snapshotBeforeItsLastTransaction, .finishing(tree: "t")),
                (.createTreeAfterThreeChunks, .chunk(tree: "u", index: 3, count: _)):
                kill(getpid(), SIGKILL)
            default: break
            }
        }
        let store = try TreeStore(options: options)
        try commit(store, .createTree(id: "t", about: [], snapshot: Self.smallSnapshot))
        for v in 1...3 { try commit(store, .append(tree: "t", diff: logged(v))) }
        switch cut {
        case .snapshotBeforeItsLastTransaction:
            try commit(store, .snapshot(tree: "t", version: 3, snapshot: randomBytes(8 * Self.chunk, seed: 3)))
        case .createTreeAfterThreeChunks:
            try commit(store, .createTree(id: "u", about: [], snapshot: randomBytes(8 * Self.chunk, seed: 4)))
        }
        Issue.record("the hook should have killed this process")
    }

    // MARK: Migration

    /// A database made with the schema-1 layout (every snapshot one blob) opens, is migrated to schema 2 in place,
    /// reads back as it was, and takes chunked snapshots next to its old ones.
    @Test func aSchemaOneDatabaseIsMigratedAndReadsAsBefore() throws {
        let directory = try storeDirectory()
        defer { removeStoreDirectory(directory) }
        let path = TreeStore.databasePath(in: directory)
        let pad = "replace(hex(zeroblob(\(Self.chunk * 2))), '0', 'p')"  // 4 chunks' worth of 'p'
        try TreeStore.executeForTesting(
            file: path,
            """
            PRAGMA auto_vacuum = INCREMENTAL;
            PRAGMA journal_mode = WAL;
            BEGIN IMMEDIATE;
            CREATE TABLE trees(id TEXT PRIMARY KEY, about BLOB, created REAL);
            CREATE TABLE diffs(tree TEXT, version INTEGER, client TEXT, seq TEXT, diff BLOB, time REAL,
                               PRIMARY KEY(tree, version)) WITHOUT ROWID;
            CREATE INDEX diffs_by_seq ON diffs(tree, client, seq);
            CREATE TABLE snapshots(tree TEXT, version INTEGER, snapshot BLOB, time REAL, PRIMARY KEY(tree, version));
            PRAGMA application_id = 1130458735;
            PRAGMA user_version = 1;
            INSERT INTO trees VALUES('old', CAST('{"title":"Old"}' AS BLOB), 1.0), ('tiny', NULL, 2.0);
            INSERT INTO snapshots VALUES('old', 0, CAST('{"keys":[],"pad":"' || \(pad) || '"}' AS BLOB), 1.0);
            INSERT INTO snapshots VALUES('old', 2, CAST('{"keys":[],"pad":"v2' || \(pad) || '"}' AS BLOB), 1.0);
            INSERT INTO snapshots VALUES('tiny', 0, CAST('{"keys":[]}' AS BLOB), 2.0);
            INSERT INTO diffs VALUES('old', 1, 'c', '1', CAST('{"version":1}' AS BLOB), 1.0),
                                    ('old', 2, 'c', '2', CAST('{"version":2}' AS BLOB), 1.0),
                                    ('old', 3, 'c', '3', CAST('{"version":3}' AS BLOB), 1.0);
            COMMIT;
            """, create: true)
        let padding = String(repeating: "p", count: Self.chunk * 4)
        var options = chunkedOptions(directory)
        options.keepSnapshots = 1
        let store = try TreeStore(options: options)
        #expect(try rows(store, "PRAGMA user_version") == ["2"])
        let trees = try store.load()
        #expect(trees.map(\.id) == ["old", "tiny"])
        #expect(trees[0].about == Array(#"{"title":"Old"}"#.utf8) && trees[1].about == Array("{}".utf8))
        #expect(trees[0].snapshotVersion == 2)
        #expect(trees[0].snapshot == Array(#"{"keys":[],"pad":"v2\#(padding)"}"#.utf8))
        #expect(trees[0].diffs.map(\.diff) == [Array(#"{"version":3}"#.utf8)])
        #expect(trees[1].snapshot == Array(#"{"keys":[]}"#.utf8))
        #expect(try store.version(tree: "old", client: "c", seq: "3") == 3)
        // New writes: an append, a chunked snapshot (which compacts the old single-blob one away), a new tree.
        try commit(store, .append(tree: "old", diff: logged(4)))
        let big = randomBytes(5 * Self.chunk + 1, seed: 9)
        try commit(store, .snapshot(tree: "old", version: 4, snapshot: big))
        try commit(store, .createTree(id: "new", about: [], snapshot: big))
        #expect(try rows(store, "SELECT version FROM snapshots WHERE tree = 'old'") == ["4"])
        store.close()
        #expect(try header(path, at: 60) == 2)
        let reopened = try TreeStore(options: options)
        defer { reopened.close() }
        let again = try reopened.load()
        #expect(again.map(\.id) == ["old", "tiny", "new"])
        #expect(again[0].snapshotVersion == 4 && again[0].snapshot == big && again[0].diffs.isEmpty)
        #expect(again[2].snapshot == big)
    }

    // MARK: Compaction, deletion, a full disk

    @Test func compactionAndDeletionRemoveTheChunks() throws {
        let directory = try storeDirectory()
        defer { removeStoreDirectory(directory) }
        let store = try TreeStore(options: chunkedOptions(directory))
        try commit(store, .createTree(id: "t", about: [], snapshot: randomBytes(10 * Self.chunk, seed: 0)))
        var version = 0
        var newest: [UInt8] = []
        for cycle in 1...6 {
            for _ in 0..<3 {
                version += 1
                try commit(store, .append(tree: "t", diff: logged(version)))
            }
            newest = randomBytes((10 + cycle) * Self.chunk, seed: UInt64(cycle))
            try commit(store, .snapshot(tree: "t", version: version, snapshot: newest))
        }
        // keepSnapshots 2: the chunks of the last two snapshots (15 and 16 chunks) and nothing else.
        try waitUntil { try rows(store, "SELECT count(*) FROM snapshot_chunks") == ["31"] }
        #expect(try rows(store, "SELECT count(DISTINCT chunks) FROM snapshot_chunks") == ["2"])
        #expect(try store.load().first?.snapshot == newest)
        #expect(try store.diffs(tree: "t", from: 0, to: 100).map(\.version) == [16, 17, 18])
        try commit(store, .deleteTree(id: "t"))
        try waitUntil { try rows(store, "SELECT count(*) FROM snapshot_chunks") == ["0"] }
        #expect(try store.load().isEmpty)
        #expect(store.detailedStatistics.garbageCommits > 0)
        store.close()
        #expect(byteSize(ofFile: store.path) < 8 * Self.chunk, "the free pages went back: \(byteSize(ofFile: store.path))")
    }

    @Test func aFullDiskFailsTheChunkedWriteAloneAndItsChunksGo() throws {
        let directory = try storeDirectory()
        defer { removeStoreDirectory(directory) }
        var options = chunkedOptions(directory)
        options.maxPageCount = 200  // 800 KiB: room for a few chunks of 64 KiB, not for 20
        let store = try TreeStore(options: options)
        defer { store.close() }
        try commit(store, .createTree(id: "small", about: [], snapshot: Self.smallSnapshot))
        let result = write(store, .createTree(id: "big", about: [], snapshot: randomBytes(20 * Self.chunk, seed: 5)))
        guard case .failure(let error) = result else {
            Issue.record("a 1.3 MB snapshot fit into 800 KiB")
            return
        }
        #expect(error.kind == .diskFull, "\(error)")
        #expect(error.message.contains(#"of the snapshot of tree "big" at version 0"#), "\(error)")
        try waitUntil { try rows(store, "SELECT count(*) FROM snapshot_chunks") == ["0"] }
        #expect(try store.load().map(\.id) == ["small"], "no half tree")
        for v in 1...20 { try commit(store, .append(tree: "small", diff: logged(v))) }
        #expect(try store.load().first?.diffs.count == 20)
    }

    // MARK: Order

    /// Other trees' writes queued behind a large snapshot commit before its last transaction; the writes of its own
    /// tree wait for it. Deterministic: the writer is held in a completion while everything is queued, and the
    /// chunk hook queues more while the chunks are written.
    @Test func otherTreesWritesAreNotHeldBehindALargeSnapshot() throws {
        let directory = try storeDirectory()
        defer { removeStoreDirectory(directory) }
        var options = chunkedOptions(directory)
        let store = Locked<TreeStore?>(nil)
        let order = Locked<[String]>([])
        let failures = Locked<[String]>([])
        let done = DispatchSemaphore(value: 0)
        @Sendable func enqueue(_ label: String, _ write: StoreWrite) {
            store.withLock { $0 }!.enqueue(write) { result in
                if case .failure(let error) = result { failures.withLock { $0.append("\(label): \(error)") } }
                order.withLock { $0.append(label) }
                done.signal()
            }
        }
        options.chunkHook = { event in
            if event == .chunk(tree: "big", index: 4, count: 16) {
                enqueue("small 4 (during)", .append(tree: "small", diff: logged(4)))
            }
        }
        store.withLock { $0 = try? TreeStore(options: options) }
        let opened = try #require(store.withLock { $0 })
        defer { opened.close() }
        try commit(opened, .createTree(id: "small", about: [], snapshot: Self.smallSnapshot))
        let gate = DispatchSemaphore(value: 0)
        opened.enqueue(.append(tree: "small", diff: logged(1))) { _ in gate.wait() }  // holds the writer
        enqueue("big created", .createTree(id: "big", about: [], snapshot: randomBytes(16 * Self.chunk, seed: 1)))
        enqueue("big 1", .append(tree: "big", diff: logged(1)))
        enqueue("small 2", .append(tree: "small", diff: logged(2)))
        enqueue("small 3", .append(tree: "small", diff: logged(3)))
        gate.signal()
        for _ in 0..<5 { done.wait() }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        #expect(order.withLock { $0 } == ["small 2", "small 3", "small 4 (during)", "big created", "big 1"])

        // Appends may pass a snapshot that leaves the latest version as it is; not one that re-bases the log.
        order.withLock { $0 = [] }
        opened.enqueue(.append(tree: "small", diff: logged(5))) { _ in gate.wait() }
        enqueue("big snapshot at 1", .snapshot(tree: "big", version: 1, snapshot: randomBytes(4 * Self.chunk, seed: 2)))
        enqueue("big 2", .append(tree: "big", diff: logged(2)))
        enqueue("big snapshot at 5", .snapshot(tree: "big", version: 5, snapshot: randomBytes(4 * Self.chunk, seed: 3)))
        enqueue("big 6", .append(tree: "big", diff: logged(6)))
        enqueue("small 6", .append(tree: "small", diff: logged(6)))
        gate.signal()
        for _ in 0..<5 { done.wait() }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        #expect(
            order.withLock { $0 } == ["big 2", "small 6", "big snapshot at 1", "big snapshot at 5", "big 6"])
        let big = try #require(try opened.load().first { $0.id == "big" })
        #expect(big.snapshotVersion == 5 && big.diffs.map(\.version) == [6])
    }

    // MARK: Benchmark

    /// `CANOPY_STORE_BENCH=1 swift test --filter ChunkedSnapshotTests/otherTreesWaitForOneChunkAtMost`: one thread
    /// appends to a small tree, one append at a time, while a 35 MB tree is created and then snapshotted three times
    /// (each snapshot compacting one away: its chunks are released); prints each append's commit latency. With
    /// chunks of 64 MiB, each snapshot is one piece in one transaction: the store as it was before chunks.
    @Test(
        .enabled(if: ProcessInfo.processInfo.environment["CANOPY_STORE_BENCH"] != nil), .serialized,
        arguments: [1 << 20, 64 << 20])
    func otherTreesWaitForOneChunkAtMost(chunkBytes: Int) throws {
        let directory = try storeDirectory()
        defer { removeStoreDirectory(directory) }
        var options = StoreOptions(directory: directory)
        options.reserveBytes = 0
        options.snapshotChunkBytes = chunkBytes
        let store = try TreeStore(options: options)
        defer { store.close() }
        try commit(store, .createTree(id: "small", about: [], snapshot: Self.smallSnapshot))
        let big = randomBytes(35 << 20, seed: 1)
        let stop = Locked(false)
        let latencies = Locked<[UInt64]>([])
        let finished = DispatchSemaphore(value: 0)
        Thread {
            var version = 0
            while !stop.withLock({ $0 }) {
                version += 1
                let start = monotonicNanoseconds()
                _ = write(store, .append(tree: "small", diff: logged(version)))
                let took = monotonicNanoseconds() - start
                latencies.withLock { $0.append(took) }
                usleep(2000)
            }
            finished.signal()
        }.start()
        usleep(200_000)
        let start = monotonicNanoseconds()
        try commit(store, .createTree(id: "big", about: [], snapshot: big))
        for version in 1...3 { try commit(store, .snapshot(tree: "big", version: version, snapshot: big)) }
        let seconds = Double(monotonicNanoseconds() - start) / 1e9
        usleep(500_000)  // garbage of the last compaction
        stop.withLock { $0 = true }
        finished.wait()
        let sorted = latencies.withLock { $0 }.sorted()
        func ms(_ q: Double) -> String {
            String(format: "%.1f", Double(sorted[min(sorted.count - 1, Int(q * Double(sorted.count)))]) / 1e6)
        }
        print(
            "chunk bench, chunks of \(chunkBytes >> 20) MiB: create + 3 snapshots of 35 MiB in "
                + "\(String(format: "%.2f", seconds)) s; \(sorted.count) appends meanwhile: "
                + "p50 \(ms(0.5)) / p99 \(ms(0.99)) / max \(ms(1)) ms; \(store.detailedStatistics.chunks) chunks, "
                + "\(store.detailedStatistics.garbageCommits) garbage commits")
    }
}

// MARK: - Helpers

private func chunkedOptions(_ directory: String) -> StoreOptions {
    var options = StoreOptions(directory: directory)
    options.snapshotChunkBytes = ChunkedSnapshotTests.chunk
    options.reserveBytes = 0
    return options
}

private func rows(_ store: TreeStore, _ sql: String) throws -> [String] {
    try TreeStore.queryForTesting(file: store.path, sql)
}

/// Polls `condition` (garbage is deleted by the writer after the write that released it completed).
private func waitUntil(_ condition: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(20)
    while try !condition() {
        if Date() > deadline {
            Issue.record("timed out")
            return
        }
        usleep(5000)
    }
}

private func randomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
    var rng = SplitMix64(seed: seed)
    return (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
}

private func logged(_ version: Int) -> StoredDiff {
    StoredDiff(
        version: version, client: "c", seq: "\(version)", diff: Array(#"{"type":"diff","version":\#(version)}"#.utf8))
}

private func header(_ path: String, at offset: Int) throws -> UInt32 {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    return data[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
}
