/// A reader's identity and last reported value.
struct ReaderState: Sendable {
    var modifier: Int32
    var key: KeyID
    var lastValue: JSON?
}

/// The incremental, lazy preference engine (SEMANTICS.md §2–§4).
///
/// Per key, a node's output is a chain of *stages*: stage 0 is the fold over its children, and every writer,
/// transform, background and overlay adds one stage (readers and other modifiers do not). Computed stages
/// (fold, transform, pair) are cached in cells; writer stages are read straight from the modifier.
///
/// After a batch, `invalidate` walks up from each change along the edges the last evaluation actually read,
/// marking cells dirty and collecting readers; `pull` then brings just those readers up to date: a dirty cell
/// re-checks the inputs it read, in the order it read them, and recomputes only if one of them changed
/// (so an equal result cuts propagation off).
struct Evaluator: Sendable {
    /// Per-node flag bits of one key.
    static let basePresent: UInt8 = 1
    static let outPresent: UInt8 = 2
    /// The node's output was read by its parent's fold in that fold's last evaluation.
    static let outConsumed: UInt8 = 4

    /// Cell state, low two bits.
    static let unevaluated: UInt8 = 0
    static let clean: UInt8 = 1
    static let dirty: UInt8 = 2
    static let structDirty: UInt8 = 3
    /// Cell bits: which inputs of a transform or pair stage its last evaluation read.
    static let readInner: UInt8 = 4
    static let readAttached: UInt8 = 8

    /// The evaluation state of one key.
    struct KeyState: Sendable {
        var flags: [UInt8] = []
        var cellStart: [Int32] = []
        var value: [JSON] = []
        var state: [UInt8] = []
        var changedAt: [UInt32] = []
        var computedAt: [UInt32] = []
        /// Length of the range starting at this cell (meaningful at range starts only).
        var rangeLength: [UInt16] = []
        var freeRanges: [Int: [Int32]] = [:]

        mutating func grow(to n: Int) {
            if flags.count < n {
                flags.append(contentsOf: repeatElement(0, count: n - flags.count))
                cellStart.append(contentsOf: repeatElement(-1, count: n - cellStart.count))
            }
        }

        mutating func allocate(_ length: Int) -> Int32 {
            if var list = freeRanges[length], let start = list.popLast() {
                freeRanges[length] = list
                for c in Int(start)..<(Int(start) + length) { state[c] = Evaluator.unevaluated }
                return start
            }
            let start = Int32(value.count)
            value.append(contentsOf: repeatElement(.null, count: length))
            state.append(contentsOf: repeatElement(Evaluator.unevaluated, count: length))
            changedAt.append(contentsOf: repeatElement(0, count: length))
            computedAt.append(contentsOf: repeatElement(0, count: length))
            rangeLength.append(contentsOf: repeatElement(0, count: length))
            rangeLength[Int(start)] = UInt16(length)
            return start
        }

        mutating func freeCells(of n: Slot) {
            let start = cellStart[Int(n)]
            guard start >= 0 else { return }
            let length = Int(rangeLength[Int(start)])
            for c in Int(start)..<(Int(start) + length) { value[c] = .null }
            freeRanges[length, default: []].append(start)
            cellStart[Int(n)] = -1
        }
    }

    var keys: [KeyState] = []
    /// Readers per node, in modifier order.
    var readers: [Slot: [ReaderState]] = [:]
    var hasReaders: [Bool] = []
    /// Readers to bring up to date, as `slot << 32 | modifier`.
    var pending: Set<Int64> = []
    /// Revision of the evaluation in progress; grows by one per evaluation.
    var revision: UInt32 = 1

    var tracer: TraceRecorder?
    var summary = TraceSummary()
    /// What the Swift reducers of the evaluation in progress share; made when the first one runs.
    var context: ReducerContext?
    /// The first error Swift code threw in the evaluation in progress; once set, no more Swift code runs.
    var fault: CanopyError?
    /// Fuel of an evaluation when not the tree's limit (the recovery after a fault re-runs what already ran once).
    var fuelOverride: Int?

    // MARK: Stage structure

    /// Whether modifier `m` adds a stage for key `k`.
    @inline(__always)
    static func isStage(_ m: StoredModifier, _ k: KeyID) -> Bool {
        switch m {
        case .preference(_, let key), .transform(_, let key): return key == k
        case .background, .overlay: return true
        case .reader, .other: return false
        }
    }

    static func stageCount(_ store: NodeStore, _ n: Slot, _ k: KeyID) -> Int {
        var count = 1
        for j in store.modifiers.bounds(Int(n)) where isStage(store.modifiers.item(j), k) { count += 1 }
        return count
    }

