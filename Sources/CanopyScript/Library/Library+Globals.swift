/// Global functions beyond the core ones: variadic `min`/`max`, `zip`, `stride`, `precondition`, `assert`,
/// operators as functions, and `String`'s initializers.
extension Library {
    func registerGlobals() {
        registerExtremes()
        function("zip(_:_:)") { m, args throws(ScriptFault) in
            // A range without an end (`zip(1..., names)`) is as long as the other sequence.
            func bounded(_ v: Value, by other: Value) throws(ScriptFault) -> [Value] {
                guard case .range(let lo, Int.max, _) = v.unboxed else { return try m.elements(v, at: m.site) }
                let n = try m.elements(other, at: m.site).count
                return (0..<n).map { .int(lo + $0) }
            }
            let a = try bounded(args[0], by: args[1])
            let b = try bounded(args[1], by: args[0])
            try m.chargeLibrary(min(a.count, b.count))
            return .array(zip(a, b).map { .tuple([$0, $1]) })
        }
        function("stride(from:to:by:)") { m, args throws(ScriptFault) in try m.stride(args, closed: false) }
        function("stride(from:through:by:)") { m, args throws(ScriptFault) in try m.stride(args, closed: true) }
        // `precondition` and `assert` both check: Canopy runs every program as a debug build would.
        for (name, title) in [("precondition", "Precondition failed"), ("assert", "Assertion failed")] {
            function("\(name)(_:)") { m, args throws(ScriptFault) in
                if try !m.truth(args[0], at: m.site) { throw m.fault(title) }
                return .null
            }
            function("\(name)(_:_:)") { m, args throws(ScriptFault) in
                if try !m.truth(args[0], at: m.site) { throw m.fault("\(title): \(m.describe(args[1]))") }
                return .null
            }
        }
        function("preconditionFailure()") { m, _ throws(ScriptFault) in throw m.fault("Fatal error") }
        function("preconditionFailure(_:)") { m, args throws(ScriptFault) in
            throw m.fault("Fatal error: \(m.describe(args[0]))")
        }
        function("assertionFailure()") { m, _ throws(ScriptFault) in throw m.fault("Fatal error") }
        function("assertionFailure(_:)") { m, args throws(ScriptFault) in
            throw m.fault("Fatal error: \(m.describe(args[0]))")
        }
        registerStringInits()
        // Operators passed as functions: `reduce(0, +)`, `sorted(by: >)`.
        for op in ["+", "-", "*", "/", "%", "<", ">", "<=", ">=", "==", "!="] {
            guard let binary = BinaryOp(rawValue: op) else { continue }
            function("\(op)(_:_:)") { m, args throws(ScriptFault) in
                try m.binary(binary, args[0], args[1], at: m.site)
            }
        }
        // `-` alone is also prefix minus (`nums.map(-)`): the call's arguments decide which.
        function("-(_:_:)", arity: nil) { m, args throws(ScriptFault) in
            switch args.count {
            case 1 where !args[0].isTuple: return try m.binary(.subtract, .int(0), args[0], at: m.site)
            case 1:
                guard case .tuple(let p) = args[0].unboxed, p.count == 2 else { throw m.fault("'-' takes 1 or 2 arguments") }
                return try m.binary(.subtract, p[0], p[1], at: m.site)
            case 2: return try m.binary(.subtract, args[0], args[1], at: m.site)
            default: throw m.fault("'-' takes 1 or 2 arguments, not \(args.count)")
            }
        }

    }

    private func registerExtremes() {
        // Swift's `max(x, y)` is `y >= x ? y : x`, `min(x, y)` is `y < x ? y : x`; the variadic forms keep the
        // later of equal maxima and the earlier of equal minima.
        for n in 3...8 {
            let labels = String(repeating: "_:", count: n)
            function("max(\(labels))") { m, args throws(ScriptFault) in
                let all = m.promote(args)
                var best = all[0]
                for v in all.dropFirst() where try !m.less(v, best, at: m.site) { best = v }
                return best
            }
            function("min(\(labels))") { m, args throws(ScriptFault) in
                let all = m.promote(args)
                var best = all[0]
                for v in all.dropFirst() where try m.less(v, best, at: m.site) { best = v }
                return best
            }
        }
    }

