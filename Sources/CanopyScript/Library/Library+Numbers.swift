/// `Int`, `Double` and `CGFloat` (a `Double` here): members, constants and initializers.
extension Library {
    func registerNumbers() {
        registerNumberMembers()
        registerIntegerDetails()
        registerRounding()
        for t in ["Double", "CGFloat"] {
            typeConstant(t, "pi", .double(.pi))
            typeConstant(t, "infinity", .double(.infinity))
            typeConstant(t, "greatestFiniteMagnitude", .double(.greatestFiniteMagnitude))
            typeConstant(t, "leastNonzeroMagnitude", .double(.leastNonzeroMagnitude))
            typeConstant(t, "ulpOfOne", .double(.ulpOfOne))
            typeConstant(t, "nan", .double(.nan))
            typeConstant(t, "zero", .double(0))
            typeFunction(t, "init()") { _, _ throws(ScriptFault) in .double(0) }
        }
        typeConstant("Int", "max", .int(.max))
        typeConstant("Int", "min", .int(.min))
        typeConstant("Int", "zero", .int(0))
        typeFunction("Int", "init()") { _, _ throws(ScriptFault) in .int(0) }
        typeFunction("Int", "init(_:)") { m, args throws(ScriptFault) in
            switch args[0].unboxed {
            case .int(let i): return .int(i)
            case .double(let d): return .int(try m.truncate(d))
            case .string(let s): return Int(s).map { .int($0) } ?? .null
            default: throw m.fault("Int(_:) cannot convert a value of type \(m.typeName(of: args[0]))")
            }
        }
        typeFunction("Int", "init(exactly:)") { m, args throws(ScriptFault) in
            let d = try m.double(args[0])
            return Int(exactly: d).map { .int($0) } ?? .null
        }
        typeFunction("Int", "init(_:radix:)") { m, args throws(ScriptFault) in
            let radix = try m.int(args[1])
            guard (2...36).contains(radix) else { throw m.fault("Radix must be between 2 and 36") }
            return Int(try m.string(args[0]), radix: radix).map { .int($0) } ?? .null
        }
        typeFunction("Double", "init(_:)") { m, args throws(ScriptFault) in
            if case .string(let s) = args[0].unboxed { return Double(s).map { .double($0) } ?? .null }
            return .double(try m.double(args[0]))
        }
        typeFunction("CGFloat", "init(_:)") { m, args throws(ScriptFault) in .double(try m.double(args[0])) }
        typeFunction("Bool", "init(_:)") { m, args throws(ScriptFault) in
            switch args[0].unboxed {
            case .bool(let b): return .bool(b)
            case .string(let s): return Bool(s).map { .bool($0) } ?? .null
            default: throw m.fault("Bool(_:) cannot convert a value of type \(m.typeName(of: args[0]))")
            }
        }
    }

    private func registerNumberMembers() {
        member([.int, .double], "description", property: true, result: .string) { m, v, _ throws(ScriptFault) in
            .string(m.describe(v))
        }
        member([.int], "magnitude", property: true, result: .int) { m, v, _ throws(ScriptFault) in
            let i = try m.int(v)
            // `Int.min.magnitude` is a UInt beyond Int's range, which the subset has no type for.
            if i == .min { throw m.fault("arithmetic overflow") }
            return .int(abs(i))
        }
        member([.double], "magnitude", property: true, result: .double) { m, v, _ throws(ScriptFault) in
            .double(try m.double(v).magnitude)
        }
        member([.int], "signum", result: .int) { m, v, _ throws(ScriptFault) in .int(try m.int(v).signum()) }
        member([.int], "isMultiple", ["of"], result: .bool) { m, v, args throws(ScriptFault) in
            .bool(try m.int(v).isMultiple(of: try m.int(args[0])))
        }
        member([.int], "quotientAndRemainder", ["dividingBy"], result: .tuple([.int, .int])) {
            m, v, args throws(ScriptFault) in
            let (x, y) = (try m.int(v), try m.int(args[0]))
            if y == 0 { throw m.fault("Division by zero") }
            if x == .min && y == -1 { throw m.fault("arithmetic overflow") }
            return .tuple([.int(x / y), .int(x % y)])
        }
        // Double-only members also accept an Int value, which is what a CGFloat holds when a literal reached it
        // through a path that did not convert it.
        let real: [ValueKind] = [.double, .int]
        member(real, "isZero", property: true, result: .bool) { m, v, _ throws(ScriptFault) in
            .bool(try m.double(v).isZero)
        }
        member(real, "isNaN", property: true, result: .bool) { m, v, _ throws(ScriptFault) in
            .bool(try m.double(v).isNaN)
        }
        member(real, "isFinite", property: true, result: .bool) { m, v, _ throws(ScriptFault) in
            .bool(try m.double(v).isFinite)
        }
        member(real, "isInfinite", property: true, result: .bool) { m, v, _ throws(ScriptFault) in
            .bool(try m.double(v).isInfinite)
        }
        member(real, "squareRoot", result: .double) { m, v, _ throws(ScriptFault) in
            .double(try m.double(v).squareRoot())
        }
        member(real, "truncatingRemainder", ["dividingBy"], result: .double) { m, v, args throws(ScriptFault) in
            .double(try m.double(v).truncatingRemainder(dividingBy: try m.double(args[0])))
        }
        member(real, "remainder", ["dividingBy"], result: .double) { m, v, args throws(ScriptFault) in
            .double(try m.double(v).remainder(dividingBy: try m.double(args[0])))
        }
    }

