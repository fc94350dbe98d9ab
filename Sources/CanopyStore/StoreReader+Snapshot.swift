import CSQLite

extension StoreReader {
    /// The newest snapshot of `tree`: its `snapshot` blob, or (schema 2, a large snapshot) its chunks in order. Read
    /// straight into the array through SQLite's incremental blob I/O (a large snapshot is not first copied into a
    /// buffer of SQLite's own). A chunked snapshot must have chunks 0, 1, … holding exactly its `size` bytes.
    func loadSnapshot(_ tree: String) throws(StoreError) -> (Int, [UInt8]) {
        let context = "reading the snapshot of tree \(quoted(tree))"
        typealias Row = (rowid: Int64, version: Int, type: String, length: Int, chunks: Int?, size: Int)
        let row: Row? = try newestSnapshot.run { (s) throws(StoreError) in
            try s.bind(1, tree)
            guard try s.step(context) else { return nil }
            return (Int64(s.int(0)), s.int(1), s.text(2) ?? "", s.int(3), s.isNull(4) ? nil : s.int(4), s.int(5))
        }
        guard let row else { throw fail("tree \(quoted(tree)) has no snapshot") }
        let what = "tree \(quoted(tree)): the snapshot at version \(row.version)"
        if let chunks = row.chunks {
            let pieces = try chunkRows(chunks, context)
            var total = 0
            for (index, piece) in pieces.enumerated() {
                guard piece.index == index else { throw fail("\(what) is incomplete: chunk \(index + 1) is missing") }
                total += piece.length
            }
            guard total == row.size else {
                throw fail("\(what) is incomplete: its \(pieces.count) chunks hold \(total) bytes, not \(row.size)")
            }
            if total == 0 { throw fail("\(what) is empty") }
            let blobs = pieces.map { (table: "snapshot_chunks", column: "bytes", rowid: $0.rowid, length: $0.length) }
            return (row.version, try readBlobs(blobs, total: total, context))
        }
        guard row.type == "blob" || row.type == "text" else { throw fail("\(what) is \(row.type), not a blob") }
        if row.length == 0 { throw fail("\(what) is empty") }
        let blob = (table: "snapshots", column: "snapshot", rowid: row.rowid, length: row.length)
        return (row.version, try readBlobs([blob], total: row.length, context))
    }

    private func chunkRows(
        _ chunks: Int, _ context: String
    ) throws(StoreError) -> [(rowid: Int64, index: Int, length: Int)] {
        try chunksOfSnapshot.run { (s) throws(StoreError) in
            try s.bind(1, chunks)
            var rows: [(rowid: Int64, index: Int, length: Int)] = []
            while try s.step(context) { rows.append((Int64(s.int(0)), s.int(1), s.int(2))) }
            return rows
        }
    }

    /// The concatenation of `blobs` (`total` bytes), each read with `sqlite3_blob_read` into its place.
    private func readBlobs(
        _ blobs: [(table: String, column: String, rowid: Int64, length: Int)], total: Int, _ context: String
    ) throws(StoreError) -> [UInt8] {
        var status = SQLITE_OK
        let bytes = [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
            var offset = 0
            for blob in blobs {
                status = read(blob.table, blob.column, blob.rowid, into: buffer.baseAddress! + offset, blob.length)
                if status != SQLITE_OK { break }
                offset += blob.length
            }
            // On failure the bytes read so far are kept but discarded below; zero the rest so the array is valid.
            if offset < total { (buffer.baseAddress! + offset).initialize(repeating: 0, count: total - offset) }
            initialized = total
        }
        guard status == SQLITE_OK else { throw connection.error(status, context) }
        return bytes
    }

    /// Reads the `length` bytes of one blob into `destination` (SQLITE_CORRUPT if the blob is not that long).
    private func read(
        _ table: String, _ column: String, _ rowid: Int64, into destination: UnsafeMutablePointer<UInt8>, _ length: Int
    ) -> Int32 {
        var blob: OpaquePointer?
        var status = sqlite3_blob_open(connection.handle, "main", table, column, rowid, 0, &blob)
        guard status == SQLITE_OK, let blob else {
            if let blob { sqlite3_blob_close(blob) }
            return status
        }
        defer { sqlite3_blob_close(blob) }
        guard Int(sqlite3_blob_bytes(blob)) == length else { return SQLITE_CORRUPT }
        var offset = 0
        while offset < length {
            let step = min(length - offset, 1 << 26)
            status = sqlite3_blob_read(blob, destination + offset, Int32(step), Int32(offset))
            if status != SQLITE_OK { return status }
            offset += step
        }
        return SQLITE_OK
    }
}
