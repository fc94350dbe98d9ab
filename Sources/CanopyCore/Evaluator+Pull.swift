extension Evaluator {
    // MARK: Pulling values

    @inline(__always)
    mutating func ensureCells(_ store: NodeStore, _ n: Slot, _ k: KeyID) -> Int {
        let start = keys[Int(k)].cellStart[Int(n)]
        if start >= 0 { return Int(start) }
        let new = keys[Int(k)].allocate(Evaluator.stageCount(store, n, k))
        keys[Int(k)].cellStart[Int(n)] = new
        return Int(new)
    }

    /// The output stage of `n` for `k`.
    @inline(__always)
    static func outStage(_ store: NodeStore, _ n: Slot, _ k: KeyID) -> Int { stageCount(store, n, k) - 1 }

    /// The value of stage `s` of `n`, which must be present; computes or verifies it as needed.
    mutating func pull(_ store: NodeStore, _ n: Slot, _ k: KeyID, stage s: Int) -> JSON {
        // Each pull is one level of trace depth; untraced, this costs two nil checks.
        tracer?.depth += 1
        defer { tracer?.depth -= 1 }
        var modifier: Int? = nil
        if s > 0 {
            let m = Evaluator.modifierIndex(store, n, k, stage: s)
            modifier = m
            if case .preference(let v, _) = store.modifiers.modifier(Int(n), m) {
                summary.evaluated += 1
                tracer?.record(.eval(node: store.ids[Int(n)], key: store.keys[k].key, modifier: m))
                return v
            }
        }
        let c = ensureCells(store, n, k) + s
        let st = keys[Int(k)].state[c] & 3
        if st == Evaluator.clean || (st == Evaluator.dirty && inputsUnchanged(store, n, k, stage: s, cell: c)) {
            if st == Evaluator.dirty {
                keys[Int(k)].state[c] = (keys[Int(k)].state[c] & ~3) | Evaluator.clean
                keys[Int(k)].computedAt[c] = revision
            }
            summary.cached += 1
            if let tracer {
                tracer.record(
                    .cached(node: store.ids[Int(n)], key: store.keys[k].key, modifier: modifier, value: keys[Int(k)].value[c]))
            }
            return keys[Int(k)].value[c]
        }
        summary.evaluated += 1
        tracer?.record(.eval(node: store.ids[Int(n)], key: store.keys[k].key, modifier: modifier))
        let v = s == 0 ? fold(store, n, k) : applyStage(store, n, k, stage: s, modifier: modifier!, cell: c)
        if st == Evaluator.unevaluated || v != keys[Int(k)].value[c] { keys[Int(k)].changedAt[c] = revision }
        keys[Int(k)].value[c] = v
        keys[Int(k)].state[c] = (keys[Int(k)].state[c] & ~3) | Evaluator.clean
        keys[Int(k)].computedAt[c] = revision
        return v
    }

    /// Reads a child's or attached root's output as an input of a reduce.
    @inline(__always)
    mutating func read(_ store: NodeStore, _ n: Slot, _ k: KeyID) -> JSON {
        // Fast path for the common leaf: its outermost stage is a writer, whose value is the output.
        let r = store.modifiers.bounds(Int(n))
        var j = r.upperBound - 1
        while j >= r.lowerBound {
            let m = store.modifiers.item(j)
            if Evaluator.isStage(m, k) {
                guard case .preference(let v, _) = m else { break }
                summary.evaluated += 1
                // Traced as the pull it stands in for would be: one level below the reading stage.
                tracer?.recordOperand(
                    .eval(node: store.ids[Int(n)], key: store.keys[k].key, modifier: j - r.lowerBound))
                return v
            }
            j -= 1
        }
        return pull(store, n, k, stage: Evaluator.outStage(store, n, k))
    }

    /// Stage 0: the fold over the children's outputs, skipping absent ones.
    private mutating func fold(_ store: NodeStore, _ n: Slot, _ k: KeyID) -> JSON {
        let declaration = store.keys[k]
        guard case .catalog(let reducer) = declaration.reducer else { return customFold(store, n, k, declaration) }
        let kids = store.children[Int(n)]
        var acc: JSON? = nil
        for child in kids {
            let f = keys[Int(k)].flags[Int(child)]
            keys[Int(k)].flags[Int(child)] = f & ~Evaluator.outConsumed
            guard f & Evaluator.outPresent != 0 else { continue }
            guard var value = acc else {
                acc = read(store, child, k)
                keys[Int(k)].flags[Int(child)] |= Evaluator.outConsumed
                continue
            }
            let before: JSON? = tracer != nil ? .some(value) : .none
            var next: JSON? = .none
            if reducer.callsNextValue(value) {
                let v = read(store, child, k)
                keys[Int(k)].flags[Int(child)] |= Evaluator.outConsumed
                reducer.combine(&value, v)
                next = v
            } else {
                noteSkip(store, child, k, modifier: nil)
            }
            noteReduce(store, n, k, modifier: nil, before: before, next: next, result: value)
            acc = value
        }
        // Only a dynamic container reaches here without a present child: its fold is the default.
        return acc ?? declaration.defaultValue
    }

    /// A transform, background or overlay stage.
    private mutating func applyStage(
        _ store: NodeStore, _ n: Slot, _ k: KeyID, stage s: Int, modifier m: Int, cell c: Int
    ) -> JSON {
        keys[Int(k)].state[c] &= 3
        let innerPresent = isPresent(store, n, k, stage: s - 1)
        let declaration = store.keys[k]
        switch store.modifiers.modifier(Int(n), m) {
        case .transform(let t, _):
            var x = declaration.defaultValue
            if innerPresent {
                x = pull(store, n, k, stage: s - 1)
                keys[Int(k)].state[c] |= Evaluator.readInner
            }
            switch (t, declaration.reducer) {
            case (.reduce(let v), .catalog(let reducer)):
                // Run the reducer here to trace whether it called `nextValue`.
                var result = x
                var next: JSON? = .none
                reducer.reduce(&result) {
                    next = v
                    return v
                }
                noteReduce(store, n, k, modifier: m, before: x, next: next, result: result)
                return result
            case (.reduce(let v), .custom(let reducer)):
                var result = x
                let next = runCustom(reducer, store, &result) { _ in v }
                noteReduce(store, n, k, modifier: m, before: x, next: next, result: result)
                return result
            case (.custom(let closure), _):
                return runCustom(closure, store, x)
            default:
                // Only `reduce` uses the reducer, and it is handled above.
                return t.apply(to: x, reducer: declaration.catalogReducer ?? .last)
            }
        case .background(let a):
            let attachedPresent = keys[Int(k)].flags[Int(a)] & Evaluator.outPresent != 0
            return pair(
                store, n, k, modifier: m, cell: c,
                first: attachedPresent ? (a, -1) : nil, second: innerPresent ? (n, s - 1) : nil)
        case .overlay(let a):
            let attachedPresent = keys[Int(k)].flags[Int(a)] & Evaluator.outPresent != 0
            return pair(
                store, n, k, modifier: m, cell: c,
                first: innerPresent ? (n, s - 1) : nil, second: attachedPresent ? (a, -1) : nil)
        default:
            preconditionFailure("stage \(s) of \(store.ids[Int(n)]) is not a computed stage")
        }
    }

    /// `pair(a, b)`: one present operand passes through; two are reduced, `b` only if the reducer asks for it.
    /// An operand is `(slot, stage)`, with stage -1 meaning that attached root's output.
    private mutating func pair(
        _ store: NodeStore, _ n: Slot, _ k: KeyID, modifier m: Int, cell c: Int,
        first: (Slot, Int)?, second: (Slot, Int)?
    ) -> JSON {
        guard let a = first else { return operand(store, k, cell: c, second!) }
        var value = operand(store, k, cell: c, a)
        guard let b = second else { return value }
        let before: JSON? = tracer != nil ? .some(value) : .none
        var next: JSON? = .none
        switch store.keys[k].reducer {
        case .catalog(let reducer):
            if reducer.callsNextValue(value) {
                let v = operand(store, k, cell: c, b)
                reducer.combine(&value, v)
                next = v
            }
        case .custom(let reducer):
            next = runCustom(reducer, store, &value) { $0.operand(store, k, cell: c, b) }
        case .uncompiled:
            preconditionFailure("an uncompiled key in the key table")
        }
        if next == nil {
            noteSkip(store, b.0, k, modifier: b.1 < 0 ? nil : Evaluator.stageModifier(store, b.0, k, b.1))
        }
        noteReduce(store, n, k, modifier: m, before: before, next: next, result: value)
        return value
    }

    /// Reads an operand of a pair: `(slot, stage)`, stage -1 meaning that attached root's output.
    private mutating func operand(_ store: NodeStore, _ k: KeyID, cell c: Int, _ o: (Slot, Int)) -> JSON {
        if o.1 < 0 {
            keys[Int(k)].state[c] |= Evaluator.readAttached
            return read(store, o.0, k)
        }
        keys[Int(k)].state[c] |= Evaluator.readInner
        return pull(store, o.0, k, stage: o.1)
    }

    /// The modifier index of a stage, or nil for the fold.
    static func stageModifier(_ store: NodeStore, _ n: Slot, _ k: KeyID, _ s: Int) -> Int? {
        s == 0 ? nil : modifierIndex(store, n, k, stage: s)
    }

    mutating func noteReduce(
        _ store: NodeStore, _ n: Slot, _ k: KeyID, modifier: Int?, before: JSON?, next: JSON?, result: JSON
    ) {
        summary.reduces += 1
        guard let tracer, let before else { return }
        tracer.record(
            .reduce(node: store.ids[Int(n)], key: store.keys[k].key, modifier: modifier, value: before, next: next,
                    result: result))
    }

    mutating func noteSkip(_ store: NodeStore, _ n: Slot, _ k: KeyID, modifier: Int?) {
        summary.skipped += 1
        tracer?.recordOperand(.skip(node: store.ids[Int(n)], key: store.keys[k].key, modifier: modifier))
    }

    // MARK: Verification

    /// For a dirty cell: brings the inputs its last evaluation read up to date, in the order it read them, and
    /// tells whether all of them kept their values (then the cell's value stands without a recompute).
    private mutating func inputsUnchanged(_ store: NodeStore, _ n: Slot, _ k: KeyID, stage s: Int, cell c: Int) -> Bool {
        let since = keys[Int(k)].computedAt[c]
        if s == 0 {
            for child in store.children[Int(n)] where keys[Int(k)].flags[Int(child)] & Evaluator.outConsumed != 0 {
                if !inputUnchanged(store, child, k, stage: Evaluator.outStage(store, child, k), since: since) {
                    return false
                }
            }
            return true
        }
        let bits = keys[Int(k)].state[c]
        let m = Evaluator.modifierIndex(store, n, k, stage: s)
        let inner = bits & Evaluator.readInner != 0
        let attached = bits & Evaluator.readAttached != 0
        switch store.modifiers.modifier(Int(n), m) {
        case .transform:
            return !inner || inputUnchanged(store, n, k, stage: s - 1, since: since)
        case .background(let a):
            if attached && !inputUnchanged(store, a, k, stage: Evaluator.outStage(store, a, k), since: since) {
                return false
            }
            return !inner || inputUnchanged(store, n, k, stage: s - 1, since: since)
        case .overlay(let a):
            if inner && !inputUnchanged(store, n, k, stage: s - 1, since: since) { return false }
            return !attached || inputUnchanged(store, a, k, stage: Evaluator.outStage(store, a, k), since: since)
        default:
            return false
        }
    }

    private mutating func inputUnchanged(_ store: NodeStore, _ n: Slot, _ k: KeyID, stage s: Int, since: UInt32) -> Bool {
        // A writer that changed forces its consumer to recompute, so a consumer being verified read an unchanged one.
        if s > 0 && Evaluator.isWriter(store, n, k, stage: s) { return true }
        guard let c = cell(n, k, s) else { return false }
        let st = keys[Int(k)].state[c] & 3
        if st == Evaluator.unevaluated { return false }
        if st != Evaluator.clean { _ = pull(store, n, k, stage: s) }
        return keys[Int(k)].changedAt[c] <= since
    }
}
