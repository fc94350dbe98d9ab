/// Which (client, seq) pairs a tree accepted, and as which version: a resubmitted batch is answered `duplicate`
/// instead of being applied again. Independent of the diff log (compaction does not forget), carried in snapshots,
/// and bounded per client: at least the `window` most recent batches of each client are kept.
struct AckIndex {
    struct Key: Hashable {
        var client: String
        var seq: String
    }

    private(set) var versions: [Key: Int] = [:]
    /// Per client, its keys in acceptance order (oldest first), to forget the oldest beyond the window.
    private var order: [String: [String]] = [:]
    let window: Int

    init(window: Int) {
        self.window = max(1, window)
    }

    subscript(client: String, seq: String) -> Int? { versions[Key(client: client, seq: seq)] }

    mutating func remember(client: String, seq: String, version: Int) {
        let key = Key(client: client, seq: seq)
        if versions.updateValue(version, forKey: key) == nil { order[client, default: []].append(seq) }
        // Forget the oldest half once a client holds twice the window: amortized O(1) per batch.
        if let seqs = order[client], seqs.count >= 2 * window {
            for old in seqs.prefix(seqs.count - window) { versions[Key(client: client, seq: old)] = nil }
            order[client] = Array(seqs.suffix(window))
        }
    }

    /// Forgets the batches after `version` (a rollback undid them).
    mutating func forget(after version: Int) {
        let undone = versions.filter { $0.value > version }
        guard !undone.isEmpty else { return }
        for key in undone.keys { versions[key] = nil }
        for client in Set(undone.keys.map(\.client)) {
            order[client]?.removeAll { versions[Key(client: client, seq: $0)] == nil }
        }
    }

    /// The records up to `version` (what a snapshot at `version` carries): clients in name order, each client's in
    /// the order they were accepted. Taken on the service thread when a snapshot is due, so no global sort.
    func records(through version: Int) -> [AckRecord] {
        var out: [AckRecord] = []
        out.reserveCapacity(versions.count)
        for client in order.keys.sorted() {
            for seq in order[client] ?? [] {
                if let v = versions[Key(client: client, seq: seq)], v <= version {
                    out.append(AckRecord(client: client, seq: seq, version: v))
                }
            }
        }
        return out
    }
}
