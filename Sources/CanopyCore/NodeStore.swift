/// Index of a node's storage slot. Slots of removed nodes are reused.
typealias Slot = Int32

/// A modifier as stored in the tree: keys resolved to ids, attached subtrees to their root slots.
/// Payloads are ordered (value, key) and `other` is boxed so that the enum packs into 24 bytes: a leaf with a few
/// writers is most of a large tree's memory.
enum StoredModifier: Sendable {
    case preference(JSON, KeyID)
    case transform(Transform, KeyID)
    case reader(KeyID)
    case background(Slot)
    case overlay(Slot)
    case other(OtherModifier)

    var attachedSlot: Slot? {
        switch self {
        case .background(let s), .overlay(let s): return s
        default: return nil
        }
    }
}

/// A modifier with no effect on preferences (`padding`, `hidden`, …), kept for display. Immutable.
final class OtherModifier: Sendable {
    let kind: String
    let args: JSONObject

    init(kind: String, args: JSONObject) {
        self.kind = kind
        self.args = args
    }
}

/// The tree's nodes in struct-of-arrays form, with the key table. Knows nothing about evaluation.
struct NodeStore: Sendable {
    var keys = KeyTable()
    var limits: Limits
    /// Compiles `{"key","swift"}` declarations; without one, such keys are refused.
    var compiler: (any KeyCompiler)?
    /// Swift transforms compiled while validating, for `build` to store; emptied after each batch.
    var compiledTransforms: [TransformSource: any CustomTransform] = [:]

    private(set) var ids: [String] = []
    /// Node types, interned: few distinct names, one per node.
    private(set) var typeIDs: [UInt32] = []
    private var typeNames: [String] = []
    private var typeDynamic: [Bool] = []
    private var typeLookup: [String: UInt32] = [:]
    var props: [JSONObject] = []
    private(set) var modifiers = ModifierArena()
    private(set) var children: [[Slot]] = []
    /// Parent slot, or the host for an attached root; -1 for the root and free slots.
    private(set) var parent: [Slot] = []
    /// For an attached root, the index of its `background`/`overlay` in the host's modifiers; otherwise -1.
    private(set) var attachment: [Int32] = []
    private(set) var alive: [Bool] = []
    private var index = IDIndex()
    private var freeSlots: [Slot] = []
    private(set) var liveCount = 0
    private(set) var root: Slot = -1
    /// Slots built since the current batch started, in build order (parents first).
    var builtSlots: [Slot] = []

    init(limits: Limits, compiler: (any KeyCompiler)? = nil) {
        self.limits = limits
        self.compiler = compiler
    }

    var capacity: Int { ids.count }

    func slot(of id: String) -> Slot? { index.find(id, in: ids) }

    /// Whether `s` holds a node of the tree (not free, not a subtree removed by the batch in progress).
    func isLive(_ s: Slot) -> Bool { alive[Int(s)] && index.find(ids[Int(s)], in: ids) == s }

    func type(of s: Slot) -> String { typeNames[Int(typeIDs[Int(s)])] }

    /// Whether the node is a dynamic container (`ForEach`, `If`, `AnyView`).
    @inline(__always)
    func isDynamic(_ s: Slot) -> Bool { typeDynamic[Int(typeIDs[Int(s)])] }

    private mutating func intern(_ type: String) -> UInt32 {
        if let t = typeLookup[type] { return t }
        let t = UInt32(typeNames.count)
        typeNames.append(type)
        typeDynamic.append(Node.isDynamicContainer(type))
        typeLookup[type] = t
        return t
    }

    func isAttachedRoot(_ s: Slot) -> Bool { attachment[Int(s)] >= 0 }

    /// The node's depth below the root (attached roots count one below their host).
    func depth(of s: Slot) -> Int {
        var d = 0
        var p = parent[Int(s)]
        while p >= 0 {
            d += 1
            p = parent[Int(p)]
        }
        return d
    }

    /// Whether `s` is `ancestor` or lies inside it (attached subtrees included).
    func isInside(_ s: Slot, _ ancestor: Slot) -> Bool {
        var p = s
        while p >= 0 {
            if p == ancestor { return true }
            p = parent[Int(p)]
        }
        return false
    }

    /// Height of the subtree at `s`: 0 for a leaf without attached subtrees.
    func height(of s: Slot) -> Int {
        var h = 0
        for m in modifiers[Int(s)] {
            if let a = m.attachedSlot { h = Swift.max(h, 1 + height(of: a)) }
        }
        for c in children[Int(s)] { h = Swift.max(h, 1 + height(of: c)) }
        return h
    }

