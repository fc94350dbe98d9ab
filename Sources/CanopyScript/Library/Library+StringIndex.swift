/// The natives under `StringIndexPrelude`: a `String.Index` is a record `__StringIndex(__offset, __base)`, the
/// character offset into the string it came from. Each native checks an index against the string it is used
/// with, and bounds as Swift traps them ("String index is out of bounds").
extension Library {
    func registerStringIndex() {
        function("__stringOffset(_:_:)") { m, args throws(ScriptFault) in
            let s = try m.string(args[0])
            return .int(try m.indexOffset(args[1], in: s))
        }
        function("__stringMove(_:_:_:)") { m, args throws(ScriptFault) in
            let s = try m.string(args[0])
            let o = try m.indexOffset(args[1], in: s)
            let n = try m.int(args[2])
            try m.chargeLibrary(s.utf8.count)
            let (target, overflow) = o.addingReportingOverflow(n)
            guard !overflow, target >= 0, target <= s.count else { throw m.fault(Machine.indexOutOfBounds) }
            return .int(target)
        }
        function("__stringCharacter(_:_:)") { m, args throws(ScriptFault) in
            let s = try m.string(args[0])
            let o = try m.indexOffset(args[1], in: s)
            try m.chargeLibrary(s.utf8.count)
            guard o < s.count else { throw m.fault(Machine.indexOutOfBounds) }
            return .string(String(s[s.index(s.startIndex, offsetBy: o)]))
        }
        function("__stringFind(_:_:_:)") { m, args throws(ScriptFault) in
            let s = try m.string(args[0])
            let c = try m.character(args[1], "firstIndex(of:)")
            let last = try m.truth(args[2], at: m.site)
            try m.chargeLibrary(s.utf8.count)
            let found = last ? s.lastIndex(of: c) : s.firstIndex(of: c)
            return found.map { .int(s.distance(from: s.startIndex, to: $0)) } ?? .null
        }
        function("__stringBounds(_:_:)") { m, args throws(ScriptFault) in
            let s = try m.string(args[0])
            guard case .record(_, let f) = args[1].unboxed, f.count == 3 else { throw m.fault("expected a range of String.Index") }
            let lo = f[0].unboxed.isNull ? 0 : try m.indexOffset(f[0], in: s)
            var hi = f[1].unboxed.isNull ? s.count : try m.indexOffset(f[1], in: s)
            if try m.truth(f[2], at: m.site) {
                guard hi < s.count else { throw m.fault(Machine.indexOutOfBounds) }
                hi += 1
            }
            return .array([.int(lo), .int(hi)])
        }
        function("__stringSlice(_:_:_:)") { m, args throws(ScriptFault) in
            let s = try m.string(args[0])
            let (lo, hi) = try m.characterRange(s, args[1], args[2])
            return .string(String(s[lo..<hi]))
        }
        function("__stringReplace(_:_:_:_:)") { m, args throws(ScriptFault) in
            var s = try m.string(args[0])
            let (lo, hi) = try m.characterRange(s, args[1], args[2])
            let t = try m.string(args[3])
            try m.checkCount(s.utf8.count + t.utf8.count)
            s.replaceSubrange(lo..<hi, with: t)
            return .string(s)
        }
        function("__stringIndexOrder(_:_:)") { m, args throws(ScriptFault) in
            // `==` of optional indices (`s.firstIndex(of: c) == nil`) reaches here with nil: equal only to nil.
            if args[0].unboxed.isNull || args[1].unboxed.isNull {
                return .int(args[0].unboxed.isNull && args[1].unboxed.isNull ? 0 : 1)
            }
            let (a, base) = try m.indexParts(args[0])
            let (b, other) = try m.indexParts(args[1])
            guard base == other else { throw m.fault(Machine.foreignIndex) }
            return .int(a < b ? -1 : a == b ? 0 : 1)
        }
        function("__stringIndexFault(_:)") { m, args throws(ScriptFault) in
            throw m.fault(try m.string(args[0]))
        }
        function("__stringIndexUnsupported(_:)") { m, args throws(ScriptFault) in
            throw m.fault("\(try m.string(args[0])) is not part of Canopy's Swift subset")
        }
    }
}

extension Machine {
    /// Swift's message for an index past either end of a string.
    static let indexOutOfBounds = "String index is out of bounds"

    static let foreignIndex = "a String.Index used with another string than the one it came from (or with the "
        + "string after it changed) is not part of Canopy's Swift subset; take the index from the string it indexes"

    /// The offset and string of a `__StringIndex` record.
    func indexParts(_ v: Value) throws(ScriptFault) -> (Int, String) {
        guard case .record(_, let f) = v.unboxed, f.count == 2 else { throw fault("expected a String.Index") }
        return (try int(f[0]), try string(f[1]))
    }

    /// The offset of index `v` in `s`, which must be the string it came from.
    func indexOffset(_ v: Value, in s: String) throws(ScriptFault) -> Int {
        let (o, base) = try indexParts(v)
        try chargeLibrary(1)
        guard base == s else { throw fault(Machine.foreignIndex) }
        return o
    }

    /// The host indices of character offsets `lo..<hi` of `s` (already checked against it).
    func characterRange(_ s: String, _ lo: Value, _ hi: Value) throws(ScriptFault) -> (String.Index, String.Index) {
        let l = try int(lo)
        let h = try int(hi)
        try chargeLibrary(s.utf8.count)
        guard 0 <= l, l <= h, h <= s.count else { throw fault(Machine.indexOutOfBounds) }
        let a = s.index(s.startIndex, offsetBy: l)
        return (a, s.index(a, offsetBy: h - l))
    }
}