    /// Bits and steps: `nonzeroBitCount`, `negate()`, `advanced(by:)`, `distance(to:)`, the `…ReportingOverflow`
    /// family; and `Bool.description`.
    private func registerIntegerDetails() {
        let counts: [(String, (Int) -> Int)] = [
            ("nonzeroBitCount", \.nonzeroBitCount), ("leadingZeroBitCount", \.leadingZeroBitCount),
            ("trailingZeroBitCount", \.trailingZeroBitCount), ("bitWidth", \.bitWidth),
        ]
        for (name, count) in counts {
            shadowableProperty([.int], name, result: .int) { m, v, _ throws(ScriptFault) in .int(count(try m.int(v))) }
        }
        typeConstant("Int", "bitWidth", .int(Int.bitWidth))
        member([.int, .double], "negate", mutating: true, result: .void) { m, v, _ throws(ScriptFault) in
            switch v.unboxed {
            case .int(let i):
                if i == .min { throw m.fault("arithmetic overflow") }
                v = .int(-i)
            case .double(let d): v = .double(-d)
            default: throw m.fault("negate() needs a number")
            }
            return .null
        }
        member([.int, .double], "advanced", ["by"]) { m, v, args throws(ScriptFault) in
            if case .int(let i) = v.unboxed, case .int(let n) = args[0].unboxed {
                let (r, o) = i.addingReportingOverflow(n)
                if o { throw m.fault("arithmetic overflow") }
                return .int(r)
            }
            return .double(try m.double(v).advanced(by: try m.double(args[0])))
        }
        member([.int, .double], "distance", ["to"]) { m, v, args throws(ScriptFault) in
            if case .int(let i) = v.unboxed, case .int(let n) = args[0].unboxed {
                let (r, o) = n.subtractingReportingOverflow(i)
                if o { throw m.fault("arithmetic overflow") }
                return .int(r)
            }
            return .double(try m.double(v).distance(to: try m.double(args[0])))
        }
        let reporting: [(String, String?, (Int, Int) -> (Int, Bool))] = [
            ("addingReportingOverflow", nil, { $0.addingReportingOverflow($1) }),
            ("subtractingReportingOverflow", nil, { $0.subtractingReportingOverflow($1) }),
            ("multipliedReportingOverflow", "by", { $0.multipliedReportingOverflow(by: $1) }),
            ("dividedReportingOverflow", "by", { $0.dividedReportingOverflow(by: $1) }),
            ("remainderReportingOverflow", "dividingBy", { $0.remainderReportingOverflow(dividingBy: $1) }),
        ]
        for (name, label, op) in reporting {
            member([.int], name, [label], result: .tuple([.int, .bool])) {
                m, v, args throws(ScriptFault) in
                let (r, o) = op(try m.int(v), try m.int(args[0]))
                return .tuple([.int(r), .bool(o)])
            }
        }
        member([.bool], "description", property: true, result: .string) { m, v, _ throws(ScriptFault) in
            guard case .bool(let b) = v.unboxed else { throw m.fault("description needs a Bool") }
            return .string(b.description)
        }
    }

    private func registerRounding() {
        let real: [ValueKind] = [.double, .int]
        member(real, "rounded", result: .double) { m, v, _ throws(ScriptFault) in .double(try m.double(v).rounded()) }
        member(real, "rounded", [nil], result: .double) { m, v, args throws(ScriptFault) in
            .double(try m.double(v).rounded(try m.roundingRule(args[0])))
        }
        member(real, "round", mutating: true, result: .void) { m, v, _ throws(ScriptFault) in
            v = .double(try m.double(v).rounded())
            return .null
        }
        member(real, "round", [nil], mutating: true, result: .void) { m, v, args throws(ScriptFault) in
            v = .double(try m.double(v).rounded(try m.roundingRule(args[0])))
            return .null
        }
    }
}

extension Machine {
    /// `Int(d)`: truncates toward zero and traps where Swift does.
    func truncate(_ d: Double) throws(ScriptFault) -> Int {
        guard d.isFinite else {
            throw fault("Double value cannot be converted to Int because it is either infinite or NaN")
        }
        // 2^63 is the first Double beyond Int.max; every smaller one truncates into range.
        guard d < 9_223_372_036_854_775_808.0 else {
            throw fault("Double value cannot be converted to Int because the result would be greater than Int.max")
        }
        guard d > -9_223_372_036_854_777_856.0 else {
            throw fault("Double value cannot be converted to Int because the result would be less than Int.min")
        }
        return Int(d)
    }

    /// A `FloatingPointRoundingRule` written as an implicit member (`.up` arrives as `"up"`).
    func roundingRule(_ v: Value) throws(ScriptFault) -> FloatingPointRoundingRule {
        switch v.unboxed {
        case .string("up"): return .up
        case .string("down"): return .down
        case .string("towardZero"): return .towardZero
        case .string("awayFromZero"): return .awayFromZero
        case .string("toNearestOrEven"): return .toNearestOrEven
        case .string("toNearestOrAwayFromZero"): return .toNearestOrAwayFromZero
        default: throw fault("unknown rounding rule \(describe(v))")
        }
    }
}