    /// Calls `body` for every node of the subtree at `s`, attached subtrees included, parents first.
    func forEachInSubtree(_ s: Slot, _ body: (Slot) -> Void) {
        var stack: [Slot] = [s]
        while let n = stack.popLast() {
            body(n)
            for m in modifiers[Int(n)] {
                if let a = m.attachedSlot { stack.append(a) }
            }
            stack.append(contentsOf: children[Int(n)])
        }
    }

    // MARK: Building and releasing slots

    private mutating func allocateSlot() -> Slot {
        if let s = freeSlots.popLast() { return s }
        let s = Slot(ids.count)
        ids.append("")
        typeIDs.append(0)
        props.append(JSONObject())
        modifiers.appendSlot()
        children.append([])
        parent.append(-1)
        attachment.append(-1)
        alive.append(false)
        return s
    }

    /// Sets the children of a slot just built without them (a tree built node by node).
    mutating func setChildren(_ s: Slot, _ kids: [Slot]) { children[Int(s)] = kids }

    /// Makes room for `count` more nodes in the id index (building a whole tree at once).
    mutating func reserve(_ count: Int) { index.reserve(count, in: ids) }

    /// Materializes `node` (already validated) into fresh slots; registers ids. Returns the root slot.
    mutating func build(_ node: Node, parent p: Slot, attachment a: Int32) -> Slot {
        let s = allocateSlot()
        builtSlots.append(s)
        let i = Int(s)
        ids[i] = node.id
        typeIDs[i] = intern(node.type)
        props[i] = node.props
        parent[i] = p
        attachment[i] = a
        alive[i] = true
        index.insert(s, in: ids)
        liveCount += 1
        modifiers.replace(i, with: storedModifiers(node.modifiers, host: s))
        var kids: [Slot] = []
        kids.reserveCapacity(node.children.count)
        for c in node.children { kids.append(build(c, parent: s, attachment: -1)) }
        children[i] = kids
        return s
    }

    /// Converts validated modifiers, building their attached subtrees under `host`.
    mutating func storedModifiers(_ mods: [Modifier], host: Slot) -> [StoredModifier] {
        var out: [StoredModifier] = []
        out.reserveCapacity(mods.count)
        for (mi, m) in mods.enumerated() {
            switch m {
            case .preference(let k, let v): out.append(.preference(v, keys.id(of: k)!))
            case .transformPreference(let k, let t):
                let key = keys.id(of: k)!
                if case .swift(let source) = t {
                    out.append(.transform(.custom(compiledTransforms[TransformSource(key: key, source: source)]!), key))
                } else {
                    out.append(.transform(t, key))
                }
            case .onPreferenceChange(let k): out.append(.reader(keys.id(of: k)!))
            case .background(let n): out.append(.background(build(n, parent: host, attachment: Int32(mi))))
            case .overlay(let n): out.append(.overlay(build(n, parent: host, attachment: Int32(mi))))
            case .other(let kind, let args): out.append(.other(OtherModifier(kind: kind, args: args)))
            }
        }
        return out
    }

    mutating func setRoot(_ s: Slot) { root = s }

    /// Forgets the ids of a detached subtree (its slots stay allocated until `release`).
    mutating func unregister(_ s: Slot) {
        // Collect first: mutating `index` inside a closure run by a method of `self` would copy the whole index.
        let slots = subtreeSlots(s)
        for n in slots { index.remove(ids[Int(n)], in: ids) }
        liveCount -= slots.count
    }

    /// Re-registers the ids of a subtree that `unregister` forgot (undo of a removal).
    mutating func reregister(_ s: Slot) {
        let slots = subtreeSlots(s)
        for n in slots { index.insert(n, in: ids) }
        liveCount += slots.count
    }

    func subtreeSlots(_ s: Slot) -> [Slot] {
        var slots: [Slot] = []
        forEachInSubtree(s) { slots.append($0) }
        return slots
    }

    /// Returns a dead subtree's slots to the free list.
    mutating func release(_ s: Slot) {
        for n in subtreeSlots(s) {
            let i = Int(n)
            ids[i] = ""
            typeIDs[i] = 0
            props[i] = JSONObject()
            modifiers.replace(i, with: [])
            children[i] = []
            parent[i] = -1
            attachment[i] = -1
            alive[i] = false
            freeSlots.append(n)
        }
    }

    // MARK: Structural primitives (each has an exact inverse)

