import SwiftSyntax

/// Operators: prefix, binary (with literal typing and user operators), assignment and compound assignment.
extension Compiler {
    // MARK: Operators

    /// `2...`: up to the collection's end, or without end where a sequence is zipped or iterated.
    func postfix(_ p: PostfixOperatorExprSyntax) -> Expr {
        guard p.operator.text == "..." else {
            return bad(p, "operator '\(p.operator.text)' is not part of Canopy's Swift subset")
        }
        let operand = expr(p.expression, expected: .int)
        if let call = stringIndexRange("__from(_:)", operand, loc(p)) { return call }
        return PartialRangeExpr(loc(p), lower: operand, upper: nil, closed: false)
    }

    func prefix(_ p: PrefixOperatorExprSyntax, expected: TypeRef?) -> Expr {
        let at = loc(p)
        let operand = expr(p.expression, expected: expected)
        switch p.operator.text {
        case "-":
            if let l = operand as? LiteralExpr {
                // `-Int.min` overflows: left to the runtime, which faults instead of trapping the host.
                if case .int(let i) = l.value, i != .min { return LiteralExpr(at, .int(-i), .int) }
                if case .double(let d) = l.value { return LiteralExpr(at, .double(-d), .double) }
            }
            return PrefixExpr(at, .negate, operand, operand.type)
        case "!": return PrefixExpr(at, .not, operand, .bool)
        case "+": return PrefixExpr(at, .plus, operand, operand.type)
        case "~": return PrefixExpr(at, .bitNot, operand, .int)
        case "&": return bad(p, "'&' is only allowed on an argument to an inout parameter")
        case "..<", "...":
            // `..<2`, `...2`: from the collection's start (0 for the subset's arrays and strings).
            if let call = stringIndexRange(p.operator.text == "..." ? "__through(_:)" : "__upTo(_:)", operand, at) {
                return call
            }
            return PartialRangeExpr(at, lower: nil, upper: operand, closed: p.operator.text == "...")
        default: return bad(p, "operator '\(p.operator.text)' is not part of Canopy's Swift subset")
        }
    }

    private func isImplicitMember(_ e: ExprSyntax) -> Bool {
        if let m = e.as(MemberAccessExprSyntax.self) { return m.base == nil }
        if let c = e.as(FunctionCallExprSyntax.self) { return isImplicitMember(c.calledExpression) }
        return e.is(NilLiteralExprSyntax.self)
    }

    func infix(_ i: InfixOperatorExprSyntax, expected: TypeRef?) -> Expr {
        let at = loc(i)
        if i.operator.is(AssignmentExprSyntax.self) { return assignment(i) }
        guard let opToken = i.operator.as(BinaryOperatorExprSyntax.self)?.operator.text else {
            return bad(i, "this operator is not part of Canopy's Swift subset")
        }
        if opToken == "&&" || opToken == "||" {
            return LogicalExpr(at, isAnd: opToken == "&&", expr(i.leftOperand, expected: .bool), expr(i.rightOperand, expected: .bool))
        }
        if opToken == "??" {
            let l = expr(i.leftOperand, expected: expected.map { .optional($0) })
            let r = expr(i.rightOperand, expected: l.type.isKnown ? l.type.unwrapped : expected)
            return NilCoalesceExpr(at, l, r, r.type.isKnown ? r.type : l.type.unwrapped)
        }
        if let op = BinaryOp.compound(opToken) { return compoundAssignment(i, op) }
        if opToken == "~=" {
            // `1...5 ~= x`: the pattern-match operator, as `case` uses it.
            let l = expr(i.leftOperand, expected: nil)
            return PatternMatchExpr(at, l, expr(i.rightOperand, expected: l.type == .range ? .int : l.type.expectation))
        }
        guard let op = BinaryOp(rawValue: opToken) else {
            return bad(i, "operator '\(opToken)' is not part of Canopy's Swift subset")
        }
        var l: Expr
        var r: Expr
        let arithmeticExpected: TypeRef? = [.add, .subtract, .multiply, .divide, .remainder].contains(op) ? expected : nil
        if isImplicitMember(i.leftOperand) && !isImplicitMember(i.rightOperand) {
            r = expr(i.rightOperand, expected: arithmeticExpected)
            l = expr(i.leftOperand, expected: r.type.expectation)
        } else {
            l = expr(i.leftOperand, expected: arithmeticExpected)
            r = expr(i.rightOperand, expected: l.type.expectation != nil && l.type != .int ? l.type.unwrapped : arithmeticExpected)
        }
        // An integer literal next to a Double is a Double (Swift types the literal from the other operand).
        if l.type == .double, let lit = r as? LiteralExpr, case .int(let n) = lit.value { r = LiteralExpr(r.location, .double(Double(n)), .double) }
        if r.type == .double, let lit = l as? LiteralExpr, case .int(let n) = lit.value { l = LiteralExpr(l.location, .double(Double(n)), .double) }
        var custom: Function?
        if case .named(let id) = l.type.unwrapped, program.types[id].kind != .enumeration || op != .equal {
            custom = program.types[id].staticMethods["\(op.rawValue)(_:_:)"]
        }
        let type: TypeRef
        switch op {
        case .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual, .identical, .notIdentical: type = .bool
        case .halfOpen, .closed:
            if let custom { type = custom.returnType } else { type = l.type == .double || r.type == .double ? .unknown : .range }
        default:
            if let custom { type = custom.returnType }
            else if l.type == .double || r.type == .double { type = .double }
            else if l.type == .int && r.type == .int { type = .int }
            else if l.type == .string && r.type == .string { type = .string }
            else if case .array = l.type { type = l.type }
            else { type = l.type.isKnown ? l.type : r.type }
        }
        if [.less, .greater, .lessEqual, .greaterEqual].contains(op), custom == nil,
            case .named(let id) = l.type.unwrapped, program.types[id].kind != .protocolType,
            program.types[id].staticMethods["<(_:_:)"] == nil
        {
            error(i, "binary operator '\(op.rawValue)' cannot be applied to operands of type '\(program.types[id].name)'; declare 'static func <' to make it Comparable")
        }
        if op == .less || op == .greater || op == .lessEqual || op == .greaterEqual {
            if case .named(let id) = l.type.unwrapped, let lt = program.types[id].staticMethods["<(_:_:)"] {
                return comparison(at, op, l, r, lt)
            }
        }
        if type == .unknown, l.type.isKnown, r.type.isKnown, l.type != r.type, custom == nil,
            !(l.type.isNumeric && r.type.isNumeric), op != .equal, op != .notEqual
        {
            error(i, "binary operator '\(op.rawValue)' cannot be applied to operands of type '\(program.name(of: l.type))' and '\(program.name(of: r.type))'")
        }
        return BinaryExpr(at, op, l, r, custom: custom, type)
    }

