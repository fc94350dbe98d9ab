import SwiftSyntax

/// Patterns of `switch`, `if case`, `for` and destructuring declarations.
extension Compiler {
    /// A pattern that only binds names (`x`, `(a, b)`, `_`); one case per kind of pattern (see `exprInner`).
    func bindingPattern(_ p: PatternSyntax, type: TypeRef, mutable: Bool) -> Pattern {
        switch p.as(PatternSyntaxEnum.self) {
        case .identifierPattern(let id):
            let l = context.declare(id.identifier.text, type: type, mutable: mutable)
            return .bind(slot: l.slot, boxed: l.boxed)
        case .wildcardPattern: return .wildcard
        case .tuplePattern(let t):
            var types: [TypeRef] = []
            if case .tuple(let ts, _) = type { types = ts }
            return .tuple(
                t.elements.enumerated().map { i, e in
                    bindingPattern(e.pattern, type: i < types.count ? types[i] : .unknown, mutable: mutable)
                })
        case .valueBindingPattern(let v):
            return bindingPattern(v.pattern, type: type, mutable: v.bindingSpecifier.tokenKind == .keyword(.var))
        case .expressionPattern, .isTypePattern:
            error(p, "this pattern can only match in 'case' (use 'if case', 'for case' or 'switch')")
        case .missingPattern: error(p, "expected a pattern")
        }
        return .wildcard
    }

    /// A `case` pattern matched against a subject of type `subject`.
    func pattern(_ p: PatternSyntax, subject: TypeRef, binding: Bool = false) -> Pattern {
        switch p.as(PatternSyntaxEnum.self) {
        case .valueBindingPattern(let v): return pattern(v.pattern, subject: subject, binding: true)
        case .wildcardPattern: return .wildcard
        case .identifierPattern(let id):
            let l = context.declare(id.identifier.text, type: subject, mutable: false)
            return .bind(slot: l.slot, boxed: l.boxed)
        case .tuplePattern(let t):
            var types: [TypeRef] = []
            if case .tuple(let ts, _) = subject { types = ts }
            return .tuple(
                t.elements.enumerated().map { i, e in
                    pattern(e.pattern, subject: i < types.count ? types[i] : .unknown, binding: binding)
                })
        case .isTypePattern(let i): return .cast(resolveType(i.type, in: context.selfType, generics: context.generics), nil)
        case .expressionPattern(let e): return exprPattern(e.expression, subject: subject, binding: binding)
        case .missingPattern:
            error(p, "expected a pattern")
            return .wildcard
        }
    }

    private func exprPattern(_ e: ExprSyntax, subject: TypeRef, binding: Bool) -> Pattern {
        if let pe = e.as(PatternExprSyntax.self) { return pattern(pe.pattern, subject: subject, binding: binding) }
        if e.is(DiscardAssignmentExprSyntax.self) { return .wildcard }
        if binding, let d = e.as(DeclReferenceExprSyntax.self) {
            let l = context.declare(d.baseName.text, type: subject, mutable: false)
            return .bind(slot: l.slot, boxed: l.boxed)
        }
        if let o = e.as(OptionalChainingExprSyntax.self) {
            return .some(exprPattern(o.expression, subject: subject.unwrapped, binding: binding))
        }
        if let t = e.as(TupleExprSyntax.self), t.elements.count > 1 {
            var types: [TypeRef] = []
            if case .tuple(let ts, _) = subject { types = ts }
            return .tuple(
                t.elements.enumerated().map { i, el in
                    exprPattern(el.expression, subject: i < types.count ? types[i] : .unknown, binding: binding)
                })
        }
        if let i = e.as(InfixOperatorExprSyntax.self), let op = i.operator.as(BinaryOperatorExprSyntax.self)?.operator.text,
            op == "..." || op == "..<", i.leftOperand.is(StringLiteralExprSyntax.self),
            i.rightOperand.is(StringLiteralExprSyntax.self)
        {
            let lo = expr(i.leftOperand, expected: .string)
            return .stringRange(lo, expr(i.rightOperand, expected: .string), closed: op == "...")
        }
        if let a = e.as(AsExprSyntax.self), let pe = a.expression.as(PatternExprSyntax.self) {
            let t = resolveType(a.type, in: context.selfType, generics: context.generics)
            return .cast(t, pattern(pe.pattern, subject: t, binding: binding))
        }
        // `.name`, `.name(p…)`, `E.name(p…)`.
        var callee: ExprSyntax = e
        var args: LabeledExprListSyntax?
        if let call = e.as(FunctionCallExprSyntax.self) {
            callee = call.calledExpression
            args = call.arguments
        }
        if let m = callee.as(MemberAccessExprSyntax.self) {
            var enumType: TypeID?
            if let base = m.base {
                if let t = lookupType(base.trimmedDescription, from: context.selfType) { enumType = t.id }
            } else if case .named(let id) = subject.unwrapped {
                enumType = id
            }
            let caseName = m.declName.baseName.text
            let isEnum = enumType.map { program.types[$0].kind == .enumeration } ?? false
            if m.base == nil || isEnum {
                var payloadTypes: [TypeRef] = []
                if let enumType, isEnum {
                    guard let ci = program.types[enumType].caseIndex[caseName] else {
                        if caseName == "none" || caseName == "some" {
                            return .enumCase(type: nil, name: caseName, payload: args.map { a in a.map { exprPattern($0.expression, subject: subject.unwrapped, binding: binding) } })
                        }
                        error(m, "type '\(program.types[enumType].name)' has no member '\(caseName)'")
                        return .wildcard
                    }
                    payloadTypes = program.types[enumType].cases[ci].payloadTypes
                }
                let payload = args.map { list in
                    list.enumerated().map { i, a in
                        exprPattern(a.expression, subject: i < payloadTypes.count ? payloadTypes[i] : .unknown, binding: binding)
                    }
                }
                return .enumCase(type: isEnum ? enumType : nil, name: caseName, payload: payload)
            }
        }
        // A value: equality, or containment for a range.
        return .value(expr(e, expected: subject.unwrapped.expectation))
    }
}