    /// The modifier index of stage `s` (s ≥ 1).
    static func modifierIndex(_ store: NodeStore, _ n: Slot, _ k: KeyID, stage s: Int) -> Int {
        var seen = 0
        let r = store.modifiers.bounds(Int(n))
        for j in r where isStage(store.modifiers.item(j), k) {
            seen += 1
            if seen == s { return j - r.lowerBound }
        }
        preconditionFailure("stage \(s) out of range")
    }

    /// The stage observed at modifier index `i`: the stages added by the modifiers inside it.
    static func stage(_ store: NodeStore, _ n: Slot, _ k: KeyID, observedAt i: Int) -> Int {
        var s = 0
        let base = store.modifiers.bounds(Int(n)).lowerBound
        for j in base..<(base + i) where isStage(store.modifiers.item(j), k) { s += 1 }
        return s
    }

    /// The stage of the `background`/`overlay` at modifier index `i`.
    static func stage(_ store: NodeStore, _ n: Slot, _ k: KeyID, ofModifier i: Int) -> Int {
        stage(store, n, k, observedAt: i) + 1
    }

    /// Whether stage `s` of `n` is present for `k` (structural: no value is evaluated).
    func isPresent(_ store: NodeStore, _ n: Slot, _ k: KeyID, stage s: Int) -> Bool {
        let ks = keys[Int(k)]
        var present = ks.flags[Int(n)] & Evaluator.basePresent != 0
        guard s > 0 else { return present }
        var seen = 0
        for j in store.modifiers.bounds(Int(n)) {
            let m = store.modifiers.item(j)
            guard Evaluator.isStage(m, k) else { continue }
            switch m {
            case .preference, .transform: present = true
            case .background(let a), .overlay(let a): present = present || ks.flags[Int(a)] & Evaluator.outPresent != 0
            default: break
            }
            seen += 1
            if seen == s { break }
        }
        return present
    }

    // MARK: Capacity and presence

    mutating func grow(to capacity: Int) {
        if hasReaders.count < capacity {
            hasReaders.append(contentsOf: repeatElement(false, count: capacity - hasReaders.count))
        }
        for k in keys.indices { keys[k].grow(to: capacity) }
    }

    /// Recomputes `n`'s presence bits for `k` from its children and attached roots; returns whether the output
    /// presence flipped.
    mutating func recomputePresence(_ store: NodeStore, _ n: Slot, _ k: KeyID) -> (base: Bool, out: Bool) {
        let i = Int(n)
        var base = store.isDynamic(n)
        if !base {
            for c in store.children[i] where keys[Int(k)].flags[Int(c)] & Evaluator.outPresent != 0 {
                base = true
                break
            }
        }
        let old = keys[Int(k)].flags[i]
        var flags = old & ~(Evaluator.basePresent | Evaluator.outPresent)
        if base { flags |= Evaluator.basePresent }
        keys[Int(k)].flags[i] = flags
        var out = base
        for j in store.modifiers.bounds(i) {
            switch store.modifiers.item(j) {
            case .preference(_, k), .transform(_, k): out = true
            case .background(let a), .overlay(let a): out = out || keys[Int(k)].flags[Int(a)] & Evaluator.outPresent != 0
            default: break
            }
        }
        if out { flags |= Evaluator.outPresent }
        keys[Int(k)].flags[i] = flags
        return ((old ^ flags) & Evaluator.basePresent != 0, (old ^ flags) & Evaluator.outPresent != 0)
    }

    /// Computes presence bottom-up over a subtree, for `keyRange`, without invalidating anything (for state that
    /// nothing has read yet: a new tree, a new key).
    mutating func initializePresence(_ store: NodeStore, subtree s: Slot, keys keyRange: Range<Int>) {
        let order = store.subtreeSlots(s)
        for k in keyRange {
            for n in order.reversed() { _ = recomputePresence(store, n, KeyID(k)) }
        }
    }

    // MARK: Readers

    /// Rebuilds `n`'s reader list from its modifiers, keeping the state of readers that kept their index and key,
    /// and schedules all of them.
    mutating func refreshReaders(_ store: NodeStore, _ n: Slot) {
        let old = readers[n] ?? []
        var new: [ReaderState] = []
        for (i, m) in store.modifiers[Int(n)].enumerated() {
            guard case .reader(let k) = m else { continue }
            if let kept = old.first(where: { $0.modifier == Int32(i) && $0.key == k }) {
                new.append(kept)
            } else {
                new.append(ReaderState(modifier: Int32(i), key: k, lastValue: nil))
            }
            pending.insert(Int64(n) << 32 | Int64(i))
        }
        // Readers that went away need no unscheduling: a pending entry is re-resolved against the registry when it
        // is evaluated (and may well name a new reader at the same index).
        readers[n] = new.isEmpty ? nil : new
        hasReaders[Int(n)] = !new.isEmpty
    }

