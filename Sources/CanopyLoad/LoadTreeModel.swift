import CanopyCore

/// One tree as the load tool edits it: which nodes are leaves (targets of setPreference, remove and move) and which
/// are inner nodes (that take inserts and moves), kept in step with what the daemon accepted. Nodes are small
/// integer handles; their ids are kept as JSON string literals, ready to splice into an edit.
///
/// Several writers edit a tree at once, so every node an in-flight batch names is locked until the batch is answered:
/// no other batch removes a leaf that another one moves or sets, and a leaf inserted by a batch is only edited once
/// that batch was accepted. The batches of different writers therefore never conflict, whatever order the daemon
/// applies them in.
final class LoadTreeModel {
    /// A change one op makes, applied to the model when its batch is accepted and undone when it is not.
    enum Change {
        case set(Int32)
        case insert(Int32)
        case remove(Int32)
        case move(Int32, to: Int32, after: Int32?)
    }

    let id: String
    /// `id` as a JSON string literal.
    let idLiteral: String
    /// The key edits set, as a JSON string literal.
    let keyLiteral: String
    /// Each node's id as a JSON string literal, by handle.
    private(set) var names: [String] = []
    /// The parent of each leaf (the handle of an inner node); -1 for the root.
    private var parent: [Int32] = []
    /// Where each confirmed leaf is in `leaves`; -1 for inner nodes and for leaves not (or no longer) in the tree.
    private var slot: [Int32] = []
    private var locked: [Bool] = []
    private(set) var leaves: [Int32] = []
    /// Inner nodes that take inserted and moved leaves.
    private(set) var targets: [Int32] = []
    /// Leaves this run inserted, oldest first (from `insertedHead`): removes take these first.
    private var inserted: [Int32] = []
    private var insertedHead = 0
    private var pendingInserts = 0
    private var pendingRemoves = 0
    /// The leaf count inserts and removes keep the tree near.
    private(set) var baseline = 0
    private var nextInsert = 0
    private let insertPrefix: String
    /// Connections that receive this tree's diffs at full speed (slow readers excluded).
    var subscribers = 0
    /// A program tree's text fields (handles), which events target, and the text each was last given.
    var fields: [Int32] = []
    var texts: [String] = []

    init(id: String, key: String, insertPrefix: String) {
        self.id = id
        idLiteral = JSON.string(id).encoded()
        keyLiteral = JSON.string(key).encoded()
        self.insertPrefix = insertPrefix
    }

    // MARK: Building

    /// Adds a node; `parent` -1 for the root.
    @discardableResult
    func addNode(_ id: String, parent: Int32) -> Int32 {
        let handle = Int32(names.count)
        names.append(JSON.string(id).encoded())
        self.parent.append(parent)
        slot.append(-1)
        locked.append(false)
        return handle
    }

    /// Marks `node` as a leaf edits may target.
    func markLeaf(_ node: Int32) {
        slot[Int(node)] = Int32(leaves.count)
        leaves.append(node)
    }

    func markTarget(_ node: Int32) { targets.append(node) }

    /// Call once every node is added.
    func finishBuilding() {
        if targets.isEmpty { targets.append(0) }
        baseline = leaves.count
    }

    var nodeCount: Int { names.count }

    // MARK: Edits

