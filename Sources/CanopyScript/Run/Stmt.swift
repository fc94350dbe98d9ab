/// How a statement ended: normally, or by `break`, `continue` (with a label id, 0 for none) or `return`.
enum Flow: Equatable {
    case normal
    case breakLoop(Int)
    case continueLoop(Int)
    case returned
}

/// A compiled statement.
class Stmt {
    let location: SourceLocation

    init(_ location: SourceLocation) { self.location = location }

    func exec(_ m: Machine) throws(ScriptFault) -> Flow { preconditionFailure("abstract") }
}

/// Runs statements in order until one does not end normally.
@inline(__always)
func execBlock(_ body: [Stmt], _ m: Machine) throws(ScriptFault) -> Flow {
    for s in body {
        let f = try s.exec(m)
        if f != .normal { return f }
    }
    return .normal
}

final class ExprStmt: Stmt {
    let expr: Expr

    init(_ expr: Expr) {
        self.expr = expr
        super.init(expr.location)
    }

    override func exec(_ m: Machine) throws(ScriptFault) -> Flow {
        try m.charge(at: location)
        _ = try expr.eval(m)
        return .normal
    }
}

/// `let x = e` / `var x: T = e` / `var x: T?` (nil): stores into a slot, boxed when a closure captures it.
final class DeclareStmt: Stmt {
    let slot: Int
    let boxed: Bool
    let initial: Expr?
    let type: TypeRef

    init(_ location: SourceLocation, slot: Int, boxed: Bool, initial: Expr?, type: TypeRef) {
        self.slot = slot
        self.boxed = boxed
        self.initial = initial
        self.type = type
        super.init(location)
    }

    override func exec(_ m: Machine) throws(ScriptFault) -> Flow {
        try m.charge(at: location)
        var v = Value.null
        if let initial { v = m.coerce(try initial.eval(m), to: type) }
        m.stack[m.fp + slot] = boxed ? .box(Box(v)) : v
        return .normal
    }
}

/// `let (a, b) = e` and other destructuring declarations.
final class DestructureStmt: Stmt {
    let pattern: Pattern
    let initial: Expr

    init(_ location: SourceLocation, pattern: Pattern, initial: Expr) {
        self.pattern = pattern
        self.initial = initial
        super.init(location)
    }

    override func exec(_ m: Machine) throws(ScriptFault) -> Flow {
        try m.charge(at: location)
        let v = try initial.eval(m)
        guard try pattern.match(v, m) else { throw m.fault("value does not match the pattern", at: location) }
        return .normal
    }
}

final class ReturnStmt: Stmt {
    let value: Expr?
    let type: TypeRef

    init(_ location: SourceLocation, value: Expr?, type: TypeRef) {
        self.value = value
        self.type = type
        super.init(location)
    }

    override func exec(_ m: Machine) throws(ScriptFault) -> Flow {
        m.returned = try value.map { e throws(ScriptFault) in m.coerce(try e.eval(m), to: type) } ?? .null
        return .returned
    }
}

final class JumpStmt: Stmt {
    let flow: Flow

    init(_ location: SourceLocation, _ flow: Flow) {
        self.flow = flow
        super.init(location)
    }

    override func exec(_ m: Machine) throws(ScriptFault) -> Flow { flow }
}

/// One condition of `if`, `guard` or `while`.
enum Condition {
    case test(Expr)
    /// `let x = e`: true when `e` is not nil, binding it.
    case bind(Pattern, Expr)
    /// `case P = e`.
    case match(Pattern, Expr)

    func holds(_ m: Machine) throws(ScriptFault) -> Bool {
        switch self {
        case .test(let e): return try m.truth(e.eval(m), at: e.location)
        case .bind(let p, let e):
            let v = try e.eval(m)
            if v.isNull { return false }
            return try p.match(v, m)
        case .match(let p, let e): return try p.match(e.eval(m), m)
        }
    }
}

func allHold(_ conditions: [Condition], _ m: Machine) throws(ScriptFault) -> Bool {
    for c in conditions where !(try c.holds(m)) { return false }
    return true
}

final class IfStmt: Stmt {
    let conditions: [Condition]
    let then: [Stmt]
    let otherwise: [Stmt]

    init(_ location: SourceLocation, _ conditions: [Condition], then: [Stmt], otherwise: [Stmt]) {
        self.conditions = conditions
        self.then = then
        self.otherwise = otherwise
        super.init(location)
    }

