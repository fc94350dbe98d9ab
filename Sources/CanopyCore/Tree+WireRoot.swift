/// A tree built straight from the wire form of its root — how a stored snapshot is loaded at start — without a
/// `Node` value of the whole tree in between: each node is decoded (`Node.decodeHead`), validated and built into the
/// store in turn, parents first, then its children. For a 1M-node snapshot that skips a million `Node`s and their
/// arrays, which cost as much again as building the store.
extension Tree {
    /// The same tree as `init(keys:root:…)` with `Node(json: rootJSON)`, with the same checks and messages, but:
    /// when a tree breaks more than one rule, which is reported may differ (decoding and validation go node by node
    /// here), and a tree over the node limit is reported when the first node past it is reached.
    public init(
        keys: [KeyDeclaration], rootJSON: JSON, limits: Limits = .default, version: Int = 0,
        compiler: (any KeyCompiler)? = nil
    ) throws(CanopyError) {
        var store = try Self.declaring(keys, limits: limits, compiler: compiler)
        store.reserve(Self.countNodes(rootJSON))
        store.setRoot(try store.buildDecoded(rootJSON, parent: -1, attachment: -1, depth: 0))
        try self.init(built: store, version: version)
    }

    /// Nodes in a wire tree, counting along `children` (attached subtrees aside): enough to size the id index.
    static func countNodes(_ json: JSON) -> Int {
        var count = 0
        var stack = [json]
        while let node = stack.popLast() {
            count += 1
            if let children = node["children"]?.array { stack.append(contentsOf: children) }
        }
        return count
    }
}

extension NodeStore {
    /// Decodes, validates and builds the node `json` and then, one by one, its children; returns its slot.
    mutating func buildDecoded(_ json: JSON, parent p: Slot, attachment a: Int32, depth: Int) throws(CanopyError)
        -> Slot
    {
        let (node, childItems) = try Node.decodeHead(json)
        try validateBuilding(node, depth: depth)
        let s = build(node, parent: p, attachment: a)
        var kids: [Slot] = []
        kids.reserveCapacity(childItems.count)
        for (i, child) in childItems.enumerated() {
            kids.append(
                try Node.decodingChild(child, index: i, of: node.id) { j throws(CanopyError) in
                    try buildDecoded(j, parent: s, attachment: -1, depth: depth + 1)
                })
        }
        setChildren(s, kids)
        return s
    }
}
