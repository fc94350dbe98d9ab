#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The database's layout (schema version 2, docs/storage.md): creating a new file, recognizing an existing one, and
/// bringing one of schema version 1 up to date.
enum StoreSchema {
    static let version = 2
    /// `PRAGMA application_id`: "Cano". Tells a Canopy database from any other SQLite file.
    static let applicationID = 0x4361_6E6F

    /// Schema 2. `snapshots.chunks`: NULL when the snapshot is the `snapshot` blob itself; otherwise the id of its
    /// pieces in `snapshot_chunks` (in `idx` order, `size` bytes in all), written before the row that makes them a
    /// snapshot. Chunks no snapshot row refers to are incomplete or released, and are deleted.
    static let tables = """
        CREATE TABLE trees(id TEXT PRIMARY KEY, about BLOB, created REAL);
        CREATE TABLE diffs(tree TEXT, version INTEGER, client TEXT, seq TEXT, diff BLOB, time REAL,
                           PRIMARY KEY(tree, version)) WITHOUT ROWID;
        CREATE INDEX diffs_by_seq ON diffs(tree, client, seq);
        CREATE TABLE snapshots(tree TEXT, version INTEGER, snapshot BLOB, time REAL, chunks INTEGER, size INTEGER,
                               PRIMARY KEY(tree, version));
        \(chunkTable)
        """

    /// What schema 2 adds to schema 1: the table of snapshot pieces (and the two columns of `snapshots`, below).
    static let chunkTable = """
        CREATE TABLE snapshot_chunks(chunks INTEGER, idx INTEGER, tree TEXT, version INTEGER, bytes BLOB,
                                     PRIMARY KEY(chunks, idx));
        """

    /// Creates an empty database at `file`: built as `file.new` (auto_vacuum, WAL, tables, application_id and
    /// user_version in one transaction), closed (which checkpoints it into the file and removes its WAL), then renamed
    /// into place. So a `canopy.db` that exists is always a whole database, and an empty or missing-schema file is an
    /// error rather than a new store.
    static func create(file: String, durability: Durability) throws(StoreError) {
        let temporary = file + ".new"
        for leftover in [temporary, temporary + "-wal", temporary + "-shm", temporary + "-journal"] { unlink(leftover) }
        do throws(StoreError) {
            let connection = try SQLiteConnection(file: temporary, create: true)
            defer { connection.close() }
            // auto_vacuum only takes effect before the first table exists.
            try connection.execute("PRAGMA auto_vacuum = INCREMENTAL", "creating the database")
            let mode = try connection.text("PRAGMA journal_mode = WAL", "creating the database")
            guard mode == "wal" else {
                throw StoreError(file: file, message: "cannot switch to WAL mode (journal_mode is \(mode))")
            }
            try connection.execute(
                """
                BEGIN IMMEDIATE;
                \(tables)
                PRAGMA application_id = \(applicationID);
                PRAGMA user_version = \(version);
                COMMIT;
                """, "creating the tables")
        } catch {
            unlink(temporary)
            throw StoreError(file: file, message: error.message)
        }
        if access(temporary + "-wal", F_OK) == 0 {
            unlink(temporary)
            throw StoreError(file: file, message: "creating the database: its WAL was not checkpointed at close")
        }
        guard rename(temporary, file) == 0 else {
            let why = String(cString: strerror(errno))
            unlink(temporary)
            throw StoreError(file: file, message: "cannot rename \(temporary) into place: \(why)")
        }
        if durability == .fsync { syncDirectory(of: file) }
    }

    /// Fails unless the open database is a Canopy database of a schema version this code knows; returns that version
    /// (1 needs `migrate`). The first read also makes SQLite check the header, so a file that is not a database, or is
    /// shorter than its header says, fails here.
    static func check(_ connection: SQLiteConnection) throws(StoreError) -> Int {
        let context = "reading the schema version"
        let application = try connection.integer("PRAGMA application_id", context)
        let schema = try connection.integer("PRAGMA user_version", context)
        guard application == applicationID else {
            throw StoreError(
                file: connection.file,
                message: "not a Canopy database (application_id \(application), expected \(applicationID))")
        }
        guard schema <= version else {
            throw StoreError(
                file: connection.file,
                message: "schema version \(schema) is newer than this canopyd knows (\(version)): use a newer canopyd")
        }
        guard schema >= 1 else {
            throw StoreError(file: connection.file, message: "not a Canopy database (schema version \(schema))")
        }
        let names = try connection.rows("SELECT name FROM sqlite_schema WHERE type = 'table'", context)
        let expected = ["trees", "diffs", "snapshots"] + (schema >= 2 ? ["snapshot_chunks"] : [])
        for table in expected where !names.contains(table) {
            throw StoreError(file: connection.file, message: "not a Canopy database: table \(table) is missing")
        }
        return schema
    }

    /// Brings a database of schema version `schema` (1) to the current one, in one transaction: schema 1 kept every
    /// snapshot in `snapshots.snapshot`; schema 2 adds `snapshots.chunks` and `size` (NULL for those rows, which stay
    /// as they are and are read as before) and the table `snapshot_chunks`. A failure leaves the file at schema 1.
    static func migrate(_ connection: SQLiteConnection, from schema: Int) throws(StoreError) {
        guard schema < version else { return }
        do throws(StoreError) {
            try connection.execute(
                """
                BEGIN IMMEDIATE;
                ALTER TABLE snapshots ADD COLUMN chunks INTEGER;
                ALTER TABLE snapshots ADD COLUMN size INTEGER;
                \(chunkTable)
                PRAGMA user_version = \(version);
                COMMIT;
                """, "migrating the database from schema version \(schema) to \(version)")
        } catch {
            connection.rollbackIfNeeded()
            throw error
        }
    }

    /// fsyncs the directory holding `file`, so a rename or creation in it survives a power cut.
    static func syncDirectory(of file: String) {
        let directory = file.lastIndex(of: "/").map { String(file[..<$0]) } ?? "."
        let descriptor = open(directory.isEmpty ? "/" : directory, O_RDONLY)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
