/// A compiled pattern of `switch`, `if case`, `for` and destructuring `let`.
indirect enum Pattern {
    case wildcard
    /// Binds the value to a slot of the running frame.
    case bind(slot: Int, boxed: Bool)
    /// Matches by `~=`: a range contains the value, anything else compares with `==`.
    case value(Expr)
    /// `.name(p…)`; `type` is known when the subject's type is, otherwise the case is found by name.
    case enumCase(type: TypeID?, name: String, payload: [Pattern]?)
    case tuple([Pattern])
    /// `x?`: a non-nil value matching the inner pattern.
    case some(Pattern)
    /// `is T` / `let x as T`.
    case cast(TypeRef, Pattern?)
    /// `"a"..."z"`, `"0"..<"9"`: a range of characters or strings, compared as Swift compares them.
    case stringRange(Expr, Expr, closed: Bool)

    func match(_ v: Value, _ m: Machine) throws(ScriptFault) -> Bool {
        switch self {
        case .wildcard: return true
        case .bind(let slot, let boxed):
            m.stack[m.fp + slot] = boxed ? .box(Box(v)) : v
            return true
        case .value(let e):
            let p = try e.eval(m)
            switch p {
            case .range(let lo, let hi, _):
                guard let x = v.number else { return false }
                return x >= Double(lo) && x < Double(hi)
            case .doubleRange(let lo, let hi, let closed):
                guard let x = v.number else { return false }
                return x >= lo && (closed ? x <= hi : x < hi)
            default:
                return try m.equal(p, v, at: e.location)
            }
        case .enumCase(let type, let name, let payload):
            // Without a known type, `.some`/`.none` name an optional's cases unless the value's enum has its own.
            var ownCase = type != nil
            if !ownCase, case .enumCase(let t, _, _) = v.unboxed { ownCase = m.program.types[t].caseIndex[name] != nil }
            guard case .enumCase(let t, let c, let values) = v.unboxed, ownCase else {
                // An optional's `.none` / `.some(x)`, written as enum cases.
                if name == "none" { return v.isNull }
                if name == "some", !v.isNull {
                    guard let payload, payload.count == 1 else { return true }
                    return try payload[0].match(v, m)
                }
                return false
            }
            if let type, type != t { return false }
            guard m.program.types[t].cases[c].name == name else { return false }
            guard let payload else { return true }
            if payload.count == 1 && values.count > 1 { return try payload[0].match(.tuple(values), m) }
            guard payload.count == values.count else { return false }
            for (p, x) in zip(payload, values) where !(try p.match(x, m)) { return false }
            return true
        case .stringRange(let lo, let hi, let closed):
            guard case .string(let x) = v.unboxed, case .string(let l) = try lo.eval(m), case .string(let h) = try hi.eval(m)
            else { return false }
            return l <= x && (closed ? x <= h : x < h)
        case .tuple(let ps):
            guard case .tuple(let xs) = v.unboxed, xs.count == ps.count else { return false }
            for (p, x) in zip(ps, xs) where !(try p.match(x, m)) { return false }
            return true
        case .some(let p):
            return v.isNull ? false : try p.match(v, m)
        case .cast(let t, let p):
            guard m.value(v, isA: t) else { return false }
            return try p?.match(m.coerce(v, to: t), m) ?? true
        }
    }
}
