/// What a committed batch changed, for the evaluator (slots as they are after the batch).
enum TreeChange: Sendable {
    /// A parent's child list changed (insert, remove or move).
    case childrenChanged(Slot)
    /// A detached subtree, still intact in its slots until released.
    case removed(Slot)
    /// The node's modifier chain changed shape.
    case modifiersChanged(Slot)
    /// The value of the writer at this modifier index changed; the chain kept its shape.
    case writerChanged(Slot, modifier: Int)
    case keyDeclared(KeyID)
}

/// The inverse of one primitive mutation, replayed newest first when a batch fails.
enum Undo {
    case built(Slot)
    case linked(Slot)
    case unlinked(Slot, parent: Slot, at: Int)
    case unregistered(Slot)
    case props(Slot, JSONObject)
    case modifiers(Slot, [StoredModifier])
    case key(KeyID, KeyDeclaration?)
}

/// The outcome of a batch that applied.
struct AppliedBatch {
    /// The ops as applied: positions resolved to indexes, nodes and keys in full form.
    var normalized: [Op]
    var changes: [TreeChange]
    /// Roots of subtrees that left the tree; their slots must be released once the evaluator forgot them.
    var dead: [Slot]
    /// Every slot built by the batch, parents before children (some may be dead again by the end of the batch).
    var built: [Slot] = []
    /// The inverses of the batch's mutations: kept until the batch evaluated, since a fault in Swift code undoes it.
    var undo: [Undo] = []
}

extension NodeStore {
    /// Applies `ops` atomically: on the first failing op everything is undone and the error names that op.
    mutating func apply(_ ops: [Op]) throws(CanopyError) -> AppliedBatch {
        var log: [Undo] = []
        var batch = AppliedBatch(normalized: [], changes: [], dead: [])
        builtSlots.removeAll(keepingCapacity: true)
        defer {
            builtSlots.removeAll()
            compiledTransforms.removeAll()
        }
        batch.normalized.reserveCapacity(ops.count)
        for (i, op) in ops.enumerated() {
            do {
                batch.normalized.append(try apply(op, &log, &batch))
            } catch {
                rollback(log)
                var e = error
                e.op = i
                throw e
            }
        }
        batch.built = builtSlots
        batch.undo = log
        return batch
    }

    /// Undoes a batch that `apply` committed; its dead subtrees must not have been released yet.
    mutating func undo(_ batch: AppliedBatch) {
        rollback(batch.undo)
    }

    private mutating func rollback(_ log: [Undo]) {
        for u in log.reversed() {
            switch u {
            case .built(let s):
                unregister(s)
                release(s)
            case .linked(let s): unlink(s)
            case .unlinked(let s, let p, let at): link(s, under: p, at: at)
            case .unregistered(let s): reregister(s)
            case .props(let s, let old): props[Int(s)] = old
            case .modifiers(let s, let old): replaceModifiers(s, old)
            case .key(let k, let previous): keys.restore(k, previous: previous)
            }
        }
    }

    private func existing(_ id: String) throws(CanopyError) -> Slot {
        guard let s = slot(of: id) else { throw CanopyError(.noSuchNode, "no node \"\(id)\" in this tree") }
        return s
    }

    private func declaredKey(_ key: String) throws(CanopyError) -> KeyID {
        guard let k = keys.id(of: key) else {
            throw CanopyError(.badKey, "key \"\(key)\" is not declared (declare it with declareKey first)")
        }
        return k
    }

