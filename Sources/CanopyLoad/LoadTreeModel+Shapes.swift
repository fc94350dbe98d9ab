import CanopyCore
import CanopySupport

extension LoadTreeModel {
    /// The key scratch trees declare: a sum every inner node reads and every leaf writes 1 to.
    static let scratchKey = "Total"
    /// An edit batch that creates part of a scratch tree stays under this many bytes (the daemon's default message
    /// limit is 1 MiB).
    static let creationBatchBytes = 900_000
    /// The deep shape's chain is at most this long (the daemon's default depth limit is 256).
    static let deepChainLength = 200

    /// A scratch tree of `nodes` nodes (the root included) laid out as `shape`. Handles follow creation order: a
    /// parent always comes before its children.
    static func scratch(id: String, shape: TreeShape, nodes: Int, fanout: Int) -> LoadTreeModel {
        let model = LoadTreeModel(id: id, key: scratchKey, insertPrefix: "")
        model.addNode("root", parent: -1)
        var inner = [true]
        func add(parent: Int32, isInner: Bool) {
            let handle = model.addNode("n\(model.nodeCount)", parent: parent)
            inner.append(isInner)
            if !isInner { model.markLeaf(handle) }
        }
        switch shape {
        case .wide:
            for _ in 1..<nodes { add(parent: 0, isInner: false) }
            model.markTarget(0)
        case .balanced:
            for i in 1..<nodes { add(parent: Int32((i - 1) / fanout), isInner: fanout * i + 1 < nodes) }
            for i in 0..<nodes where inner[i] { model.markTarget(Int32(i)) }
        case .deep:
            let chain = nodes > 1 ? min(deepChainLength, max(1, (nodes - 1) / 2)) : 0
            for i in 0..<chain { add(parent: Int32(i), isInner: true) }
            let holders = max(1, chain / 10)
            let firstHolder = chain - holders + 1
            for j in 0..<(nodes - 1 - chain) { add(parent: Int32(firstHolder + j % holders), isInner: false) }
            if chain > 0 { for h in firstHolder...chain { model.markTarget(Int32(h)) } }
        }
        model.finishBuilding()
        return model
    }

    /// Levels below the root of a balanced tree of `nodes` nodes.
    static func balancedDepth(nodes: Int, fanout: Int) -> Int {
        var depth = 0
        var i = nodes - 1
        while i > 0 {
            i = (i - 1) / fanout
            depth += 1
        }
        return depth
    }

    /// The messages that create this (freshly built) scratch tree: `createTree` with the root, then edit batches of
    /// inserts in creation order, each under `creationBatchBytes`. Batch `i` has seq `i + 1`.
    func creationMessages() -> [[UInt8]] {
        var create: [UInt8] = []
        create.append(contentsOf: #"{"type":"createTree","tree":"#.utf8)
        create.append(contentsOf: idLiteral.utf8)
        create.append(contentsOf: #","keys":[{"key":"#.utf8)
        create.append(contentsOf: keyLiteral.utf8)
        create.append(contentsOf: #","reducer":"sum","default":0}],"root":"#.utf8)
        writeInner(0, into: &create)
        create.append(contentsOf: #","title":"canopy load scratch tree"}"#.utf8)
        var messages = [create]
        var batch: [UInt8] = []
        var seq = 0
        func open() {
            seq += 1
            batch = Array(#"{"type":"edit","tree":"#.utf8) + Array(idLiteral.utf8)
            batch.append(contentsOf: #","seq":\#(seq),"ops":["#.utf8)
        }
        var opsInBatch = 0
        for node in 1..<Int32(nodeCount) {
            if opsInBatch == 0 { open() } else { batch.append(UInt8(ascii: ",")) }
            batch.append(contentsOf: #"{"op":"insert","parent":"#.utf8)
            batch.append(contentsOf: names[Int(parentOf(node))].utf8)
            batch.append(contentsOf: #","node":"#.utf8)
            if isLeaf(node) { writeLeaf(node, into: &batch) } else { writeInner(node, into: &batch) }
            batch.append(UInt8(ascii: "}"))
            opsInBatch += 1
            if batch.count > Self.creationBatchBytes {
                batch.append(contentsOf: "]}".utf8)
                messages.append(batch)
                opsInBatch = 0
            }
        }
        if opsInBatch > 0 {
            batch.append(contentsOf: "]}".utf8)
            messages.append(batch)
        }
        return messages
    }

    /// Reads an existing tree from its snapshot: nodes with children are inner nodes (inserts and moves go there),
    /// the others leaves (attached subtrees are left alone). Edits set `Total` if the tree declares it, else its
    /// first key; inserted leaves get ids `PREFIXxN`.
    static func existing(snapshot: JSON, insertPrefix: String) throws(LoadError) -> LoadTreeModel {
        guard let id = snapshot["tree"]?.string, let root = snapshot["root"] else {
            throw LoadError(.load, "the daemon's snapshot has no tree or root")
        }
        let keys = snapshot["keys"]?.array?.compactMap { $0["key"]?.string } ?? []
        guard let key = keys.contains(scratchKey) ? scratchKey : keys.first else {
            throw LoadError(.load, "tree \(id) declares no keys: there is nothing for setPreference to set")
        }
        let model = LoadTreeModel(id: id, key: key, insertPrefix: insertPrefix)
        var stack: [(node: JSON, parent: Int32)] = [(root, -1)]
        while let (node, parent) = stack.popLast() {
            let handle = model.addNode(node["id"]?.string ?? "", parent: parent)
            let children = node["children"]?.array ?? []
            if children.isEmpty {
                if parent >= 0 { model.markLeaf(handle) }
            } else {
                model.markTarget(handle)
            }
            for child in children.reversed() { stack.append((child, handle)) }
        }
        model.finishBuilding()
        return model
    }
}
