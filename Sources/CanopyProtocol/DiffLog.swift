import CanopyCore

/// A tree's released diffs in memory, in version order without gaps: for catch-up (`subscribe` with `since`),
/// `history`, duplicate answers, and a rollback's replay from the last stored snapshot.
struct DiffLog {
    struct Entry {
        var version: Int
        /// The diff as broadcast (without trace).
        var message: OutgoingMessage
        var json: JSON
    }

    /// Entries from `head` on are held; the ones before it are dropped and compacted away now and then, so dropping
    /// the oldest entry does not shift the whole log on every batch.
    private var storage: [Entry] = []
    private var head = 0

    var count: Int { storage.count - head }
    var first: Int? { head < storage.count ? storage[head].version : nil }
    var last: Int? { head < storage.count ? storage[storage.count - 1].version : nil }

    mutating func append(_ entry: Entry) {
        precondition(storage.last.map { $0.version + 1 == entry.version } ?? true, "the diff log has no gaps")
        storage.append(entry)
    }

    /// The entries with `from <= version <= to` (up to the newest held), or nil when the log does not reach back to
    /// `from`.
    func range(from: Int, through to: Int) -> ArraySlice<Entry>? {
        guard let first, let last, from >= first else { return nil }
        let end = min(to, last)
        return from <= end ? storage[(head + from - first)...(head + end - first)] : []
    }

    func entry(_ version: Int) -> Entry? { range(from: version, through: version)?.first }

    /// Drops the oldest entries beyond the `keep` most recent, but none after `anchor` (a rollback replays those).
    mutating func trim(keep: Int, anchor: Int) {
        while count > keep, let first, first <= anchor { head += 1 }
        if head > 64 && head * 2 > storage.count {
            storage.removeFirst(head)
            head = 0
        }
    }
}
