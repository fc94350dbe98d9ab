/// `Dictionary`'s members (insertion-ordered here) and initializers. Elements are `(key, value)` tuples.
extension Library {
    func registerDictionary() {
        member([.dictionary, .set], "count", property: true, result: .int) { m, v, _ throws(ScriptFault) in
            switch v.unboxed {
            case .dictionary(let d): return .int(d.count)
            case .set(let s): return .int(s.count)
            default: throw m.fault("count needs a collection")
            }
        }
        member([.dictionary, .set], "isEmpty", property: true, result: .bool) { m, v, _ throws(ScriptFault) in
            switch v.unboxed {
            case .dictionary(let d): return .bool(d.count == 0)
            case .set(let s): return .bool(s.count == 0)
            default: throw m.fault("isEmpty needs a collection")
            }
        }
        member([.dictionary], "keys", property: true, result: .array(.unknown)) { m, v, _ throws(ScriptFault) in
            .array(try m.dictionary(v).keys)
        }
        member([.dictionary], "values", property: true, result: .array(.unknown)) { m, v, _ throws(ScriptFault) in
            .array(try m.dictionary(v).values)
        }
        member([.dictionary], "mapValues", [nil], result: .unknown) { m, v, args throws(ScriptFault) in
            var d = try m.dictionary(v)
            let c = try m.callable(args[0])
            try m.chargeLibrary(d.count)
            for i in d.values.indices { d.values[i] = try m.apply(c, d.values[i]) }
            return .dictionary(d)
        }
        member([.dictionary], "compactMapValues", [nil], result: .unknown) { m, v, args throws(ScriptFault) in
            let d = try m.dictionary(v)
            let c = try m.callable(args[0])
            try m.chargeLibrary(d.count)
            var out = OrderedDictionary()
            for i in d.keys.indices {
                let r = try m.apply(c, d.values[i])
                if !r.isNull { out[d.keys[i]] = r }
            }
            return .dictionary(out)
        }
        member([.dictionary], "merge", [nil, "uniquingKeysWith"], mutating: true, result: .void) {
            m, v, args throws(ScriptFault) in
            var d = try m.dictionary(v)
            v = .null
            try m.merge(&d, args[0], args[1])
            v = .dictionary(d)
            return .null
        }
        member([.dictionary], "merging", [nil, "uniquingKeysWith"], result: .unknown) {
            m, v, args throws(ScriptFault) in
            var d = try m.dictionary(v)
            try m.merge(&d, args[0], args[1])
            return .dictionary(d)
        }
        member([.dictionary], "removeValue", ["forKey"], mutating: true) { m, v, args throws(ScriptFault) in
            var d = try m.dictionary(v)
            guard let i = d.index[args[0]] else { return .null }
            try m.chargeLibrary(d.count - i)
            v = .null
            let old = d.values[i]
            d.remove(at: i)
            v = .dictionary(d)
            return old
        }
        member([.dictionary], "updateValue", [nil, "forKey"], mutating: true) { m, v, args throws(ScriptFault) in
            var d = try m.dictionary(v)
            let old = d[args[1]]
            if old == nil { try m.checkCount(d.count + 1) }
            v = .null
            d[args[1]] = args[0]
            v = .dictionary(d)
            return old ?? .null
        }
        member([.dictionary, .set], "removeAll", mutating: true, result: .void) { _, v, _ throws(ScriptFault) in
            if case .set = v.unboxed { v = .set(OrderedSet()) } else { v = .dictionary(OrderedDictionary()) }
            return .null
        }
        member([.dictionary], "index", ["forKey"]) { m, v, args throws(ScriptFault) in
            try m.dictionary(v).index[args[0]].map { .int($0) } ?? .null
        }
        registerDictionaryInits()
    }

    private func registerDictionaryInits() {
        typeFunction("Dictionary", "init()") { _, _ throws(ScriptFault) in .dictionary(OrderedDictionary()) }
        typeFunction("Dictionary", "init(uniqueKeysWithValues:)") { m, args throws(ScriptFault) in
            var d = OrderedDictionary()
            try m.each(args[0]) { (e: Value) throws(ScriptFault) -> Bool in
                let (k, x) = try m.pair(e)
                if d[k] != nil { throw m.fault("Fatal error: Duplicate values for key: '\(m.describe(k))'") }
                d[k] = x
                try m.checkCount(d.count)
                return true
            }
            return .dictionary(d)
        }
        // The compiler names a trailing closure `_`: `Dictionary(pairs) { $1 }`.
        for name in ["init(_:uniquingKeysWith:)", "init(_:_:)"] {
            typeFunction("Dictionary", name) { m, args throws(ScriptFault) in
                var d = OrderedDictionary()
                try m.merge(&d, args[0], args[1])
                return .dictionary(d)
            }
        }
        // The compiler names a trailing closure `_`: `Dictionary(grouping: xs) { … }`.
        for name in ["init(grouping:by:)", "init(grouping:_:)"] {
            typeFunction("Dictionary", name) { m, args throws(ScriptFault) in try m.group(args[0], by: args[1]) }
        }
    }
}

extension Machine {
    /// `Dictionary(grouping:by:)`: elements in arrays under the key `by` gives them, keys in first-seen order.
    func group(_ seq: Value, by key: Value) throws(ScriptFault) -> Value {
        let c = try callable(key)
        var d = OrderedDictionary()
        try each(seq) { (e: Value) throws(ScriptFault) -> Bool in
            let k = try apply(c, e)
            guard case .array(var group) = d[k] ?? .array([]) else { return true }
            // Leave `.null` in the group's place while appending, so the group is not copied.
            d[k] = Value.null
            group.append(e)
            d[k] = .array(group)
            try checkCount(d.count)
            return true
        }
        return .dictionary(d)
    }

    func dictionary(_ v: Value) throws(ScriptFault) -> OrderedDictionary {
        if case .dictionary(let d) = v.unboxed { return d }
        throw fault("value of type \(typeName(of: v)) is not a Dictionary")
    }

    /// A `(key, value)` element.
    func pair(_ e: Value) throws(ScriptFault) -> (Value, Value) {
        guard let kv = e.tupleItems, kv.count == 2 else {
            throw fault("a dictionary element must be a (key, value) pair")
        }
        return (kv[0], kv[1])
    }

    /// `merge(_:uniquingKeysWith:)`: `other` is a dictionary or a sequence of pairs; `combine(old, new)` decides
    /// a key both have. New keys keep `other`'s order after the existing ones.
    func merge(_ d: inout OrderedDictionary, _ other: Value, _ combine: Value) throws(ScriptFault) {
        let c = try callable(combine)
        try each(other) { (e: Value) throws(ScriptFault) -> Bool in
            let (k, x) = try pair(e)
            if let old = d[k] {
                d[k] = try apply(c, old, x)
            } else {
                d[k] = x
                try checkCount(d.count)
            }
            return true
        }
    }
}
