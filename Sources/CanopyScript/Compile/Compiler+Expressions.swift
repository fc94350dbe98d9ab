@_spi(ExperimentalLanguageFeatures) import SwiftSyntax

/// Expressions: literals, names, members, operators. Calls are in Compiler+Calls.swift.
extension Compiler {
    /// Compiles an expression; `expected` is the type the context wants (literals and implicit members use it).
    func expr(_ e: ExprSyntax, expected: TypeRef?) -> Expr {
        let before = openChains
        var result = exprInner(e, expected: expected)
        if openChains > before && !isChainContinuation(e) {
            result = ChainExpr(result.location, body: result)
            openChains = before
        }
        return result
    }

    private func isChainContinuation(_ e: ExprSyntax) -> Bool {
        guard let p = e.parent else { return false }
        if let m = p.as(MemberAccessExprSyntax.self), m.base?.id == e.id { return true }
        if let c = p.as(FunctionCallExprSyntax.self), c.calledExpression.id == e.id { return true }
        if let s = p.as(SubscriptCallExprSyntax.self), s.calledExpression.id == e.id { return true }
        return p.is(ForceUnwrapExprSyntax.self) || p.is(OptionalChainingExprSyntax.self)
    }

    /// One case per kind of expression swift-syntax has, so a kind this subset does not handle is a decision the
    /// compiler asks for, never a fall-through.
    private func exprInner(_ e: ExprSyntax, expected: TypeRef?) -> Expr {
        let at = loc(e)
        switch e.as(ExprSyntaxEnum.self) {
        case .integerLiteralExpr(let i): return integerLiteral(i, expected: expected)
        case .floatLiteralExpr(let f):
            guard let d = Double(f.literal.text.replacingAll("_", with: "")) else { return bad(e, "bad number") }
            return LiteralExpr(at, .double(d), .double)
        case .booleanLiteralExpr(let b): return LiteralExpr(at, .bool(b.literal.text == "true"), .bool)
        case .nilLiteralExpr: return LiteralExpr(at, .null, expected ?? .optional(.unknown))
        case .stringLiteralExpr(let s): return stringLiteral(s)
        case .declReferenceExpr(let d): return name(d.baseName.text, d)
        case .memberAccessExpr(let m): return memberAccess(m, expected: expected)
        case .functionCallExpr(let c): return call(c, expected: expected)
        case .subscriptCallExpr(let s): return subscriptExpr(s)
        case .infixOperatorExpr(let i): return infix(i, expected: expected)
        case .prefixOperatorExpr(let p): return prefix(p, expected: expected)
        case .postfixOperatorExpr(let p): return postfix(p)
        case .forceUnwrapExpr(let f): return ForceUnwrapExpr(at, base: expr(f.expression, expected: nil))
        case .optionalChainingExpr(let o):
            let base = expr(o.expression, expected: nil)
            openChains += 1
            return ChainBindExpr(at, base: base)
        case .ternaryExpr(let t):
            let c = expr(t.condition, expected: .bool)
            let a = expr(t.thenExpression, expected: expected)
            let b = expr(t.elseExpression, expected: expected ?? (a.type.expectation))
            return TernaryExpr(at, c, a, b, a.type == b.type ? a.type : (expected ?? .unknown))
        case .tupleExpr(let t): return tupleLiteral(t, expected: expected)
        case .arrayExpr(let a): return arrayLiteral(a, expected: expected)
        case .dictionaryExpr(let d): return dictionaryLiteral(d, expected: expected)
        case .closureExpr(let c): return closure(c, expected: expected)
        case .tryExpr(let t): return expr(t.expression, expected: expected)
        case .awaitExpr(let a): return expr(a.expression, expected: expected)
        case .asExpr(let a): return cast(a)
        case .isExpr(let i):
            let target = resolveType(i.type, in: context.selfType, generics: context.generics)
            return CastExpr(at, base: expr(i.expression, expected: nil), target: target, mode: .check)
        case .keyPathExpr(let k): return keyPath(k, expected: expected)
        case .inOutExpr: return bad(e, "'&' is only allowed on an argument to an inout parameter")
        case .discardAssignmentExpr: return bad(e, "'_' can only appear on the left of '='")
        case .ifExpr, .switchExpr:
            return bad(e, "'if' and 'switch' expressions are part of Canopy's Swift subset only as a whole body, a 'return' value or a variable's initializer; use a statement here")
        case .genericSpecializationExpr: return bad(e, "a generic type needs '()' to be used as a value")
        case .macroExpansionExpr: return bad(e, "macros are not part of Canopy's Swift subset")
        case .typeExpr: return bad(e, "a type is not a value here; use '.self'")
        case .superExpr: return bad(e, "'super' can only be used to call a superclass's member ('super.name')")
        case .regexLiteralExpr: return bad(e, "regex literals are not part of Canopy's Swift subset; use String methods")
        case .borrowExpr, .consumeExpr, .copyExpr:
            return bad(e, "ownership operators ('borrow', 'consume', 'copy') are not part of Canopy's Swift subset; use the value itself")
        case .packElementExpr, .packExpansionExpr: return bad(e, "parameter packs are not part of Canopy's Swift subset")
        case .unsafeExpr(let u): return expr(u.expression, expected: expected)
        case .doExpr: return bad(e, "'do' expressions are not part of Canopy's Swift subset; use a statement")
        case .editorPlaceholderExpr: return bad(e, "an editor placeholder is left in the code; write the expression")
        case .missingExpr: return bad(e, "expected an expression")
        case .postfixIfConfigExpr: return bad(e, "'#if' is not part of Canopy's Swift subset")
        case .simpleStringLiteralExpr, ._canImportExpr, ._canImportVersionInfo, .patternExpr:
            return bad(e, "this expression is not part of Canopy's Swift subset here")
        case .sequenceExpr, .arrowExpr, .assignmentExpr, .binaryOperatorExpr, .unresolvedAsExpr, .unresolvedIsExpr,
            .unresolvedTernaryExpr:
            // Operators are folded (SwiftOperators) before compiling: these stand only in unfolded sequences.
            return bad(e, "this operator expression could not be folded; check its operators")
        }
    }