    private mutating func apply(_ op: Op, _ log: inout [Undo], _ batch: inout AppliedBatch) throws(CanopyError) -> Op {
        switch op {
        case .insert(let parentID, let node, let position):
            let p = try existing(parentID)
            try validateNew(node, depth: depth(of: p) + 1)
            let at = try resolve(position, in: p)
            let s = build(node, parent: p, attachment: -1)
            log.append(.built(s))
            link(s, under: p, at: at)
            log.append(.linked(s))
            batch.changes.append(.childrenChanged(p))
            return .insert(parent: parentID, node: node, position: .index(at))

        case .remove(let id):
            let s = try existing(id)
            try checkMovable(s, "remove")
            let p = parent[Int(s)]
            let at = unlink(s)
            log.append(.unlinked(s, parent: p, at: at))
            unregister(s)
            log.append(.unregistered(s))
            batch.changes.append(.removed(s))
            batch.changes.append(.childrenChanged(p))
            batch.dead.append(s)
            return op

        case .move(let id, let parentID, let position):
            let s = try existing(id)
            let p = try existing(parentID)
            try checkMovable(s, "move")
            guard !isInside(p, s) else {
                throw CanopyError(.cycle, "cannot move \"\(id)\" into \"\(parentID)\", which is itself or inside it")
            }
            let newDepth = depth(of: p) + 1
            if newDepth > depth(of: s), newDepth + height(of: s) > limits.maxDepth {
                throw CanopyError(.tooDeep, "moving \"\(id)\" under \"\(parentID)\" exceeds the depth limit \(limits.maxDepth)")
            }
            let oldParent = parent[Int(s)]
            let oldAt = unlink(s)
            log.append(.unlinked(s, parent: oldParent, at: oldAt))
            let at = try resolve(position, in: p)
            link(s, under: p, at: at)
            log.append(.linked(s))
            batch.changes.append(.childrenChanged(oldParent))
            if p != oldParent { batch.changes.append(.childrenChanged(p)) }
            return .move(node: id, parent: parentID, position: .index(at))

        case .setProps(let id, let changes):
            let s = try existing(id)
            let old = props[Int(s)]
            var merged = old
            for m in changes.members {
                if m.value.isNull { merged[m.key] = nil } else { merged[m.key] = m.value }
            }
            props[Int(s)] = merged
            log.append(.props(s, old))
            return op

        case .setModifiers(let id, let mods):
            let s = try existing(id)
            guard mods.count <= limits.maxModifiers else {
                throw CanopyError(.tooMany, "\(mods.count) modifiers on \"\(id)\"; the limit is \(limits.maxModifiers)")
            }
            let old = Array(modifiers[Int(s)])
            // The old attached subtrees leave first, so their ids may be reused by the new chain.
            for m in old {
                guard let a = m.attachedSlot else { continue }
                unregister(a)
                log.append(.unregistered(a))
            }
            let depth = depth(of: s)
            var seen = Set<String>()
            for m in mods { try validateModifier(m, depth: depth, seen: &seen) }
            try checkCount(adding: mods.reduce(0) { $0 + ($1.attached?.subtreeCount ?? 0) })
            log.append(.modifiers(s, old))
            let stored = storedModifiers(mods, host: s)
            for m in stored {
                if let a = m.attachedSlot { log.append(.built(a)) }
            }
            replaceModifiers(s, stored)
            for m in old {
                guard let a = m.attachedSlot else { continue }
                detachAttached(a)
                batch.changes.append(.removed(a))
                batch.dead.append(a)
            }
            batch.changes.append(.modifiersChanged(s))
            return op

        case .setPreference(let id, let key, let value):
            let s = try existing(id)
            let k = try declaredKey(key)
            try keys[k].check(value)
            let old = Array(modifiers[Int(s)])
            var mods = old
            let writer = mods.lastIndex { if case .preference(_, k) = $0 { return true } else { return false } }
            if let w = writer {
                guard case .preference(let oldValue, _) = mods[w], oldValue != value else { return op }
                mods[w] = .preference(value, k)
                log.append(.modifiers(s, old))
                replaceModifiers(s, mods)
                batch.changes.append(.writerChanged(s, modifier: w))
            } else {
                guard mods.count < limits.maxModifiers else {
                    throw CanopyError(.tooMany, "\"\(id)\" already has \(mods.count) modifiers, the limit")
                }
                mods.append(.preference(value, k))
                log.append(.modifiers(s, old))
                replaceModifiers(s, mods)
                batch.changes.append(.modifiersChanged(s))
            }
            return op

        case .removePreference(let id, let key):
            let s = try existing(id)
            let k = try declaredKey(key)
            let old = Array(modifiers[Int(s)])
            let kept = old.filter { if case .preference(_, k) = $0 { return false } else { return true } }
            if kept.count != old.count {
                log.append(.modifiers(s, old))
                replaceModifiers(s, kept)
                batch.changes.append(.modifiersChanged(s))
            }
            return op

        case .declareKey(let given):
            try given.validate()
            let existing = keys.id(of: given.key)
            // The same Swift source again: keep the compiled key (no recompile, nothing to reset).
            if let k = existing, case .custom = keys[k].reducer, keys[k].reducer == given.reducer {
                return .declareKey(keys[k])
            }
            let declaration = try given.compiled(with: compiler)
            if let k = existing {
                try checkUses(of: k, fit: declaration, &log)
            }
            let (k, previous) = keys.declare(declaration)
            log.append(.key(k, previous))
            if previous != declaration { batch.changes.append(.keyDeclared(k)) }
            return .declareKey(declaration)
        }
    }

