import CanopyCore

/// The preference keys every benchmark tree declares: four reducers with different evaluation behaviour.
/// - `total` (sum) and `peak` (max) read every present child;
/// - `allOK` (and) stops calling `nextValue` after the first `false`;
/// - `first` never calls `nextValue`: only the first present child is read.
enum BenchKeys {
    static let names = ["total", "peak", "allOK", "first"]
    static let declarations: [KeyDeclaration] = [
        KeyDeclaration(key: "total", reducer: .sum, defaultValue: 0),
        KeyDeclaration(key: "peak", reducer: .max, defaultValue: 0),
        KeyDeclaration(key: "allOK", reducer: .and, defaultValue: true),
        KeyDeclaration(key: "first", reducer: .first, defaultValue: ""),
    ]

    /// One reader per key.
    static let readers: [Modifier] = names.map { .onPreferenceChange(key: $0) }

    /// A leaf (`Text`) with one writer per key.
    static func leaf(_ id: String, _ rng: inout SplitMix64) -> Node {
        Node(
            id: id, type: "Text",
            modifiers: [
                .preference(key: "total", value: .int(Int64(rng.int(1000)))),
                .preference(key: "peak", value: .int(Int64(rng.int(1_000_000)))),
                .preference(key: "allOK", value: .bool(true)),
                .preference(key: "first", value: .string(id)),
            ])
    }
}

enum Shape: String, CaseIterable {
    case balanced, wide, chain

    /// Maximum chain depth of spine nodes: their leaves sit one deeper, at 256 = `Limits.default.maxDepth`.
    static let chainSpine = 255

    var summary: String {
        switch self {
        case .balanced:
            return "complete 10-ary tree in heap order (VStack internals incl. root, Text leaves)"
        case .wide:
            return "root -> one VStack \"w\" -> N-2 Text leaves"
        case .chain:
            return "root -> chains of \(Shape.chainSpine) nested VStacks, each holding one Text leaf (depth <= 256)"
        }
    }

    /// Builds the tree as one `Node` value of exactly `n` nodes. Readers for all keys go on the root and on a few
    /// intermediate containers; every leaf writes all keys.
    func build(nodes n: Int, seed: UInt64) -> Node {
        var rng = SplitMix64(seed: seed)
        switch self {
        case .balanced: return Shape.balanced(n, &rng)
        case .wide: return Shape.wide(n, &rng)
        case .chain: return Shape.chain(n, &rng)
        }
    }

    private static func balanced(_ n: Int, _ rng: inout SplitMix64) -> Node {
        // Heap layout: node i has children 10i+1 ... 10i+10 (those < n). Readers on the leftmost path and on the
        // root's last child.
        var readerAt = Set<Int>()
        var i = 1
        while 10 * i + 1 < n {
            readerAt.insert(i)
            i = 10 * i + 1
        }
        if 10 * 10 + 1 < n { readerAt.insert(10) }
        func make(_ i: Int, _ rng: inout SplitMix64) -> Node {
            let first = 10 * i + 1
            if first >= n { return BenchKeys.leaf("t\(i)", &rng) }
            var kids: [Node] = []
            kids.reserveCapacity(10)
            for c in first..<Swift.min(first + 10, n) { kids.append(make(c, &rng)) }
            let mods = i == 0 || readerAt.contains(i) ? BenchKeys.readers : []
            return Node(id: i == 0 ? "root" : "v\(i)", type: "VStack", modifiers: mods, children: kids)
        }
        return make(0, &rng)
    }

    private static func wide(_ n: Int, _ rng: inout SplitMix64) -> Node {
        var kids: [Node] = []
        kids.reserveCapacity(Swift.max(0, n - 2))
        for j in 0..<Swift.max(0, n - 2) { kids.append(BenchKeys.leaf("t\(j)", &rng)) }
        let w = Node(id: "w", type: "VStack", modifiers: BenchKeys.readers, children: kids)
        return Node(id: "root", type: "Root", modifiers: BenchKeys.readers, children: [w])
    }

    private static func chain(_ n: Int, _ rng: inout SplitMix64) -> Node {
        var chains: [Node] = []
        var remaining = n - 1
        var c = 0
        let readerDepths: Set<Int> = [1, 64, 128, 192, chainSpine]
        while remaining > 0 {
            if remaining == 1 {  // an odd leftover: a leaf directly under the root
                chains.append(BenchKeys.leaf("t\(c)_0", &rng))
                remaining = 0
                break
            }
            let length = Swift.min(chainSpine, remaining / 2)
            remaining -= 2 * length
            // Leaves are generated top-down so ids/values follow tree order; the spine is assembled bottom-up.
            var leaves: [Node] = []
            leaves.reserveCapacity(length)
            for d in 1...length { leaves.append(BenchKeys.leaf("t\(c)_\(d)", &rng)) }
            var below: Node? = nil
            for d in stride(from: length, through: 1, by: -1) {
                var kids = [leaves[d - 1]]
                if let b = below { kids.append(b) }
                let mods = c == 0 && readerDepths.contains(d) ? BenchKeys.readers : []
                below = Node(id: "c\(c)_\(d)", type: "VStack", modifiers: mods, children: kids)
            }
            chains.append(below!)
            c += 1
        }
        return Node(id: "root", type: "Root", modifiers: BenchKeys.readers, children: chains)
    }
}