    private func integerLiteral(_ i: IntegerLiteralExprSyntax, expected: TypeRef?) -> Expr {
        let at = loc(i)
        let text = i.literal.text.replacingAll("_", with: "")
        var n: Int?
        if text.hasPrefix("0x") { n = Int(text.dropFirst(2), radix: 16) }
        else if text.hasPrefix("0b") { n = Int(text.dropFirst(2), radix: 2) }
        else if text.hasPrefix("0o") { n = Int(text.dropFirst(2), radix: 8) }
        else { n = Int(text) }
        guard let n else { return bad(i, "integer literal '\(text)' overflows Int") }
        if expected?.unwrapped == .double { return LiteralExpr(at, .double(Double(n)), .double) }
        return LiteralExpr(at, .int(n), .int)
    }

    private func tupleLiteral(_ t: TupleExprSyntax, expected: TypeRef?) -> Expr {
        if t.elements.count == 1, t.elements.first!.label == nil { return expr(t.elements.first!.expression, expected: expected) }
        // `()` is Void's one value (what a function without a result returns).
        if t.elements.isEmpty { return LiteralExpr(loc(t), .null, .void) }
        var types: [TypeRef] = []
        var labels: [String?] = []
        if case .tuple(let ts, let ls)? = expected {
            types = ts
            labels = ls
        }
        let items = t.elements.enumerated().map { i, el in
            expr(el.expression, expected: i < types.count ? types[i] : nil)
        }
        let written = t.elements.map { $0.label?.text }
        if written.contains(where: { $0 != nil }) { labels = written }
        return TupleExpr(loc(t), items, .tuple(items.map(\.type), labels: labels))
    }

    private func arrayLiteral(_ a: ArrayExprSyntax, expected: TypeRef?) -> Expr {
        let at = loc(a)
        if case .set(let el)? = expected?.unwrapped, let make = Library.shared.typeFunctions["Set"]?["init(_:)"] {
            // `let s: Set = [3, 1, 2]`, `let s: Set<String> = []`: an array literal typed as a set.
            let items = a.elements.map { expr($0.expression, expected: el.expectation) }
            let t = el.isKnown ? el : items.first?.type ?? .unknown
            return CallNativeExpr(at, make, [.value(ArrayLiteralExpr(at, items, .array(t)))], .set(t))
        }
        var element: TypeRef?
        if case .array(let el)? = expected?.unwrapped { element = el }
        // `[Priority.high, .low]`: later elements take the first one's type.
        var items: [Expr] = []
        for el in a.elements { items.append(expr(el.expression, expected: element ?? items.first?.type.expectation)) }
        let t = element ?? items.first?.type ?? .unknown
        return ArrayLiteralExpr(at, items, .array(items.contains { $0.type == .double } && t == .int ? .double : t))
    }

    private func dictionaryLiteral(_ d: DictionaryExprSyntax, expected: TypeRef?) -> Expr {
        var kt: TypeRef?
        var vt: TypeRef?
        if case .dictionary(let k, let v)? = expected?.unwrapped {
            kt = k
            vt = v
        }
        var pairs: [(Expr, Expr)] = []
        if case .elements(let list) = d.content {
            for el in list { pairs.append((expr(el.key, expected: kt), expr(el.value, expected: vt))) }
        }
        return DictionaryLiteralExpr(
            loc(d), pairs, .dictionary(kt ?? pairs.first?.0.type ?? .unknown, vt ?? pairs.first?.1.type ?? .unknown))
    }

