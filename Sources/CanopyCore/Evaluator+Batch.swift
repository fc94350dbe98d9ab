extension Evaluator {
    // MARK: Set-up

    /// Registers every node of a freshly built tree; all readers become pending.
    mutating func initialize(_ store: NodeStore) {
        grow(to: store.capacity)
        while keys.count < store.keys.count { keys.append(KeyState()) }
        for k in keys.indices { keys[k].grow(to: store.capacity) }
        initializePresence(store, subtree: store.root, keys: keys.indices)
        store.forEachInSubtree(store.root) { refreshReaders(store, $0) }
    }

    // MARK: Applying a batch's changes

    /// Updates presence and dirtiness after a committed batch and collects the readers to re-evaluate.
    /// Dead subtrees are forgotten here; their slots may be released afterwards.
    mutating func process(_ store: NodeStore, _ changes: [TreeChange], built: [Slot]) {
        grow(to: store.capacity)
        if keys.count < store.keys.count {
            let new = keys.count..<store.keys.count
            for _ in new { keys.append(KeyState()) }
            grow(to: store.capacity)
            initializePresence(store, subtree: store.root, keys: new)
        }
        // The store is in its state after the batch, while cells and reader lists still describe the chains from
        // before it. So everything whose shape changed is reset first, and only then does any invalidation walk
        // run, always over nodes whose cells match their current modifiers.
        var reset = Set<Slot>()
        var resetOrder: [Slot] = []
        var presenceDirty: [Slot] = []
        var presenceQueued = Set<Slot>()
        func queuePresence(_ n: Slot) {
            if presenceQueued.insert(n).inserted { presenceDirty.append(n) }
        }
        for change in changes {
            switch change {
            case .removed(let s): forget(store, subtree: s)
            case .keyDeclared(let k) where Int(k) < keys.count: resetKey(store, k)
            case .modifiersChanged(let n) where store.isLive(n):
                if reset.insert(n).inserted { resetOrder.append(n) }
            default: break
            }
        }
        var consumersToInvalidate: [(Slot, KeyID)] = []
        for n in resetOrder {
            let p = store.parent[Int(n)]
            if p >= 0 && !reset.contains(p) {
                for k in keys.indices where outputWasRead(store, n, KeyID(k)) { consumersToInvalidate.append((n, KeyID(k))) }
            }
            for k in keys.indices { keys[k].freeCells(of: n) }
            refreshReaders(store, n)
            queuePresence(n)
        }
        // Every node built by the batch, wherever it ended up (it may have been moved out of its inserted subtree);
        // its presence goes through the same pass as every other change, so nodes moved into it are not missed.
        for n in built where store.isLive(n) {
            refreshReaders(store, n)
            queuePresence(n)
        }
        for (n, k) in consumersToInvalidate { invalidateConsumer(store, n, k) }
        for change in changes {
            switch change {
            case .writerChanged(let n, let m) where store.isLive(n) && !reset.contains(n):
                guard case .preference(_, let k) = store.modifiers[Int(n)][m] else { continue }
                invalidate(store, n, k, stage: Evaluator.stage(store, n, k, ofModifier: m), structural: false)
            case .childrenChanged(let p) where store.isLive(p):
                for k in keys.indices { invalidate(store, p, KeyID(k), stage: 0, structural: true) }
                queuePresence(p)
            default:
                break
            }
        }
        if !presenceDirty.isEmpty { propagatePresence(store, from: presenceDirty) }
    }

    /// Whether `n`'s output was read by its consumer's last evaluation.
    private func outputWasRead(_ store: NodeStore, _ n: Slot, _ k: KeyID) -> Bool {
        let p = store.parent[Int(n)]
        guard p >= 0 else { return false }
        let at = Int(store.attachment[Int(n)])
        if at < 0 { return keys[Int(k)].flags[Int(n)] & Evaluator.outConsumed != 0 }
        // The host's chain may have changed shape too; an unknown stage counts as read.
        guard let c = cell(p, k, 0) else { return false }
        let s = Evaluator.stage(store, p, k, ofModifier: at)
        let length = Int(keys[Int(k)].rangeLength[c])
        return s >= length || keys[Int(k)].state[c + s] & Evaluator.readAttached != 0
    }

    /// Forces whatever consumes `n`'s output to recompute.
    private mutating func invalidateConsumer(_ store: NodeStore, _ n: Slot, _ k: KeyID) {
        let p = store.parent[Int(n)]
        guard p >= 0 else { return }
        let at = Int(store.attachment[Int(n)])
        let s = at < 0 ? 0 : Evaluator.stage(store, p, k, ofModifier: at)
        invalidate(store, p, k, stage: s, structural: true)
    }

    /// A re-declared key (new reducer or default): every cached value of it is void; its readers re-evaluate.
    private mutating func resetKey(_ store: NodeStore, _ k: KeyID) {
        var fresh = KeyState()
        fresh.flags = keys[Int(k)].flags.map { $0 & ~Evaluator.outConsumed }
        fresh.cellStart = [Int32](repeating: -1, count: fresh.flags.count)
        keys[Int(k)] = fresh
        for (n, list) in readers {
            for r in list where r.key == k { pending.insert(Int64(n) << 32 | Int64(r.modifier)) }
        }
    }

    /// Recomputes presence bits upward from the nodes whose children or modifiers changed; wherever a presence
    /// flips, the consumer's stage must recompute (the sequence of present operands changed).
    private mutating func propagatePresence(_ store: NodeStore, from start: [Slot]) {
        // Deepest first, so every node is recomputed once, after all of its changed descendants: no transient
        // flips (which would invalidate more than needed), and the same work whatever order the changes came in.
        var byDepth: [[Slot]] = []
        for n in start where store.isLive(n) {
            let d = store.depth(of: n)
            while byDepth.count <= d { byDepth.append([]) }
            byDepth[d].append(n)
        }
        for k in keys.indices {
            let key = KeyID(k)
            var levels = byDepth
            var queued = Set(start)
            var d = levels.count - 1
            while d >= 0 {
                for n in levels[d] {
                    let (baseFlipped, outFlipped) = recomputePresence(store, n, key)
                    if baseFlipped { invalidate(store, n, key, stage: 0, structural: true) }
                    guard outFlipped else { continue }
                    let p = store.parent[Int(n)]
                    guard p >= 0 else { continue }
                    let at = Int(store.attachment[Int(n)])
                    let s = at < 0 ? 0 : Evaluator.stage(store, p, key, ofModifier: at)
                    invalidate(store, p, key, stage: s, structural: true)
                    if queued.insert(p).inserted { levels[d - 1].append(p) }
                }
                d -= 1
            }
        }
    }

    // MARK: Evaluating readers

    /// Brings every pending reader up to date, in tree order; returns the readers that fire.
    mutating func evaluatePending(_ store: NodeStore, trace: Bool) -> (changes: [ReaderValue], trace: Trace?) {
        revision &+= 1
        tracer = trace ? TraceRecorder() : nil
        summary = TraceSummary()
        // A new context (and fuel) per evaluation, made when Swift code first runs; the caller checks `fault`.
        context = nil
        fault = nil
        defer { context = nil }
        var changes: [ReaderValue] = []
        for ref in pendingInTreeOrder(store) {
            let n = Slot(truncatingIfNeeded: ref >> 32)
            let m = Int(truncatingIfNeeded: ref & 0xffff_ffff)
            guard store.isLive(n), let ri = readers[n]?.firstIndex(where: { $0.modifier == Int32(m) }) else { continue }
            let k = readers[n]![ri].key
            let s = Evaluator.stage(store, n, k, observedAt: m)
            // `.none` (absent) unless present; a present value may itself be `.null`.
            var value: JSON? = .none
            if isPresent(store, n, k, stage: s) { value = pull(store, n, k, stage: s) }
            guard value != readers[n]![ri].lastValue else { continue }
            readers[n]![ri].lastValue = value
            let change = ReaderValue(
                reader: "\(store.ids[Int(n)])#\(m)", node: store.ids[Int(n)], key: store.keys[k].key, value: value)
            tracer?.record(.fire(reader: change.reader, node: change.node, key: change.key, value: value))
            changes.append(change)
        }
        pending.removeAll(keepingCapacity: true)
        let result = tracer.map { Trace(events: $0.events, summary: summary) }
        tracer = nil
        return (changes, result)
    }

    /// Pending readers sorted in tree order: a node's modifiers in order (readers, then into attached subtrees),
    /// then its children.
    private func pendingInTreeOrder(_ store: NodeStore) -> [Int64] {
        if pending.count <= 1 { return Array(pending) }
        if pending.count * 16 > store.liveCount {
            var out: [Int64] = []
            out.reserveCapacity(pending.count)
            walkReaders(store, store.root) { ref in
                if pending.contains(ref) { out.append(ref) }
            }
            return out
        }
        let keyed = pending.map { ref -> ([Int], Int64) in
            var path = Evaluator.treePath(store, Slot(truncatingIfNeeded: ref >> 32))
            path.append(Int(truncatingIfNeeded: ref & 0xffff_ffff))
            return (path, ref)
        }
        return keyed.sorted { $0.0.lexicographicallyPrecedes($1.0) }.map(\.1)
    }

    /// Positions from the root down to `n`: an attached root sits at its modifier index, a child at
    /// (host's modifier count + child index), so a node's readers sort before everything inside it.
    static func treePath(_ store: NodeStore, _ n: Slot) -> [Int] {
        var path: [Int] = []
        var s = n
        while true {
            let p = store.parent[Int(s)]
            if p < 0 { break }
            let at = Int(store.attachment[Int(s)])
            if at >= 0 {
                path.append(at)
            } else {
                path.append(store.modifiers[Int(p)].count + store.children[Int(p)].firstIndex(of: s)!)
            }
            s = p
        }
        return path.reversed()
    }

    /// Visits every reader in tree order as `slot << 32 | modifier`.
    func walkReaders(_ store: NodeStore, _ n: Slot, _ body: (Int64) -> Void) {
        for (i, m) in store.modifiers[Int(n)].enumerated() {
            switch m {
            case .reader: body(Int64(n) << 32 | Int64(i))
            case .background(let a), .overlay(let a): walkReaders(store, a, body)
            default: break
            }
        }
        for c in store.children[Int(n)] { walkReaders(store, c, body) }
    }

    /// Every reader's current value, in tree order.
    func readerValues(_ store: NodeStore) -> [ReaderValue] {
        var out: [ReaderValue] = []
        walkReaders(store, store.root) { ref in
            let n = Slot(truncatingIfNeeded: ref >> 32)
            let m = Int32(truncatingIfNeeded: ref & 0xffff_ffff)
            guard let r = readers[n]?.first(where: { $0.modifier == m }) else { return }
            out.append(
                ReaderValue(reader: "\(store.ids[Int(n)])#\(m)", node: store.ids[Int(n)], key: store.keys[r.key].key,
                            value: r.lastValue))
        }
        return out
    }

    /// The output of `n` for `k`, evaluated on demand (untraced; creates no reader). The caller checks `fault`.
    mutating func probe(_ store: NodeStore, _ n: Slot, _ k: KeyID) -> JSON? {
        let saved = summary
        context = nil
        fault = nil
        defer {
            summary = saved
            context = nil
        }
        let s = Evaluator.outStage(store, n, k)
        guard isPresent(store, n, k, stage: s) else { return .none }
        return pull(store, n, k, stage: s)
    }

    // MARK: Invariants

    /// Checks presence bits against a recomputation and the reader registry against the modifiers. Traps on
    /// violation.
    func checkInvariants(_ store: NodeStore) {
        precondition(pending.isEmpty, "no reader may stay pending after an evaluation")
        var copy = self
        store.forEachInSubtree(store.root) { n in
            for k in keys.indices {
                let before = copy.keys[k].flags[Int(n)] & (Evaluator.basePresent | Evaluator.outPresent)
                _ = copy.recomputePresence(store, n, KeyID(k))
                let after = copy.keys[k].flags[Int(n)] & (Evaluator.basePresent | Evaluator.outPresent)
                precondition(before == after, "presence of \(store.ids[Int(n)]) for key \(k) is stale")
            }
            var expected: [(Int32, KeyID)] = []
            for (i, m) in store.modifiers[Int(n)].enumerated() {
                if case .reader(let k) = m { expected.append((Int32(i), k)) }
            }
            let actual = (readers[n] ?? []).map { ($0.modifier, $0.key) }
            precondition(
                expected.count == actual.count && zip(expected, actual).allSatisfy { $0 == $1 },
                "reader registry of \(store.ids[Int(n)]) disagrees with its modifiers")
            precondition(hasReaders[Int(n)] == !expected.isEmpty, "reader flag of \(store.ids[Int(n)])")
        }
    }
}
