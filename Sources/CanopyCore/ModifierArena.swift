/// Every node's modifier chain in one flat array, each node owning a contiguous range. A per-node `[StoredModifier]`
/// would add an array header and a heap block to every leaf with a writer; here a chain costs its 24-byte entries
/// plus 6 bytes of range. Replaced chains leave garbage behind that is compacted away once it outweighs live entries.
struct ModifierArena: Sendable {
    private var items: [StoredModifier] = []
    private var start: [Int32] = []
    private var count: [UInt16] = []
    private var garbage = 0

    /// The chain of slot `i`.
    subscript(i: Int) -> ModifierView {
        ModifierView(items: items, base: Int(start[i]), count: Int(count[i]))
    }

    /// Positions of slot `i`'s chain in the arena, for hot loops that should not build a view (which retains).
    @inline(__always)
    func bounds(_ i: Int) -> Range<Int> {
        let b = Int(start[i])
        return b..<(b + Int(count[i]))
    }

    /// The entry at arena position `j` (from `bounds`).
    @inline(__always)
    func item(_ j: Int) -> StoredModifier { items[j] }

    /// Modifier `m` of slot `i`.
    @inline(__always)
    func modifier(_ i: Int, _ m: Int) -> StoredModifier { items[Int(start[i]) + m] }

    /// Makes room for slot `i` (with an empty chain).
    mutating func appendSlot() {
        start.append(0)
        count.append(0)
    }

    /// Replaces slot `i`'s chain (at most `UInt16.max` modifiers; the limits keep it far lower).
    mutating func replace(_ i: Int, with mods: [StoredModifier]) {
        let old = Int(count[i])
        let at = Int(start[i])
        if mods.count <= old {
            for j in 0..<mods.count { items[at + j] = mods[j] }
            // Release what the dropped entries held (values, boxes) right away.
            for j in mods.count..<old { items[at + j] = .reader(0) }
            garbage += old - mods.count
        } else {
            for j in 0..<old { items[at + j] = .reader(0) }
            garbage += old
            start[i] = Int32(items.count)
            items.append(contentsOf: mods)
        }
        count[i] = UInt16(mods.count)
        if mods.isEmpty { start[i] = 0 }
        if garbage > 4096 && garbage * 2 > items.count { compact() }
    }

    private mutating func compact() {
        var packed: [StoredModifier] = []
        packed.reserveCapacity(items.count - garbage)
        for i in start.indices where count[i] > 0 {
            let at = Int(start[i])
            start[i] = Int32(packed.count)
            packed.append(contentsOf: items[at..<(at + Int(count[i]))])
        }
        items = packed
        garbage = 0
    }
}

/// A node's modifiers, innermost first, indexed from 0.
struct ModifierView: RandomAccessCollection, Sendable {
    let items: [StoredModifier]
    let base: Int
    let count: Int

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    @inline(__always)
    subscript(i: Int) -> StoredModifier { items[base + i] }
}