    private func cast(_ a: AsExprSyntax) -> Expr {
        let target = resolveType(a.type, in: context.selfType, generics: context.generics)
        let base = expr(a.expression, expected: target.expectation)
        // `x as Any`: the value keeps what it is (an optional in `Any` still prints as `Optional(…)`).
        if a.questionOrExclamationMark == nil, ["Any", "AnyObject"].contains(a.type.trimmedDescription) { return base }
        let mode: CastExpr.Mode
        switch a.questionOrExclamationMark?.text {
        case "?": mode = .optional
        case "!": mode = .forced
        default: mode = .plain
        }
        return CastExpr(loc(a), base: base, target: target, mode: mode)
    }

    // MARK: Names

    /// A stored property: through its storage when it is wrapped (`@State`, `@Binding`, `@Environment`).
    /// `_draft` / `self._text`: a wrapped property's storage, which an `init` sets (`_draft = State(initialValue: v)`,
    /// `self._text = text` with a `Binding`) before the view instance holds it.
    func wrapperStorage(_ info: TypeInfo, _ n: String, base: () -> Expr?, at: SourceLocation) -> Expr? {
        guard n.hasPrefix("_"), let fi = info.fieldIndex[String(n.dropFirst())], let wrapper = info.fields[fi].wrapper,
            wrapper == "State" || wrapper == "Binding", let b = base()
        else { return nil }
        return FieldExpr(at, base: b, index: fi, name: n, readOnly: false, .opaque(wrapper))
    }

    func fieldAccess(_ at: SourceLocation, base: Expr, _ info: TypeInfo, _ fi: Int) -> Expr {
        let f = info.fields[fi]
        if f.wrapper != nil {
            let t: TypeRef = f.wrapper == "Environment" ? (environmentType(f.environmentKey ?? "") ?? .unknown) : f.type
            return WrappedFieldExpr(at, base: base, index: fi, name: f.name, t)
        }
        let field = FieldExpr(at, base: base, index: fi, name: f.name, readOnly: isLetOutsideInit(info, fi), f.type)
        field.onObject = info.isClass
        // Observers run on assignments outside the type's initializers and outside the observers themselves.
        let inInit = context.function.name.hasPrefix(info.name + ".init(")
        let inObserver = context.function.name.hasPrefix("\(info.name).\(f.name).")
        if info.willSet[f.name] != nil || info.didSet[f.name] != nil, !inInit, !inObserver {
            field.observed = (info.willSet[f.name], info.didSet[f.name])
        }
        return field
    }

    /// A variable, a member of `self`, a constant, a function or a type, by name.
    func name(_ n: String, _ node: some SyntaxProtocol) -> Expr {
        let at = loc(node)
        if let v = variable(n, at) { return v }
        if n.hasPrefix("$"), let sid = context.selfType, !context.isStatic,
            let fi = program.types[sid].fieldIndex[String(n.dropFirst())], let me = variable("self", at)
        {
            let f = program.types[sid].fields[fi]
            guard f.wrapper == "State" || f.wrapper == "Binding" else {
                return bad(node, "'\(f.name)' is not a @State or @Binding property, so it has no binding '\(n)'")
            }
            return ProjectedFieldExpr(at, base: me, index: fi, name: f.name)
        }
        if let sid = context.selfType {
            var scope: TypeID? = sid
            var first = true
            while let s = scope {
                let info = program.types[s]
                if first && !context.isStatic {
                    if let fi = info.fieldIndex[n], let me = variable("self", at) {
                        return fieldAccess(at, base: me, info, fi)
                    }
                    if let storage = wrapperStorage(info, n, base: { self.variable("self", at) }, at: at) { return storage }
                    if let getter = info.methods[n], getter.parameterCount == 1, let me = variable("self", at) {
                        let call = MethodCallExpr(
                            at, receiver: me, place: nil, name: n, fullName: n, args: [], natives: NativeSite(),
                            getter.returnType)
                        // Inside a protocol extension's copy, its own non-requirement properties are bound statically.
                        if let via = copying, staticallyBound(n, in: via) != nil { call.viaProtocol = via.name }
                        call.throughProtocol = call.viaProtocol == nil && (copying != nil || reachesWitness(me.type, n))
                        if info.setters[n] != nil { return ComputedPropertyExpr(at, base: me, name: n, getter: call) }
                        return call
                    }
                    // `bump` inside a method, passed as a function (`onTap: bump`): the method bound to `self`.
                    let named = info.methods.filter { $0.key.hasPrefix(n + "(") }
                    if named.count == 1, let f = named.first?.value, !f.isMutating, let me = variable("self", at) {
                        return BoundMethodExpr(at, base: me, f, .function(Array(f.parameterTypes.dropFirst()), f.returnType))
                    }
                    // `rawValue` inside an enum with raw values: implicit `self.rawValue`.
                    if n == "rawValue", info.kind == .enumeration, info.rawType != nil, let me = variable("self", at) {
                        return instanceMember(me, n, node, at: at)
                    }
                    // `count` in `extension Array`: a library property of self.
                    if info.kind == .builtin, !Library.shared.site(n, labels: [], trailing: 0, property: true).isEmpty,
                        let me = variable("self", at)
                    {
                        return instanceMember(me, n, node, at: at)
                    }
                }
                if let via = copying, staticallyBound(n, in: via) != nil, let ci = via.staticConstants[n] {
                    // A protocol extension's own static property, named inside that extension: bound statically.
                    return ConstantExpr(at, program.cells[ci], via.staticTypes[n] ?? .unknown)
                }
                if let ci = info.staticConstants[n] {
                    return ConstantExpr(at, program.cells[ci], info.staticTypes[n] ?? .unknown)
                }
                first = false
                scope = info.parent
            }
        }
        if let g = globals[n] { return ConstantExpr(at, g.cell, g.type) }
        if let i = globalVariables[n] {
            if context.function.name.hasSuffix(".reduce(value:nextValue:)") {
                return bad(node, "a PreferenceKey's reduce cannot use the top-level var '\(n)': it must be a pure function of its inputs")
            }
            return GlobalVariableExpr(at, index: i, program.globalVariables[i].type)
        }
        if let fn = program.functions.filter({ $0.key.hasPrefix(n + "(") }).min(by: { $0.key < $1.key })?.value {
            return FunctionValueExpr(at, fn, .function(fn.parameterTypes, fn.returnType))
        }
        if let native = Library.shared.functions[n + "(_:_:)"] ?? Library.shared.functions[n + "(_:)"]
            ?? Library.shared.functions.filter({ $0.key.hasPrefix(n + "(") }).min(by: { $0.key < $1.key })?.value
        {
            return FunctionValueExpr(at, native, .unknown)
        }
        if let t = lookupType(n, from: context.selfType) { return LiteralExpr(at, .metatype(.named(t.id)), .metatype(.named(t.id))) }
        // An operator as a function value: `combine(a, b, using: +)`, `reduce(0, +)`.
        if let op = BinaryOp(rawValue: n), op != .halfOpen, op != .closed {
            // `-` alone is also prefix minus (`nums.map(-)`); which one the call's arguments decide.
            let f = NativeFunction("\(n)(_:_:)", arity: op == .subtract ? nil : 2) { m, args throws(ScriptFault) in
                if op == .subtract, args.count == 1, !args[0].isTuple { return try m.binary(op, .int(0), args[0], at: m.site) }
                if args.count == 1, case .tuple(let parts) = args[0].unboxed, parts.count == 2 {
                    return try m.binary(op, parts[0], parts[1], at: m.site)
                }
                guard args.count == 2 else { throw m.fault("operator '\(n)' takes 2 arguments, got \(args.count)") }
                return try m.binary(op, args[0], args[1], at: m.site)
            }
            return FunctionValueExpr(at, f, .unknown)
        }
        return bad(node, "cannot find '\(n)' in scope")
    }

