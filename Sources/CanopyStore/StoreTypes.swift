import CanopySupport

/// How hard a commit tries to reach the disk before its writes are reported done.
///
/// `.fsync`: WAL + `synchronous=FULL`, every commit is on stable storage when its completions run (survives kill -9,
/// an OS crash and a power cut). `.none`: `synchronous=OFF`, a commit is in the OS's page cache when its completions
/// run (survives kill -9, not an OS crash or power cut, which may also corrupt the file). See docs/storage.md.
public enum Durability: String, CaseIterable, Sendable {
    case fsync, none
}

/// Where and how `TreeStore` keeps its database.
public struct StoreOptions: Sendable {
    /// The data directory (it must exist); the database is `<directory>/canopy.db` (with `-wal` and `-shm` beside it).
    public var directory: String
    public var durability: Durability = .fsync
    /// Snapshots kept per tree (at least 1; smaller values count as 1). The log after the oldest kept one is kept.
    public var keepSnapshots = 2
    /// For tests: SQLite's `max_page_count` (nil = unlimited), to provoke SQLITE_FULL ("disk full").
    public var maxPageCount: Int? = nil
    /// Bytes held in `<directory>/canopy.reserve` (0: none), given up when a `deleteTree` finds the disk full so that
    /// space can be freed while running; taken again once the file system has room. See docs/storage.md.
    public var reserveBytes = 8 << 20
    /// A snapshot larger than this is written in chunks of this size (at least 4 KiB), each in a transaction of its
    /// own, so that other trees' commits go between them; smaller ones in one piece. See docs/storage.md.
    public var snapshotChunkBytes = 1 << 20
    /// For tests: told of each step of a chunked write, on the writer thread, before it runs.
    var chunkHook: (@Sendable (ChunkedWriteEvent) -> Void)? = nil

    public init(directory: String) {
        self.directory = directory
    }
}

/// A storage failure, naming the database file (`description` starts with its path).
public typealias StoreError = CanopyFailure

extension CanopyFailure.Code {
    /// The store failed: I/O errors, corruption, refused writes, a closed store.
    public static let storage = Self(rawValue: "storage")
    /// No room for the write: SQLITE_FULL (ENOSPC on the file system, or `maxPageCount` reached).
    public static let diskFull = Self(rawValue: "disk_full")
}

extension CanopyFailure {
    /// What went wrong, as far as the store acts on it.
    public enum Kind: Sendable, Equatable {
        case diskFull
        case other
    }

    /// A store failure about the database `file`.
    public init(file: String, message: String, kind: Kind = .other) {
        self.init(kind == .diskFull ? .diskFull : .storage, message, file: file)
    }

    /// Whether the disk (or the page limit) was full.
    public var kind: Kind { code == .diskFull ? .diskFull : .other }
}

/// One logged batch: the diff message exactly as broadcast (JSON bytes, without trace), and who sent it.
public struct StoredDiff: Sendable, Equatable {
    public var version: Int
    /// The hello `client` name of the author ("" if none).
    public var client: String
    /// The batch's `seq` as compact JSON text (nil if the edit had none / null).
    public var seq: String?
    public var diff: [UInt8]

    public init(version: Int, client: String, seq: String?, diff: [UInt8]) {
        self.version = version
        self.client = client
        self.seq = seq
        self.diff = diff
    }
}

/// What start-up needs to rebuild one tree: its latest snapshot and every logged diff after it, in version order.
public struct StoredTree: Sendable {
    public var id: String
    /// JSON object text (title/description), "{}" if none.
    public var about: [UInt8]
    public var snapshotVersion: Int
    /// JSON text {"keys":[…],"root":{…}} as given to createTree/snapshot.
    public var snapshot: [UInt8]
    /// Versions snapshotVersion+1 … without a gap (`load` checks this).
    public var diffs: [StoredDiff]

    public init(id: String, about: [UInt8], snapshotVersion: Int, snapshot: [UInt8], diffs: [StoredDiff]) {
        self.id = id
        self.about = about
        self.snapshotVersion = snapshotVersion
        self.snapshot = snapshot
        self.diffs = diffs
    }
}

/// One change to the store; `TreeStore.enqueue` commits it (with whatever else is queued) in one transaction.
public enum StoreWrite: Sendable {
    /// A new tree with its version-0 snapshot. Fails if the tree exists.
    case createTree(id: String, about: [UInt8], snapshot: [UInt8])
    /// Logs one diff. Fails unless the tree exists and `diff.version` is its latest version + 1.
    case append(tree: String, diff: StoredDiff)
    /// A snapshot of the tree at `version`, then compaction: only the newest `keepSnapshots` snapshots stay, and diffs
    /// with version <= the oldest kept snapshot's version go. Fails unless the tree exists and `version` is at least
    /// its newest snapshot's (an equal one replaces it). `version` may exceed the latest logged version: the snapshot
    /// then stands in for the diffs that were never stored (recovery after failed appends) and appends go on after it.
    case snapshot(tree: String, version: Int, snapshot: [UInt8])
    /// Removes all the tree's rows (nothing to do if there is no such tree).
    case deleteTree(id: String)

    /// The tree the write is about.
    var tree: String {
        switch self {
        case .createTree(let id, _, _), .deleteTree(let id): return id
        case .append(let tree, _), .snapshot(let tree, _, _): return tree
        }
    }

    /// Payload bytes, for bounding the size of one group commit.
    var byteCount: Int {
        switch self {
        case .createTree(let id, let about, let snapshot): return id.utf8.count + about.count + snapshot.count
        case .append(let tree, let diff): return tree.utf8.count + diff.diff.count + diff.client.utf8.count + 32
        case .snapshot(let tree, _, let snapshot): return tree.utf8.count + snapshot.count
        case .deleteTree(let id): return id.utf8.count
        }
    }
}