    mutating func link(_ s: Slot, under p: Slot, at position: Int) {
        children[Int(p)].insert(s, at: position)
        parent[Int(s)] = p
    }

    /// Removes `s` from its parent's children; returns the index it had.
    @discardableResult
    mutating func unlink(_ s: Slot) -> Int {
        let p = parent[Int(s)]
        let at = children[Int(p)].firstIndex(of: s)!
        children[Int(p)].remove(at: at)
        parent[Int(s)] = -1
        return at
    }

    /// Replaces the modifier chain; attached subtrees referenced by `mods` must already point at `s` as host.
    mutating func replaceModifiers(_ s: Slot, _ mods: [StoredModifier]) {
        modifiers.replace(Int(s), with: mods)
        for (mi, m) in mods.enumerated() {
            if let a = m.attachedSlot {
                parent[Int(a)] = s
                attachment[Int(a)] = Int32(mi)
            }
        }
    }

    /// Detaches an attached root from its host link (the host's modifiers are replaced separately).
    mutating func detachAttached(_ a: Slot) {
        parent[Int(a)] = -1
        attachment[Int(a)] = -1
    }

    // MARK: Conversion back to value form

    func node(_ s: Slot) -> Node {
        let i = Int(s)
        return Node(
            id: ids[i], type: type(of: s), props: props[i],
            modifiers: modifiers[i].map { modifier($0) },
            children: children[i].map { node($0) })
    }

    func modifier(_ m: StoredModifier) -> Modifier {
        switch m {
        case .preference(let v, let k): return .preference(key: keys[k].key, value: v)
        case .transform(let t, let k):
            // The compiled transform itself, which encodes as its source (as the wire does) and equals a `.swift` of
            // that source: read back into another op, it need not be compiled again — and a program's closure (a
            // transformAnchorPreference) could not be.
            return .transformPreference(key: keys[k].key, transform: t)
        case .reader(let k): return .onPreferenceChange(key: keys[k].key)
        case .background(let a): return .background(node(a))
        case .overlay(let a): return .overlay(node(a))
        case .other(let o): return .other(kind: o.kind, args: o.args)
        }
    }

    // MARK: Invariants

    /// Verifies ids unique and indexed, parent and attachment links consistent, every live slot reachable once
    /// from the root, depth within the limit, and writer values fitting their keys. Traps on violation.
    func checkInvariants() {
        precondition(root >= 0 && alive[Int(root)], "root must be alive")
        precondition(parent[Int(root)] == -1 && attachment[Int(root)] == -1, "root has no parent")
        var seen = 0
        var stack: [(Slot, Int)] = [(root, 0)]
        var visited = [Bool](repeating: false, count: capacity)
        while let (n, d) = stack.popLast() {
            let i = Int(n)
            precondition(alive[i], "reachable node \(ids[i]) must be alive")
            precondition(!visited[i], "node \(ids[i]) reachable twice")
            visited[i] = true
            seen += 1
            precondition(d <= limits.maxDepth, "node \(ids[i]) deeper than \(limits.maxDepth)")
            precondition(index.find(ids[i], in: ids) == n, "id \(ids[i]) must be indexed to its slot")
            for (mi, m) in modifiers[i].enumerated() {
                switch m {
                case .background(let a), .overlay(let a):
                    precondition(parent[Int(a)] == n && attachment[Int(a)] == Int32(mi), "attached link of \(ids[i])")
                    stack.append((a, d + 1))
                case .preference(let v, let k):
                    precondition(Int(k) < keys.count && keys[k].mismatch(v) == nil, "writer type on \(ids[i])")
                case .transform(_, let k), .reader(let k):
                    precondition(Int(k) < keys.count, "key of modifier on \(ids[i])")
                case .other: break
                }
            }
            for c in children[i] {
                precondition(parent[Int(c)] == n && attachment[Int(c)] == -1, "parent link of \(ids[Int(c)])")
                stack.append((c, d + 1))
            }
        }
        precondition(seen == liveCount, "live count \(liveCount) but \(seen) reachable")
        precondition(index.count == liveCount, "index holds \(index.count) ids for \(liveCount) nodes")
        precondition(liveCount <= limits.maxNodes, "more than \(limits.maxNodes) nodes")
        var free = 0
        for i in 0..<capacity where !alive[i] { free += 1 }
        precondition(free == freeSlots.count, "free slots are all accounted for")
    }
}

/// A Swift transform's source with the key it was compiled against.
struct TransformSource: Hashable {
    var key: KeyID
    var source: String
}
