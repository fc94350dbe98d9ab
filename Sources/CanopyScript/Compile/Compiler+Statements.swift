@_spi(ExperimentalLanguageFeatures) import SwiftSyntax

/// Statements: declarations of locals, control flow, and expressions run for their effect.
extension Compiler {
    /// Compiles a block. With `implicitReturn`, a body that is a single expression returns it (`{ a + b }`).
    func statements(_ items: CodeBlockItemListSyntax, implicitReturn: Bool = false) -> [Stmt] {
        if let b = builder, let slot = b.branchSlot, b.awaitingBranch {
            // A block of a builder `if`/`switch`: it records its number, then its own statements are ordinary.
            builder!.nextBranch += 1
            builder!.awaitingBranch = false
            defer { builder!.awaitingBranch = true }
            return [SetBranchStmt(loc(items), slot: slot, branch: b.nextBranch)] + statements(items, implicitReturn: implicitReturn)
        }
        let flat = flatten(items)
        // A branch of an `if`/`switch` that is itself the value of a body (`var symbol: String { switch self {
        // case .meters: "m" … } }`, SE-0380): its single expression is the value.
        if let target = branchAssign, let e = singleExpression(flat) {
            // A branch of an `if`/`switch` that initializes a variable: its value is assigned, or it is itself an
            // `if`/`switch` whose branches are.
            if e.is(IfExprSyntax.self) || e.is(SwitchExprSyntax.self) { return statement(flat[0].item) }
            branchAssign = nil
            defer { branchAssign = target }
            let value = expr(e, expected: target.type.expectation)
            if !target.type.isKnown, value.type.isKnown, branchAssignType == nil { branchAssignType = value.type }
            return [ExprStmt(AssignExpr(value.location, target.place, value, targetType: target.type))]
        }
        let implicitReturn = implicitReturn || branchesReturn
        let saved = branchesReturn
        branchesReturn = false
        defer { branchesReturn = saved }
        let single = singleExpression(flat)
        if implicitReturn, builder == nil, let e = single, e.is(IfExprSyntax.self) || e.is(SwitchExprSyntax.self),
            context.returnType != .void
        {
            branchesReturn = true
            defer { branchesReturn = false }
            return statement(flat[0].item)
        }
        if implicitReturn, flat.count == 1, let e = flat[0].item.as(ExprSyntax.self), !isStatementLike(e) {
            let value = expr(e, expected: context.returnType.expectation)
            if context.returnType == .void { return [ExprStmt(value)] }
            if value.type == .void, context.returnType == .unknown { return [ExprStmt(value)] }
            return [ReturnStmt(value.location, value: value, type: context.returnType)]
        }
        var out: [Stmt] = []
        for item in flat { out.append(contentsOf: statement(item.item)) }
        return out
    }

    /// The expression a block consists of, when it is one expression (a statement-position `if`/`switch` included).
    private func singleExpression(_ flat: [CodeBlockItemSyntax]) -> ExprSyntax? {
        guard flat.count == 1 else { return nil }
        return flat[0].item.as(ExprSyntax.self) ?? flat[0].item.as(ExpressionStmtSyntax.self)?.expression
    }

    private func isStatementLike(_ e: ExprSyntax) -> Bool {
        if let i = e.as(InfixOperatorExprSyntax.self), i.operator.is(AssignmentExprSyntax.self) { return true }
        if let i = e.as(InfixOperatorExprSyntax.self), let op = i.operator.as(BinaryOperatorExprSyntax.self),
            BinaryOp.compound(op.operator.text) != nil
        {
            return true
        }
        return e.is(IfExprSyntax.self) || e.is(SwitchExprSyntax.self)
    }

    func scoped(_ items: CodeBlockItemListSyntax) -> [Stmt] {
        context.push()
        defer { context.pop() }
        return statements(items)
    }

    func statement(_ item: CodeBlockItemSyntax.Item) -> [Stmt] {
        switch item {
        case .decl(let d): return declaration(d)
        case .stmt(let s): return statement(s, label: 0)
        case .expr(let e): return [expressionStatement(e)]
        }
    }

