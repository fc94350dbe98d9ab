/// Binary operators of the subset.
enum BinaryOp: String {
    case add = "+", subtract = "-", multiply = "*", divide = "/", remainder = "%"
    case equal = "==", notEqual = "!=", less = "<", lessEqual = "<=", greater = ">", greaterEqual = ">="
    case halfOpen = "..<", closed = "..."
    case bitAnd = "&", bitOr = "|", bitXor = "^", shiftLeft = "<<", shiftRight = ">>"
    case identical = "===", notIdentical = "!=="

    /// The compound assignment this operator makes (`+=` → `+`).
    static func compound(_ s: String) -> BinaryOp? {
        guard s.count >= 2, s.hasSuffix("="), !["==", "!=", "<=", ">=", "===", "!=="].contains(s) else { return nil }
        return BinaryOp(rawValue: String(s.dropLast()))
    }
}

final class BinaryExpr: Expr {
    let op: BinaryOp
    let left: Expr
    let right: Expr
    /// A user `static func` for this operator, when the compiler found one for the operands' types.
    let custom: Function?
    /// `a > b` through a user `<`: evaluated left to right, then called as `b < a`.
    let swapped: Bool

    init(
        _ location: SourceLocation, _ op: BinaryOp, _ l: Expr, _ r: Expr, custom: Function?, swapped: Bool = false,
        _ type: TypeRef
    ) {
        self.op = op
        left = l
        right = r
        self.custom = custom
        self.swapped = swapped
        super.init(location, type)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        let a = try left.eval(m)
        let b = try right.eval(m)
        if let custom { return try m.call(custom, swapped ? [b, a] : [a, b], site: location) }
        return try m.binary(op, a, b, at: location)
    }
}

final class LogicalExpr: Expr {
    let isAnd: Bool
    let left: Expr
    let right: Expr

    init(_ location: SourceLocation, isAnd: Bool, _ l: Expr, _ r: Expr) {
        self.isAnd = isAnd
        left = l
        right = r
        super.init(location, .bool)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        let a = try m.truth(left.eval(m), at: left.location)
        if a != isAnd { return .bool(a) }
        return .bool(try m.truth(right.eval(m), at: right.location))
    }
}

final class NilCoalesceExpr: Expr {
    let left: Expr
    let right: Expr

    init(_ location: SourceLocation, _ l: Expr, _ r: Expr, _ type: TypeRef) {
        left = l
        right = r
        super.init(location, type)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        let a = try left.eval(m)
        return a.isNull ? try right.eval(m) : a
    }
}

final class PrefixExpr: Expr {
    enum Op { case negate, not, plus, bitNot }
    let op: Op
    let operand: Expr

    init(_ location: SourceLocation, _ op: Op, _ operand: Expr, _ type: TypeRef) {
        self.op = op
        self.operand = operand
        super.init(location, type)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        let v = try operand.eval(m)
        switch (op, v) {
        case (.negate, .int(let i)):
            let (r, o) = (0 as Int).subtractingReportingOverflow(i)
            if o { throw m.fault("arithmetic overflow", at: location) }
            return .int(r)
        case (.negate, .double(let d)): return .double(-d)
        case (.plus, .int), (.plus, .double): return v
        case (.not, .bool(let b)): return .bool(!b)
        case (.bitNot, .int(let i)): return .int(~i)
        default:
            if case .negate = op, case .record(let t, _) = v, let f = m.program.types[t].staticMethods["-(_:)"] {
                return try m.call(f, [v], site: location)
            }
            throw m.fault("operator cannot be applied to a value of type \(m.typeName(of: v))", at: location)
        }
    }
}

/// `place op= value`, in place.
final class CompoundAssignExpr: Expr {
    let target: Place
    let op: BinaryOp
    let value: Expr
    let custom: Function?
    let targetType: TypeRef
    /// The slot of an unboxed local target, for the in-place fast path.
    let localSlot: Int?

    init(_ location: SourceLocation, _ target: Place, _ op: BinaryOp, _ value: Expr, custom: Function?, targetType: TypeRef)
    {
        self.target = target
        self.op = op
        self.value = value
        self.custom = custom
        self.targetType = targetType
        if let local = target as? LocalPlace, !local.boxed { localSlot = local.slot } else { localSlot = nil }
        super.init(location, .void)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        let b = try value.eval(m)
        // `x += n` on an Int local: no closure, no copy.
        if let slot = localSlot, custom == nil, case .int(let x) = m.stack[m.fp + slot], case .int(let y) = b {
            let r: (Int, Bool)
            switch op {
            case .add: r = x.addingReportingOverflow(y)
            case .subtract: r = x.subtractingReportingOverflow(y)
            case .multiply: r = x.multipliedReportingOverflow(by: y)
            default: return try slowPath(m, b)
            }
            if r.1 { throw m.fault("arithmetic overflow", at: location) }
            m.stack[m.fp + slot] = .int(r.0)
            return .null
        }
        return try slowPath(m, b)
    }

