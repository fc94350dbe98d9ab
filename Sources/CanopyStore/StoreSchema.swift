#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The database's layout (schema version 1, docs/storage.md): creating a new file and recognizing an existing one.
enum StoreSchema {
    static let version = 1
    /// `PRAGMA application_id`: "Cano". Tells a Canopy database from any other SQLite file.
    static let applicationID = 0x4361_6E6F

    static let tables = """
        CREATE TABLE trees(id TEXT PRIMARY KEY, about BLOB, created REAL);
        CREATE TABLE diffs(tree TEXT, version INTEGER, client TEXT, seq TEXT, diff BLOB, time REAL,
                           PRIMARY KEY(tree, version)) WITHOUT ROWID;
        CREATE INDEX diffs_by_seq ON diffs(tree, client, seq);
        CREATE TABLE snapshots(tree TEXT, version INTEGER, snapshot BLOB, time REAL, PRIMARY KEY(tree, version));
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

    /// Fails unless the open database is a Canopy database of a schema version this code knows. The first read also
    /// makes SQLite check the header, so a file that is not a database, or is shorter than its header says, fails here.
    static func check(_ connection: SQLiteConnection) throws(StoreError) {
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
        guard schema == version else {
            throw StoreError(file: connection.file, message: "not a Canopy database (schema version \(schema))")
        }
        let names = try connection.rows("SELECT name FROM sqlite_schema WHERE type = 'table'", context)
        for table in ["trees", "diffs", "snapshots"] where !names.contains(table) {
            throw StoreError(file: connection.file, message: "not a Canopy database: table \(table) is missing")
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
