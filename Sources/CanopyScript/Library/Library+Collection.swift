/// Non-mutating members of `Array` (and where Swift has them, of other collections): ends, searches by index,
/// slices, `joined`, `indices`, and `Array`'s initializers.
extension Library {
    func registerCollection() {
        member([.array, .set, .dictionary, .range], "first", property: true) { m, v, _ throws(ScriptFault) in
            switch v.unboxed {
            case .range(let lo, let hi, _): return lo < hi ? .int(lo) : .null
            default: return try m.elements(v, at: m.site).first ?? .null
            }
        }
        member([.array, .range], "last", property: true) { m, v, _ throws(ScriptFault) in
            switch v.unboxed {
            case .range(let lo, let hi, _): return lo < hi ? .int(hi - 1) : .null
            default: return try m.array(v).last ?? .null
            }
        }
        member([.array, .set], "contains", [nil], result: .bool) { m, v, args throws(ScriptFault) in
            if case .set(let s) = v.unboxed { return .bool(s.contains(args[0])) }
            return .bool(try m.index(in: m.array(v), of: args[0], last: false) != nil)
        }
        member([.array], "firstIndex", ["of"]) { m, v, args throws(ScriptFault) in
            try m.index(in: m.array(v), of: args[0], last: false).map { .int($0) } ?? .null
        }
        member([.array], "lastIndex", ["of"]) { m, v, args throws(ScriptFault) in
            try m.index(in: m.array(v), of: args[0], last: true).map { .int($0) } ?? .null
        }
        member([.array], "firstIndex", ["where"]) { m, v, args throws(ScriptFault) in
            try m.index(in: m.array(v), where: args[0], last: false).map { .int($0) } ?? .null
        }
        member([.array], "lastIndex", ["where"]) { m, v, args throws(ScriptFault) in
            try m.index(in: m.array(v), where: args[0], last: true).map { .int($0) } ?? .null
        }
        member([.array], "last", ["where"]) { m, v, args throws(ScriptFault) in
            let a = try m.array(v)
            return try m.index(in: a, where: args[0], last: true).map { a[$0] } ?? .null
        }
        member([.array, .range, .set, .dictionary], "reversed", result: .array(.unknown)) {
            m, v, _ throws(ScriptFault) in
            let a = try m.elements(v, at: m.site)
            try m.chargeLibrary(a.count)
            return .array(a.reversed())
        }
        member([.array], "indices", property: true, result: .range) { m, v, _ throws(ScriptFault) in
            .range(0, try m.array(v).count, closed: false)
        }
        member([.array], "joined", result: .unknown) { m, v, _ throws(ScriptFault) in
            try m.joined(m.array(v), separator: nil)
        }
        member([.array], "joined", ["separator"], result: .unknown) { m, v, args throws(ScriptFault) in
            try m.joined(m.array(v), separator: args[0])
        }
        registerSlices()
        typeFunction("Array", "init()") { _, _ throws(ScriptFault) in .array([]) }
        typeFunction("Array", "init(_:)") { m, args throws(ScriptFault) in
            let a = try m.elements(args[0], at: m.site)
            try m.checkCount(a.count)
            try m.chargeLibrary(a.count)
            return .array(a)
        }
        typeFunction("Array", "init(repeating:count:)") { m, args throws(ScriptFault) in
            let n = try m.int(args[1])
            guard n >= 0 else { throw m.fault("Can't construct Array with count < 0") }
            try m.checkCount(n)
            try m.chargeLibrary(n)
            return .array(Array(repeating: args[0], count: n))
        }
    }