    /// Appends one edit batch of `count` ops to `out` and returns the changes it makes.
    func writeBatch(
        seq: Int64, count: Int, mix: OpMix, random: inout SplitMix64, into out: inout [UInt8]
    ) -> [Change] {
        var changes: [Change] = []
        changes.reserveCapacity(count)
        out.append(contentsOf: #"{"type":"edit","tree":"#.utf8)
        out.append(contentsOf: idLiteral.utf8)
        out.append(contentsOf: #","seq":"#.utf8)
        out.append(contentsOf: String(seq).utf8)
        out.append(contentsOf: #","ops":["#.utf8)
        let total = UInt64(mix.total)
        for i in 0..<count {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            let kind = mix.op(at: Int(random.next() % total))
            changes.append(writeOp(kind, random: &random, into: &out))
        }
        out.append(contentsOf: "]}".utf8)
        return changes
    }

    /// One op of kind `wanted`, or the kind that keeps the tree near its size; an op that finds no free leaf falls
    /// back to an insert, which always succeeds (`fallback`: taken as it is, so a tree above its size whose leaves
    /// are all in flight does not bounce between remove and insert for ever).
    private func writeOp(_ wanted: LoadOp, fallback: Bool = false, random: inout SplitMix64, into out: inout [UInt8])
        -> Change
    {
        var kind = wanted
        let size = leaves.count + pendingInserts - pendingRemoves
        let slack = max(2, baseline / 100)
        if !fallback && kind == .insert && size > baseline + slack { kind = .remove }
        if !fallback && kind == .remove && size < baseline - slack { kind = .insert }
        switch kind {
        case .set:
            let node = randomFreeLeaf(&random) ?? targets[Int(random.next() % UInt64(targets.count))]
            let value = random.next() % 1000
            out.append(contentsOf: #"{"op":"setPreference","node":"#.utf8)
            out.append(contentsOf: names[Int(node)].utf8)
            out.append(contentsOf: #","key":"#.utf8)
            out.append(contentsOf: keyLiteral.utf8)
            out.append(contentsOf: #","value":"#.utf8)
            out.append(contentsOf: String(value).utf8)
            out.append(UInt8(ascii: "}"))
            if locked[Int(node)] == false && slot[Int(node)] >= 0 { locked[Int(node)] = true }
            return .set(node)
        case .remove:
            guard let leaf = leafToRemove(&random) else {
                return writeOp(.insert, fallback: true, random: &random, into: &out)
            }
            locked[Int(leaf)] = true
            pendingRemoves += 1
            out.append(contentsOf: #"{"op":"remove","node":"#.utf8)
            out.append(contentsOf: names[Int(leaf)].utf8)
            out.append(UInt8(ascii: "}"))
            return .remove(leaf)
        case .move:
            guard let leaf = randomFreeLeaf(&random) else {
                return writeOp(.insert, fallback: true, random: &random, into: &out)
            }
            locked[Int(leaf)] = true
            out.append(contentsOf: #"{"op":"move","node":"#.utf8)
            out.append(contentsOf: names[Int(leaf)].utf8)
            out.append(contentsOf: #","parent":"#.utf8)
            // Half the moves go after another leaf (wherever it is), half to the front of an inner node.
            if random.next() & 1 == 0, let sibling = randomFreeLeaf(&random) {
                locked[Int(sibling)] = true
                let to = parent[Int(sibling)]
                out.append(contentsOf: names[Int(to)].utf8)
                out.append(contentsOf: #","after":"#.utf8)
                out.append(contentsOf: names[Int(sibling)].utf8)
                out.append(UInt8(ascii: "}"))
                return .move(leaf, to: to, after: sibling)
            }
            var to = targets[Int(random.next() % UInt64(targets.count))]
            if to == parent[Int(leaf)] && targets.count > 1 { to = targets[Int(random.next() % UInt64(targets.count))] }
            out.append(contentsOf: names[Int(to)].utf8)
            out.append(contentsOf: #","index":0}"#.utf8)
            return .move(leaf, to: to, after: nil)
        case .insert:
            let to = targets[Int(random.next() % UInt64(targets.count))]
            let leaf = addNode(insertPrefix + "x\(nextInsert)", parent: to)
            nextInsert += 1
            locked[Int(leaf)] = true
            pendingInserts += 1
            out.append(contentsOf: #"{"op":"insert","parent":"#.utf8)
            out.append(contentsOf: names[Int(to)].utf8)
            out.append(contentsOf: #","node":"#.utf8)
            writeLeaf(leaf, into: &out)
            out.append(UInt8(ascii: "}"))
            return .insert(leaf)
        }
    }

    /// A leaf node's JSON: it writes `key = 1`.
    func writeLeaf(_ node: Int32, into out: inout [UInt8]) {
        out.append(contentsOf: #"{"id":"#.utf8)
        out.append(contentsOf: names[Int(node)].utf8)
        out.append(contentsOf: #","type":"Text","modifiers":[{"kind":"preference","key":"#.utf8)
        out.append(contentsOf: keyLiteral.utf8)
        out.append(contentsOf: #","value":1}]}"#.utf8)
    }

    /// An inner node's JSON: it reads `key`.
    func writeInner(_ node: Int32, into out: inout [UInt8]) {
        out.append(contentsOf: #"{"id":"#.utf8)
        out.append(contentsOf: names[Int(node)].utf8)
        out.append(contentsOf: #","type":"VStack","modifiers":[{"kind":"onPreferenceChange","key":"#.utf8)
        out.append(contentsOf: keyLiteral.utf8)
        out.append(contentsOf: "}]}".utf8)
    }

    func parentOf(_ node: Int32) -> Int32 { parent[Int(node)] }

    /// Whether `node` is a confirmed leaf of the tree.
    func isLeaf(_ node: Int32) -> Bool { slot[Int(node)] >= 0 }

    /// A random leaf no in-flight batch names, if one is found in a few draws.
    private func randomFreeLeaf(_ random: inout SplitMix64) -> Int32? {
        guard !leaves.isEmpty else { return nil }
        for _ in 0..<8 {
            let leaf = leaves[Int(random.next() % UInt64(leaves.count))]
            if !locked[Int(leaf)] { return leaf }
        }
        return nil
    }

    /// The oldest leaf this run inserted that is still there and free, else a random free leaf.
    private func leafToRemove(_ random: inout SplitMix64) -> Int32? {
        var i = insertedHead
        while i < inserted.count && i < insertedHead + 16 {
            let leaf = inserted[i]
            if slot[Int(leaf)] < 0 {  // removed meanwhile
                inserted.swapAt(i, insertedHead)
                insertedHead += 1
            } else if !locked[Int(leaf)] {
                inserted.swapAt(i, insertedHead)
                insertedHead += 1
                return leaf
            }
            i += 1
        }
        if insertedHead > 1024 && insertedHead * 2 > inserted.count {
            inserted.removeFirst(insertedHead)
            insertedHead = 0
        }
        return randomFreeLeaf(&random)
    }

    /// The batch that made `changes` was accepted.
    func accept(_ changes: [Change]) {
        for change in changes {
            switch change {
            case .set(let node):
                locked[Int(node)] = false
            case .insert(let leaf):
                pendingInserts -= 1
                locked[Int(leaf)] = false
                markLeaf(leaf)
                inserted.append(leaf)
            case .remove(let leaf):
                pendingRemoves -= 1
                removeLeaf(leaf)
            case .move(let leaf, let to, let after):
                parent[Int(leaf)] = to
                locked[Int(leaf)] = false
                if let after { locked[Int(after)] = false }
            }
        }
    }

    /// The batch that made `changes` was rejected (or its answer lost): nothing of it happened.
    func undo(_ changes: [Change]) {
        for change in changes {
            switch change {
            case .set(let node):
                locked[Int(node)] = false
            case .insert:
                pendingInserts -= 1  // the handle stays unused
            case .remove(let leaf):
                pendingRemoves -= 1
                locked[Int(leaf)] = false
            case .move(let leaf, _, let after):
                locked[Int(leaf)] = false
                if let after { locked[Int(after)] = false }
            }
        }
    }

    private func removeLeaf(_ leaf: Int32) {
        let at = Int(slot[Int(leaf)])
        guard at >= 0 else { return }
        let last = leaves.removeLast()
        if last != leaf {
            leaves[at] = last
            slot[Int(last)] = Int32(at)
        }
        slot[Int(leaf)] = -1
        locked[Int(leaf)] = false
    }
}