    /// A local, parameter or captured variable of the function being compiled.
    func variable(_ n: String, _ at: SourceLocation) -> Expr? {
        if let l = context.lookupLocal(n) {
            return LocalExpr(at, slot: l.slot, boxed: l.boxed, mutable: l.mutable, l.type)
        }
        guard let (index, type, mutable) = capture(n, in: context) else { return nil }
        return CaptureExpr(at, index: index, mutable: mutable, type)
    }

    /// Finds `n` in an enclosing function and threads it through every closure in between as a capture.
    private func capture(_ n: String, in ctx: FunctionContext) -> (Int, TypeRef, Bool)? {
        if let i = ctx.captureIndex[n] { return (i, ctx.captureTypes[i], ctx.captureMutable[i]) }
        guard let parent = ctx.parent else { return nil }
        let source: CaptureSource
        let type: TypeRef
        let mutable: Bool
        if let l = parent.lookupLocal(n) {
            guard l.boxed else { return nil }
            source = .local(l.slot)
            type = l.type
            mutable = l.mutable
        } else if let (i, t, m) = capture(n, in: parent) {
            source = .capture(i)
            type = t
            mutable = m
        } else {
            return nil
        }
        let i = ctx.captureSources.count
        ctx.captureIndex[n] = i
        ctx.captureSources.append(source)
        ctx.captureTypes.append(type)
        ctx.captureMutable.append(mutable)
        return (i, type, mutable)
    }

    // MARK: Members

    /// What a type written in an expression names: a program type, a library type, or SwiftUI surface.
    enum TypeTarget {
        case program(TypeInfo)
        case library(String)
        case opaque(String)
    }

    /// A type alias used as a callee or a static member's base (`Value(popCount: 0)` in a key with
    /// `typealias Value = Pop`): what it names.
    private func aliasTarget(_ name: String) -> TypeTarget? {
        guard !name.contains(".") else { return nil }
        var scope = context.selfType
        var found: TypeRef?
        while let s = scope, found == nil {
            found = program.types[s].aliases[name]
            scope = program.types[s].parent
        }
        switch found ?? aliases[name] {
        case .named(let id)?: return .program(program.types[id])
        case .int?: return .library("Int")
        case .double?: return .library("Double")
        case .string?: return .library("String")
        case .bool?: return .library("Bool")
        default: return nil
        }
    }