    /// `prefix`, `suffix`, `dropFirst`, `dropLast` on arrays and ranges (slices are arrays here).
    private func registerSlices() {
        let kinds: [ValueKind] = [.array, .range]
        let slices: [(String, String, (Int, Int) -> Range<Int>)] = [
            ("prefix", "Can't take a prefix of negative length from a collection", { n, k in 0..<min(k, n) }),
            ("suffix", "Can't take a suffix of negative length from a collection", { n, k in max(n - k, 0)..<n }),
            ("dropFirst", "Can't drop a negative number of elements from a collection", { n, k in min(k, n)..<n }),
            ("dropLast", "Can't drop a negative number of elements from a collection", { n, k in 0..<max(n - k, 0) }),
        ]
        for (name, negative, bounds) in slices {
            member(kinds, name, [nil]) { m, v, args throws(ScriptFault) in
                let k = try m.int(args[0])
                guard k >= 0 else { throw m.fault(negative) }
                return try m.slice(v, bounds)(k)
            }
            if name.hasPrefix("drop") {
                member(kinds, name) { m, v, _ throws(ScriptFault) in try m.slice(v, bounds)(1) }
            }
        }
        // Slices up to or from a position, which must be inside the array (or at its end).
        member([.array], "prefix", ["upTo"], result: .array(.unknown)) { m, v, args throws(ScriptFault) in
            let a = try m.array(v)
            return try m.prefix(a, upTo: m.int(args[0]))
        }
        member([.array], "prefix", ["through"], result: .array(.unknown)) { m, v, args throws(ScriptFault) in
            let a = try m.array(v)
            let (end, o) = try m.int(args[0]).addingReportingOverflow(1)
            if o { throw m.fault("arithmetic overflow") }
            return try m.prefix(a, upTo: end)
        }
        member([.array], "suffix", ["from"], result: .array(.unknown)) { m, v, args throws(ScriptFault) in
            let a = try m.array(v)
            let start = try m.int(args[0])
            guard start <= a.count else { throw m.fault("Range requires lowerBound <= upperBound") }
            guard start >= 0 else { throw m.fault("Negative Array index is out of range") }
            try m.chargeLibrary(a.count - start)
            return .array(Array(a[start...]))
        }
        member([.array], "prefix", ["while"], result: .array(.unknown)) { m, v, args throws(ScriptFault) in
            let a = try m.array(v)
            let end = try m.index(in: a, where: args[0], last: false, negated: true) ?? a.count
            return .array(Array(a[..<end]))
        }
        member([.array], "drop", ["while"], result: .array(.unknown)) { m, v, args throws(ScriptFault) in
            let a = try m.array(v)
            let start = try m.index(in: a, where: args[0], last: false, negated: true) ?? a.count
            return .array(Array(a[start...]))
        }
    }
}

extension Machine {
    /// Index of the first (or last) element equal to `x`.
    func index(in a: [Value], of x: Value, last: Bool) throws(ScriptFault) -> Int? {
        for i in last ? Array(a.indices.reversed()) : Array(a.indices) {
            try chargeLibrary(1)
            if try equal(a[i], x, at: site) { return i }
        }
        return nil
    }

    /// Index of the first (or last) element a predicate accepts (or, `negated`, rejects).
    func index(in a: [Value], where predicate: Value, last: Bool, negated: Bool = false) throws(ScriptFault) -> Int? {
        let c = try callable(predicate)
        for i in last ? Array(a.indices.reversed()) : Array(a.indices) {
            try chargeLibrary(1)
            if try test(c, a[i]) != negated { return i }
        }
        return nil
    }

    /// `a.prefix(upTo: end)`, checked as Swift checks `a[..<end]`.
    func prefix(_ a: [Value], upTo end: Int) throws(ScriptFault) -> Value {
        guard end >= 0 else { throw fault("Range requires lowerBound <= upperBound") }
        guard end <= a.count else { throw fault("Array index is out of range") }
        try chargeLibrary(end)
        return .array(Array(a[..<end]))
    }

    /// A slice of an array or range, given the slice's bounds for the collection's count and the argument.
    func slice(_ v: Value, _ bounds: @escaping (Int, Int) -> Range<Int>) throws(ScriptFault) -> (Int) -> Value {
        switch v.unboxed {
        case .range(let lo, let hi, _):
            return { k in
                let r = bounds(hi - lo, k)
                return .range(lo + r.lowerBound, lo + r.upperBound, closed: false)
            }
        default:
            let a = try array(v)
            try chargeLibrary(a.count)
            return { k in .array(Array(a[bounds(a.count, k)])) }
        }
    }

    /// `joined()` / `joined(separator:)`: strings join into a string, arrays into one array.
    func joined(_ a: [Value], separator: Value?) throws(ScriptFault) -> Value {
        try chargeLibrary(a.count)
        if case .array = a.first {
            let sep = try separator.map { s throws(ScriptFault) in try elements(s, at: site) } ?? []
            var out: [Value] = []
            for (i, e) in a.enumerated() {
                if i > 0 { out.append(contentsOf: sep) }
                out.append(contentsOf: try elements(e, at: site))
                try checkCount(out.count)
            }
            return .array(out)
        }
        // An empty array of unknown elements joins into "", the common case (`[String]`).
        let sep = try separator.map { s throws(ScriptFault) in try string(s) } ?? ""
        var out = ""
        for (i, e) in a.enumerated() {
            if i > 0 { out += sep }
            out += try string(e)
            try checkCount(out.utf8.count)
        }
        return .string(out)
    }
}
