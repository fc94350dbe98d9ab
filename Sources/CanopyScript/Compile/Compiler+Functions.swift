import SwiftSyntax

/// Functions, methods, initializers and closures: signatures in pass 2, bodies in pass 3.
extension Compiler {
    /// Full Swift name from labels: `reduce(value:nextValue:)`, `max(_:_:)`.
    static func fullName(_ base: String, _ labels: [String?]) -> String {
        base + "(" + labels.map { ($0 ?? "_") + ":" }.joined() + ")"
    }

    func declareFunction(_ f: FunctionDeclSyntax, in owner: TypeInfo?, isStatic: Bool, copying via: TypeInfo? = nil) -> Function {
        var generics = Set(owner?.genericParameters ?? [])
        var constraints: [String: String] = [:]
        for g in f.genericParameterClause?.parameters ?? [] {
            generics.insert(g.name.text)
            if let c = g.inheritedType?.trimmedDescription { constraints[g.name.text] = c }
        }
        for r in f.genericWhereClause?.requirements ?? [] {
            if let c = r.requirement.as(ConformanceRequirementSyntax.self) {
                constraints[c.leftType.trimmedDescription] = c.rightType.trimmedDescription
            }
        }
        let params = f.signature.parameterClause.parameters
        let base = f.name.text
        // Operator functions take no argument labels: `static func < (a: V, b: V)` is `<(_:_:)`.
        let isOperator: Bool
        if case .identifier = f.name.tokenKind { isOperator = false } else { isOperator = true }
        let labels: [String?] = params.map { isOperator || $0.firstName.text == "_" ? nil : $0.firstName.text }
        let name = Compiler.fullName(base, labels)
        let fn = Function(name: owner.map { "\($0.name).\(name)" } ?? name, location: loc(f))
        fn.constraints = constraints
        fn.isStatic = isStatic || owner == nil
        fn.isMutating = f.modifiers.contains { $0.name.text == "mutating" }
        if fn.isMutating { mutatingNames.insert(base) }
        fn.hasSelf = owner != nil && !fn.isStatic
        setParameters(fn, params, owner: owner, generics: generics)
        if isOperator { fn.parameterLabels = fn.parameterLabels.map { _ in nil } }
        fn.returnType = f.signature.returnClause.map { resolveType($0.type, in: owner?.id, generics: generics) } ?? .void
        if f.modifiers.contains(where: { $0.name.text == "static" }) == false, owner?.kind == .protocolType, isStatic {
            fn.isStatic = true
        }
        if f.attributes.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "ViewBuilder" }) {
            fn.isBuilder = true
        }
        // `makeSharedContext() async throws` is how PreviewModifier declares it; the subset has no `throw`.
        if f.signature.effectSpecifiers?.throwsClause != nil, base != "makeSharedContext" {
            error(f, "throwing functions are not part of Canopy's Swift subset; return an optional or a result value")
        }
        guard let body = f.body else { return fn }
        let ownerID = owner?.id
        compileLater { c in
            c.copying = via
            defer { c.copying = nil }
            c.quietIfCopied(ownerID) {
                c.compileBody(fn, body.statements, selfType: ownerID, isStatic: fn.isStatic, mutating: fn.isMutating, generics: generics)
            }
        }
        return fn
    }

    /// Compiles a protocol extension's own member: when types conform, each compiles its copy (where `Self` and the
    /// requirements are known) and reports its problems there, so the protocol's own compile stays quiet.
    func quietIfCopied(_ owner: TypeID?, _ body: () -> Void) {
        guard let owner, program.types[owner].kind == .protocolType, program.types[owner].name != "View",
            program.types.contains(where: { !$0.protocolCopies.isEmpty && $0.conforms(to: program.types[owner].name) })
        else { return body() }
        let before = diagnostics.count
        body()
        diagnostics.removeSubrange(before...)
    }

    func declareInit(_ i: InitializerDeclSyntax, in owner: TypeInfo, generics: Set<String>) -> Function {
        let params = i.signature.parameterClause.parameters
        let labels: [String?] = params.map { $0.firstName.text == "_" ? nil : $0.firstName.text }
        let fn = Function(name: "\(owner.name).\(Compiler.fullName("init", labels))", location: loc(i))
        fn.hasSelf = true
        fn.isMutating = true
        setParameters(fn, params, owner: owner, generics: generics)
        fn.returnType = .void
        if i.optionalMark != nil { error(i, "failable initializers are not part of Canopy's Swift subset") }
        if let body = i.body {
            compileLater { c in
                c.compileBody(fn, body.statements, selfType: owner.id, isStatic: false, mutating: true, generics: generics)
            }
        }
        return fn
    }

    private func setParameters(
        _ fn: Function, _ params: FunctionParameterListSyntax, owner: TypeInfo?, generics: Set<String>
    ) {
        var p = 0
        if fn.hasSelf {
            fn.parameterLabels = [nil]
            fn.parameterTypes = [owner.map(selfTypeRef) ?? .unknown]
            fn.defaults = [nil]
            p = 1
        }
        for (i, param) in params.enumerated() {
            fn.parameterLabels.append(param.firstName.text == "_" ? nil : param.firstName.text)
            fn.parameterTypes.append(resolveType(param.type, in: owner?.id, generics: generics))
            if let a = param.type.as(AttributedTypeSyntax.self), a.specifiers.contains(where: { $0.trimmedDescription == "inout" }) {
                fn.inoutParameters.append(p + i)
            }
            if param.ellipsis != nil {
                if fn.variadic != nil { error(param, "only one variadic parameter is part of Canopy's Swift subset") }
                fn.variadic = p + i
                fn.parameterTypes[p + i] = .array(fn.parameterTypes[p + i])
            }
            if param.attributes.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "ViewBuilder" })
                || param.type.as(AttributedTypeSyntax.self)?.attributes.contains(where: {
                    $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "ViewBuilder"
                }) == true
            {
                fn.builderParameters.insert(p + i)
            }
            fn.defaults.append(nil)
            if let d = param.defaultValue?.value {
                let index = p + i
                fn.defaulted.insert(index)
                let type = fn.parameterTypes[index]
                compileLater(first: true) { c in
                    let ctx = c.makeContext(name: fn.name, selfType: owner?.id, isStatic: true, generics: generics)
                    fn.defaults[index] = c.withContext(ctx) { c.expr(d, expected: type.expectation) }
                }
            }
        }
        fn.parameterCount = fn.parameterLabels.count
        fn.slotCount = fn.parameterCount
    }

    /// The names of a function's parameters as seen in its body.
    private func parameterNames(_ fn: Function, _ syntax: Syntax?) -> [String] {
        var names: [String] = []
        if let f = syntax?.as(FunctionDeclSyntax.self) {
            names = f.signature.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text }
        } else if let i = syntax?.as(InitializerDeclSyntax.self) {
            names = i.signature.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text }
        }
        return names
    }

    func makeContext(name: String, selfType: TypeID?, isStatic: Bool, generics: Set<String>) -> FunctionContext {
        let fn = Function(name: name, location: .unknown)
        return FunctionContext(
            function: fn, parent: nil, selfType: selfType, isStatic: isStatic, selfMutable: false, returnType: .unknown,
            generics: generics, capturedNames: [])
    }

    func withContext<T>(_ ctx: FunctionContext, _ body: () -> T) -> T {
        let saved = context
        context = ctx
        defer { context = saved }
        return body()
    }

    /// An initializer expression that needs slots of its own runs as a function.
    func wrapInFunction(_ e: Expr, _ fn: Function) -> Expr {
        fn.body = [ReturnStmt(e.location, value: e, type: e.type)]
        fn.returnType = e.type
        return CallFunctionExpr(e.location, fn, [], e.type)
    }

    /// Compiles the body of a declared function (pass 3).
    func compileBody(
        _ fn: Function, _ body: CodeBlockItemListSyntax, selfType: TypeID?, isStatic: Bool, mutating: Bool,
        generics: Set<String>
    ) {
        let ctx = FunctionContext(
            function: fn, parent: nil, selfType: selfType, isStatic: isStatic, selfMutable: mutating,
            returnType: fn.returnType, generics: generics, capturedNames: CaptureScanner.scan(body))
        var names = parameterNames(fn, body.parent?.parent)
        if fn.hasSelf { names.insert("self", at: 0) }
        if let given = fn.bodyParameterNames { names = given }
        // Parameters occupy the first slots, in order.
        fn.slotCount = 0
        for (i, n) in names.enumerated() where i < fn.parameterCount {
            let isInout = fn.inoutParameters.contains(i)
            let l = ctx.declare(n, type: fn.parameterTypes[i], mutable: isInout || (n == "self" && mutating))
            if l.boxed { fn.boxedParameters.append(i) }
        }
        fn.slotCount = max(fn.slotCount, fn.parameterCount)
        withContext(ctx) {
            if fn.isBuilder, body.count > 1 || body.first.map(isBuilderOnly) == true, !hasExplicitReturn(body) {
                fn.body = builderStatements(body)
            } else {
                fn.body = statements(body, implicitReturn: fn.returnType != .void)
            }
        }
        if fn.returnType == .unknown, let r = fn.body.last as? ReturnStmt, let v = r.value { fn.returnType = v.type }
    }

    /// A closure expression: a function whose captured variables come from the enclosing frame.
    func closure(_ node: ClosureExprSyntax, expected: TypeRef?, builder isBuilder: Bool = false) -> Expr {
        let savedBuilder = builder
        builder = nil
        defer { builder = savedBuilder }
        let fn = Function(name: "closure at \(loc(node))", location: loc(node))
        fn.isClosure = true
        var paramTypes: [TypeRef] = []
        var result = TypeRef.unknown
        if case .function(let ps, let r)? = expected {
            paramTypes = ps
            result = r
        }
        let ctx = FunctionContext(
            function: fn, parent: context, selfType: context.selfType, isStatic: context.isStatic,
            selfMutable: false, returnType: result, generics: context.generics,
            capturedNames: CaptureScanner.scan(node.statements))
        var names: [String] = []
        var declaredTypes: [TypeRef?] = []
        if let sig = node.signature {
            if let captureList = sig.capture {
                // `[binding = $x]`, `[weak self]`: each becomes a capture holding the value at creation.
                for item in captureList.items {
                    let name = item.name.text
                    let source: Expr
                    if let initial = item.initializer?.value {
                        source = expr(initial, expected: nil)
                    } else {
                        source = self.name(name, item)
                    }
                    ctx.captureIndex[name] = ctx.captureSources.count
                    ctx.captureSources.append(.value(source))
                    ctx.captureTypes.append(source.type)
                    ctx.captureMutable.append(false)
                }
            }
            switch sig.parameterClause {
            case .simpleInput(let list)?:
                names = list.map { $0.name.text }
                declaredTypes = names.map { _ in nil }
            case .parameterClause(let clause)?:
                for p in clause.parameters {
                    names.append((p.secondName ?? p.firstName).text)
                    declaredTypes.append(p.type.map { resolveType($0, in: context.selfType, generics: context.generics) })
                }
            case nil: break
            }
            if let r = sig.returnClause { ctx.returnType = resolveType(r.type, in: context.selfType, generics: context.generics) }
        }
        if names.isEmpty, node.signature?.parameterClause == nil, node.signature?.inKeyword == nil {
            // `$0`, `$1`…: as many parameters as the expected function type has, or as the body uses (a closure
            // with `in` and no parameters, `{ [store] in … }`, takes none).
            let count = max(paramTypes.count, maxDollar(node.statements))
            for i in 0..<count { names.append("$\(i)") }
            declaredTypes = names.map { _ in nil }
        }
        for (i, n) in names.enumerated() {
            let t = declaredTypes[i] ?? (i < paramTypes.count ? paramTypes[i] : .unknown)
            // Closure parameters may be `inout` (`reduce(into:)`); all are written back, so all are assignable.
            let l = ctx.declare(n, type: t, mutable: true)
            if l.boxed { fn.boxedParameters.append(i) }
            fn.parameterTypes.append(t)
            fn.parameterLabels.append(nil)
        }
        fn.parameterCount = names.count
        fn.returnType = ctx.returnType
        withContext(ctx) {
            if isBuilder, node.statements.count > 1 || node.statements.first.map(isBuilderOnly) == true,
                !hasExplicitReturn(node.statements)
            {
                fn.body = builderStatements(node.statements)
                fn.returnType = .opaque("View")
            } else {
                fn.body = statements(node.statements, implicitReturn: true)
            }
        }
        if fn.returnType == .unknown, let r = fn.body.last as? ReturnStmt, let v = r.value { fn.returnType = v.type }
        fn.inoutParameters = Array(0..<fn.parameterCount)
        return ClosureExpr(loc(node), fn, sources: ctx.captureSources, .function(fn.parameterTypes, fn.returnType))
    }

    private func maxDollar(_ node: CodeBlockItemListSyntax) -> Int {
        let d = DollarCounter(viewMode: .sourceAccurate)
        d.walk(node)
        return d.count
    }
}

/// Counts the `$n` parameters a shorthand closure uses (not those of closures nested in it).
final class DollarCounter: SyntaxVisitor {
    var count = 0

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        let t = node.baseName.text
        if t.hasPrefix("$"), let n = Int(t.dropFirst()) { count = max(count, n + 1) }
        return .visitChildren
    }
}

extension Compiler {
    /// A single item that only a builder gives a value: an `if` or `switch` producing views.
    func isBuilderOnly(_ item: CodeBlockItemSyntax) -> Bool {
        guard case .expr(let e) = item.item else {
            if case .stmt(let s) = item.item, let e = s.as(ExpressionStmtSyntax.self) {
                return e.expression.is(IfExprSyntax.self) || e.expression.is(SwitchExprSyntax.self)
            }
            return false
        }
        return e.is(IfExprSyntax.self) || e.is(SwitchExprSyntax.self)
    }
}