    /// `<`, `>`, `<=`, `>=` through a user `static func <`; operands are evaluated left to right either way.
    private func comparison(_ at: SourceLocation, _ op: BinaryOp, _ l: Expr, _ r: Expr, _ lt: Function) -> Expr {
        switch op {
        case .less: return BinaryExpr(at, op, l, r, custom: lt, .bool)
        case .greater: return BinaryExpr(at, op, l, r, custom: lt, swapped: true, .bool)
        case .lessEqual: return PrefixExpr(at, .not, BinaryExpr(at, op, l, r, custom: lt, swapped: true, .bool), .bool)
        default: return PrefixExpr(at, .not, BinaryExpr(at, op, l, r, custom: lt, .bool), .bool)
        }
    }

    private func assignment(_ i: InfixOperatorExprSyntax) -> Expr {
        let at = loc(i)
        if i.leftOperand.is(DiscardAssignmentExprSyntax.self) { return DiscardExpr(at, expr(i.rightOperand, expected: nil)) }
        if let t = i.leftOperand.as(TupleExprSyntax.self), t.elements.count > 1 {
            // `(a, b) = (b, a)`: the whole right side first, then each place in order.
            var places: [(Place?, TypeRef)] = []
            for el in t.elements {
                if el.expression.is(DiscardAssignmentExprSyntax.self) {
                    places.append((nil, .unknown))
                    continue
                }
                let target = expr(el.expression, expected: nil)
                guard let place = target.place else { return bad(el.expression, cannotAssign(target, el.expression)) }
                places.append((place, target.type))
            }
            let value = expr(i.rightOperand, expected: .tuple(places.map(\.1)))
            return TupleAssignExpr(at, places, value)
        }
        let target = expr(i.leftOperand, expected: nil)
        let value = expr(i.rightOperand, expected: target.type.expectation)
        guard let place = target.place else { return bad(i.leftOperand, cannotAssign(target, i.leftOperand)) }
        if target.type.isKnown, value.type.isKnown, !assignable(value.type, to: target.type) {
            error(i.rightOperand, "cannot assign value of type '\(program.name(of: value.type))' to type '\(program.name(of: target.type))'")
        }
        return AssignExpr(at, place, value, targetType: target.type)
    }

    private func compoundAssignment(_ i: InfixOperatorExprSyntax, _ op: BinaryOp) -> Expr {
        let target = expr(i.leftOperand, expected: nil)
        var value = expr(i.rightOperand, expected: target.type.expectation)
        if target.type == .double, let lit = value as? LiteralExpr, case .int(let n) = lit.value {
            value = LiteralExpr(value.location, .double(Double(n)), .double)
        }
        guard let place = target.place else { return bad(i.leftOperand, cannotAssign(target, i.leftOperand)) }
        var custom: Function?
        if case .named(let id) = target.type {
            custom = program.types[id].staticMethods["\(op.rawValue)(_:_:)"]
            if let f = program.types[id].staticMethods["\(op.rawValue)=(_:_:)"] {
                return CallFunctionExpr(loc(i), f, [.reference(place, target), .value(value)], .void)
            }
        }
        return CompoundAssignExpr(loc(i), place, op, value, custom: custom, targetType: target.type)
    }

    /// Whether field `i` of `info` is a `let` and the code being compiled is not one of the type's initializers.
    func isLetOutsideInit(_ info: TypeInfo, _ i: Int) -> Bool {
        info.fields[i].isLet && !context.function.name.hasPrefix(info.name + ".init(")
    }

    func cannotAssign(_ target: Expr, _ node: ExprSyntax) -> String {
        if target is ConstantExpr {
            return "cannot assign to static property '\(node.trimmedDescription)': there is no global mutable state "
                + "(the engine re-runs reduce incrementally, so it must be a pure function of its inputs)"
        }
        if let l = target as? LocalExpr, !l.mutable {
            return "cannot assign to value: '\(node.trimmedDescription)' is a 'let' constant"
        }
        if let f = target as? FieldExpr, f.readOnly {
            return "cannot assign to property: '\(f.name)' is a 'let' constant"
        }
        if target is FieldExpr || target is DynamicMemberExpr {
            return "cannot assign to property: '\(node.trimmedDescription)' is a 'let' constant or 'self' is immutable "
                + "(mark the method 'mutating')"
        }
        return "cannot assign to '\(node.trimmedDescription)'"
    }
}