    private func expressionStatement(_ e: ExprSyntax) -> Stmt {
        if let b = builder, !b.awaitingBranch {
            if let i = e.as(IfExprSyntax.self) { return builderConditional(loc(i)) { ifStatement(i) } }
            if let s = e.as(SwitchExprSyntax.self) { return builderConditional(loc(s)) { switchStatement(s, label: 0) } }
            if !isStatementLike(e) {
                let view = viewOperand(e)
                if isNeverAView(view.type) {
                    error(e, "a value of type '\(program.name(of: view.type))' is not a view; a @ViewBuilder block lists views")
                }
                return BuilderAppendStmt(slot: b.accumulator, view)
            }
        }
        if let i = e.as(IfExprSyntax.self) { return ifStatement(i) }
        if let s = e.as(SwitchExprSyntax.self) { return switchStatement(s, label: 0) }
        return ExprStmt(expr(e, expected: nil))
    }

    /// A declaration in a body; one case per kind of declaration swift-syntax has (see `exprInner`).
    private func declaration(_ d: DeclSyntax) -> [Stmt] {
        switch d.as(DeclSyntaxEnum.self) {
        case .variableDecl(let v): return variable(v)
        case .functionDecl(let f): return nestedFunction(f)
        // A type declared in a body (`#Preview { struct Wrapper: View { … }; return Wrapper() }`) was declared
        // with the program's types: it captures nothing, so only its name's scope differs.
        case .structDecl, .enumDecl, .classDecl: return []
        case .protocolDecl, .extensionDecl, .actorDecl, .importDecl, .operatorDecl, .precedenceGroupDecl, .macroDecl,
            .usingDecl:
            error(d, "this declaration is only allowed at the top level")
        case .typeAliasDecl:
            error(d, "a local 'typealias' is not part of Canopy's Swift subset; declare it at the top level")
        case .initializerDecl, .deinitializerDecl, .subscriptDecl, .enumCaseDecl, .associatedTypeDecl, .accessorDecl:
            error(d, "this declaration is only allowed inside a type")
        case .macroExpansionDecl: error(d, "macros are not part of Canopy's Swift subset")
        case .ifConfigDecl, .poundSourceLocation: error(d, "compiler directives ('#if', '#sourceLocation') are not part of Canopy's Swift subset")
        case .editorPlaceholderDecl: error(d, "an editor placeholder is left in the code; write the declaration")
        case .missingDecl, .unexpectedCodeDecl: error(d, "expected a declaration")
        }
        return []
    }

    private func variable(_ v: VariableDeclSyntax) -> [Stmt] {
        let mutable = v.bindingSpecifier.tokenKind == .keyword(.var)
        var out: [Stmt] = []
        for b in v.bindings {
            var type = TypeRef.unknown
            if let t = b.typeAnnotation?.type { type = resolveType(t, in: context.selfType, generics: context.generics) }
            if b.accessorBlock != nil {
                error(b, "local computed variables are not part of Canopy's Swift subset")
                continue
            }
            if let id = b.pattern.as(IdentifierPatternSyntax.self), let value = b.initializer?.value,
                value.is(IfExprSyntax.self) || value.is(SwitchExprSyntax.self)
            {
                // `let color = switch status { case .ok: "green" … }` (SE-0380): each branch assigns its value.
                let l = context.declare(id.identifier.text, type: type, mutable: true)
                branchAssign = (LocalPlace(slot: l.slot, boxed: l.boxed), type)
                branchAssignType = nil
                defer { branchAssign = nil }
                let declare = DeclareStmt(loc(b), slot: l.slot, boxed: l.boxed, initial: nil, type: type)
                let body = value.as(IfExprSyntax.self).map { ifStatement($0) }
                    ?? switchStatement(value.as(SwitchExprSyntax.self)!, label: 0)
                if !type.isKnown, let t = branchAssignType { context.refine(id.identifier.text, type: t) }
                out += [declare, body]
                continue
            }
            let initial = b.initializer.map { expr($0.value, expected: type.expectation) }
            if let initial, !type.isKnown { type = initial.type }
            if let initial, type.isKnown, initial.type.isKnown, !assignable(initial.type, to: type) {
                error(b.initializer!.value, "cannot convert value of type '\(program.name(of: initial.type))' to specified type '\(program.name(of: type))'")
            }
            if let id = b.pattern.as(IdentifierPatternSyntax.self) {
                // Declared after its initializer: `let nextValue = nextValue()` reads the parameter.
                let l = context.declare(id.identifier.text, type: type, mutable: mutable || initial == nil)
                out.append(DeclareStmt(loc(b), slot: l.slot, boxed: l.boxed, initial: initial, type: type))
            } else if let initial {
                let p = bindingPattern(b.pattern, type: initial.type, mutable: mutable)
                out.append(DestructureStmt(loc(b), pattern: p, initial: initial))
            } else {
                error(b.pattern, "this declaration needs an initial value")
            }
        }
        return out
    }

