import CSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One SQLite connection, used by one thread at a time (opened with SQLITE_OPEN_NOMUTEX: the store serializes each
/// connection itself). Every failure becomes a `StoreError` naming the database file.
final class SQLiteConnection {
    let handle: OpaquePointer
    let file: String
    private var statements: [SQLiteStatement] = []
    private var isClosed = false

    init(file: String, create: Bool) throws(StoreError) {
        self.file = file
        var db: OpaquePointer?
        var flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX
        if create { flags |= SQLITE_OPEN_CREATE }
        let status = sqlite3_open_v2(file, &db, flags, nil)
        guard let db else { throw StoreError(file: file, message: "cannot open the database (out of memory)") }
        guard status == SQLITE_OK else {
            let error = Self.error(db: db, file: file, status: status, context: "opening the database")
            sqlite3_close_v2(db)
            throw error
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, 5000)
    }

    deinit { close() }

    /// Finalizes every prepared statement and closes. The last connection to close checkpoints and removes the WAL.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        for statement in statements { statement.finalize() }
        statements = []
        sqlite3_close_v2(handle)
    }

    /// A statement kept for the life of the connection (SQLITE_PREPARE_PERSISTENT).
    func prepare(_ sql: String) throws(StoreError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard status == SQLITE_OK, let statement else {
            throw error(status, "preparing \(sql.prefix(60))")
        }
        let prepared = SQLiteStatement(handle: statement, connection: self)
        statements.append(prepared)
        return prepared
    }

    /// Runs `sql` (one or more statements, no results wanted).
    func execute(_ sql: String, _ context: String) throws(StoreError) {
        let status = sqlite3_exec(handle, sql, nil, nil, nil)
        guard status == SQLITE_OK else { throw error(status, context) }
    }

    /// Runs a one-row, one-column query (a PRAGMA) and returns its value as text ("" for NULL or no row).
    func text(_ sql: String, _ context: String) throws(StoreError) -> String {
        try rows(sql, context).first ?? ""
    }

    /// Runs `sql` and returns the first column of every row as text.
    func rows(_ sql: String, _ context: String) throws(StoreError) -> [String] {
        var statement: OpaquePointer?
        var status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else { throw error(status, context) }
        defer { sqlite3_finalize(statement) }
        var result: [String] = []
        while true {
            status = sqlite3_step(statement)
            if status == SQLITE_DONE { return result }
            guard status == SQLITE_ROW else { throw error(status, context) }
            result.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "")
        }
    }

    func integer(_ sql: String, _ context: String) throws(StoreError) -> Int {
        Int(try text(sql, context)) ?? 0
    }

    var inTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes64(handle)) }

    /// Rolls back an open transaction, if SQLite has not done so already (it may, after SQLITE_FULL or an I/O error).
    func rollbackIfNeeded() {
        if inTransaction { sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
    }

    func error(_ status: Int32, _ context: String) -> StoreError {
        Self.error(db: handle, file: file, status: status, context: context)
    }

    /// "disk full: database or disk is full (appending version 65 to tree "big"; SQLite error 13)",
    /// "database disk image is malformed (reading the schema version; SQLite error 11)".
    static func error(db: OpaquePointer?, file: String, status: Int32, context: String) -> StoreError {
        let text =
            db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(status))
        // SQLite reports ENOSPC from a write as SQLITE_FULL, like a database at its max_page_count.
        let full = status & 0xFF == SQLITE_FULL
        return StoreError(
            file: file, message: "\(full ? "disk full: " : "")\(text) (\(context); SQLite error \(status))",
            kind: full ? .diskFull : .other)
    }
}

/// A prepared statement. `run` binds, steps and always resets, so a statement never holds a read transaction open.
final class SQLiteStatement {
    private(set) var handle: OpaquePointer?
    unowned let connection: SQLiteConnection

    init(handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    func finalize() {
        if let handle { sqlite3_finalize(handle) }
        handle = nil
    }

    /// Calls `body` with the statement and resets it (and clears its bindings) afterwards, whatever happens.
    func run<R>(_ body: (SQLiteStatement) throws(StoreError) -> R) throws(StoreError) -> R {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        return try body(self)
    }

    func bind(_ index: Int32, _ value: Int) throws(StoreError) {
        try check(sqlite3_bind_int64(handle, index, Int64(value)), "binding")
    }

    func bind(_ index: Int32, _ value: Double) throws(StoreError) {
        try check(sqlite3_bind_double(handle, index, value), "binding")
    }

    func bind(_ index: Int32, _ value: String?) throws(StoreError) {
        guard var value else {
            try check(sqlite3_bind_null(handle, index), "binding")
            return
        }
        let status = value.withUTF8 { utf8 -> Int32 in
            // A nil base address would bind NULL; an empty string must stay an empty text.
            guard let base = utf8.baseAddress, utf8.count > 0 else {
                return canopy_sqlite3_bind_text_copy(handle, index, "", 0)
            }
            return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) {
                canopy_sqlite3_bind_text_copy(handle, index, $0, Int32(utf8.count))
            }
        }
        try check(status, "binding")
    }

    /// Binds `bytes` without a copy (SQLITE_STATIC) for the duration of `body`, which must step the statement.
    func withBlob<R>(
        _ index: Int32, _ bytes: [UInt8], _ body: () throws(StoreError) -> R
    ) throws(StoreError) -> R {
        let result: Result<R, StoreError> = bytes.withUnsafeBytes { buffer in
            do throws(StoreError) {
                return .success(try withBlob(index, buffer, body))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Binds the bytes of `buffer` without a copy (SQLITE_STATIC) for the duration of `body`, which must step the
    /// statement; the caller keeps `buffer` valid meanwhile.
    func withBlob<R>(
        _ index: Int32, _ buffer: UnsafeRawBufferPointer, _ body: () throws(StoreError) -> R
    ) throws(StoreError) -> R {
        let status: Int32
        if let base = buffer.baseAddress, buffer.count > 0 {
            status = sqlite3_bind_blob64(handle, index, base, sqlite3_uint64(buffer.count), nil)  // nil: SQLITE_STATIC
        } else {
            status = sqlite3_bind_zeroblob(handle, index, 0)
        }
        guard status == SQLITE_OK else { throw connection.error(status, "binding \(buffer.count) bytes") }
        defer { sqlite3_bind_null(handle, index) }  // the bytes are not valid after this call
        return try body()
    }

    /// Steps once: true if a row is ready, false when done.
    func step(_ context: @autoclosure () -> String) throws(StoreError) -> Bool {
        let status = sqlite3_step(handle)
        if status == SQLITE_ROW { return true }
        if status == SQLITE_DONE { return false }
        throw connection.error(status, context())
    }

    /// Steps to the end (a statement without results).
    func execute(_ context: @autoclosure () -> String) throws(StoreError) {
        while try step(context()) {}
    }

    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    func text(_ column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    func blob(_ column: Int32) -> [UInt8]? {
        if isNull(column) { return nil }
        let pointer = sqlite3_column_blob(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        guard let pointer, count > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    private func check(_ status: Int32, _ context: String) throws(StoreError) {
        guard status == SQLITE_OK else { throw connection.error(status, context) }
    }
}