    private func checkMovable(_ s: Slot, _ verb: String) throws(CanopyError) {
        if s == root { throw CanopyError(.badMessage, "cannot \(verb) the root node") }
        if isAttachedRoot(s) {
            let host = ids[Int(parent[Int(s)])]
            throw CanopyError(
                .badMessage,
                "cannot \(verb) \"\(ids[Int(s)])\": it is the attached root of a background/overlay of \"\(host)\"; "
                    + "change that node's modifiers instead")
        }
    }

    /// The index at which a node goes under `p` (whose child list no longer holds the node being moved).
    private func resolve(_ position: Position, in p: Slot) throws(CanopyError) -> Int {
        let kids = children[Int(p)]
        switch position {
        case .end:
            return kids.count
        case .index(let i):
            guard i >= 0 && i <= kids.count else {
                throw CanopyError(.badIndex, "index \(i) is out of range 0...\(kids.count) for \"\(ids[Int(p)])\"")
            }
            return i
        case .after(let sibling), .before(let sibling):
            let sib = try existing(sibling)
            guard let at = kids.firstIndex(of: sib) else {
                throw CanopyError(.badIndex, "\"\(sibling)\" is not a child of \"\(ids[Int(p)])\"")
            }
            if case .after = position { return at + 1 }
            return at
        }
    }

    private func checkCount(adding n: Int) throws(CanopyError) {
        guard liveCount + n <= limits.maxNodes else {
            throw CanopyError(.tooMany, "the tree would have \(liveCount + n) nodes; the limit is \(limits.maxNodes)")
        }
    }

    /// Validates a subtree about to be inserted at `depth`: fresh unique ids, declared keys, fitting values,
    /// the depth, node count and modifier limits.
    mutating func validateNew(_ node: Node, depth: Int) throws(CanopyError) {
        // Sized up front: a whole tree (a snapshot, a createTree) would otherwise rehash every id a dozen times.
        var seen = Set<String>(minimumCapacity: node.subtreeCount)
        try validateSubtree(node, depth: depth, seen: &seen)
        try checkCount(adding: seen.count)
    }

    /// Validates one node of a tree built node by node (`Tree(keys:rootJSON:…)`) as `validateNew` validates a
    /// subtree, but for its children, which are validated as they are built: the nodes built before are in the
    /// index, so its id (and its attached subtrees' ids) are checked against them.
    mutating func validateBuilding(_ node: Node, depth: Int) throws(CanopyError) {
        precondition(node.children.isEmpty, "children are validated as they are built")
        if node.modifiers.contains(where: { $0.attached != nil }) { return try validateNew(node, depth: depth) }
        // No attached subtree: only the index can hold the id already, and no set of ids is needed.
        try checkNode(node, depth: depth, fresh: slot(of: node.id) == nil)
        var none = Set<String>()
        for m in node.modifiers { try validateModifier(m, depth: depth, seen: &none) }
        try checkCount(adding: 1)
    }