    /// Whether a value of static type `from` may be stored where `to` is expected (known types only).
    func assignable(_ from: TypeRef, to: TypeRef) -> Bool {
        if from == to || !from.isKnown || !to.isKnown { return true }
        switch (from, to) {
        case (.int, .double): return true
        case (.optional(let a), .optional(let b)): return assignable(a, to: b)
        case (_, .optional(let w)): return assignable(from, to: w)
        case (.array(let a), .array(let b)): return assignable(a, to: b)
        case (.dictionary(let k1, let v1), .dictionary(let k2, let v2)): return assignable(k1, to: k2) && assignable(v1, to: v2)
        case (.set(let a), .set(let b)): return assignable(a, to: b)
        case (.named(let a), .named(let b)):
            let target = program.types[b]
            if program.isSubclass(a, of: b) { return true }
            return target.kind == .protocolType && program.types[a].conforms(to: target.name)
        case (.function, .function), (.tuple, .tuple): return true
        default: return false
        }
    }

    /// A nested `func`: a closure in a boxed local, so it can call itself.
    private func nestedFunction(_ f: FunctionDeclSyntax) -> [Stmt] {
        let name = f.name.text
        let l = context.declare(name, type: .unknown, mutable: false)
        let fn = Function(name: name, location: loc(f))
        context.setFunction(name, fn)
        fn.isClosure = true
        let ctx = FunctionContext(
            function: fn, parent: context, selfType: context.selfType, isStatic: context.isStatic, selfMutable: false,
            returnType: f.signature.returnClause.map { resolveType($0.type, in: context.selfType, generics: context.generics) }
                ?? .void,
            generics: context.generics, capturedNames: f.body.map { CaptureScanner.scan($0) } ?? [])
        for p in f.signature.parameterClause.parameters {
            let t = resolveType(p.type, in: context.selfType, generics: context.generics)
            let pl = ctx.declare((p.secondName ?? p.firstName).text, type: t, mutable: true)
            if pl.boxed { fn.boxedParameters.append(fn.parameterTypes.count) }
            // A default is evaluated where the call is, from what the enclosing body sees.
            fn.defaults.append(p.defaultValue.map { expr($0.value, expected: t.expectation) })
            if p.defaultValue != nil { fn.defaulted.insert(fn.parameterTypes.count) }
            if p.ellipsis != nil { error(p, "variadic parameters of nested functions are not part of Canopy's Swift subset") }
            fn.parameterTypes.append(t)
            fn.parameterLabels.append(p.firstName.text == "_" ? nil : p.firstName.text)
        }
        fn.parameterCount = fn.parameterTypes.count
        fn.returnType = ctx.returnType
        fn.inoutParameters = Array(0..<fn.parameterCount)
        if let body = f.body {
            withContext(ctx) { fn.body = statements(body.statements, implicitReturn: fn.returnType != .void) }
        }
        let type = TypeRef.function(fn.parameterTypes, fn.returnType)
        context.refine(name, type: type)
        let make = ClosureExpr(loc(f), fn, sources: ctx.captureSources, type)
        // The box first, then the closure that captures it: a nested function can call itself.
        return [
            DeclareStmt(loc(f), slot: l.slot, boxed: true, initial: LiteralExpr(loc(f), .null, .unknown), type: .unknown),
            ExprStmt(AssignExpr(loc(f), LocalPlace(slot: l.slot, boxed: true), make, targetType: .unknown)),
        ]
    }