    func typeTarget(_ e: ExprSyntax) -> TypeTarget? {
        var text = e.trimmedDescription.replacingAll(" ", with: "")
        if let g = e.as(GenericSpecializationExprSyntax.self) { text = g.expression.trimmedDescription }
        if let d = e.as(DeclReferenceExprSyntax.self), context.lookupLocal(d.baseName.text) != nil { return nil }
        if e.is(DeclReferenceExprSyntax.self) || e.is(MemberAccessExprSyntax.self) || e.is(GenericSpecializationExprSyntax.self) {
            if text == "Self", let s = context.selfType { return .program(program.types[s]) }
            if Compiler.unsupportedNumberTypes.contains(text) {
                error(e, Compiler.unsupportedNumberMessage(text))
                return .library("Double")
            }
            if let alias = aliasTarget(text) { return alias }
            if let lib = Compiler.libraryTypeNames[text] {
                if let t = program.type(named: lib), !t.staticConstants.isEmpty || !t.staticMethods.isEmpty {
                    return .program(t)
                }
                return .library(lib)
            }
            if let t = lookupType(text, from: context.selfType), t.kind != .builtin { return .program(t) }
            let head = String(text.split(separator: ".").first ?? "")
            // `Color.clear` is a member of a type, not a type: only `Color` or `UIApplication.State` name one.
            let last = text.split(separator: ".").last.map(String.init) ?? text
            if head != text, last.first?.isLowercase == true { return nil }
            if Compiler.opaqueTypes.contains(head) { return .opaque(text) }
            if ["UIApplication", "UIResponder", "UIDevice", "Notification"].contains(head) { return .opaque(text) }
        }
        return nil
    }

    private func memberAccess(_ m: MemberAccessExprSyntax, expected: TypeRef?) -> Expr {
        let n = m.declName.baseName.text
        let at = loc(m)
        guard let baseSyntax = m.base else { return implicitMember(n, m, expected: expected) }
        if baseSyntax.is(SuperExprSyntax.self), let sid = context.selfType, let s = program.types[sid].superclass,
            let me = variable("self", at)
        {
            // `super.label`: the superclass's getter, run on `self`.
            if let getter = program.types[s].methods[n] { return DirectMethodCallExpr(at, receiver: me, getter, []) }
            return instanceMember(me, n, m, at: at)
        }
        if let target = typeTarget(baseSyntax) { return staticMember(target, n, m) }
        let base = expr(baseSyntax, expected: nil)
        return instanceMember(base, n, m, at: at)
    }

    func implicitMember(_ n: String, _ node: some SyntaxProtocol, expected: TypeRef?) -> Expr {
        let at = loc(node)
        switch expected?.unwrapped {
        case .named(let id)?: return staticMember(.program(program.types[id]), n, node)
        case .double?:
            if let v = Library.shared.typeConstants["Double"]?[n] { return LiteralExpr(at, v, .double) }
        case .int?:
            if let v = Library.shared.typeConstants["Int"]?[n] { return LiteralExpr(at, v, .int) }
        default: break
        }
        if n == "none", expected?.isOptional == true { return LiteralExpr(at, .null, expected!) }
        if case .opaque(let name)? = expected?.unwrapped, Compiler.colorTypes.contains(name) {
            return ViewLeafExpr(at, "Color", member: n)
        }
        // SwiftUI's unchecked surface: `.roundedBorder`, `.leading` are kept as their names.
        return LiteralExpr(at, .string(n), .opaque("member"))
    }

