import CSQLite

/// The read side of the store: its own connection (query_only), used under `TreeStore`'s reader lock by whichever
/// thread reads. In WAL mode it reads the last committed state while the writer goes on.
final class StoreReader {
    let connection: SQLiteConnection
    private let begin, end: SQLiteStatement
    private let trees, diffsAfter, diffsBetween, versionBySeq: SQLiteStatement
    let newestSnapshot, chunksOfSnapshot: SQLiteStatement
    private let orphanDiffs, orphanSnapshots: SQLiteStatement

    init(connection: SQLiteConnection) throws(StoreError) {
        self.connection = connection
        try connection.execute("PRAGMA query_only = ON", "opening the read connection")
        begin = try connection.prepare("BEGIN")
        end = try connection.prepare("COMMIT")
        trees = try connection.prepare("SELECT id, about FROM trees ORDER BY created, id")
        newestSnapshot = try connection.prepare(
            "SELECT rowid, version, typeof(snapshot), length(snapshot), chunks, size FROM snapshots WHERE tree = ?1 "
                + "ORDER BY version DESC LIMIT 1")
        chunksOfSnapshot = try connection.prepare(
            "SELECT rowid, idx, length(bytes) FROM snapshot_chunks WHERE chunks = ?1 ORDER BY idx")
        diffsAfter = try connection.prepare(
            "SELECT version, client, seq, diff FROM diffs WHERE tree = ?1 AND version > ?2 ORDER BY version")
        diffsBetween = try connection.prepare(
            "SELECT version, client, seq, diff FROM diffs WHERE tree = ?1 AND version BETWEEN ?2 AND ?3 ORDER BY version"
        )
        versionBySeq = try connection.prepare(
            "SELECT version FROM diffs WHERE tree = ?1 AND client = ?2 AND seq = ?3 ORDER BY version DESC LIMIT 1")
        orphanDiffs = try connection.prepare(
            "SELECT tree FROM diffs WHERE tree NOT IN (SELECT id FROM trees) LIMIT 1")
        orphanSnapshots = try connection.prepare(
            "SELECT tree FROM snapshots WHERE tree NOT IN (SELECT id FROM trees) LIMIT 1")
    }

    func close() { connection.close() }

    func fail(_ message: String) -> StoreError { StoreError(file: connection.file, message: message) }

    // MARK: Start-up

    /// Every tree with its newest snapshot and the diffs after it, read in one read transaction (one consistent
    /// state). Throws at the first inconsistency, naming the tree.
    func load() throws(StoreError) -> [StoredTree] {
        try begin.run { (s) throws(StoreError) in try s.execute("beginning a read") }
        defer { _ = try? end.run { (s) throws(StoreError) in try s.execute("ending a read") } }
        var result: [StoredTree] = []
        let listed: [(String, [UInt8])] = try trees.run { (s) throws(StoreError) in
            var rows: [(String, [UInt8])] = []
            while try s.step("listing the trees") {
                let about = s.blob(1) ?? []
                rows.append((s.text(0) ?? "", about.isEmpty ? Array("{}".utf8) : about))
            }
            return rows
        }
        for (id, about) in listed {
            let (version, snapshot) = try loadSnapshot(id)
            let diffs = try loadDiffs(
                statement: diffsAfter, tree: id, bind: { (s) throws(StoreError) in try s.bind(2, version) })
            var expected = version + 1
            for diff in diffs {
                guard diff.version == expected else {
                    throw fail(
                        "tree \(quoted(id)): the log has a gap: version \(expected) is missing "
                            + "(next stored: \(diff.version), snapshot at \(version))")
                }
                expected += 1
            }
            result.append(StoredTree(id: id, about: about, snapshotVersion: version, snapshot: snapshot, diffs: diffs))
        }
        for (statement, what) in [(orphanDiffs, "diffs"), (orphanSnapshots, "snapshots")] {
            let orphan: String? = try statement.run { (s) throws(StoreError) in
                try s.step("checking the \(what)") ? (s.text(0) ?? "") : nil
            }
            if let orphan { throw fail("tree \(quoted(orphan)) has \(what) but is not in the trees table") }
        }
        return result
    }

    private func loadDiffs(
        statement: SQLiteStatement, tree: String, bind: (SQLiteStatement) throws(StoreError) -> Void
    ) throws(StoreError) -> [StoredDiff] {
        let context = "reading the log of tree \(quoted(tree))"
        return try statement.run { (s) throws(StoreError) in
            try s.bind(1, tree)
            try bind(s)
            var diffs: [StoredDiff] = []
            while try s.step(context) {
                let version = s.int(0)
                guard let diff = s.blob(3), !diff.isEmpty else {
                    throw fail("tree \(quoted(tree)): the diff of version \(version) is missing (empty)")
                }
                diffs.append(StoredDiff(version: version, client: s.text(1) ?? "", seq: s.text(2), diff: diff))
            }
            return diffs
        }
    }

    // MARK: While running

    func diffs(tree: String, from: Int, to: Int) throws(StoreError) -> [StoredDiff] {
        guard from <= to else { return [] }
        return try loadDiffs(
            statement: diffsBetween, tree: tree,
            bind: { (s) throws(StoreError) in
                try s.bind(2, from)
                try s.bind(3, to)
            })
    }

    func version(tree: String, client: String, seq: String) throws(StoreError) -> Int? {
        try versionBySeq.run { (s) throws(StoreError) in
            try s.bind(1, tree)
            try s.bind(2, client)
            try s.bind(3, seq)
            return try s.step("looking up seq \(seq) of \(quoted(client)) in tree \(quoted(tree))") ? s.int(0) : nil
        }
    }
}
