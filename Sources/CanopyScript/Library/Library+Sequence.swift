/// Members every sequence has (`Array`, `Set`, `Dictionary`, ranges, `String`): closures over the elements.
/// A dictionary's elements are `(key, value)` tuples, a string's are one-character strings.
extension Library {
    static let sequenceKinds: [ValueKind] = [.array, .set, .dictionary, .range, .string]

    func registerSequence() {
        let seq = Library.sequenceKinds
        member(seq, "map", [nil], result: .array(.unknown)) { m, v, args throws(ScriptFault) in
            let c = try m.callable(args[0])
            var out: [Value] = []
            try m.each(v) { (e: Value) throws(ScriptFault) -> Bool in
                out.append(try m.apply(c, e))
                try m.checkCount(out.count)
                return true
            }
            return .array(out)
        }
        member(seq, "compactMap", [nil], result: .array(.unknown)) { m, v, args throws(ScriptFault) in
            let c = try m.callable(args[0])
            var out: [Value] = []
            try m.each(v) { (e: Value) throws(ScriptFault) -> Bool in
                let r = try m.apply(c, e)
                if !r.isNull { out.append(r) }
                try m.checkCount(out.count)
                return true
            }
            return .array(out)
        }
        member(seq, "flatMap", [nil], result: .array(.unknown)) { m, v, args throws(ScriptFault) in
            let c = try m.callable(args[0])
            var out: [Value] = []
            try m.each(v) { (e: Value) throws(ScriptFault) -> Bool in
                let r = try m.apply(c, e)
                switch r.kind {
                case .null: break  // the optional form, which Swift renamed compactMap
                case .array, .set, .dictionary, .range, .string:
                    let more = try m.elements(r, at: m.site)
                    try m.chargeLibrary(more.count)
                    out.append(contentsOf: more)
                default: out.append(r)
                }
                try m.checkCount(out.count)
                return true
            }
            return .array(out)
        }
        member(seq, "filter", [nil]) { m, v, args throws(ScriptFault) in
            let c = try m.callable(args[0])
            var out: [Value] = []
            try m.each(v) { (e: Value) throws(ScriptFault) -> Bool in
                if try m.test(c, e) { out.append(e) }
                try m.checkCount(out.count)
                return true
            }
            return try m.rebuild(like: v, out)
        }
        member(seq, "forEach", [nil], result: .void) { m, v, args throws(ScriptFault) in
            let c = try m.callable(args[0])
            try m.each(v) { (e: Value) throws(ScriptFault) -> Bool in
                _ = try m.apply(c, e)
                return true
            }
            return .null
        }
        member(seq, "reduce", [nil, nil]) { m, v, args throws(ScriptFault) in
            let c = try m.callable(args[1])
            var acc = args[0]
            try m.each(v) { (e: Value) throws(ScriptFault) -> Bool in
                acc = try m.apply(c, acc, e)
                return true
            }
            return acc
        }
        member(seq, "reduce", ["into", nil]) { m, v, args throws(ScriptFault) in
            guard case .function(let c) = args[1].unboxed else { throw m.fault("this argument must be a function") }
            // The accumulator lives only in `call`'s argument array, which the closure's inout parameter is
            // written back into.
            var pair: [Value] = [args[0], .null]
            try m.each(v) { (e: Value) throws(ScriptFault) -> Bool in
                pair[1] = e
                _ = try m.call(c, &pair, site: m.site)
                return true
            }
            return pair[0]
        }
        registerSearches(seq)
        registerOrdering(seq)
    }