    private func slowPath(_ m: Machine, _ b: Value) throws(ScriptFault) -> Value {
        let op = self.op
        let location = self.location
        let custom = self.custom
        let targetType = self.targetType
        try target.modify(m) { (a: inout Value) throws(ScriptFault) in
            // Arrays append in place: `a += b` must not copy `a`.
            if op == .add, case .array(var x) = a, case .array(let y) = b {
                a = .null
                x.append(contentsOf: y)
                try m.checkCount(x.count, at: location)
                a = .array(x)
                return
            }
            if let custom {
                a = try m.call(custom, [a, b], site: location)
            } else {
                a = m.coerce(try m.binary(op, a, b, at: location), to: targetType)
            }
        }
        return .null
    }
}

final class AssignExpr: Expr {
    let target: Place
    let value: Expr
    let targetType: TypeRef

    init(_ location: SourceLocation, _ target: Place, _ value: Expr, targetType: TypeRef) {
        self.target = target
        self.value = value
        self.targetType = targetType
        super.init(location, .void)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        let v = m.coerce(try value.eval(m), to: targetType)
        try target.set(m, v)
        return .null
    }
}

/// `_ = e`.
final class DiscardExpr: Expr {
    let value: Expr

    init(_ location: SourceLocation, _ value: Expr) {
        self.value = value
        super.init(location, .void)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        _ = try value.eval(m)
        return .null
    }
}

extension Machine {
    /// Library arithmetic and comparison, with Swift's traps on overflow and division by zero.
    func binary(_ op: BinaryOp, _ a: Value, _ b: Value, at location: SourceLocation) throws(ScriptFault) -> Value {
        if case .int(let x) = a, case .int(let y) = b {
            let r: (Int, Bool)
            switch op {
            case .add: r = x.addingReportingOverflow(y)
            case .subtract: r = x.subtractingReportingOverflow(y)
            case .multiply: r = x.multipliedReportingOverflow(by: y)
            case .divide, .remainder:
                if y == 0 { throw fault("Division by zero", at: location) }
                r = op == .divide ? x.dividedReportingOverflow(by: y) : x.remainderReportingOverflow(dividingBy: y)
            case .equal: return .bool(x == y)
            case .notEqual: return .bool(x != y)
            case .less: return .bool(x < y)
            case .lessEqual: return .bool(x <= y)
            case .greater: return .bool(x > y)
            case .greaterEqual: return .bool(x >= y)
            case .halfOpen:
                guard x <= y else { throw fault("Range requires lowerBound <= upperBound", at: location) }
                return .range(x, y, closed: false)
            case .closed:
                guard x <= y else { throw fault("Range requires lowerBound <= upperBound", at: location) }
                let (u, o) = y.addingReportingOverflow(1)
                if o { throw fault("arithmetic overflow", at: location) }
                return .range(x, u, closed: true)
            case .bitAnd: return .int(x & y)
            case .bitOr: return .int(x | y)
            case .bitXor: return .int(x ^ y)
            case .shiftLeft: return .int(x << y)
            case .shiftRight: return .int(x >> y)
            case .identical, .notIdentical: return .bool(op == .notIdentical)
            }
            if r.1 { throw fault("arithmetic overflow", at: location) }
            return .int(r.0)
        }
        switch op {
        case .equal: return .bool(try equal(a, b, at: location))
        case .notEqual: return .bool(!(try equal(a, b, at: location)))
        case .less: return .bool(try less(a, b, at: location))
        case .greater: return .bool(try less(b, a, at: location))
        case .lessEqual: return .bool(!(try less(b, a, at: location)))
        case .greaterEqual: return .bool(!(try less(a, b, at: location)))
        case .identical, .notIdentical:
            var same = false
            if case .function(let x) = a, case .function(let y) = b { same = x === y }
            if case .object(let x) = a.unboxed, case .object(let y) = b.unboxed { same = x === y }
            return .bool(op == .identical ? same : !same)
        default: break
        }
        if let x = a.number, let y = b.number {
            switch op {
            case .add: return .double(x + y)
            case .subtract: return .double(x - y)
            case .multiply: return .double(x * y)
            case .divide: return .double(x / y)
            case .remainder: return .double(x.truncatingRemainder(dividingBy: y))
            case .halfOpen, .closed:
                guard x <= y else { throw fault("Range requires lowerBound <= upperBound", at: location) }
                return .doubleRange(x, y, closed: op == .closed)
            default: break
            }
        }
        if op == .add {
            switch (a, b) {
            case (.string(let x), .string(let y)):
                try checkCount(x.utf8.count + y.utf8.count, at: location)
                return .string(x + y)
            case (.array(let x), .array(let y)):
                try checkCount(x.count + y.count, at: location)
                return .array(x + y)
            case (.view(let x), .view(let y)) where x.type == "Text" && y.type == "Text" && x.kind == .library && y.kind == .library:
                // `Text("a") + Text("b")`: one Text showing both, each part's styling kept as a segment.
                return .view(try concatenate(x, y, at: location))
            default: break
            }
        }
        // A user operator declared on the left operand's type (`static func + (a: CGSize, b: CGSize)`).
        switch a {
        case .record(let t, _), .enumCase(let t, _, _):
            if let f = program.types[t].staticMethods["\(op.rawValue)(_:_:)"] { return try call(f, [a, b], site: location) }
        default:
            if let t = program.builtinType(of: a), let f = program.types[t].staticMethods["\(op.rawValue)(_:_:)"] {
                return try call(f, [a, b], site: location)
            }
        }
        throw fault(
            "binary operator '\(op.rawValue)' cannot be applied to operands of type \(typeName(of: a)) and "
                + typeName(of: b), at: location)
    }
}