    func staticMember(_ target: TypeTarget, _ n: String, _ node: some SyntaxProtocol) -> Expr {
        let at = loc(node)
        switch target {
        case .opaque(let name):
            if let why = Compiler.unrecordedInputs[name] { return bad(node, why) }
            // `Color.red` is a view wherever it stands: in a builder, as a modifier's receiver, as a color argument.
            if Compiler.colorTypes.contains(name) { return ViewLeafExpr(at, "Color", member: n) }
            return LiteralExpr(at, .string(n), .opaque("member"))
        case .library(let name):
            if n == "self" { return LiteralExpr(at, .metatype(.unknown), .metatype(.unknown)) }
            if n == "init", let f = Library.shared.typeFunctions[name]?["init(_:)"] {
                // `.map(String.init)`, `.compactMap(Int.init)`: the one-argument initializer as a function.
                let result: TypeRef = name == "String" ? .string : name == "Int" ? .optional(.int) : name == "Double" ? .optional(.double) : .unknown
                return FunctionValueExpr(at, f, .function([.unknown], result))
            }
            if let v = Library.shared.typeConstants[name]?[n] { return LiteralExpr(at, v, v.staticType) }
            return bad(node, "type '\(name)' has no member '\(n)'")
        case .program(let info):
            if n == "self" { return LiteralExpr(at, .metatype(.named(info.id)), .metatype(.named(info.id))) }
            if let ci = info.caseIndex[n] {
                if !info.cases[ci].payloadTypes.isEmpty {
                    return bad(node, "enum case '\(n)' needs its associated values")
                }
                return EnumCaseExpr(at, typeID: info.id, caseIndex: ci, payload: [])
            }
            if let ci = info.staticConstants[n] {
                return ConstantExpr(at, program.cells[ci], info.staticTypes[n] ?? .unknown)
            }
            // A static property the Foundation prelude computes on every read (`Date.now`): its `static func __now()`.
            if let f = info.staticMethods["__\(n)()"] { return callFunction(f, [], at, skipSelf: false) }
            if n == "allCases", info.kind == .enumeration, info.conforms(to: "CaseIterable") {
                // Swift synthesizes `allCases` for an enum without associated values, in declaration order.
                guard info.cases.allSatisfy({ $0.payloadTypes.isEmpty }) else {
                    return bad(node, "'allCases' is synthesized only for enums without associated values")
                }
                let cases = info.cases.indices.map { EnumCaseExpr(at, typeID: info.id, caseIndex: $0, payload: []) }
                return ArrayLiteralExpr(at, cases, .array(.named(info.id)))
            }
            if let nested = program.type(named: "\(info.name).\(n)") {
                return LiteralExpr(at, .metatype(.named(nested.id)), .metatype(.named(nested.id)))
            }
            if let f = info.staticMethods.filter({ $0.key.hasPrefix(n + "(") }).min(by: { $0.key < $1.key })?.value {
                return FunctionValueExpr(at, f, .function(f.parameterTypes, f.returnType))
            }
            let libName = info.kind == .builtin ? info.name : nil
            if let libName, let v = Library.shared.typeConstants[libName]?[n] { return LiteralExpr(at, v, v.staticType) }
            if info.kind == .protocolType || info.conforms(to: "PreferenceKey") {
                // Members protocol extensions add are known once all bodies compiled; look them up when running.
                return bad(node, "type '\(info.name)' has no static member '\(n)'")
            }
            return bad(node, "type '\(info.name)' has no member '\(n)'")
        }
    }

    func instanceMember(_ base: Expr, _ n: String, _ node: some SyntaxProtocol, at: SourceLocation) -> Expr {
        if let why = refusedLibraryMember(n) { return bad(node, why) }
        if base.type == .opaque("Binding") {
            return BindingMemberExpr(at, base: base, name: n, n == "wrappedValue" ? .unknown : .opaque("Binding"))
        }
        if base.type == .string, n == "value", !hasExtensionMethod(.string, n) {
            return bad(node, Compiler.scalarValueMessage)
        }
        if base.type == .string, let getter = stringIndexExtension(n)?.methods[n] {
            return MethodCallExpr(at, receiver: base, place: nil, name: n, fullName: n, args: [], natives: NativeSite(), getter.returnType)
        }
        switch base.type {
        case .metatype(let t):
            // `t.extraName` with `t: T.Type`, `T: Kind`: a protocol extension's own static property is bound statically.
            if let p = protocolOf(t), let owner = staticallyBound(n, in: p), let ci = owner.staticConstants[n] {
                return ConstantExpr(at, program.cells[ci], owner.staticTypes[n] ?? .unknown)
            }
            // `key.defaultValue` with `key: T.Type`: the static property of the type the value names.
            var type = TypeRef.unknown
            if case .named(let id) = t { type = program.types[id].staticTypes[n] ?? .unknown }
            return MetatypeMemberExpr(at, base: base, name: n, type)
        case .named(let id):
            let info = program.types[id]
            if let fi = info.fieldIndex[n] {
                return fieldAccess(at, base: base, info, fi)
            }
            if let storage = wrapperStorage(info, n, base: { base }, at: at) { return storage }
            if let getter = info.methods[n] {
                let call = MethodCallExpr(
                    at, receiver: base, place: nil, name: n, fullName: n, args: [], natives: NativeSite(), getter.returnType)
                if info.kind == .protocolType { call.viaProtocol = staticallyBound(n, in: info)?.name }
                call.throughProtocol = call.viaProtocol == nil && reachesWitness(base.type, n)
                if info.setters[n] != nil { return ComputedPropertyExpr(at, base: base, name: n, getter: call) }
                return call
            }
            // `s.handle` passed as a function: the method bound to the value.
            let methods = info.methods.filter { $0.key.hasPrefix(n + "(") }
            if methods.count == 1, let f = methods.first?.value, !f.isMutating {
                return BoundMethodExpr(at, base: base, f, .function(Array(f.parameterTypes.dropFirst()), f.returnType))
            }
            if info.kind == .enumeration, n == "rawValue", let raw = info.rawType {
                return DynamicMemberExpr(at, base: base, name: n).typed(raw)
            }
            if info.kind == .structure, info.methods.keys.contains(where: { $0.hasPrefix(n + "(") }) == false {
                return bad(node, "value of type '\(info.name)' has no member '\(n)'")
            }
        case .optional(let w) where w.isKnown:
            if Library.shared.site(n, labels: [], trailing: 0, property: true)[.null] == nil {
                return bad(node, "value of optional type '\(program.name(of: base.type))' must be unwrapped to refer to member '\(n)'; use '?.' or '!'")
            }
        case .tuple(let items, let labels):
            if let i = Int(n) ?? labels.firstIndex(of: n), i < items.count {
                return DynamicMemberExpr(at, base: base, name: String(i)).typed(items[i])
            }
        default: break
        }
        let site = Library.shared.site(n, labels: [], trailing: 0, property: true)
        if let kind = base.type.libraryKind, site[kind] == nil, !hasExtensionMethod(kind, n) {
            return bad(node, "value of type '\(program.name(of: base.type))' has no member '\(n)'")
        }
        if case .slice = base.type.unwrapped, Compiler.sliceIndexMembers.contains(n) {
            return bad(node, Compiler.sliceIndexMessage("'\(n)'"))
        }
        if !site.isEmpty {
            let type = memberType(base.type, n, args: [])
            if case .optional(let inner) = type, inner.isOptional {
                return bad(node, Compiler.nestedOptionalMessage(program.name(of: type)))
            }
            return NativePropertyExpr(at, base: base, name: n, site: site, type)
        }
        let member = DynamicMemberExpr(at, base: base, name: n)
        if let p = protocolOf(base.type), let owner = staticallyBound(n, in: p) { member.viaProtocol = owner.name }
        member.throughProtocol = member.viaProtocol == nil && reachesWitness(base.type, n)
        return member.typed(memberType(base.type, n, args: []))
    }