    private func registerStringInits() {
        typeFunction("String", "init()") { _, _ throws(ScriptFault) in .string("") }
        typeFunction("String", "init(_:)") { m, args throws(ScriptFault) in
            // `String(characters)`: an array or set of one-character strings makes one string.
            if case .array(let a) = args[0].unboxed {
                var s = ""
                for c in a {
                    guard case .string(let t) = c else { return .string(m.describe(args[0])) }
                    s += t
                }
                return .string(s)
            }
            return .string(m.describe(args[0]))
        }
        typeFunction("String", "init(describing:)") { m, args throws(ScriptFault) in .string(m.describe(args[0])) }
        typeFunction("String", "init(repeating:count:)") { m, args throws(ScriptFault) in
            let s = try m.string(args[0])
            let n = try m.int(args[1])
            guard n >= 0 else { throw m.fault("Negative count not allowed") }
            let (total, o) = s.count.multipliedReportingOverflow(by: n)
            if o { throw m.fault("a value grew beyond \(m.maxCount) elements") }
            try m.checkCount(total)
            try m.chargeLibrary(total)
            return .string(String(repeating: s, count: n))
        }
        typeFunction("String", "init(_:radix:)") { m, args throws(ScriptFault) in
            let radix = try m.int(args[1])
            guard (2...36).contains(radix) else { throw m.fault("Radix must be between 2 and 36") }
            return .string(String(try m.int(args[0]), radix: radix))
        }
        typeFunction("String", "init(_:radix:uppercase:)") { m, args throws(ScriptFault) in
            let radix = try m.int(args[1])
            guard (2...36).contains(radix) else { throw m.fault("Radix must be between 2 and 36") }
            return .string(String(try m.int(args[0]), radix: radix, uppercase: try m.truth(args[2], at: m.site)))
        }
    }
}

extension Machine {
    /// Mixed `Int` and `Double` arguments of one generic call are all `Double`s in Swift (the literals are typed
    /// so), so an `Int` among `Double`s becomes one.
    func promote(_ args: [Value]) -> [Value] {
        guard args.contains(where: { if case .double = $0 { return true } else { return false } }) else { return args }
        return args.map { if case .int(let i) = $0 { return .double(Double(i)) } else { return $0 } }
    }

    /// `stride(from:to:by:)` and `stride(from:through:by:)` as arrays.
    func stride(_ args: [Value], closed: Bool) throws(ScriptFault) -> Value {
        let args = promote(args)
        if case .int(let from) = args[0], case .int(let to) = args[1], case .int(let by) = args[2] {
            guard by != 0 else { throw fault("Stride size must not be zero") }
            var out: [Value] = []
            var x = from
            while by > 0 ? (closed ? x <= to : x < to) : (closed ? x >= to : x > to) {
                out.append(.int(x))
                try checkCount(out.count)
                let (next, o) = x.addingReportingOverflow(by)
                if o { break }
                x = next
            }
            try chargeLibrary(out.count)
            return .array(out)
        }
        let (from, to, by) = (try double(args[0]), try double(args[1]), try double(args[2]))
        guard by != 0 else { throw fault("Stride size must not be zero") }
        guard by.isFinite, from.isFinite, to.isFinite else { throw fault("stride bounds must be finite") }
        // As Swift does for floating point: each element is `from + i * by`, so errors do not accumulate.
        var out: [Value] = []
        var i = 0.0
        while true {
            let x = from + i * by
            guard by > 0 ? (closed ? x <= to : x < to) : (closed ? x >= to : x > to) else { break }
            out.append(.double(x))
            try checkCount(out.count)
            i += 1
        }
        try chargeLibrary(out.count)
        return .array(out)
    }
}