    mutating func scheduleReaders(_ store: NodeStore, _ n: Slot, _ k: KeyID, stage s: Int) {
        guard hasReaders[Int(n)], let list = readers[n] else { return }
        for r in list where r.key == k && Evaluator.stage(store, n, k, observedAt: Int(r.modifier)) == s {
            pending.insert(Int64(n) << 32 | Int64(r.modifier))
        }
    }

    // MARK: Forgetting

    /// Drops all state of a subtree that left the tree (its slots are released afterwards).
    mutating func forget(_ store: NodeStore, subtree s: Slot) {
        store.forEachInSubtree(s) { n in
            for k in keys.indices {
                keys[k].freeCells(of: n)
                keys[k].flags[Int(n)] = 0
            }
            if hasReaders[Int(n)] {
                for r in readers[n] ?? [] { pending.remove(Int64(n) << 32 | Int64(r.modifier)) }
                readers[n] = nil
                hasReaders[Int(n)] = false
            }
        }
    }

    // MARK: Invalidation

    /// The cell of stage `s` of `n`, if allocated.
    @inline(__always)
    func cell(_ n: Slot, _ k: KeyID, _ s: Int) -> Int? {
        let start = keys[Int(k)].cellStart[Int(n)]
        return start >= 0 ? Int(start) + s : nil
    }

    /// Marks stage `s` of `n` as possibly changed and walks up to everything that read it, collecting the readers
    /// on the way. `structural` forces a recompute of the first stage (its inputs' shape changed). When stage `s`
    /// is a writer, its value changed, and whatever read it must recompute.
    mutating func invalidate(_ store: NodeStore, _ n0: Slot, _ k: KeyID, stage s0: Int, structural: Bool) {
        var n = n0
        var s = s0
        var structural = structural
        // A writer stage has no cell: its consumer must recompute rather than verify.
        var forceConsumer = false
        while true {
            let isWriterStage = s > 0 && Evaluator.isWriter(store, n, k, stage: s)
            if !isWriterStage, let c = cell(n, k, s) {
                let st = keys[Int(k)].state[c] & 3
                // No early exit at a cell that is already dirty: it may have been left dirty by an earlier batch
                // whose readers found it absent, and the readers above it must still be scheduled now.
                if st == Evaluator.clean {
                    keys[Int(k)].state[c] = (keys[Int(k)].state[c] & ~3) | (structural ? Evaluator.structDirty : Evaluator.dirty)
                } else if st == Evaluator.dirty && structural {
                    keys[Int(k)].state[c] |= Evaluator.structDirty
                }
            }
            forceConsumer = isWriterStage
            scheduleReaders(store, n, k, stage: s)
            let count = Evaluator.stageCount(store, n, k)
            if s < count - 1 {
                let next = s + 1
                if Evaluator.isWriter(store, n, k, stage: next) { return }
                var read = false
                if let c = cell(n, k, next) {
                    let st = keys[Int(k)].state[c]
                    read = st & 3 != Evaluator.unevaluated && st & Evaluator.readInner != 0
                }
                guard structural || read else { return }
                structural = structural || forceConsumer
                s = next
                continue
            }
            // The output: its consumer is the parent's fold or the host's background/overlay stage.
            let p = store.parent[Int(n)]
            guard p >= 0 else { return }
            let attachedAt = Int(store.attachment[Int(n)])
            if attachedAt >= 0 {
                let hostStage = Evaluator.stage(store, p, k, ofModifier: attachedAt)
                guard let c = cell(p, k, hostStage), keys[Int(k)].state[c] & Evaluator.readAttached != 0 else { return }
                n = p
                s = hostStage
            } else {
                guard keys[Int(k)].flags[Int(n)] & Evaluator.outConsumed != 0 else { return }
                n = p
                s = 0
            }
            structural = forceConsumer
        }
    }

    static func isWriter(_ store: NodeStore, _ n: Slot, _ k: KeyID, stage s: Int) -> Bool {
        if case .preference = store.modifiers.modifier(Int(n), modifierIndex(store, n, k, stage: s)) { return true }
        return false
    }
}

/// Collects trace events while an evaluation runs; exists only when a trace was asked for.
/// `@unchecked Sendable`: it lives only for the duration of one evaluation, on the thread running it.
final class TraceRecorder: @unchecked Sendable {
    var events: [TraceEvent] = []
    /// Stage computations (`pull`s) under way; 0 between them.
    var depth = 0

    /// Records an event of the stage being computed (or, outside any, at depth 0).
    func record(_ kind: TraceEvent.Kind) { events.append(TraceEvent(kind, depth: depth)) }

    /// Records an event about an operand at the depth a pull of it would have: one deeper than the current stage.
    func recordOperand(_ kind: TraceEvent.Kind) { events.append(TraceEvent(kind, depth: depth + 1)) }
}