    /// What the compiler can tell of a library member's result type.
    func memberType(_ receiver: TypeRef, _ n: String, args: [Expr]) -> TypeRef {
        let element = elementType(receiver)
        let closureResult: TypeRef = {
            if case .function(_, let r)? = args.last?.type { return r }
            return .unknown
        }()
        switch n {
        case "count", "offset": return receiver == .unknown && n == "offset" ? .unknown : .int
        case "isEmpty", "contains", "allSatisfy", "hasPrefix", "hasSuffix", "isMultiple", "isSubset", "isZero": return .bool
        case "first", "last", "min", "max", "randomElement", "popLast":
            if case .range = receiver { return .optional(.int) }
            if case .string = receiver { return .optional(.string) }
            if receiver.isKnown || receiver == .unknown { return .optional(element) }
            return .unknown
        case "firstIndex", "lastIndex": return .optional(.int)
        case "updateValue", "removeValue":
            if case .dictionary(_, let v) = receiver { return .optional(v) }
        case "quotientAndRemainder": return .tuple([.int, .int], labels: ["quotient", "remainder"])
        case "keys":
            if case .dictionary(let k, _) = receiver { return .array(k) }
        case "values":
            if case .dictionary(_, let v) = receiver { return .array(v) }
        case "dropFirst", "dropLast", "prefix", "suffix", "drop":
            if case .string = receiver { return .string }
            if case .range = receiver { return .array(.int) }
            if case .array(let e) = receiver { return .slice(e) }
            return receiver.isKnown ? receiver : .unknown
        case "filter", "sorted", "reversed", "shuffled":
            if case .string = receiver { return .string }
            if case .dictionary = receiver, n == "filter" { return receiver }
            if case .range = receiver { return .array(.int) }
            return receiver.isKnown ? .array(element) : .unknown
        case "map": return .array(closureResult)
        case "compactMap": return .array(closureResult.unwrapped)
        case "flatMap": return .array(elementType(closureResult))
        case "reduce": return args.first?.type ?? .unknown
        case "joined", "uppercased", "lowercased", "description", "capitalized", "trimmingCharacters",
            "replacingOccurrences":
            return .string
        case "split", "components": return .array(.string)
        case "unicodeScalars":
            if receiver == .string { return .array(.string) }
        case "enumerated": return .array(.tuple([.int, element], labels: ["offset", "element"]))
        case "mapValues":
            if case .dictionary(let k, _) = receiver { return .dictionary(k, closureResult) }
        case "merging": return receiver
        case "rounded", "squareRoot", "magnitude": return receiver
        case "indices": return .range
        case "union", "intersection", "subtracting": return receiver
        case "removeLast", "removeFirst", "remove":
            if case .array(let e) = receiver { return e }
            if case .set(let e) = receiver, n == "remove" { return .optional(e) }
        case "insert":
            if case .set(let e) = receiver { return .tuple([.bool, e], labels: ["inserted", "memberAfterInsert"]) }
        case "isLetter", "isNumber", "isWholeNumber", "isUppercase", "isLowercase", "isCased", "isWhitespace", "isNewline",
            "isPunctuation", "isSymbol", "isMathSymbol", "isCurrencySymbol", "isHexDigit", "isASCII":
            if receiver == .string || receiver == .unknown { return .bool }
        case "wholeNumberValue", "hexDigitValue":
            if receiver == .string || receiver == .unknown { return .optional(.int) }
        case "nonzeroBitCount", "leadingZeroBitCount", "trailingZeroBitCount": return .int
        case "advanced", "distance":
            if receiver.isNumeric { return receiver }
        case "addingReportingOverflow", "subtractingReportingOverflow", "multipliedReportingOverflow",
            "dividedReportingOverflow", "remainderReportingOverflow":
            return .tuple([.int, .bool], labels: ["partialValue", "overflow"])
        default: break
        }
        return .unknown
    }

