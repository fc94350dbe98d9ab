import CanopyCore
import CanopyTestSupport
import Dispatch
import Foundation
import Testing

@testable import CanopyServer
@testable import CanopyStore
@testable import CanopySupport

/// The durable store (`TreeStore`, docs/storage.md) on real files in a temporary directory per test: round trips
/// through close and reopen, group commit, refused writes, compaction and bounded disk use, seq look-ups, damaged and
/// foreign files, disk full, and durability none.
@Suite struct TreeStoreTests {
    // MARK: Round trips

    @Test func roundTripsTreesThroughCloseAndReopen() throws {
        let directory = try storeDirectory()
        defer { removeStoreDirectory(directory) }
        let store = try TreeStore(options: StoreOptions(directory: directory))
        #expect(store.path == directory + "/canopy.db")
        try commit(store, .createTree(id: "a", about: bytes(#"{"title":"A"}"#), snapshot: snapshotText(0)))
        try commit(store, .createTree(id: "b", about: [], snapshot: snapshotText(100)))
        for v in 1...5 {
            try commit(store, .append(tree: "a", diff: diff(v, client: "alice", seq: v == 4 ? nil : "\(v)")))
        }
        // A snapshot of an older state (taken while later diffs were logged) keeps the diffs after it.
        try commit(store, .snapshot(tree: "a", version: 3, snapshot: snapshotText(3)))
        try commit(store, .append(tree: "b", diff: diff(1, client: "", seq: #""x""#)))
        try commit(store, .deleteTree(id: "b"))
        try commit(store, .createTree(id: "c", about: bytes(#"{"description":"é"}"#), snapshot: snapshotText(7)))
        try commit(store, .append(tree: "c", diff: diff(1, client: "", seq: #""x""#)))
        store.close()
        #expect(
            !FileManager.default.fileExists(atPath: store.path + "-wal"),
            "a clean close checkpoints and removes the WAL")
        #expect(!FileManager.default.fileExists(atPath: store.path + "-shm"))
        let header = try Data(contentsOf: URL(fileURLWithPath: store.path))
        #expect(header.prefix(16) == Data("SQLite format 3\0".utf8))
        #expect(bigEndian(header, at: 60) == 2, "user_version is the schema version")
        #expect(bigEndian(header, at: 68) == 0x4361_6E6F, "application_id")

        let reopened = try TreeStore(options: StoreOptions(directory: directory + "/"))
        defer { reopened.close() }
        #expect(reopened.path == directory + "/canopy.db")
        let trees = try reopened.load()
        #expect(trees.map(\.id) == ["a", "c"])
        let a = trees[0]
        #expect(a.about == bytes(#"{"title":"A"}"#))
        #expect(a.snapshotVersion == 3)
        #expect(a.snapshot == snapshotText(3))
        #expect(a.diffs == [diff(4, client: "alice", seq: nil), diff(5, client: "alice", seq: "5")])
        let c = trees[1]
        #expect(c.about == bytes(#"{"description":"é"}"#))
        #expect(c.snapshotVersion == 0 && c.snapshot == snapshotText(7))
        #expect(c.diffs == [diff(1, client: "", seq: #""x""#)])
        #expect(try reopened.diffs(tree: "a", from: 1, to: 4).map(\.version) == [1, 2, 3, 4])
        #expect(try reopened.diffs(tree: "b", from: 0, to: 10).isEmpty, "a deleted tree has no rows left")
        // Appends go on after what was loaded.
        try commit(reopened, .append(tree: "a", diff: diff(6, client: "bob", seq: "1")))
        #expect(try reopened.diffs(tree: "a", from: 6, to: 6) == [diff(6, client: "bob", seq: "1")])
    }

    @Test func oneStoreAtATimePerDirectory() throws {
        let directory = try storeDirectory()
        defer { removeStoreDirectory(directory) }
        let first = try TreeStore(options: StoreOptions(directory: directory))
        #expect {
            _ = try TreeStore(options: StoreOptions(directory: directory))
        } throws: { error in
            "\(error)".contains("another canopyd is using this data directory") && "\(error)".contains("canopy.db")
        }
        first.close()
        let second = try TreeStore(options: StoreOptions(directory: directory))  // the lock went with the close
        second.close()
    }

    @Test func aboutDefaultsToAnEmptyObject() throws {
        let directory = try storeDirectory()
        defer { removeStoreDirectory(directory) }
        let store = try TreeStore(options: StoreOptions(directory: directory))
        defer { store.close() }
        try commit(store, .createTree(id: "t", about: [], snapshot: snapshotText(1)))
        #expect(try store.load().first?.about == bytes("{}"))
    }

    @Test func storesLargeSnapshotsExactly() throws {
        let directory = try storeDirectory()
        defer { removeStoreDirectory(directory) }
        var rng = SplitMix64(seed: 11)
        var big = [UInt8](repeating: 0x61, count: 12 << 20)
        for i in stride(from: 0, to: big.count, by: 4093) { big[i] = UInt8(truncatingIfNeeded: rng.next()) }
        let store = try TreeStore(options: StoreOptions(directory: directory))
        try commit(store, .createTree(id: "big", about: [], snapshot: big))
        big[5] = 0x7A
        try commit(store, .snapshot(tree: "big", version: 0, snapshot: big))  // the same version replaces it
        store.close()
        let reopened = try TreeStore(options: StoreOptions(directory: directory))
        defer { reopened.close() }
        let loaded = try reopened.load()
        #expect(loaded.count == 1)
        #expect(loaded.first?.snapshot == big)
    }

    @Test func durabilityNoneStoresTheSame() throws {
        let directory = try storeDirectory()
        defer { removeStoreDirectory(directory) }
        var options = StoreOptions(directory: directory)
        options.durability = .none
        let store = try TreeStore(options: options)
        try commit(store, .createTree(id: "t", about: [], snapshot: snapshotText(0)))
        let done = Countdown(200)
        for v in 1...200 {
            store.enqueue(.append(tree: "t", diff: diff(v, client: "c", seq: "\(v)"))) { done.record($0) }
        }
        done.wait()
        #expect(done.failures.isEmpty)
        store.close()
        let reopened = try TreeStore(options: options)
        defer { reopened.close() }
        #expect(try reopened.load().first?.diffs.map(\.version) == Array(1...200))
        #expect(try reopened.version(tree: "t", client: "c", seq: "77") == 77)
    }

    // MARK: Group commit and write checks

    @Test func groupsConcurrentWritesIntoFewCommitsInQueueOrder() throws {
        let directory = try storeDirectory()
        defer { removeStoreDirectory(directory) }
        let store = try TreeStore(options: StoreOptions(directory: directory))
        defer { store.close() }
        try commit(store, .createTree(id: "t", about: [], snapshot: snapshotText(0)))
        let before = store.statistics
        let order = Locked<[Int]>([])
        let done = Countdown(1000)
        DispatchQueue.global().async {
            for v in 1...1000 {
                store.enqueue(.append(tree: "t", diff: diff(v, client: "w", seq: "\(v)"))) { result in
                    order.withLock { $0.append(v) }
                    done.record(result)
                }
            }
        }
        // Reads on this thread while the writer commits: always a contiguous prefix of the log.
        var seen = 0
        while seen < 1000 {
            let versions = try store.diffs(tree: "t", from: 1, to: 1000).map(\.version)
            #expect(versions == Array(1..<(versions.count + 1)))
            #expect(versions.count >= seen)
            seen = versions.count
            if seen < 1000 { usleep(500) }
        }
        done.wait()
        #expect(done.failures.isEmpty)
        #expect(order.withLock { $0 } == Array(1...1000), "completions run in queue order")
        let after = store.statistics
        let commits = after.commits - before.commits
        let writes = after.writes - before.writes
        #expect(writes == 1000)
        #expect(commits < writes, "group commit: \(commits) commits for \(writes) writes")
        #expect(store.detailedStatistics.largestGroup > 1)
    }

    @Test func refusesWritesThatDoNotApplyWithoutFailingTheOthers() throws {
        let directory = try storeDirectory()
        defer { removeStoreDirectory(directory) }
        let store = try TreeStore(options: StoreOptions(directory: directory))
        defer { store.close() }
        let writes: [(StoreWrite, String?)] = [
            (.createTree(id: "x", about: [], snapshot: snapshotText(0)), nil),
            (.append(tree: "x", diff: diff(1, client: "c", seq: "1")), nil),
            (
                .append(tree: "x", diff: diff(3, client: "c", seq: "3")),
                "version 3 is not the next one (the latest stored version is 1)"
            ),
            (.append(tree: "y", diff: diff(1, client: "c", seq: "1")), #"append to tree "y": no such tree"#),
            (.createTree(id: "x", about: [], snapshot: snapshotText(0)), "already exists"),
            (.append(tree: "x", diff: diff(2, client: "c", seq: "2")), nil),
            (.snapshot(tree: "x", version: 2, snapshot: snapshotText(2)), nil),
            (.snapshot(tree: "x", version: 1, snapshot: snapshotText(1)), "older than its newest snapshot (version 2)"),
            (.snapshot(tree: "nope", version: 1, snapshot: snapshotText(1)), "no such tree"),
            (.deleteTree(id: "never-existed"), nil),
            (
                .append(tree: "x", diff: StoredDiff(version: 3, client: "", seq: nil, diff: [])),
                "the diff of version 3 is empty"
            ),
            (.createTree(id: "z", about: [], snapshot: []), "the snapshot is empty"),
            (.append(tree: "x", diff: diff(3, client: "c", seq: "3")), nil),
        ]
        // Queued in one burst, so most land in the same group; refused ones must not sink it.
        let done = Countdown(writes.count)
        let results = Locked<[Int: Result<Void, StoreError>]>([:])
        for (index, (write, _)) in writes.enumerated() {
            store.enqueue(write) { result in
                results.withLock { $0[index] = result }
                done.record(result)
            }
        }
        done.wait()
        let outcomes = results.withLock { $0 }
        for (index, (_, expected)) in writes.enumerated() {
            switch outcomes[index] {
            case .success?:
                #expect(expected == nil, "write \(index) succeeded, expected \(expected ?? "")")
            case .failure(let error)?:
                #expect(expected != nil && error.message.contains(expected!), "write \(index): \(error)")
                #expect(error.description.hasPrefix(store.path + ": "))
            case nil:
                Issue.record("write \(index) never completed")
            }
        }
        #expect(store.detailedStatistics.rejected == 7)
        let tree = try #require(try store.load().first)
        #expect(tree.id == "x" && tree.snapshotVersion == 2 && tree.diffs.map(\.version) == [3])
    }

    @Test func aSnapshotBeyondTheLogRebasesIt() throws {
        let directory = try storeDirectory()
        defer { removeStoreDirectory(directory) }
        let store = try TreeStore(options: StoreOptions(directory: directory))
        defer { store.close() }
        try commit(store, .createTree(id: "t", about: [], snapshot: snapshotText(0)))
        try commit(store, .append(tree: "t", diff: diff(1, client: "", seq: nil)))
        // Say appends 2…5 failed (disk full): the caller stores the state it has, at version 5.
        try commit(store, .snapshot(tree: "t", version: 5, snapshot: snapshotText(5)))
        #expect(throws: StoreError.self) { try commit(store, .append(tree: "t", diff: diff(2, client: "", seq: nil))) }
        try commit(store, .append(tree: "t", diff: diff(6, client: "", seq: nil)))
        let tree = try #require(try store.load().first)
        #expect(tree.snapshotVersion == 5 && tree.snapshot == snapshotText(5) && tree.diffs.map(\.version) == [6])
    }

    @Test func closeFinishesQueuedWritesAndIsIdempotent() throws {
        let directory = try storeDirectory()
        defer { removeStoreDirectory(directory) }
        let store = try TreeStore(options: StoreOptions(directory: directory))
        try commit(store, .createTree(id: "t", about: [], snapshot: snapshotText(0)))
        let done = Countdown(300)
        for v in 1...300 { store.enqueue(.append(tree: "t", diff: diff(v, client: "", seq: nil))) { done.record($0) } }
        store.close()
        #expect(done.count == 0, "close runs every queued completion before it returns")
        #expect(done.failures.isEmpty)
        store.close()
        let late = Countdown(1)
        store.enqueue(.deleteTree(id: "t")) { late.record($0) }
        #expect(late.count == 0, "after close the completion runs at once")
        #expect(late.failures.first?.message == "the store is closed")
        #expect(throws: StoreError.self) { try store.diffs(tree: "t", from: 0, to: 9) }
        #expect(throws: StoreError.self) { try store.load() }

        let reopened = try TreeStore(options: StoreOptions(directory: directory))
        defer { reopened.close() }
        #expect(try reopened.load().first?.diffs.count == 300)
    }

    @Test func closeFromACompletionDoesNotWaitForItself() throws {
        let directory = try storeDirectory()
        defer { removeStoreDirectory(directory) }
        let store = try TreeStore(options: StoreOptions(directory: directory))
        let done = Countdown(2)
        store.enqueue(.createTree(id: "t", about: [], snapshot: snapshotText(0))) { result in
            store.close()
            done.record(result)
        }
        store.enqueue(.append(tree: "t", diff: diff(1, client: "", seq: nil))) { done.record($0) }
        done.wait()
        #expect(done.failures.isEmpty, "writes queued before the close still run")
        store.close()
        // The detached writer thread closes the database right after; a new store opens it meanwhile or after.
        let reopened = try TreeStore(options: StoreOptions(directory: directory))
        defer { reopened.close() }
        #expect(try reopened.load().first?.diffs.map(\.version) == [1])
    }

    // MARK: Compaction

    @Test(arguments: [1, 2, 3])
    func compactionKeepsTheNewestSnapshotsAndTheLogAfterTheOldest(keep: Int) throws {
        let directory = try storeDirectory()
        defer { removeStoreDirectory(directory) }
        var options = StoreOptions(directory: directory)
        options.keepSnapshots = keep
        let store = try TreeStore(options: options)
        defer { store.close() }
        try commit(store, .createTree(id: "t", about: [], snapshot: snapshotText(0)))
        for v in 1...35 {
            try commit(store, .append(tree: "t", diff: diff(v, client: "c", seq: "\(v)")))
            if v % 10 == 0 { try commit(store, .snapshot(tree: "t", version: v, snapshot: snapshotText(v))) }
        }
        // Snapshots at 0, 10, 20, 30: the newest `keep` stay, and the log after the oldest of them.
        let oldestKept = [1: 30, 2: 20, 3: 10][keep]!
        #expect(try store.diffs(tree: "t", from: 0, to: 100).map(\.version) == Array((oldestKept + 1)...35))
        #expect(try store.diffs(tree: "t", from: 33, to: 34).map(\.version) == [33, 34])
        #expect(try store.diffs(tree: "t", from: 34, to: 33).isEmpty)
        #expect(try store.version(tree: "t", client: "c", seq: "\(oldestKept)") == nil, "compacted away")
        #expect(try store.version(tree: "t", client: "c", seq: "\(oldestKept + 1)") == oldestKept + 1)
        let tree = try #require(try store.load().first)
        #expect(tree.snapshotVersion == 30 && tree.snapshot == snapshotText(30))
        #expect(tree.diffs.map(\.version) == [31, 32, 33, 34, 35])
        // The kept snapshots are exactly the newest `keep`: removing all but the oldest kept leaves it as the newest.
        store.close()
        try TreeStore.executeForTesting(file: store.path, "DELETE FROM snapshots WHERE version > \(oldestKept)")
        let reopened = try TreeStore(options: options)
        defer { reopened.close() }
        let rebuilt = try #require(try reopened.load().first)
        #expect(rebuilt.snapshotVersion == oldestKept && rebuilt.snapshot == snapshotText(oldestKept))
        #expect(rebuilt.diffs.map(\.version) == Array((oldestKept + 1)...35))
    }

    @Test func diskUseStaysBoundedOverManySnapshotCycles() throws {
        let directory = try storeDirectory()
        defer { removeStoreDirectory(directory) }
        let store = try TreeStore(options: StoreOptions(directory: directory))
        defer { store.close() }
        try commit(store, .createTree(id: "t", about: [], snapshot: snapshotText(0)))
        var version = 0
        var written = 0
        var sizes: [Int] = []
        var databaseSizes: [Int] = []
        for cycle in 1...50 {
            for _ in 0..<20 {
                version += 1
                let payload = diff(version, client: "c", seq: "\(version)", padding: 2000)
                written += payload.diff.count
                try commit(store, .append(tree: "t", diff: payload))
            }
            let snapshot = snapshotText(version, padding: 256 << 10)
            written += snapshot.count
            try commit(store, .snapshot(tree: "t", version: version, snapshot: snapshot))
            if cycle % 5 == 0 {
                sizes.append(store.diskBytes())
                databaseSizes.append(byteSize(ofFile: store.path))
            }
        }
        // The WAL is reused after each checkpoint (about 4 MB at most here); the database file holds about
        // keepSnapshots + 1 snapshots and the log after the oldest kept one, whatever was written before.
        let last = sizes.last!
        #expect(last < written / 2, "disk use \(sizes) after writing \(written) bytes")
        #expect(last <= sizes[3] + (1 << 20), "no growth from cycle 20 to 50: \(sizes)")
        #expect(databaseSizes.last! < 4 * (256 << 10) + (1 << 20), "database file: \(databaseSizes)")
        // Deleting the tree gives most of the file back (incremental vacuum once more than half of it is free).
        store.close()
        let fileBefore = byteSize(ofFile: store.path)
        let reopened = try TreeStore(options: StoreOptions(directory: directory))
        try commit(reopened, .deleteTree(id: "t"))
        reopened.close()
        #expect(
            byteSize(ofFile: store.path) < fileBefore / 4, "after delete: \(byteSize(ofFile: store.path)) bytes, before \(fileBefore)")
    }

    // MARK: Seq look-up

    @Test func findsTheVersionOfAClientsSeq() throws {
        let directory = try storeDirectory()
        defer { removeStoreDirectory(directory) }
        let store = try TreeStore(options: StoreOptions(directory: directory))
        defer { store.close() }
        try commit(store, .createTree(id: "t", about: [], snapshot: snapshotText(0)))
        try commit(store, .createTree(id: "u", about: [], snapshot: snapshotText(0)))
        let log: [(String, String?)] = [
            ("alice", "1"), ("bob", "1"), ("alice", #""a""#), ("alice", nil), ("alice", "1"), ("", "1"),
        ]
        for (index, (client, seq)) in log.enumerated() {
            try commit(store, .append(tree: "t", diff: diff(index + 1, client: client, seq: seq)))
        }
        #expect(try store.version(tree: "t", client: "alice", seq: "1") == 5, "the newest batch with that seq")
        #expect(try store.version(tree: "t", client: "bob", seq: "1") == 2)
        #expect(try store.version(tree: "t", client: "alice", seq: #""a""#) == 3)
        #expect(try store.version(tree: "t", client: "", seq: "1") == 6)
        #expect(try store.version(tree: "t", client: "carol", seq: "1") == nil)
        #expect(try store.version(tree: "t", client: "alice", seq: "2") == nil)
        #expect(try store.version(tree: "u", client: "alice", seq: "1") == nil)
        #expect(try store.version(tree: "none", client: "alice", seq: "1") == nil)
    }

    // MARK: Damaged and foreign files

    enum Damage: String, CustomTestStringConvertible, Sendable {
        case truncateToHalf, garbageInTheMiddle, textFile, schemaVersion99, foreignApplication, emptyFile
        case foreignSQLiteDatabase, walWithoutDatabase, directoryMissing
        var testDescription: String { rawValue }
    }

    @Test(arguments: [
        ("DELETE FROM diffs WHERE tree = 't' AND version = 3", #"tree "t": the log has a gap: version 3 is missing"#),
        ("DELETE FROM snapshots WHERE tree = 'u'", #"tree "u" has no snapshot"#),
        ("DELETE FROM trees WHERE id = 'u'", #"tree "u" has diffs but is not in the trees table"#),
        ("UPDATE diffs SET diff = NULL WHERE tree = 't' AND version = 2", "the diff of version 2 is missing"),
    ])
    func loadReportsAnInconsistentLog(damage: String, expected: String) throws {
        let directory = try storeDirectory()
        defer { removeStoreDirectory(directory) }
        let path = try writeSampleStore(directory)
        try TreeStore.executeForTesting(file: path, damage)
        let store = try TreeStore(options: StoreOptions(directory: directory))
        defer { store.close() }
        #expect {
            try store.load()
        } throws: { error in
            let error = error as! StoreError
            return error.file == path && error.description.hasPrefix(path + ": ") && error.message.contains(expected)
        }
    }

    @Test(arguments: [
        Damage.truncateToHalf, .garbageInTheMiddle, .textFile, .schemaVersion99, .foreignApplication, .emptyFile,
        .foreignSQLiteDatabase, .walWithoutDatabase, .directoryMissing,
    ])
    func refusesDamagedOrForeignFiles(damage: Damage) throws {
        let directory = try storeDirectory()
        defer { removeStoreDirectory(directory) }
        let path = try writeSampleStore(directory)
        var opened = directory
        switch damage {
        case .truncateToHalf:
            let size = byteSize(ofFile: path)
            #expect(truncate(path, off_t(size / 2)) == 0)
        case .garbageInTheMiddle:
            var data = try Data(contentsOf: URL(fileURLWithPath: path))
            let page = 4096
            let middle = (data.count / page / 2) * page
            var rng = SplitMix64(seed: 3)
            for i in middle..<(middle + page) { data[i] = UInt8(truncatingIfNeeded: rng.next()) }
            try data.write(to: URL(fileURLWithPath: path))
        case .textFile:
            try Data("title,description\nhello,world\n".utf8).write(to: URL(fileURLWithPath: path))
        case .schemaVersion99:
            try patchBigEndian(path, at: 60, 99)
        case .foreignApplication:
            try patchBigEndian(path, at: 68, 0)
        case .emptyFile:
            try Data().write(to: URL(fileURLWithPath: path))
        case .foreignSQLiteDatabase:
            removeStoreDirectory(path)
            try TreeStore.executeForTesting(file: path, "CREATE TABLE notes(x)", create: true)
        case .walWithoutDatabase:
            try FileManager.default.moveItem(atPath: path, toPath: path + "-wal")
        case .directoryMissing:
            opened = directory + "/missing"
        }
        let expected = [
            .truncateToHalf: "malformed", .garbageInTheMiddle: "malformed", .textFile: "not a database",
            .schemaVersion99: "schema version 99 is newer",
            .foreignApplication: "not a Canopy database (application_id 0",
            .emptyFile: "empty (0 bytes)", .foreignSQLiteDatabase: "not a Canopy database (application_id 0",
            .walWithoutDatabase: "refusing to start an empty store", .directoryMissing: "No such file or directory",
        ][damage]!
        let file = opened + "/canopy.db"
        do {
            let store = try TreeStore(options: StoreOptions(directory: opened))
            defer { store.close() }
            let trees = try store.load()
            Issue.record("\(damage): opened and loaded \(trees.count) trees")
        } catch {
            #expect(error.file == file)
            #expect(error.description.hasPrefix(file + ": "), "\(error)")
            #expect(error.message.contains(expected), "\(damage): \(error)")
        }
    }

    /// Every page of a small store overwritten with garbage, one at a time: each is caught by `init` (header checks,
    /// quick_check) or `load`, never read as a smaller or empty store.
    @Test func garbageOnAnyPageIsCaught() throws {
        let directory = try storeDirectory()
        defer { removeStoreDirectory(directory) }
        let path = try writeSampleStore(directory)
        let pristine = try Data(contentsOf: URL(fileURLWithPath: path))
        let pages = pristine.count / 4096
        #expect(pages > 5)
        var rng = SplitMix64(seed: 5)
        for page in 0..<pages {
            var data = pristine
            for i in (page * 4096)..<((page + 1) * 4096) { data[i] = UInt8(truncatingIfNeeded: rng.next()) }
            try data.write(to: URL(fileURLWithPath: path))
            do {
                let store = try TreeStore(options: StoreOptions(directory: directory))
                defer { store.close() }
                let trees = try store.load()
                Issue.record("page \(page + 1) of \(pages): loaded \(trees.count) trees")
            } catch {
                #expect(error.file == path)
            }
            for suffix in ["-wal", "-shm"] { removeStoreDirectory(path + suffix) }
        }
    }

    // MARK: Disk full

    @Test func diskFullFailsTheTransactionAndTheStoreRecovers() throws {
        let directory = try storeDirectory()
        defer { removeStoreDirectory(directory) }
        var options = StoreOptions(directory: directory)
        options.maxPageCount = 80
        let store = try TreeStore(options: options)
        defer { store.close() }
        try commit(store, .createTree(id: "small", about: [], snapshot: snapshotText(0)))
        try commit(store, .createTree(id: "big", about: [], snapshot: snapshotText(0)))
        var failure: StoreError?
        var version = 0
        while failure == nil && version < 1000 {
            switch write(store, .append(tree: "big", diff: diff(version + 1, client: "", seq: nil, padding: 3000))) {
            case .success: version += 1
            case .failure(let error): failure = error
            }
        }
        let error = try #require(failure, "80 pages never filled up")
        #expect(error.message.contains("full"), "\(error)")
        #expect(error.description.hasPrefix(store.path + ": disk full"))
        #expect(error.kind == .diskFull)
        #expect(version > 0)
        // Nothing of the failed transaction stays: the same version fails again for the same reason, not as a gap.
        let again = write(store, .append(tree: "big", diff: diff(version + 1, client: "", seq: nil, padding: 3000)))
        #expect((try? again.get()) == nil)
        if case .failure(let error) = again { #expect(error.message.contains("full"), "\(error)") }
        // Reads still work.
        #expect(try store.diffs(tree: "big", from: 1, to: 10_000).count == version)
        #expect(try store.load().count == 2)
        // Freeing pages lets writes through again.
        try commit(store, .deleteTree(id: "big"))
        for v in 1...20 { try commit(store, .append(tree: "small", diff: diff(v, client: "", seq: nil, padding: 500))) }
        #expect(try store.load().map(\.id) == ["small"])
        #expect(store.detailedStatistics.failedCommits == 2)
    }

    /// `canopy.reserve` is allocated at open (whole blocks, not a sparse length), follows the configured size, and
    /// goes with a size of 0. Releasing it on a really full disk is tested in DiskFullTests (on a tmpfs).
    @Test func theReserveIsTakenAtOpenAndFollowsItsSize() throws {
        let directory = try storeDirectory()
        defer { removeStoreDirectory(directory) }
        let reserve = directory + "/canopy.reserve"
        for size in [1 << 20, 256 << 10, 0] {
            var options = StoreOptions(directory: directory)
            options.reserveBytes = size
            let store = try TreeStore(options: options)
            #expect(store.reservedBytes == size)
            var info = stat()
            if size > 0 {
                #expect(stat(reserve, &info) == 0 && Int(info.st_size) == size)
                #expect(Int(info.st_blocks) * 512 >= size, "allocated, not sparse")
            } else {
                #expect(stat(reserve, &info) != 0, "no reserve file with a size of 0")
            }
            store.close()
        }
    }

    // MARK: kill -9

    /// A child process (this test binary, running `appendUntilKilled`) appends as fast as it can and prints every
    /// acknowledged version; it is killed with SIGKILL mid-stream. Every acknowledged version must be in the store.
    @Test(arguments: [Durability.fsync, .none])
    func acknowledgedAppendsSurviveKill9(durability: Durability) throws {
        let directory = try storeDirectory()
        defer { removeStoreDirectory(directory) }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = ["--testing-library", "swift-testing", "--filter", "TreeStoreTests/appendUntilKilled"]
        var environment = ProcessInfo.processInfo.environment
        environment["CANOPY_STORE_CHILD"] = directory
        environment["CANOPY_STORE_CHILD_DURABILITY"] = durability.rawValue
        child.environment = environment
        child.standardError = FileHandle.nullDevice
        let output = try ChildProcesses.start {
            let output = Pipe()
            child.standardOutput = output
            try child.run()
            return output
        }
        let reader = output.fileHandleForReading
        var pending = ""
        var acknowledged = 0
        var killed = false
        var transcript: [String] = []
        let deadline = Date().addingTimeInterval(120)
        while true {
            let chunk = reader.availableData
            if chunk.isEmpty { break }  // EOF: the child is gone
            pending += String(decoding: chunk, as: UTF8.self)
            while let newline = pending.firstIndex(of: "\n") {
                let line = String(pending[..<newline])
                pending = String(pending[pending.index(after: newline)...])
                if line.hasPrefix("ack "), let v = Int(line.dropFirst(4)) {
                    acknowledged = max(acknowledged, v)
                } else if transcript.count < 40 {
                    transcript.append(line)
                }
            }
            if !killed && (acknowledged >= 3000 || Date() > deadline) {
                kill(child.processIdentifier, SIGKILL)
                killed = true
            }
        }
        child.waitUntilExit()
        #expect(child.terminationReason == .uncaughtSignal && child.terminationStatus == SIGKILL, "\(transcript)")
        #expect(acknowledged >= 3000, "the child acknowledged only \(acknowledged): \(transcript)")
        let store = try TreeStore(options: StoreOptions(directory: directory))
        defer { store.close() }
        let tree = try #require(try store.load().first)
        let last = tree.diffs.last?.version ?? 0
        #expect(last >= acknowledged, "acknowledged \(acknowledged), stored up to \(last)")
        #expect(
            try store.diffs(tree: "t", from: acknowledged, to: acknowledged) == [
                diff(acknowledged, client: "k", seq: nil, padding: 200)
            ])
    }

    /// The child side of `acknowledgedAppendsSurviveKill9` (runs only with CANOPY_STORE_CHILD set).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["CANOPY_STORE_CHILD"] != nil))
    func appendUntilKilled() throws {
        let environment = ProcessInfo.processInfo.environment
        var options = StoreOptions(directory: environment["CANOPY_STORE_CHILD"]!)
        options.durability = Durability(rawValue: environment["CANOPY_STORE_CHILD_DURABILITY"] ?? "") ?? .fsync
        let store = try TreeStore(options: options)
        try commit(store, .createTree(id: "t", about: [], snapshot: snapshotText(0)))
        let inFlight = DispatchSemaphore(value: 512)
        for v in 1...10_000_000 {
            inFlight.wait()
            store.enqueue(.append(tree: "t", diff: diff(v, client: "k", seq: nil, padding: 200))) { result in
                if case .success = result { FileHandle.standardOutput.write(Data("ack \(v)\n".utf8)) }
                inFlight.signal()
            }
        }
        store.close()
    }

    // MARK: Benchmark

    /// `CANOPY_STORE_BENCH=1 swift test --filter TreeStoreTests/commitRate`: appends/s with 200-byte diffs, for each
    /// durability, with the writer fed as fast as possible (group commit) and one append at a time.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["CANOPY_STORE_BENCH"] != nil))
    func commitRate() throws {
        for durability in [Durability.fsync, .none] {
            let directory = try storeDirectory()
            defer { removeStoreDirectory(directory) }
            var options = StoreOptions(directory: directory)
            options.durability = durability
            let store = try TreeStore(options: options)
            defer { store.close() }
            try commit(store, .createTree(id: "t", about: [], snapshot: snapshotText(0)))
            let count = 100_000
            let payloads = (1...count).map { diff($0, client: "bench", seq: "\($0)", padding: 200) }
            let done = Countdown(count)
            let before = store.detailedStatistics
            let start = DispatchTime.now().uptimeNanoseconds
            DispatchQueue.global().async {
                for payload in payloads { store.enqueue(.append(tree: "t", diff: payload)) { done.record($0) } }
            }
            done.wait()
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let after = store.detailedStatistics
            let commits = after.commits - before.commits
            print(
                "store bench \(durability): fed: \(count) appends in \(String(format: "%.2f", seconds)) s = "
                    + "\(Int(Double(count) / seconds)) appends/s, \(commits) commits, "
                    + "\(count / max(commits, 1)) writes/commit on average, largest group \(after.largestGroup)")
            #expect(done.failures.isEmpty)

            let serial = durability == .fsync ? 300 : 3000
            let serialStart = DispatchTime.now().uptimeNanoseconds
            for v in (count + 1)...(count + serial) {
                try commit(store, .append(tree: "t", diff: diff(v, client: "b", seq: nil, padding: 200)))
            }
            let serialSeconds = Double(DispatchTime.now().uptimeNanoseconds - serialStart) / 1e9
            print(
                "store bench \(durability): one at a time: \(Int(Double(serial) / serialSeconds)) appends/s "
                    + "(\(String(format: "%.3f", serialSeconds * 1000 / Double(serial))) ms per commit), "
                    + "disk \(store.diskBytes() >> 20) MiB")

            // 32 producers, each waiting for its append before the next (like 32 editing sessions): groups of ~32.
            let producers = 32
            let rounds = durability == .fsync ? 100 : 300
            for p in 0..<producers { try commit(store, .createTree(id: "p\(p)", about: [], snapshot: snapshotText(0))) }
            let mid = store.detailedStatistics
            let concurrentStart = DispatchTime.now().uptimeNanoseconds
            let finished = Countdown(producers)
            for p in 0..<producers {  // threads of their own: concurrentPerform would run only one per core
                Thread {
                    for v in 1...rounds {
                        _ = write(store, .append(tree: "p\(p)", diff: diff(v, client: "b", seq: nil, padding: 200)))
                    }
                    finished.record(.success(()))
                }.start()
            }
            finished.wait()
            let concurrentSeconds = Double(DispatchTime.now().uptimeNanoseconds - concurrentStart) / 1e9
            let end = store.detailedStatistics
            print(
                "store bench \(durability): \(producers) producers waiting for each append: "
                    + "\(Int(Double(producers * rounds) / concurrentSeconds)) appends/s, "
                    + String(
                        format: "%.1f", Double(end.writes - mid.writes) / Double(max(end.commits - mid.commits, 1)))
                    + " writes/commit on average, largest group \(end.largestGroup)")
        }
        // One large snapshot (about the size of a 1M-node tree's): commit, then load after reopening.
        let directory = try storeDirectory()
        defer { removeStoreDirectory(directory) }
        var store = try TreeStore(options: StoreOptions(directory: directory))
        let big = snapshotText(1, padding: 150 << 20)
        let start = DispatchTime.now().uptimeNanoseconds
        try commit(store, .createTree(id: "big", about: [], snapshot: big))
        let written = DispatchTime.now().uptimeNanoseconds
        store.close()
        let closed = DispatchTime.now().uptimeNanoseconds
        store = try TreeStore(options: StoreOptions(directory: directory))
        let opened = DispatchTime.now().uptimeNanoseconds
        let loaded = try store.load()
        let done = DispatchTime.now().uptimeNanoseconds
        #expect(loaded.first?.snapshot.count == big.count)
        store.close()
        func ms(_ a: UInt64, _ b: UInt64) -> String { "\((b - a) / 1_000_000) ms" }
        print(
            "store bench: \(big.count >> 20) MiB snapshot: commit (fsync) \(ms(start, written)), "
                + "close (checkpoint) \(ms(written, closed)), open (quick_check) \(ms(closed, opened)), "
                + "load \(ms(opened, done))")
    }
}

// MARK: - Helpers

/// Counts completions down and keeps the failures; `wait` blocks until every expected completion ran.
private final class Countdown: @unchecked Sendable {  // state behind `state`'s lock, waiting on `semaphore`
    private let state: Locked<(left: Int, failures: [StoreError])>
    private let semaphore = DispatchSemaphore(value: 0)

    init(_ count: Int) { state = Locked((count, [])) }

    func record(_ result: Result<Void, StoreError>) {
        let finished = state.withLock { state -> Bool in
            if case .failure(let error) = result { state.failures.append(error) }
            state.left -= 1
            return state.left == 0
        }
        if finished { semaphore.signal() }
    }

    func wait() { semaphore.wait() }
    var count: Int { state.withLock { $0.left } }
    var failures: [StoreError] { state.withLock { $0.failures } }
}

/// Enqueues one write and waits for its completion (the store tests' and the disk-full tests').
func write(_ store: TreeStore, _ change: StoreWrite) -> Result<Void, StoreError> {
    let result = Locked<Result<Void, StoreError>?>(nil)
    let done = DispatchSemaphore(value: 0)
    store.enqueue(change) { outcome in
        result.withLock { $0 = outcome }
        done.signal()
    }
    done.wait()
    return result.withLock { $0! }
}

func commit(_ store: TreeStore, _ change: StoreWrite) throws(StoreError) {
    try write(store, change).get()
}

/// A store with trees "t" (5 diffs), "u" (2 diffs) and "v" (snapshot only) and some padding, closed cleanly; its path.
private func writeSampleStore(_ directory: String) throws -> String {
    let store = try TreeStore(options: StoreOptions(directory: directory))
    for id in ["t", "u", "v"] {
        try commit(
            store, .createTree(id: id, about: bytes(#"{"title":"\#(id)"}"#), snapshot: snapshotText(1, padding: 9000)))
    }
    for v in 1...5 { try commit(store, .append(tree: "t", diff: diff(v, client: "c", seq: "\(v)", padding: 3000))) }
    for v in 1...2 { try commit(store, .append(tree: "u", diff: diff(v, client: "c", seq: "\(v)", padding: 300))) }
    store.close()
    #expect(!FileManager.default.fileExists(atPath: store.path + "-wal"))
    #expect(try TreeStore(options: StoreOptions(directory: directory)).load().count == 3)
    return store.path
}

private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

private func snapshotText(_ marker: Int, padding: Int = 0) -> [UInt8] {
    bytes(
        #"{"keys":[],"root":{"id":"root","type":"VStack","props":{"marker":\#(marker),"pad":"\#(String(repeating: "p", count: padding))"}}}"#
    )
}

private func diff(_ version: Int, client: String, seq: String?, padding: Int = 0) -> StoredDiff {
    let text =
        #"{"type":"diff","version":\#(version),"ops":[{"op":"setProps","node":"root","props":{"x":"\#(String(repeating: "x", count: padding))"}}]}"#
    return StoredDiff(version: version, client: client, seq: seq, diff: bytes(text))
}

private func bigEndian(_ data: Data, at offset: Int) -> UInt32 {
    data[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
}

private func patchBigEndian(_ path: String, at offset: Int, _ value: UInt32) throws {
    var data = try Data(contentsOf: URL(fileURLWithPath: path))
    for i in 0..<4 { data[offset + i] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(i))) }
    try data.write(to: URL(fileURLWithPath: path))
}