    /// A node's own checks: its depth, its id not used yet (`fresh`), its number of modifiers.
    private func checkNode(_ node: Node, depth: Int, fresh: @autoclosure () -> Bool) throws(CanopyError) {
        guard depth <= limits.maxDepth else {
            throw CanopyError(.tooDeep, "node \"\(node.id)\" would be at depth \(depth); the limit is \(limits.maxDepth)")
        }
        guard fresh() else { throw CanopyError(.duplicateID, "node id \"\(node.id)\" is already used in this tree") }
        guard node.modifiers.count <= limits.maxModifiers else {
            throw CanopyError(
                .tooMany, "\(node.modifiers.count) modifiers on \"\(node.id)\"; the limit is \(limits.maxModifiers)")
        }
    }

    private mutating func validateSubtree(_ node: Node, depth: Int, seen: inout Set<String>) throws(CanopyError) {
        try checkNode(node, depth: depth, fresh: slot(of: node.id) == nil && seen.insert(node.id).inserted)
        for m in node.modifiers { try validateModifier(m, depth: depth, seen: &seen) }
        for c in node.children { try validateSubtree(c, depth: depth + 1, seen: &seen) }
    }

    private mutating func validateModifier(_ m: Modifier, depth: Int, seen: inout Set<String>) throws(CanopyError) {
        switch m {
        case .preference(let key, let value):
            try keys[try declaredKey(key)].check(value)
        case .transformPreference(let key, let t):
            let k = try declaredKey(key)
            try t.check(for: keys[k])
            if case .swift(let source) = t, case .custom(let r) = keys[k].reducer {
                let at = TransformSource(key: k, source: source)
                if compiledTransforms[at] == nil { compiledTransforms[at] = try r.compileTransform(source) }
            }
        case .onPreferenceChange(let key):
            _ = try declaredKey(key)
        case .background(let n), .overlay(let n):
            try validateSubtree(n, depth: depth + 1, seen: &seen)
        case .other:
            break
        }
    }

    /// Re-declaring a key must not strand values of the old type in the tree; Swift transforms of the key are
    /// recompiled against the new declaration (logged, so a failing batch restores them).
    private mutating func checkUses(
        of k: KeyID, fit declaration: KeyDeclaration, _ log: inout [Undo]
    ) throws(CanopyError) {
        var recompiled: [String: any CustomTransform] = [:]
        for i in 0..<capacity where isLive(Slot(i)) {
            var replaced: [StoredModifier]? = nil
            for (j, m) in modifiers[i].enumerated() {
                switch m {
                case .preference(let v, k):
                    guard let why = declaration.mismatch(v) else { continue }
                    if case .catalog(let r) = declaration.reducer {
                        throw CanopyError(
                            .typeMismatch,
                            "node \"\(ids[i])\" writes \(v.typeName) to \"\(declaration.key)\", which reducer "
                                + "\(r.rawValue) does not accept")
                    }
                    throw CanopyError(.typeMismatch, "node \"\(ids[i])\" writes to \"\(declaration.key)\": \(why)")
                case .transform(let t, k):
                    do { try t.check(for: declaration) } catch {
                        throw CanopyError(.typeMismatch, "node \"\(ids[i])\": \(error.message)")
                    }
                    guard let source = t.swiftSource, case .custom(let r) = declaration.reducer else { continue }
                    if case .custom(let made) = t, !made.compiledFromSource { continue }
                    let compiled: any CustomTransform
                    if let c = recompiled[source] {
                        compiled = c
                    } else {
                        compiled = try r.compileTransform(source)
                        recompiled[source] = compiled
                    }
                    if replaced == nil { replaced = Array(modifiers[i]) }
                    replaced![j] = .transform(.custom(compiled), k)
                default: break
                }
            }
            if let replaced {
                log.append(.modifiers(Slot(i), Array(modifiers[i])))
                replaceModifiers(Slot(i), replaced)
            }
        }
    }
}
