/// `Set`'s members (insertion-ordered here) and initializers; ranges' members; the labels of the tuples library
/// members return.
extension Library {
    func registerSet() {
        member([.set], "insert", [nil], mutating: true, result: .tuple([.bool, .unknown])) {
            m, v, args throws(ScriptFault) in
            var s = try m.set(v)
            if let i = s.index[args[0]] { return .tuple([.bool(false), s.elements[i]]) }
            try m.checkCount(s.count + 1)
            v = .null
            s.insert(args[0])
            v = .set(s)
            return .tuple([.bool(true), args[0]])
        }
        member([.set], "remove", [nil], mutating: true) { m, v, args throws(ScriptFault) in
            var s = try m.set(v)
            guard let i = s.index[args[0]] else { return .null }
            try m.chargeLibrary(s.count - i)
            let old = s.elements[i]
            v = .null
            s.remove(args[0])
            v = .set(s)
            return old
        }
        let algebra: [(String, String, (inout OrderedSet, OrderedSet) -> Void)] = [
            ("union", "formUnion", { a, b in for e in b.elements { a.insert(e) } }),
            ("intersection", "formIntersection", { a, b in a = a.filtered { b.contains($0) } }),
            ("subtracting", "subtract", { a, b in a = a.filtered { !b.contains($0) } }),
            ("symmetricDifference", "formSymmetricDifference", { a, b in
                let common = a.filtered { b.contains($0) }
                for e in b.elements { a.insert(e) }
                a = a.filtered { !common.contains($0) }
            }),
        ]
        for (name, mutatingName, op) in algebra {
            member([.set], name, [nil], result: .unknown) { m, v, args throws(ScriptFault) in
                var s = try m.set(v)
                let other = try m.setOf(args[0])
                try m.chargeLibrary(s.count + other.count)
                op(&s, other)
                try m.checkCount(s.count)
                return .set(s)
            }
            member([.set], mutatingName, [nil], mutating: true, result: .void) { m, v, args throws(ScriptFault) in
                var s = try m.set(v)
                let other = try m.setOf(args[0])
                try m.chargeLibrary(s.count + other.count)
                v = .null
                op(&s, other)
                v = .set(s)
                try m.checkCount(s.count)
                return .null
            }
        }
        let relations: [(String, String, (OrderedSet, OrderedSet) -> Bool)] = [
            ("isSubset", "of", { a, b in a.elements.allSatisfy { b.contains($0) } }),
            ("isSuperset", "of", { a, b in b.elements.allSatisfy { a.contains($0) } }),
            ("isStrictSubset", "of", { a, b in a.count < b.count && a.elements.allSatisfy { b.contains($0) } }),
            ("isStrictSuperset", "of", { a, b in a.count > b.count && b.elements.allSatisfy { a.contains($0) } }),
            ("isDisjoint", "with", { a, b in !a.elements.contains { b.contains($0) } }),
        ]
        for (name, label, relation) in relations {
            member([.set], name, [label], result: .bool) { m, v, args throws(ScriptFault) in
                let s = try m.set(v)
                let other = try m.setOf(args[0])
                try m.chargeLibrary(s.count + other.count)
                return .bool(relation(s, other))
            }
        }
        typeFunction("Set", "init()") { _, _ throws(ScriptFault) in .set(OrderedSet()) }
        typeFunction("Set", "init(_:)") { m, args throws(ScriptFault) in .set(try m.setOf(args[0])) }
        registerRange()
        registerTupleLabels()
    }

    private func registerRange() {
        member([.range, .doubleRange], "lowerBound", property: true) { m, v, _ throws(ScriptFault) in
            switch v.unboxed {
            case .range(let lo, _, _): return .int(lo)
            case .doubleRange(let lo, _, _): return .double(lo)
            default: throw m.fault("lowerBound needs a range")
            }
        }
        // A closed integer range is stored half-open: its upperBound is the last element.
        member([.range, .doubleRange], "upperBound", property: true) { m, v, _ throws(ScriptFault) in
            switch v.unboxed {
            case .range(_, let hi, let closed): return .int(closed ? hi - 1 : hi)
            case .doubleRange(_, let hi, _): return .double(hi)
            default: throw m.fault("upperBound needs a range")
            }
        }
        member([.range, .doubleRange], "isEmpty", property: true, result: .bool) { m, v, _ throws(ScriptFault) in
            switch v.unboxed {
            case .range(let lo, let hi, _): return .bool(lo >= hi)
            case .doubleRange(let lo, let hi, let closed): return .bool(closed ? false : lo >= hi)
            default: throw m.fault("isEmpty needs a range")
            }
        }
        member([.range], "count", property: true, result: .int) { m, v, _ throws(ScriptFault) in
            guard case .range(let lo, let hi, _) = v.unboxed else { throw m.fault("count needs a range") }
            let (n, o) = hi.subtractingReportingOverflow(lo)
            if o { throw m.fault("arithmetic overflow") }
            return .int(n)
        }
        member([.range, .doubleRange], "contains", [nil], result: .bool) { m, v, args throws(ScriptFault) in
            switch v.unboxed {
            case .range(let lo, let hi, _):
                if case .int(let x) = args[0].unboxed { return .bool(lo <= x && x < hi) }
                let x = try m.double(args[0])
                return .bool(Double(lo) <= x && x < Double(hi))
            case .doubleRange(let lo, let hi, let closed):
                let x = try m.double(args[0])
                return .bool(lo <= x && (closed ? x <= hi : x < hi))
            default: throw m.fault("contains needs a range")
            }
        }
    }

    /// `set.insert(x).inserted`: when the compiler cannot see a library tuple's labels, these name its items
    /// (`Machine.member(of:)` names those of `enumerated()` and dictionary elements).
    private func registerTupleLabels() {
        for (label, i) in [("inserted", 0), ("memberAfterInsert", 1), ("partialValue", 0), ("overflow", 1)] {
            member([.tuple], label, property: true) { m, v, _ throws(ScriptFault) in
                guard let items = v.tupleItems, items.count == 2 else {
                    throw m.fault("tuple has no member '\(label)'")
                }
                return items[i]
            }
        }
    }
}

extension OrderedSet {
    func filtered(_ keep: (Value) -> Bool) -> OrderedSet {
        var out = OrderedSet()
        for e in elements where keep(e) { out.insert(e) }
        return out
    }
}

extension Machine {
    func set(_ v: Value) throws(ScriptFault) -> OrderedSet {
        if case .set(let s) = v.unboxed { return s }
        throw fault("value of type \(typeName(of: v)) is not a Set")
    }

    /// The elements of any sequence as a set (`Set(x)`, `union(x)`).
    func setOf(_ v: Value) throws(ScriptFault) -> OrderedSet {
        if case .set(let s) = v.unboxed { return s }
        var s = OrderedSet()
        try each(v) { (e: Value) throws(ScriptFault) -> Bool in
            s.insert(e)
            try checkCount(s.count)
            return true
        }
        return s
    }
}
