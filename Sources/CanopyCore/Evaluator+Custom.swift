extension Evaluator {
    // MARK: Swift reducers and transforms

    /// The context the Swift code of this evaluation shares, made on first use with the evaluation's fuel.
    mutating func reducerContext(_ store: NodeStore) -> ReducerContext {
        if let context { return context }
        let made = ReducerContext(fuel: fuelOverride ?? store.limits.fuel)
        context = made
        return made
    }

    /// Runs a Swift `reduce` on `value`. `read` produces the sibling, and runs only if the reducer calls
    /// `nextValue` (once: a second call gets the same value). Returns what `nextValue` returned, `nil` when it was
    /// not called. After a fault no Swift code runs (`value` is left as it is) and the first fault is kept.
    mutating func runCustom(
        _ reducer: any CustomReducer, _ store: NodeStore, _ value: inout JSON, _ read: (inout Evaluator) -> JSON
    ) -> JSON? {
        runReduce(store, read) { (context, next) throws(CanopyError) in
            try reducer.reduce(&value, context: context, next: next)
        }
    }

    /// Runs a Swift `reduce` on a fold's decoded accumulator; as `runCustom` otherwise.
    mutating func runCustom(
        _ fold: any CustomFold, _ store: NodeStore, _ read: (inout Evaluator) -> JSON
    ) -> JSON? {
        runReduce(store, read) { (context, next) throws(CanopyError) in try fold.reduce(context: context, next: next) }
    }

    /// What both kinds of Swift `reduce` share: the evaluation's context, a `nextValue` that reads once, the first
    /// fault kept.
    private mutating func runReduce(
        _ store: NodeStore, _ read: (inout Evaluator) -> JSON,
        _ call: (ReducerContext, () -> JSON) throws(CanopyError) -> Void
    ) -> JSON? {
        guard fault == nil else { return nil }
        let context = reducerContext(store)
        var next: JSON? = nil
        // `read` only runs while `call` does; Swift cannot see that through two closures.
        withoutActuallyEscaping(read) { read in
            do throws(CanopyError) {
                try call(context) {
                    if let v = next { return v }
                    let v = read(&self)
                    next = v
                    return v
                }
            } catch {
                if fault == nil { fault = error }
            }
        }
        return next
    }

    /// Runs a compiled Swift transform on `value`; after a fault, returns `value` unchanged.
    mutating func runCustom(_ closure: any CustomTransform, _ store: NodeStore, _ value: JSON) -> JSON {
        guard fault == nil else { return value }
        var result = value
        do {
            try closure.apply(&result, context: reducerContext(store))
        } catch {
            fault = error
        }
        return result
    }

    /// Stage 0 of a Swift key: the fold of `Evaluator.fold`, with each sibling read through `nextValue`. Untraced,
    /// the accumulated value stays decoded across the fold when the reducer can keep it (`startFold`): a fold of
    /// n siblings over a growing array encodes once, not n times.
    mutating func customFold(_ store: NodeStore, _ n: Slot, _ k: KeyID, _ declaration: KeyDeclaration) -> JSON {
        guard case .custom(let reducer) = declaration.reducer else {
            preconditionFailure("an uncompiled key in the key table")
        }
        var acc: JSON? = nil
        var decoded: (any CustomFold)? = nil
        var started = false
        for child in store.children[Int(n)] {
            let f = keys[Int(k)].flags[Int(child)]
            keys[Int(k)].flags[Int(child)] = f & ~Evaluator.outConsumed
            guard f & Evaluator.outPresent != 0 else { continue }
            guard var value = acc else {
                acc = read(store, child, k)
                keys[Int(k)].flags[Int(child)] |= Evaluator.outConsumed
                continue
            }
            if tracer == nil, !started {
                started = true
                decoded = reducer.startFold(value)
            }
            if let decoded {
                let next = runCustom(decoded, store) { e in
                    let v = e.read(store, child, k)
                    e.keys[Int(k)].flags[Int(child)] |= Evaluator.outConsumed
                    return v
                }
                if next == nil { noteSkip(store, child, k, modifier: nil) }
                summary.reduces += 1
                continue
            }
            let before: JSON? = tracer != nil ? .some(value) : .none
            let next = runCustom(reducer, store, &value) { e in
                let v = e.read(store, child, k)
                e.keys[Int(k)].flags[Int(child)] |= Evaluator.outConsumed
                return v
            }
            if next == nil { noteSkip(store, child, k, modifier: nil) }
            noteReduce(store, n, k, modifier: nil, before: before, next: next, result: value)
            acc = value
        }
        if let decoded { return fault == nil ? decoded.result : acc ?? declaration.defaultValue }
        return acc ?? declaration.defaultValue
    }
}