    override func exec(_ m: Machine) throws(ScriptFault) -> Flow {
        try m.charge(at: location)
        return try execBlock(try allHold(conditions, m) ? then : otherwise, m)
    }
}

final class GuardStmt: Stmt {
    let conditions: [Condition]
    let otherwise: [Stmt]

    init(_ location: SourceLocation, _ conditions: [Condition], otherwise: [Stmt]) {
        self.conditions = conditions
        self.otherwise = otherwise
        super.init(location)
    }

    override func exec(_ m: Machine) throws(ScriptFault) -> Flow {
        try m.charge(at: location)
        if try allHold(conditions, m) { return .normal }
        let f = try execBlock(otherwise, m)
        if f == .normal { throw m.fault("guard body does not exit", at: location) }
        return f
    }
}

final class WhileStmt: Stmt {
    let conditions: [Condition]
    let body: [Stmt]
    let label: Int
    /// `repeat { } while c`: the body runs before the first test.
    let testAfter: Bool

    init(_ location: SourceLocation, _ conditions: [Condition], body: [Stmt], label: Int, testAfter: Bool) {
        self.conditions = conditions
        self.body = body
        self.label = label
        self.testAfter = testAfter
        super.init(location)
    }

    override func exec(_ m: Machine) throws(ScriptFault) -> Flow {
        var first = testAfter
        while true {
            try m.charge(at: location)
            if !first, !(try allHold(conditions, m)) { return .normal }
            first = false
            switch try execBlock(body, m) {
            case .normal: continue
            case .returned: return .returned
            case .breakLoop(let l): if l == 0 || l == label { return .normal } else { return .breakLoop(l) }
            case .continueLoop(let l): if l == 0 || l == label { continue } else { return .continueLoop(l) }
            }
        }
    }
}

final class ForStmt: Stmt {
    let pattern: Pattern
    let sequence: Expr
    let filter: Expr?
    let body: [Stmt]
    let label: Int

    init(_ location: SourceLocation, pattern: Pattern, sequence: Expr, filter: Expr?, body: [Stmt], label: Int) {
        self.pattern = pattern
        self.sequence = sequence
        self.filter = filter
        self.body = body
        self.label = label
        super.init(location)
    }

    override func exec(_ m: Machine) throws(ScriptFault) -> Flow {
        let seq = try sequence.eval(m)
        var result = Flow.normal
        try m.iterate(seq, at: sequence.location) { (v: Value) throws(ScriptFault) -> Bool in
            try m.charge(at: location)
            guard try pattern.match(v, m) else { return true }
            if let filter, !(try m.truth(filter.eval(m), at: filter.location)) { return true }
            switch try execBlock(body, m) {
            case .normal: return true
            case .returned:
                result = .returned
                return false
            case .breakLoop(let l):
                if l != 0 && l != label { result = .breakLoop(l) }
                return false
            case .continueLoop(let l):
                if l == 0 || l == label { return true }
                result = .continueLoop(l)
                return false
            }
        }
        return result
    }
}

final class SwitchStmt: Stmt {
    struct Case {
        var patterns: [(Pattern, Expr?)]
        var body: [Stmt]
    }

    let subject: Expr
    let cases: [Case]
    let label: Int

    init(_ location: SourceLocation, subject: Expr, cases: [Case], label: Int) {
        self.subject = subject
        self.cases = cases
        self.label = label
        super.init(location)
    }

    override func exec(_ m: Machine) throws(ScriptFault) -> Flow {
        try m.charge(at: location)
        let v = try subject.eval(m)
        for c in cases {
            for (p, guardExpr) in c.patterns {
                guard try p.match(v, m) else { continue }
                if let guardExpr, !(try m.truth(guardExpr.eval(m), at: guardExpr.location)) { continue }
                let f = try execBlock(c.body, m)
                if case .breakLoop(let l) = f, l == 0 || l == label { return .normal }
                return f
            }
        }
        throw m.fault("no case of the switch matched", at: location)
    }
}

/// A `do { }` block or a nested scope.
final class BlockStmt: Stmt {
    let body: [Stmt]

    init(_ location: SourceLocation, _ body: [Stmt]) {
        self.body = body
        super.init(location)
    }

    override func exec(_ m: Machine) throws(ScriptFault) -> Flow { try execBlock(body, m) }
}
