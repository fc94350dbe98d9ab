/// Random values: `Int.random(in:)`, `Double.random(in:)`, `Bool.random()`, `randomElement()`, `shuffled()` and
/// `shuffle()`, drawn from the machine's `InputSource` (a program tree's transaction, recorded with it). The values
/// are not Swift's (its generator is the system's), but their ranges are: closed ranges include their upper bound,
/// an empty range traps as in Swift.
extension Library {
    func registerRandom() {
        typeFunction("Int", "random(in:)") { m, args throws(ScriptFault) in
            guard case .range(let lo, let hi, _) = args[0].unboxed else { throw m.fault("Int.random(in:) takes a range of Int") }
            guard lo < hi else { throw m.fault("Fatal error: Range requires lowerBound <= upperBound") }
            return .int(try m.random(from: lo, through: hi - 1))
        }
        typeFunction("Double", "random(in:)") { m, args throws(ScriptFault) in
            let (lo, hi, closed): (Double, Double, Bool)
            switch args[0].unboxed {
            case .doubleRange(let a, let b, let c): (lo, hi, closed) = (a, b, c)
            // An integer literal range where a Double is expected: `Double.random(in: 0...1)`.
            case .range(let a, let b, let c): (lo, hi, closed) = (Double(a), Double(c ? b - 1 : b), c)
            default: throw m.fault("Double.random(in:) takes a range of Double")
            }
            guard closed ? lo <= hi : lo < hi else {
                throw m.fault("Fatal error: Can't get random value with an empty range")
            }
            guard (hi - lo).isFinite else { throw m.fault("Fatal error: There is no uniform distribution on an infinite range") }
            if closed {
                // 2^53 + 1 equally likely points from lo to hi, both included.
                let k = try m.random(below: (1 << 53) + 1)
                return .double(k == 1 << 53 ? hi : lo + (hi - lo) * (Double(k) * 0x1p-53))
            }
            let d = lo + (hi - lo) * (try m.randomUnit())
            return .double(d < hi ? d : lo)  // rounding can reach hi; a half-open range never does
        }
        typeFunction("Bool", "random()") { m, _ throws(ScriptFault) in .bool(try m.randomWord() >> 63 == 1) }
        member([.array, .range, .set, .string], "randomElement") { m, v, _ throws(ScriptFault) in
            if case .range(let lo, let hi, _) = v.unboxed {
                return lo < hi ? .int(try m.random(from: lo, through: hi - 1)) : .null
            }
            let all = try m.randomCandidates(v)
            guard !all.isEmpty else { return .null }
            return all[Int(try m.random(below: UInt64(all.count)))]
        }
        member([.array, .range, .set, .string], "shuffled", result: .array(.unknown)) { m, v, _ throws(ScriptFault) in
            .array(try m.shuffle(try m.randomCandidates(v)))
        }
        member([.array], "shuffle", mutating: true, result: .void) { m, v, _ throws(ScriptFault) in
            v = .array(try m.shuffle(try m.array(v)))
            return .null
        }
    }
}

extension Machine {
    /// The elements a random pick chooses among: a string's characters, a range's integers, a collection's elements.
    func randomCandidates(_ v: Value) throws(ScriptFault) -> [Value] {
        switch v.unboxed {
        case .string(let s): return s.map { .string(String($0)) }
        case .range(let lo, let hi, _):
            try chargeLibrary(max(0, hi - lo))
            return try elements(v, at: site)
        default: return try elements(v, at: site)
        }
    }

    /// Fisher–Yates, from the last position down.
    func shuffle(_ a: [Value]) throws(ScriptFault) -> [Value] {
        var out = a
        try chargeLibrary(out.count)
        var i = out.count - 1
        while i > 0 {
            let j = Int(try random(below: UInt64(i + 1)))
            out.swapAt(i, j)
            i -= 1
        }
        return out
    }
}