    private func registerSearches(_ seq: [ValueKind]) {
        member(seq, "contains", ["where"], result: .bool) { m, v, args throws(ScriptFault) in
            .bool(try m.firstMatch(v, args[0]) != nil)
        }
        member(seq, "allSatisfy", [nil], result: .bool) { m, v, args throws(ScriptFault) in
            let c = try m.callable(args[0])
            var all = true
            try m.each(v) { (e: Value) throws(ScriptFault) -> Bool in
                all = try m.test(c, e)
                return all
            }
            return .bool(all)
        }
        member(seq, "first", ["where"]) { m, v, args throws(ScriptFault) in
            try m.firstMatch(v, args[0]) ?? .null
        }
        member(seq, "count", ["where"], result: .int) { m, v, args throws(ScriptFault) in
            let c = try m.callable(args[0])
            var n = 0
            try m.each(v) { (e: Value) throws(ScriptFault) -> Bool in
                if try m.test(c, e) { n += 1 }
                return true
            }
            return .int(n)
        }
        member(seq, "enumerated", result: .array(.tuple([.int, .unknown]))) { m, v, _ throws(ScriptFault) in
            var out: [Value] = []
            try m.each(v) { (e: Value) throws(ScriptFault) -> Bool in
                out.append(.tuple([.int(out.count), e]))
                try m.checkCount(out.count)
                return true
            }
            return .array(out)
        }
        member(seq, "starts", ["with"], result: .bool) { m, v, args throws(ScriptFault) in
            let a = try m.elements(v, at: m.site)
            let b = try m.elements(args[0], at: m.site)
            try m.chargeLibrary(b.count)
            guard b.count <= a.count else { return .bool(false) }
            for i in b.indices where try !m.equal(a[i], b[i], at: m.site) { return .bool(false) }
            return .bool(true)
        }
        member(seq, "elementsEqual", [nil], result: .bool) { m, v, args throws(ScriptFault) in
            let a = try m.elements(v, at: m.site)
            let b = try m.elements(args[0], at: m.site)
            try m.chargeLibrary(min(a.count, b.count))
            guard a.count == b.count else { return .bool(false) }
            for i in a.indices where try !m.equal(a[i], b[i], at: m.site) { return .bool(false) }
            return .bool(true)
        }
    }

    private func registerOrdering(_ seq: [ValueKind]) {
        member(seq, "sorted", result: .array(.unknown)) { m, v, _ throws(ScriptFault) in
            .array(try m.sorted(m.elements(v, at: m.site), by: nil))
        }
        member(seq, "sorted", ["by"], result: .array(.unknown)) { m, v, args throws(ScriptFault) in
            .array(try m.sorted(m.elements(v, at: m.site), by: args[0]))
        }
        member(seq, "min") { m, v, _ throws(ScriptFault) in
            try m.extreme(m.elements(v, at: m.site), largest: false, by: nil)
        }
        member(seq, "max") { m, v, _ throws(ScriptFault) in
            try m.extreme(m.elements(v, at: m.site), largest: true, by: nil)
        }
        member(seq, "min", ["by"]) { m, v, args throws(ScriptFault) in
            try m.extreme(m.elements(v, at: m.site), largest: false, by: args[0])
        }
        member(seq, "max", ["by"]) { m, v, args throws(ScriptFault) in
            try m.extreme(m.elements(v, at: m.site), largest: true, by: args[0])
        }
    }
}

extension Machine {
    /// Visits the elements of a sequence, one unit of fuel each, until `body` returns false.
    func each(_ seq: Value, _ body: (Value) throws(ScriptFault) -> Bool) throws(ScriptFault) {
        try iterate(seq, at: site) { (e: Value) throws(ScriptFault) -> Bool in
            try chargeLibrary(1)
            return try body(e)
        }
    }

    /// The first element a predicate argument accepts.
    func firstMatch(_ seq: Value, _ predicate: Value) throws(ScriptFault) -> Value? {
        let c = try callable(predicate)
        var found: Value?
        try each(seq) { (e: Value) throws(ScriptFault) -> Bool in
            if try test(c, e) { found = e }
            return found == nil
        }
        return found
    }

    /// A collection of the receiver's kind holding `elements`: `filter` keeps a set a set, a dictionary a
    /// dictionary and a string a string; ranges become arrays.
    func rebuild(like receiver: Value, _ elements: [Value]) throws(ScriptFault) -> Value {
        switch receiver.unboxed {
        case .set:
            var s = OrderedSet()
            for e in elements { s.insert(e) }
            return .set(s)
        case .dictionary:
            var d = OrderedDictionary()
            for e in elements {
                guard let kv = e.tupleItems, kv.count == 2 else { throw fault("a dictionary element must be a pair") }
                d[kv[0]] = kv[1]
            }
            return .dictionary(d)
        case .string:
            var s = ""
            for case .string(let c) in elements { s += c }
            return .string(s)
        default:
            return .array(elements)
        }
    }
}
