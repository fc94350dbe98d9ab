/// `Array`'s mutating members. Each takes the array out of the receiver before changing it, so the change does
/// not copy it (copy on write), and traps as Swift does.
extension Library {
    func registerArrayMutations() {
        member([.array], "insert", [nil, "at"], mutating: true, result: .void) { m, v, args throws(ScriptFault) in
            var a = try m.array(v)
            let i = try m.int(args[1])
            guard i >= 0, i <= a.count else { throw m.fault("Array index is out of range") }
            try m.checkCount(a.count + 1)
            try m.chargeLibrary(a.count - i)
            v = .null
            a.insert(args[0], at: i)
            v = .array(a)
            return .null
        }
        member([.array], "insert", ["contentsOf", "at"], mutating: true, result: .void) {
            m, v, args throws(ScriptFault) in
            var a = try m.array(v)
            let more = try m.elements(args[0], at: m.site)
            let i = try m.int(args[1])
            guard i >= 0, i <= a.count else { throw m.fault("Array index is out of range") }
            try m.checkCount(a.count + more.count)
            try m.chargeLibrary(a.count - i + more.count)
            v = .null
            a.insert(contentsOf: more, at: i)
            v = .array(a)
            return .null
        }
        member([.array], "remove", ["at"], mutating: true) { m, v, args throws(ScriptFault) in
            var a = try m.array(v)
            let i = try m.int(args[0])
            guard i >= 0, i < a.count else { throw m.fault("Index out of range") }
            try m.chargeLibrary(a.count - i)
            v = .null
            let removed = a.remove(at: i)
            v = .array(a)
            return removed
        }
        member([.array], "removeAll", mutating: true, result: .void) { m, v, _ throws(ScriptFault) in
            _ = try m.array(v)
            v = .array([])
            return .null
        }
        member([.array], "removeAll", ["keepingCapacity"], mutating: true, result: .void) {
            m, v, _ throws(ScriptFault) in
            _ = try m.array(v)
            v = .array([])
            return .null
        }
        member([.array], "removeAll", ["where"], mutating: true, result: .void) { m, v, args throws(ScriptFault) in
            let a = try m.array(v)
            let c = try m.callable(args[0])
            try m.chargeLibrary(a.count)
            var kept: [Value] = []
            for e in a where try !m.test(c, e) { kept.append(e) }
            v = .array(kept)
            return .null
        }
        registerEndRemovals()
        registerSubranges()
        member([.array], "swapAt", [nil, nil], mutating: true, result: .void) { m, v, args throws(ScriptFault) in
            var a = try m.array(v)
            let (i, j) = (try m.int(args[0]), try m.int(args[1]))
            guard i >= 0, i < a.count, j >= 0, j < a.count else { throw m.fault("Index out of range") }
            v = .null
            a.swapAt(i, j)
            v = .array(a)
            return .null
        }
        member([.array], "sort", mutating: true, result: .void) { m, v, _ throws(ScriptFault) in
            let a = try m.array(v)
            v = .array(try m.sorted(a, by: nil))
            return .null
        }
        member([.array], "sort", ["by"], mutating: true, result: .void) { m, v, args throws(ScriptFault) in
            let a = try m.array(v)
            v = .array(try m.sorted(a, by: args[0]))
            return .null
        }
        member([.array], "reverse", mutating: true, result: .void) { m, v, _ throws(ScriptFault) in
            var a = try m.array(v)
            try m.chargeLibrary(a.count)
            v = .null
            a.reverse()
            v = .array(a)
            return .null
        }
    }

    /// `removeSubrange(_:)` and `replaceSubrange(_:with:)`, with Swift's checks of the range.
    private func registerSubranges() {
        member([.array], "removeSubrange", [nil], mutating: true, result: .void) { m, v, args throws(ScriptFault) in
            var a = try m.array(v)
            let r = try m.subrange(args[0], of: a.count)
            try m.chargeLibrary(a.count)
            v = .null
            a.removeSubrange(r)
            v = .array(a)
            return .null
        }
        member([.array], "replaceSubrange", [nil, "with"], mutating: true, result: .void) {
            m, v, args throws(ScriptFault) in
            var a = try m.array(v)
            let r = try m.subrange(args[0], of: a.count)
            let more = try m.elements(args[1], at: m.site)
            try m.checkCount(a.count - r.count + more.count)
            try m.chargeLibrary(a.count + more.count)
            v = .null
            a.replaceSubrange(r, with: more)
            v = .array(a)
            return .null
        }
    }

    private func registerEndRemovals() {
        member([.array], "removeFirst", mutating: true) { m, v, _ throws(ScriptFault) in
            var a = try m.array(v)
            guard !a.isEmpty else { throw m.fault("Can't remove first element from an empty collection") }
            try m.chargeLibrary(a.count)
            v = .null
            let first = a.removeFirst()
            v = .array(a)
            return first
        }
        member([.array], "removeLast", mutating: true) { m, v, _ throws(ScriptFault) in
            var a = try m.array(v)
            guard !a.isEmpty else { throw m.fault("Can't remove last element from an empty collection") }
            v = .null
            let last = a.removeLast()
            v = .array(a)
            return last
        }
        member([.array], "removeFirst", [nil], mutating: true, result: .void) { m, v, args throws(ScriptFault) in
            var a = try m.array(v)
            let k = try m.removalCount(args[0], of: a.count)
            try m.chargeLibrary(a.count)
            v = .null
            a.removeFirst(k)
            v = .array(a)
            return .null
        }
        member([.array], "removeLast", [nil], mutating: true, result: .void) { m, v, args throws(ScriptFault) in
            var a = try m.array(v)
            let k = try m.removalCount(args[0], of: a.count)
            try m.chargeLibrary(k)
            v = .null
            a.removeLast(k)
            v = .array(a)
            return .null
        }
        member([.array], "popLast", mutating: true) { m, v, _ throws(ScriptFault) in
            var a = try m.array(v)
            v = .null
            let last = a.popLast()
            v = .array(a)
            return last ?? .null
        }
    }
}

extension Machine {
    /// The array a receiver holds.
    func array(_ v: Value) throws(ScriptFault) -> [Value] {
        if case .array(let a) = v.unboxed { return a }
        throw fault("value of type \(typeName(of: v)) is not an Array")
    }

    /// The positions a range argument of `removeSubrange`/`replaceSubrange` names in an array of `count`
    /// elements: a partial range (`2...`) ends at the end; the array checks the rest as Swift's does.
    func subrange(_ v: Value, of count: Int) throws(ScriptFault) -> Range<Int> {
        guard case .range(let l, let h, _) = v.unboxed else { throw fault("the subrange must be a range of Ints") }
        let (lo, hi) = partialBounds(l, h, count: count)
        guard lo <= hi else { throw fault("Range requires lowerBound <= upperBound") }
        guard lo >= 0 else { throw fault("Array replace: subrange start is negative") }
        guard hi <= count else { throw fault("Array replace: subrange extends past the end") }
        return lo..<hi
    }

    /// The `k` of `removeFirst(k)`/`removeLast(k)`, checked as Swift checks it.
    func removalCount(_ v: Value, of count: Int) throws(ScriptFault) -> Int {
        let k = try int(v)
        guard k >= 0 else { throw fault("Number of elements to remove should be non-negative") }
        guard k <= count else { throw fault("Can't remove more items from a collection than it contains") }
        return k
    }
}