/// A partial range of integers (`..<2`, `...2`, `2...`): stored as a half-open range whose missing ends are
/// `Int.min` and `Int.max`, which a subscript reads as the collection's start and end and a pattern as no bound.
final class PartialRangeExpr: Expr {
    let lower: Expr?
    let upper: Expr?
    let closed: Bool

    init(_ location: SourceLocation, lower: Expr?, upper: Expr?, closed: Bool) {
        self.lower = lower
        self.upper = upper
        self.closed = closed
        super.init(location, .range)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        var lo = Int.min
        if let lower {
            guard case .int(let l) = try lower.eval(m).unboxed else { throw m.fault("a range needs integer bounds", at: location) }
            lo = l
        }
        guard let upper else { return .range(lo, Int.max, closed: false) }
        guard case .int(var hi) = try upper.eval(m).unboxed else { throw m.fault("a range needs integer bounds", at: location) }
        if closed {
            let (u, o) = hi.addingReportingOverflow(1)
            if o { throw m.fault("arithmetic overflow", at: location) }
            hi = u
        }
        guard lo <= hi else { throw m.fault("Range requires lowerBound <= upperBound", at: location) }
        return .range(lo, hi, closed: closed)
    }
}

/// `(a, b) = (b, a)`: evaluates the tuple, then assigns its elements to the places (`nil`: `_`).
final class TupleAssignExpr: Expr {
    let places: [(Place?, TypeRef)]
    let value: Expr

    init(_ location: SourceLocation, _ places: [(Place?, TypeRef)], _ value: Expr) {
        self.places = places
        self.value = value
        super.init(location, .void)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        guard case .tuple(let parts) = try value.eval(m).unboxed, parts.count == places.count else {
            throw m.fault("the tuple does not have \(places.count) elements", at: location)
        }
        for (i, (place, type)) in places.enumerated() {
            try place?.set(m, m.coerce(parts[i], to: type))
        }
        return .null
    }
}

/// `pattern ~= value`: a range contains the value; any other pattern equals it.
final class PatternMatchExpr: Expr {
    let pattern: Expr
    let value: Expr

    init(_ location: SourceLocation, _ pattern: Expr, _ value: Expr) {
        self.pattern = pattern
        self.value = value
        super.init(location, .bool)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        let p = try pattern.eval(m)
        let v = try value.eval(m)
        switch p.unboxed {
        case .range(let lo, let hi, _):
            guard case .int(let x) = v.unboxed else { return .bool(false) }
            return .bool(lo <= x && x < hi)
        case .doubleRange(let lo, let hi, let closed):
            let x = try m.double(v)
            return .bool(lo <= x && (closed ? x <= hi : x < hi))
        default:
            return .bool(try m.equal(p, v, at: location))
        }
    }
}

extension Machine {
    /// `Text + Text`: a `Text` whose `text` is both texts' characters and whose `segments` keep each part's text and
    /// modifiers (what SwiftUI draws in one run).
    func concatenate(_ a: ViewValue, _ b: ViewValue, at location: SourceLocation) throws(ScriptFault) -> ViewValue {
        func parts(_ v: ViewValue) -> [Value] {
            if case .array(let s)? = v.prop("segments"), v.modifiers.isEmpty { return s }
            var modifiers: [Value] = []
            for m in v.modifiers {
                guard case .other(let name, let args) = m else { continue }
                var arguments = OrderedDictionary()
                for (label, value) in args { arguments[.string(label)] = value }
                var o = OrderedDictionary()
                o[.string("kind")] = .string(name)
                o[.string("args")] = .dictionary(arguments)
                modifiers.append(.dictionary(o))
            }
            var segment = OrderedDictionary()
            segment[.string("text")] = v.prop("text") ?? .string("")
            segment[.string("modifiers")] = .array(modifiers)
            return [.dictionary(segment)]
        }
        guard case .string(let x)? = a.prop("text"), case .string(let y)? = b.prop("text") else {
            throw fault("only Texts of characters can be joined with +", at: location)
        }
        try checkCount(x.utf8.count + y.utf8.count, at: location)
        let joined = ViewValue(.library, "Text", at: location)
        joined.props = [("text", .string(x + y)), ("segments", .array(parts(a) + parts(b)))]
        return joined
    }
}