    /// One case per kind of statement swift-syntax has (see `exprInner`).
    private func statement(_ s: StmtSyntax, label: Int) -> [Stmt] {
        switch s.as(StmtSyntaxEnum.self) {
        case .expressionStmt(let e):
            // An `if`/`switch` statement in a builder block is an `If` view, as in expression position.
            if builder.map({ !$0.awaitingBranch }) == true { return [expressionStatement(e.expression)] }
            if let i = e.expression.as(IfExprSyntax.self) { return [ifStatement(i)] }
            if let sw = e.expression.as(SwitchExprSyntax.self) { return [switchStatement(sw, label: label)] }
            return [ExprStmt(expr(e.expression, expected: nil))]
        case .returnStmt(let r): return [returnStatement(r)]
        case .guardStmt(let g):
            let body = scoped(g.body.statements)
            // Names bound by the guard's conditions stay in scope after it.
            let conds = conditions(g.conditions)
            return [GuardStmt(loc(g), conds, otherwise: body)]
        case .forStmt(let f): return [forStatement(f, label: label)]
        case .whileStmt(let w):
            context.push()
            defer { context.pop() }
            let conds = conditions(w.conditions)
            return [WhileStmt(loc(w), conds, body: scoped(w.body.statements), label: label, testAfter: false)]
        case .repeatStmt(let r):
            let body = scoped(r.body.statements)
            let c = expr(r.condition, expected: .bool)
            return [WhileStmt(loc(r), [.test(c)], body: body, label: label, testAfter: true)]
        case .breakStmt(let b): return [JumpStmt(loc(b), .breakLoop(labelID(b.label?.text)))]
        case .continueStmt(let c): return [JumpStmt(loc(c), .continueLoop(labelID(c.label?.text)))]
        case .labeledStmt(let l): return statement(l.statement, label: labelID(l.label.text))
        case .doStmt(let d):
            if !d.catchClauses.isEmpty { error(d, "'do'/'catch' is not part of Canopy's Swift subset (nothing throws)") }
            return [BlockStmt(loc(d), scoped(d.body.statements))]
        case .deferStmt: error(s, "'defer' is not part of Canopy's Swift subset")
        case .throwStmt: error(s, "'throw' is not part of Canopy's Swift subset; use fatalError or return a value")
        case .fallThroughStmt: error(s, "'fallthrough' is not part of Canopy's Swift subset; list the patterns in one case")
        case .yieldStmt: error(s, "'yield' (coroutine accessors) is not part of Canopy's Swift subset")
        case .discardStmt: error(s, "'discard self' is not part of Canopy's Swift subset")
        case .thenStmt: error(s, "'then' statements are not part of Canopy's Swift subset")
        case .missingStmt: error(s, "expected a statement")
        }
        return []
    }

    private func returnStatement(_ r: ReturnStmtSyntax) -> Stmt {
        let rt = context.returnType
        let value = r.expression.map { expr($0, expected: rt.expectation) }
        if let value, rt.isKnown, value.type.isKnown, !assignable(value.type, to: rt) {
            error(r.expression!, "cannot convert return expression of type '\(program.name(of: value.type))' to return type '\(program.name(of: rt))'")
        }
        return ReturnStmt(loc(r), value: value, type: rt)
    }

    private func forStatement(_ f: ForStmtSyntax, label: Int) -> Stmt {
        if f.awaitKeyword != nil || f.tryKeyword != nil { error(f, "'for await' is not part of Canopy's Swift subset") }
        let seq = expr(f.sequence, expected: nil)
        context.push()
        defer { context.pop() }
        // `for case let .some(v) in xs`, `for case nil in xs`: elements that do not match are skipped.
        let p = f.caseKeyword != nil
            ? pattern(f.pattern, subject: elementType(seq.type))
            : bindingPattern(f.pattern, type: elementType(seq.type), mutable: false)
        let filter = f.whereClause.map { expr($0.condition, expected: .bool) }
        let body = scoped(f.body.statements)
        return ForStmt(loc(f), pattern: p, sequence: seq, filter: filter, body: body, label: label)
    }

