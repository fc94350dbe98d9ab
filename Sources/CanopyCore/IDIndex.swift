/// Node id → slot, as an open-addressing table of slots (linear probing, backward-shift deletion). The ids
/// themselves stay in the store's `ids` array, so an entry costs 4 bytes (at most 8 with the load factor) where
/// a `[String: Slot]` would keep a second copy of every id.
struct IDIndex: Sendable {
    private var table = [Slot](repeating: -1, count: 16)
    private(set) var count = 0

    @inline(__always)
    private func home(_ id: String) -> Int { id.hashValue & (table.count - 1) }

    /// The slot whose id is `id`.
    func find(_ id: String, in ids: [String]) -> Slot? {
        var i = home(id)
        while true {
            let s = table[i]
            if s < 0 { return nil }
            if ids[Int(s)] == id { return s }
            i = (i + 1) & (table.count - 1)
        }
    }

    /// Grows the table (once) so that `more` further ids fit without growing again.
    mutating func reserve(_ more: Int, in ids: [String]) {
        var size = table.count
        while (count + more) * 4 > size * 3 { size *= 2 }
        guard size > table.count else { return }
        let old = table
        table = [Slot](repeating: -1, count: size)
        count = 0
        for s in old where s >= 0 { insert(s, in: ids) }
    }

    /// Adds slot `s` under `ids[s]`, which must not be indexed yet.
    mutating func insert(_ s: Slot, in ids: [String]) {
        if (count + 1) * 4 > table.count * 3 { grow(ids) }
        var i = home(ids[Int(s)])
        while table[i] >= 0 { i = (i + 1) & (table.count - 1) }
        table[i] = s
        count += 1
    }

    /// Removes the entry of `id` (looked up through `ids`, which must still hold it).
    mutating func remove(_ id: String, in ids: [String]) {
        let mask = table.count - 1
        var i = home(id)
        while true {
            let s = table[i]
            if s < 0 { return }
            if ids[Int(s)] == id { break }
            i = (i + 1) & mask
        }
        // Shift later members of the probe run back so lookups never stop at the hole too early.
        var j = i
        while true {
            j = (j + 1) & mask
            let s = table[j]
            if s < 0 { break }
            let k = home(ids[Int(s)])
            let movable = i <= j ? (k <= i || k > j) : (k <= i && k > j)
            if movable {
                table[i] = s
                i = j
            }
        }
        table[i] = -1
        count -= 1
    }

    private mutating func grow(_ ids: [String]) {
        let old = table
        table = [Slot](repeating: -1, count: old.count * 2)
        count = 0
        for s in old where s >= 0 { insert(s, in: ids) }
    }
}