    // MARK: Subscripts

    private func subscriptExpr(_ s: SubscriptCallExprSyntax) -> Expr {
        let base = expr(s.calledExpression, expected: nil)
        let args = Array(s.arguments)
        guard let first = args.first else { return bad(s, "a subscript needs an index") }
        if first.label?.text == "keyPath" {
            return bad(s, "key path subscripts ('value[keyPath: kp]') are not part of Canopy's Swift subset; pass the key path where a function is expected (map(\\.name)) or read the property")
        }
        if base.type == .opaque("Binding"), args.count == 1 {
            // `$items[i]`: a binding to an element.
            return BindingElementExpr(loc(s), base: base, index: expr(first.expression, expected: nil))
        }
        if let guide = dimensionGuide(base, args, s) { return guide }
        var keyType: TypeRef?
        var result = TypeRef.unknown
        switch base.type {
        case .array(let e):
            keyType = .int
            result = e
        case .dictionary(let k, let v):
            keyType = k
            result = .optional(v)
        default: break
        }
        let index = expr(first.expression, expected: keyType)
        if base.type == .string, args.count == 1, let call = stringIndexSubscript(base, index, at: loc(s)) { return call }
        if case .named(let id) = base.type, program.types[id].name == "GeometryProxy", args.count == 1,
            let resolve = program.types[id].methods["__resolve(_:)"]
        {
            // `proxy[anchor]`: the anchor's rect or point in the proxy's space.
            return DirectMethodCallExpr(loc(s), receiver: base, resolve, [.value(index)])
        }
        if case .array(let e) = base.type, index.type == .range { result = .slice(e) }
        if case .slice = base.type { return bad(s, Compiler.sliceIndexMessage("a subscript")) }
        var fallback: Expr?
        if args.count == 2, args[1].label?.text == "default" {
            var vt: TypeRef?
            if case .dictionary(_, let v) = base.type { vt = v }
            fallback = expr(args[1].expression, expected: vt)
            result = result.unwrapped
        } else if args.count != 1 {
            return bad(s, "this subscript is not part of Canopy's Swift subset")
        } else if case .optional(let inner) = result, inner.isOptional {
            return bad(s, Compiler.nestedOptionalMessage(program.name(of: result)))
        }
        return SubscriptExpr(loc(s), base: base, index: index, fallback: fallback, result)
    }
}

extension Expr {
    /// Sets the static type the compiler worked out (for nodes that cannot know it themselves).
    func typed(_ t: TypeRef) -> Expr {
        type = t
        return self
    }
}

extension Value {
    /// The static type of a library constant.
    var staticType: TypeRef {
        switch self {
        case .int: return .int
        case .double: return .double
        case .bool: return .bool
        case .string: return .string
        default: return .unknown
        }
    }
}

extension String {
    func components(separatedByNewline: ()) -> [String] {
        var out: [String] = [""]
        for c in self {
            if c == "\n" { out.append("") } else { out[out.count - 1].append(c) }
        }
        return out
    }
}

extension Compiler {
    /// `\.a.b`, `\Root.a`: each property with how Swift binds it where the type it is read from is known (the
    /// root written, or the parameter of the function the key path stands for).
    func keyPath(_ k: KeyPathExprSyntax, expected: TypeRef?) -> Expr {
        let at = loc(k)
        var current: TypeRef = .unknown
        if let root = k.root {
            current = resolveType(root, in: context.selfType, generics: context.generics)
        } else if case .function(let ps, _)? = expected, ps.count == 1 {
            current = ps[0]
        }
        var steps: [KeyPathStep] = []
        for c in k.components {
            guard case .property(let p) = c.component else {
                return bad(c, "only property key paths (\\.name) are part of Canopy's Swift subset")
            }
            var name = p.declName.baseName.text
            // `\.remainder` on `(quotient: Int, remainder: Int)`: the element by its position, as values keep no labels.
            if case .tuple(let ts, let labels) = current.unwrapped, let i = labels.firstIndex(of: name), i < ts.count {
                name = String(i)
            }
            var step = KeyPathStep(name)
            if let proto = protocolOf(current) { step.viaProtocol = staticallyBound(name, in: proto)?.name }
            step.throughProtocol = step.viaProtocol == nil && reachesWitness(current, name)
            steps.append(step)
            if case .tuple(let ts, _) = current.unwrapped, let i = Int(name), i < ts.count {
                current = ts[i]
            } else if name != "self" {
                current = memberType(current, name, args: [])
            }
        }
        return LiteralExpr(at, .keyPath(steps), .unknown)
    }
}