    private func labelID(_ name: String?) -> Int {
        guard let name else { return 0 }
        if let id = labels[name] { return id }
        let id = labels.count + 1
        labels[name] = id
        return id
    }

    func ifStatement(_ i: IfExprSyntax) -> Stmt {
        context.push()
        let conds = conditions(i.conditions)
        let then = scoped(i.body.statements)
        context.pop()
        var otherwise: [Stmt] = []
        switch i.elseBody {
        case .ifExpr(let e)?: otherwise = [ifStatement(e)]
        case .codeBlock(let b)?: otherwise = scoped(b.statements)
        case nil: break
        }
        return IfStmt(loc(i), conds, then: then, otherwise: otherwise)
    }

    func conditions(_ list: ConditionElementListSyntax) -> [Condition] {
        var out: [Condition] = []
        for c in list {
            switch c.condition {
            case .expression(let e):
                let x = expr(e, expected: .bool)
                if x.type.isKnown && x.type != .bool {
                    error(e, "type '\(program.name(of: x.type))' cannot be used as a boolean; test for '!= nil' instead")
                }
                out.append(.test(x))
            case .optionalBinding(let b):
                // `if let x` is `if let x = x`.
                let source: Expr
                if let initial = b.initializer?.value {
                    source = expr(initial, expected: nil)
                } else if let id = b.pattern.as(IdentifierPatternSyntax.self) {
                    source = name(id.identifier.text, b.pattern)
                } else {
                    error(b, "this binding needs a value")
                    continue
                }
                var type = source.type.unwrapped
                if let t = b.typeAnnotation?.type { type = resolveType(t, in: context.selfType, generics: context.generics) }
                let p = bindingPattern(b.pattern, type: type, mutable: b.bindingSpecifier.tokenKind == .keyword(.var))
                out.append(.bind(p, source))
            case .matchingPattern(let m):
                let subject = expr(m.initializer.value, expected: nil)
                out.append(.match(pattern(m.pattern, subject: subject.type), subject))
            case .availability:
                continue
            }
        }
        return out
    }

    func switchStatement(_ s: SwitchExprSyntax, label: Int) -> Stmt {
        let subject = expr(s.subject, expected: nil)
        var cases: [SwitchStmt.Case] = []
        var hasDefault = false
        for c in s.cases {
            guard let sc = c.as(SwitchCaseSyntax.self) else {
                error(c, "'#if' inside a switch is not part of Canopy's Swift subset")
                continue
            }
            context.push()
            var patterns: [(Pattern, Expr?)] = []
            switch sc.label {
            case .default:
                hasDefault = true
                patterns = [(.wildcard, nil)]
            case .case(let l):
                for item in l.caseItems {
                    let p = pattern(item.pattern, subject: subject.type)
                    patterns.append((p, item.whereClause.map { expr($0.condition, expected: .bool) }))
                }
            }
            let body = statements(sc.statements)
            context.pop()
            cases.append(SwitchStmt.Case(patterns: patterns, body: body))
        }
        if !hasDefault, case .named(let id) = subject.type.unwrapped, program.types[id].kind == .enumeration,
            !subject.type.isOptional
        {
            var covered = Set<String>()
            for c in cases {
                for (p, g) in c.patterns where g == nil {
                    if case .enumCase(_, let n, _) = p { covered.insert(n) }
                    if case .wildcard = p { covered = Set(program.types[id].cases.map(\.name)) }
                    if case .bind = p { covered = Set(program.types[id].cases.map(\.name)) }
                }
            }
            let missing = program.types[id].cases.map(\.name).filter { !covered.contains($0) }
            if !missing.isEmpty {
                error(s, "switch must be exhaustive: add cases for " + missing.map { ".\($0)" }.joined(separator: ", ") + " or a default")
            }
        }
        return SwitchStmt(loc(s), subject: subject, cases: cases, label: label)
    }

    /// The element type of a sequence type.
    func elementType(_ t: TypeRef) -> TypeRef {
        switch t {
        case .array(let e), .set(let e), .slice(let e): return e
        case .range: return .int
        case .dictionary(let k, let v): return .tuple([k, v], labels: ["key", "value"])
        case .string: return .string
        default: return .unknown
        }
    }
}
