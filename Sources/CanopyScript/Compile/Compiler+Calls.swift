import SwiftParser
import SwiftSyntax

/// Calls: functions, methods, initializers, enum cases with associated values, the library.
extension Compiler {
    struct ArgSyntax {
        var label: String?
        var expr: ExprSyntax
        var trailing: Bool
    }

    func arguments(_ c: FunctionCallExprSyntax) -> [ArgSyntax] {
        var out = c.arguments.map { ArgSyntax(label: $0.label?.text, expr: $0.expression, trailing: false) }
        if let t = c.trailingClosure { out.append(ArgSyntax(label: nil, expr: ExprSyntax(t), trailing: true)) }
        for extra in c.additionalTrailingClosures {
            out.append(ArgSyntax(label: extra.label.text, expr: ExprSyntax(extra.closure), trailing: true))
        }
        return out
    }

    /// Compiles arguments with no parameter information: `&x` becomes a reference.
    func plainArguments(_ args: [ArgSyntax], expected: [TypeRef?] = []) -> [Argument] {
        args.enumerated().map { i, a in argument(a.expr, expected: i < expected.count ? expected[i] : nil) }
    }

    func argument(_ e: ExprSyntax, expected: TypeRef?) -> Argument {
        if let io = e.as(InOutExprSyntax.self) {
            let target = expr(io.expression, expected: nil)
            guard let place = target.place else {
                return .value(bad(io, cannotAssign(target, io.expression) + " (passed as inout)"))
            }
            return .reference(place, target)
        }
        return .value(expr(e, expected: expected))
    }

    /// Matches call arguments to a function's parameters by label and order, filling defaults. Returns nil (with
    /// a reason) when they do not fit.
    func match(_ fn: Function, _ args: [ArgSyntax], skipSelf: Bool) -> ([Argument], String?) {
        let first = skipSelf && fn.hasSelf ? 1 : 0
        var out: [Argument] = []
        var a = 0
        for p in first..<fn.parameterCount {
            let label = fn.parameterLabels[p]
            let type = fn.parameterTypes[p]
            if p == fn.variadic {
                // `f(1, 2, 3)` for `_ items: Int...`: the first argument carries the label, the rest none.
                var items: [Expr] = []
                var element: TypeRef?
                if case .array(let e) = type { element = e.expectation }
                while a < args.count, !args[a].trailing, args[a].label == (items.isEmpty ? label : nil) {
                    items.append(expr(args[a].expr, expected: element))
                    a += 1
                }
                out.append(.value(ArrayLiteralExpr(loc(args.first?.expr ?? ExprSyntax(NilLiteralExprSyntax())), items, type)))
                continue
            }
            if a < args.count, args[a].trailing, args[a].label == nil, fn.defaulted.contains(p), !acceptsClosure(type) {
                // Swift matches an unlabelled trailing closure forward, past defaulted parameters that cannot take
                // a closure (SE-0286).
                if let d = fn.defaults[p] { out.append(.value(d)) }
                continue
            }
            if a < args.count, args[a].label == label || (args[a].trailing && args[a].label == nil) {
                if fn.builderParameters.contains(p), let c = args[a].expr.as(ClosureExprSyntax.self) {
                    out.append(.value(builderClosure(c)))
                } else if case .generic(let g) = type, let name = fn.constraints[g], let p = program.type(named: name),
                    p.kind == .protocolType, args[a].expr.as(MemberAccessExprSyntax.self)?.base == nil
                {
                    // `apply(.bordered)` for `<S: ButtonStyle>`: the implicit member is one of the protocol's static
                    // members (`extension ButtonStyle where Self == BorderedStyle { static var bordered … }`).
                    out.append(argument(args[a].expr, expected: .named(p.id)))
                } else {
                    out.append(argument(args[a].expr, expected: type.expectation))
                }
                a += 1
            } else if let d = fn.defaults[p] {
                out.append(.value(d))
            } else if a < args.count && args.count == fn.parameterCount - first {
                let have = args.map { ($0.label ?? "_") + ":" }.joined()
                let want = fn.parameterLabels[first...].map { ($0 ?? "_") + ":" }.joined()
                return ([], "incorrect argument labels in call to \(fn.name) (have '\(have)', expected '\(want)')")
            } else {
                return ([], "missing argument for parameter '\(label ?? "_")' in call to \(fn.name)")
            }
        }
        if a < args.count { return ([], "extra argument '\(args[a].label ?? "_")' in call to \(fn.name)") }
        return (out, nil)
    }

    /// Whether the labels could fit the function, without compiling anything.
    private func fits(_ fn: Function, _ args: [ArgSyntax], skipSelf: Bool) -> Bool {
        let first = skipSelf && fn.hasSelf ? 1 : 0
        var a = 0
        for p in first..<fn.parameterCount {
            if p == fn.variadic {
                while a < args.count, !args[a].trailing, args[a].label == (a == 0 || args[a - 1].label != nil ? fn.parameterLabels[p] : nil) {
                    a += 1
                }
                continue
            }
            if a < args.count, args[a].trailing, args[a].label == nil, fn.defaulted.contains(p),
                !acceptsClosure(fn.parameterTypes[p])
            {
                continue
            }
            if a < args.count, args[a].label == fn.parameterLabels[p] || (args[a].trailing && args[a].label == nil) {
                a += 1
            } else if !fn.defaulted.contains(p) && fn.parameterLabels.count > p {
                // A default may not be compiled yet; a parameter with a default syntax is checked in `match`.
                return false
            }
        }
        return a == args.count
    }

    /// Whether a parameter of type `t` may take a closure: a function type, or one the compiler does not know.
    func acceptsClosure(_ t: TypeRef) -> Bool {
        switch t.unwrapped {
        case .function, .generic, .unknown, .opaque: return true
        default: return false
        }
    }

    /// The function among `candidates` (by full name) whose base name is `base` and whose labels fit.
    private func pick(_ candidates: [String: Function], _ base: String, _ args: [ArgSyntax], skipSelf: Bool) -> Function? {
        let labels = args.map(\.label)
        if let exact = candidates[Compiler.fullName(base, labels)] { return exact }
        let options = candidates.filter { $0.key.hasPrefix(base + "(") }.sorted { $0.key < $1.key }.map(\.value)
        // With no fit, the closest one, so the diagnostic names what is wrong with the arguments.
        return options.first { fits($0, args, skipSelf: skipSelf) }
            ?? options.first { $0.parameterCount - (skipSelf && $0.hasSelf ? 1 : 0) >= args.count }
            ?? (base == "init" ? nil : options.first)
    }

    func call(_ c: FunctionCallExprSyntax, expected: TypeRef?) -> Expr {
        let at = loc(c)
        let args = arguments(c)
        let callee = c.calledExpression
        if let d = callee.as(DeclReferenceExprSyntax.self) {
            let n = d.baseName.text
            if inPrelude || !moduleQualified.contains(d.positionAfterSkippingLeadingTrivia), let v = variable(n, at) {
                if let fn = context.localFunction(n) {
                    // A nested `func`: its labels and defaults apply, as for any function.
                    let (matched, problem) = match(fn, args, skipSelf: false)
                    if let problem { return LiteralExpr(at, .null, .unknown).reporting(self, at, problem) }
                    return CallValueExpr(at, v, matched, fn.returnType)
                }
                return callValue(v, args, at)
            }
            let special = swiftUICallee(n)
            if special == .task, args.count == 1 {
                let body = expr(args[0].expr, expected: .function([], .unknown))
                return CallValueExpr(at, body, [], .void)
            }
            if special == .localizedString, args.count == 1, let s = args[0].expr.as(StringLiteralExprSyntax.self),
                args[0].label == "localized" || (n != "String" && args[0].label == nil)
            {
                let text = LocalizedExpr(at, stringParts(s))
                return n == "Text" ? ViewInitExpr(at, "Text", [.prop("text", text)]) : text
            }
            if let target = typeTarget(callee) { return construct(target, args, c, expected: expected) }
            // Inside a copy of a protocol extension's member: the extension's own non-requirement members are bound
            // statically, as Swift binds them.
            if let via = copying, let sid = context.selfType {
                let copies = program.types[sid].protocolCopies.filter { $0.key.hasPrefix(via.name + ".") }
                    .reduce(into: [String: Function]()) { $0[String($1.key.dropFirst(via.name.count + 1))] = $1.value }
                if let f = pick(copies, n, args, skipSelf: true), staticallyBound(f.name.afterDot, in: via) != nil {
                    if f.isStatic { return callFunction(f, args, at, skipSelf: false) }
                    if !context.isStatic, let me = variable("self", at) {
                        let call = methodCall(me, f, args, at)
                        (call as? MethodCallExpr)?.viaProtocol = via.name
                        return call
                    }
                }
            }
            // `layout { … }` with a computed property of a layout type: Swift calls its `callAsFunction`.
            if let sid = context.selfType, !context.isStatic, let getter = program.types[sid].methods[n],
                isLayoutType(getter.returnType), let view = layoutView(value: expr(ExprSyntax(d), expected: nil), args, at)
            {
                return view
            }
            if let sid = context.selfType {
                var scope: TypeID? = sid
                var first = true
                while let s = scope {
                    let info = program.types[s]
                    if first, !context.isStatic, let f = pick(info.methods, n, args, skipSelf: true),
                        let me = variable("self", at)
                    {
                        let call = methodCall(me, f, args, at)
                        if copying != nil { (call as? MethodCallExpr)?.throughProtocol = true }
                        return call
                    }
                    // A stored closure: `content()`, `onTap()`.
                    if first, !context.isStatic, let fi = info.fieldIndex[n], let me = variable("self", at) {
                        return callValue(fieldAccess(at, base: me, info, fi), args, at)
                    }
                    if let f = pick(info.staticMethods, n, args, skipSelf: true), !f.name.afterDot.hasPrefix("init(") {
                        return callFunction(f, args, at, skipSelf: false)
                    }
                    first = false
                    scope = info.parent
                }
            }
            if let f = pick(program.functions, n, args, skipSelf: false) { return callFunction(f, args, at, skipSelf: false) }
            if n == "print" { return printCall(args, at) }
            if n == "type", args.count == 1, args[0].label == "of" {
                let value = expr(args[0].expr, expected: nil)
                if case .named(let id) = value.type.unwrapped, !program.types[id].genericParameters.isEmpty {
                    return bad(c, "type(of:) of a generic type's value is not part of Canopy's Swift subset: its type arguments are not known when the code runs")
                }
                return TypeOfExpr(at, value)
            }
            let full = Compiler.fullName(n, args.map(\.label))
            if let native = Library.shared.functions[full] {
                return CallNativeExpr(at, native, plainArguments(args), nativeResult(n, args))
            }
            if special == .view { return viewInit(n, args, c) }
            // Inside a view or `extension View`: `padding()`, `background(…)` modify `self`.
            if let sid = context.selfType, !context.isStatic, isViewTypeID(sid), isSwiftUIModifier(n),
                let me = variable("self", at)
            {
                return modifier(me, n, args, c)
            }
            if Library.shared.functions.keys.contains(where: { $0.hasPrefix(n + "(") }) {
                return bad(c, "no '\(full)' in Canopy's library; check the argument labels")
            }
            return bad(callee, "cannot find '\(n)' in scope")
        }
        if let m = callee.as(MemberAccessExprSyntax.self) {
            let n = m.declName.baseName.text
            guard let baseSyntax = m.base else { return implicitCall(n, args, c, expected: expected) }
            if let direct = superOrSelfInit(baseSyntax, n, args, at) { return direct }
            if let target = typeTarget(baseSyntax) { return staticCall(target, n, args, c, expected: expected) }
            let receiver = expr(baseSyntax, expected: implicitChainExpectation(baseSyntax, expected))
            return memberCall(receiver, n, args, at, node: c)
        }
        if let a = callee.as(ArrayExprSyntax.self), a.elements.count == 1,
            let t = typeFromExpr(a.elements.first!.expression)
        {
            if args.isEmpty { return ArrayLiteralExpr(at, [], .array(t)) }
            // `[Double](repeating: 0, count: 3)`, `[Int](1...3)`: Array's initializers, the element typed.
            let full = Compiler.fullName("init", args.map(\.label))
            guard let native = Library.shared.typeFunctions["Array"]?[full] else {
                return bad(c, "no initializer 'Array\(full.dropFirst(4))' in Canopy's library")
            }
            let expected: [TypeRef?] = full == "init(repeating:count:)" ? [t.expectation, .int] : [nil]
            return CallNativeExpr(at, native, plainArguments(args, expected: expected), .array(t))
        }
        if let d = callee.as(DictionaryExprSyntax.self), args.isEmpty, case .elements(let list) = d.content, list.count == 1,
            let k = typeFromExpr(list.first!.key), let v = typeFromExpr(list.first!.value)
        {
            return DictionaryLiteralExpr(at, [], .dictionary(k, v))
        }
        if callee.is(GenericSpecializationExprSyntax.self), let target = typeTarget(callee) {
            return construct(target, args, c, expected: expected)
        }
        let value = expr(callee, expected: nil)
        return callValue(value, args, at)
    }

    /// `print(_:separator:terminator:)`: any number of items, then the optional labelled arguments.
    private func printCall(_ args: [ArgSyntax], _ at: SourceLocation) -> Expr {
        var items: [Expr] = []
        var separator: Expr?
        var terminator: Expr?
        for a in args {
            switch a.label {
            case nil where separator == nil && terminator == nil: items.append(expr(a.expr, expected: nil))
            case "separator" where terminator == nil && separator == nil: separator = expr(a.expr, expected: .string)
            case "terminator" where terminator == nil: terminator = expr(a.expr, expected: .string)
            default: return bad(a.expr, "print takes items, then 'separator:' and 'terminator:'")
            }
        }
        return PrintExpr(at, items, separator: separator, terminator: terminator)
    }

    /// A type written as an expression inside `[T]()` or `[K: V]()`.
    private func typeFromExpr(_ e: ExprSyntax) -> TypeRef? {
        let text = e.trimmedDescription
        var parser = Parser(text)
        let parsed = TypeSyntax.parse(from: &parser)
        let t = resolveType(parsed, in: context.selfType, generics: context.generics, quiet: true)
        return t == .unknown && text != "Any" ? nil : t
    }

    private func callValue(_ v: Expr, _ args: [ArgSyntax], _ at: SourceLocation) -> Expr {
        if let view = layoutView(value: v, args, at) { return view }
        var params: [TypeRef] = []
        var result = TypeRef.unknown
        if case .function(let ps, let r) = v.type {
            params = ps
            result = r
        }
        return CallValueExpr(at, v, plainArguments(args, expected: params), result)
    }

    func callFunction(_ f: Function, _ args: [ArgSyntax], _ at: SourceLocation, skipSelf: Bool) -> Expr {
        let (matched, problem) = match(f, args, skipSelf: skipSelf)
        if let problem { return LiteralExpr(at, .null, .unknown).reporting(self, at, problem) }
        return CallFunctionExpr(at, f, matched, f.returnType)
    }

    private func methodCall(_ receiver: Expr, _ f: Function, _ args: [ArgSyntax], _ at: SourceLocation) -> Expr {
        let (matched, problem) = match(f, args, skipSelf: true)
        if let problem { return LiteralExpr(at, .null, .unknown).reporting(self, at, problem) }
        let base = f.name.afterDot
        var place: Place?
        if f.isMutating {
            place = receiver.place
            if place == nil {
                return LiteralExpr(at, .null, .unknown).reporting(
                    self, at, "cannot use mutating member '\(base)' on an immutable value (mark the method 'mutating' or use 'var')")
            }
        }
        let call = MethodCallExpr(
            at, receiver: receiver, place: place, name: String(base.prefix { $0 != "(" }), fullName: base,
            args: matched, natives: NativeSite(), f.returnType)
        call.throughProtocol = reachesWitness(receiver.type, base)
        return call
    }

    /// `receiver.name(args)`.
    private func memberCall(_ receiver: Expr, _ n: String, _ args: [ArgSyntax], _ at: SourceLocation, node: FunctionCallExprSyntax) -> Expr {
        if let why = refusedLibraryMember(n) { return bad(node.calledExpression, why) }
        if isViewType(receiver.type) {
            // A method of the view struct or of `extension View`, else a modifier.
            if case .named(let id) = receiver.type.unwrapped, let f = pick(program.types[id].methods, n, args, skipSelf: true) {
                return methodCall(receiver, f, args, at)
            }
            if case .named(let id) = receiver.type.unwrapped, let fi = program.types[id].fieldIndex[n] {
                return callValue(fieldAccess(at, base: receiver, program.types[id], fi), args, at)
            }
            if let view = program.type(named: "View"), let f = pick(view.methods, n, args, skipSelf: true) {
                return methodCall(receiver, f, args, at)
            }
            return modifier(receiver, n, args, node)
        }
        if receiver.type == .opaque("member"), isSwiftUIModifier(n) {
            return bad(node.calledExpression, "'\(n)' is a view modifier, and this value is not a view")
        }
        if receiver.type == .unknown, !hasUserMethod(n), !Library.shared.hasMember(n), isSwiftUIModifier(n) {
            // A value whose type the compiler does not know, with a name only views have: checked when it runs.
            return modifier(receiver, n, args, node)
        }
        if receiver.type == .string, let f = stringIndexMethod(n, args) {
            return methodCall(receiver, f, args, at)
        }
        if case .optional = receiver.type, n == "map" || n == "flatMap", args.count == 1 {
            let t = expr(args[0].expr, expected: .function([receiver.type.unwrapped], .unknown))
            var r = TypeRef.unknown
            if case .function(_, let rt) = t.type { r = rt }
            // `map` with a transform that returns an optional makes an optional of an optional; `flatMap` does not.
            if n == "map", r.isOptional { return bad(node.calledExpression, Compiler.nestedOptionalMessage(program.name(of: .optional(r))) + " (use flatMap)") }
            return OptionalMapExpr(at, base: receiver, transform: t, .optional(r.unwrapped))
        }
        if case .named(let id) = receiver.type.unwrapped, program.types[id].kind != .protocolType {
            let info = program.types[id]
            if let f = pick(info.methods, n, args, skipSelf: true) { return methodCall(receiver, f, args, at) }
            if let fi = info.fieldIndex[n] {
                let field = fieldAccess(at, base: receiver, info, fi)
                return callValue(field, args, at)
            }
            if info.kind != .builtin {
                return bad(node.calledExpression, "value of type '\(info.name)' has no member '\(n)'")
            }
        }
        let labels = args.map(\.label)
        let trailing = args.filter(\.trailing).count
        let site = Library.shared.site(n, labels: labels, trailing: trailing, property: false)
        // Closure arguments get the element type as their parameter type, so `$0.width` resolves.
        let element = elementType(receiver.type)
        var compiled: [Argument]
        if n == "reduce", args.count == 2, args[1].expr.is(ClosureExprSyntax.self) {
            // `reduce(into: (evens: 0, odds: 0)) { acc, x in acc.odds += x }`: the accumulator has the initial
            // value's type, so its members resolve.
            let initial = argument(args[0].expr, expected: nil)
            let t = initial.expr.type
            compiled = [initial, argument(args[1].expr, expected: .function([t.expectation ?? .unknown, element], t))]
        } else {
            // An element argument takes the element type, so `.tag("x")` in `filters.contains(.tag("x"))` is a case.
            let takesElement = ["contains", "firstIndex", "lastIndex", "append", "insert", "remove", "starts"].contains(n)
            let expectedArgs: [TypeRef?] = args.map { a in
                if a.expr.is(ClosureExprSyntax.self) || a.expr.is(KeyPathExprSyntax.self) {
                    return closureExpectation(n, receiver.type, element, arity: closureArity(a.expr))
                }
                return takesElement && (a.label == nil || a.label == "of") ? element.expectation : nil
            }
            compiled = plainArguments(args, expected: extensionArgumentTypes(receiver.type, n, args.map(\.label)) ?? expectedArgs)
        }
        if site.isEmpty, !hasUserMethod(n), !Library.shared.hasMember(n) {
            return bad(node.calledExpression, "value of type '\(program.name(of: receiver.type))' has no member '\(n)'")
        }
        if case .slice = receiver.type.unwrapped, Compiler.sliceIndexMembers.contains(n) {
            return bad(node.calledExpression, Compiler.sliceIndexMessage("'\(n)'"))
        }
        // A library type known when compiling: a member it does not have is a compile error, not a run-time one.
        if let kind = receiver.type.libraryKind, site[kind] == nil, !hasExtensionMethod(kind, n) {
            let anyLabels = Library.shared.members[n]?.contains { $0.kinds.contains(kind) && !$0.member.isProperty } ?? false
            let what = anyLabels ? "no member '\(full(n, labels))' (check the argument labels)" : "no member '\(n)'"
            return bad(node.calledExpression, "value of type '\(program.name(of: receiver.type))' has \(what)")
        }
        let mayMutate = mutatingNames.contains(n)
        let full = Compiler.fullName(n, labels)
        let type = memberType(receiver.type, n, args: compiled.map(\.expr))
        if case .optional(let inner) = type, inner.isOptional {
            return bad(node.calledExpression, Compiler.nestedOptionalMessage(program.name(of: type)))
        }
        let call = MethodCallExpr(
            at, receiver: receiver, place: mayMutate ? receiver.place : nil, name: n, fullName: full, args: compiled,
            natives: site, type)
        if let p = protocolOf(receiver.type) { call.viaProtocol = staticallyBound(full, in: p)?.name }
        call.throughProtocol = call.viaProtocol == nil && reachesWitness(receiver.type, full)
        // Through a generic, `filter` is `Sequence`'s, which makes an array: a `String`'s, a `Set`'s or a
        // `Dictionary`'s own `filter` (what the value has here) would keep its type.
        if case .generic = receiver.type.unwrapped, n == "filter", let toArray = Library.shared.typeFunctions["Array"]?["init(_:)"] {
            return CallNativeExpr(at, toArray, [.value(call)], .array(element))
        }
        return call
    }

    /// The initial values of a type's stored properties; a subclass's inherited ones are its superclass's (compiled
    /// with the superclass).
    func fieldDefaults(_ info: TypeInfo) -> [Expr?] {
        guard let s = info.superclass else { return info.fields.map(\.initial) }
        return fieldDefaults(program.types[s]) + info.fields[info.inheritedFields...].map(\.initial)
    }

    /// `super.init(…)`, `super.method(…)` and `self.init(…)` in a class: the named implementation, called on `self`
    /// without dynamic dispatch.
    private func superOrSelfInit(_ base: ExprSyntax, _ n: String, _ args: [ArgSyntax], _ at: SourceLocation) -> Expr? {
        guard let sid = context.selfType, program.types[sid].isClass, let me = variable("self", at) else { return nil }
        let owner: TypeInfo
        if base.is(SuperExprSyntax.self) {
            guard let s = program.types[sid].superclass else { return bad(base, "'super' needs a superclass") }
            owner = program.types[s]
        } else if base.as(DeclReferenceExprSyntax.self)?.baseName.text == "self", n == "init" {
            owner = program.types[sid]
        } else {
            return nil
        }
        guard let f = pick(n == "init" ? owner.staticMethods : owner.methods, n, args, skipSelf: true) else {
            return bad(base, "'\(owner.name)' has no '\(n)' with these arguments")
        }
        let (matched, problem) = match(f, args, skipSelf: true)
        if let problem { return LiteralExpr(at, .null, .unknown).reporting(self, at, problem) }
        return DirectMethodCallExpr(at, receiver: me, f, matched)
    }

    /// The protocol a generic parameter in scope is constrained to: the function's (`<B: Badge>`, `where`) or the
    /// enclosing type's (`struct Card<T: View>`).
    func constraint(of generic: String) -> String? {
        var c: FunctionContext? = context
        while let ctx = c {
            if let p = ctx.function.constraints[generic] { return p }
            c = ctx.parent
        }
        var scope = context?.selfType
        while let s = scope {
            if let p = program.types[s].genericConstraints[generic] { return p }
            scope = program.types[s].parent
        }
        return nil
    }

    /// The protocol a value is seen through: an existential (`let b: Badge`) or a constrained generic (`b: B` with
    /// `<B: Badge>`).
    func protocolOf(_ t: TypeRef) -> TypeInfo? {
        switch t.unwrapped {
        case .named(let id) where program.types[id].kind == .protocolType: return program.types[id]
        case .generic(let g):
            guard let p = constraint(of: g) else { return nil }
            return program.type(named: p).flatMap { $0.kind == .protocolType ? $0 : nil }
        default: return nil
        }
    }

    /// Whether a call of `member` on a value of static type `t` reaches it as a protocol witness: through the
    /// protocol (an existential, a generic), or on a class whose member is a protocol extension's default.
    func reachesWitness(_ t: TypeRef, _ member: String) -> Bool {
        if protocolOf(t) != nil { return true }
        guard case .named(let id) = t.unwrapped else { return false }
        let info = program.types[id]
        guard info.isClass, let f = info.methods[member] else { return false }
        return info.protocolCopies.values.contains { $0 === f }
    }

    /// The protocol whose extension declares `member` when `member` is not a requirement of `p` or of a protocol it
    /// refines: a call through `p` then runs that extension's member, whatever the value's type declares.
    func staticallyBound(_ member: String, in p: TypeInfo) -> TypeInfo? {
        let family = [p] + p.conformances.compactMap { program.type(named: $0) }.filter { $0.kind == .protocolType }
        if family.contains(where: { $0.requirements.contains(member) }) { return nil }
        return family.first { $0.extensionMembers[member] != nil }
    }

    private func closureArity(_ e: ExprSyntax) -> Int {
        guard let c = e.as(ClosureExprSyntax.self) else { return 1 }
        switch c.signature?.parameterClause {
        case .simpleInput(let l)?: return l.count
        case .parameterClause(let p)?: return p.parameters.count
        case nil: return 0
        }
    }

    /// The parameter types a library method passes its closure.
    private func closureExpectation(_ n: String, _ receiver: TypeRef, _ element: TypeRef, arity: Int) -> TypeRef {
        switch n {
        case "sorted", "sort", "min", "max", "uniquingKeysWith", "merge", "merging":
            if case .dictionary(_, let v) = receiver, n == "merge" || n == "merging" { return .function([v, v], .unknown) }
            return .function([element, element], .bool)
        case "reduce": return .function([.unknown, element], .unknown)
        case "mapValues", "compactMapValues":
            if case .dictionary(_, let v) = receiver { return .function([v], .unknown) }
        case "append", "insert":
            // A closure stored into an array of closures is an element, not a transform of one.
            if case .function = element { return element }
        default: break
        }
        if arity == 2, case .tuple(let parts, _) = element, parts.count == 2 { return .function(parts, .unknown) }
        return .function([element], .unknown)
    }

    /// Whether an extension of the library type of `kind` declares a method or property `n`.
    func hasExtensionMethod(_ kind: ValueKind, _ n: String) -> Bool {
        guard let t = program.builtinTypes[kind] else { return false }
        return program.types[t].methods.keys.contains { $0 == n || $0.hasPrefix(n + "(") }
    }

    private func full(_ n: String, _ labels: [String?]) -> String { Compiler.fullName(n, labels) }

    private func hasUserMethod(_ n: String) -> Bool {
        program.types.contains { t in t.methods.keys.contains { $0 == n || $0.hasPrefix(n + "(") } }
    }

    private func nativeResult(_ n: String, _ args: [ArgSyntax]) -> TypeRef {
        switch n {
        case "max", "min", "abs": return .unknown
        case "fatalError": return .void
        case "zip": return .array(.unknown)
        case "stride": return .array(.unknown)
        default: return .unknown
        }
    }

    // MARK: Types as callees

    /// `T(args)`: a program type's initializer, an enum from its raw value, a library conversion.
    private func construct(_ target: TypeTarget, _ args: [ArgSyntax], _ node: FunctionCallExprSyntax, expected: TypeRef?) -> Expr {
        let at = loc(node)
        switch target {
        case .opaque(let name):
            if let why = Compiler.unrecordedInputs[name] { return bad(node, why) }
            if Compiler.viewNames.contains(name) { return viewInit(name, args, node) }
            if name == "State" {
                // `State(initialValue: v)`, `State(wrappedValue: v)`: the storage an `init` gives `_x`, which the
                // view instance turns into its cell when it first appears.
                guard args.count == 1, args[0].label == "initialValue" || args[0].label == "wrappedValue" else {
                    return bad(node, "State takes (initialValue:) or (wrappedValue:)")
                }
                return expr(args[0].expr, expected: nil)
            }
            if name == "Binding" {
                // `Binding(get: { … }, set: { … })`, or with trailing closures: `Binding { … } set: { … }`.
                let labels = args.map { $0.trailing && $0.label == nil ? "get" : $0.label }
                guard labels == ["get", "set"] else { return bad(node, "Binding takes (get: { … }, set: { … })") }
                let get = expr(args[0].expr, expected: nil)
                let set = expr(args[1].expr, expected: nil)
                return BindingInitExpr(at, get: get, set: set, constant: nil)
            }
            if name == "Alignment" { return alignmentInit(args, node) }
            _ = plainArguments(args)
            return LiteralExpr(at, .string(name), .opaque(name))
        case .library(let name):
            return libraryInit(name, args, node)
        case .program(let info):
            if let view = layoutView(info, args, node, at) { return view }
            return initializer(info, args, node, at: at)
        }
    }

    private func libraryInit(_ name: String, _ args: [ArgSyntax], _ node: FunctionCallExprSyntax) -> Expr {
        let at = loc(node)
        if name == "String", args.count == 1, args[0].label == "describing" {
            return InterpolationExpr(at, [expr(args[0].expr, expected: nil)])
        }
        if args.isEmpty {
            switch name {
            case "Int": return LiteralExpr(at, .int(0), .int)
            case "Double": return LiteralExpr(at, .double(0), .double)
            case "String": return LiteralExpr(at, .string(""), .string)
            case "Bool": return LiteralExpr(at, .bool(false), .bool)
            case "Array": return ArrayLiteralExpr(at, [], .array(.unknown))
            case "Dictionary": return DictionaryLiteralExpr(at, [], .dictionary(.unknown, .unknown))
            case "Set": return CallNativeExpr(at, NativeFunction("Set()") { _, _ throws(ScriptFault) in .set(OrderedSet()) }, [], .set(.unknown))
            default: break
            }
        }
        let full = Compiler.fullName("init", args.map(\.label))
        guard let native = Library.shared.typeFunctions[name]?[full] else {
            return bad(node, "no initializer '\(name)\(full.dropFirst(4))' in Canopy's library")
        }
        let compiled = plainArguments(args)
        // `Int("42")`, `Double(text)`, `Bool("true")`: parsing a string may fail, so the result is optional.
        var parses = false
        if args.count == 1, args[0].label == nil, case .value(let e)? = compiled.first, e.type == .string {
            parses = name != "String"
        }
        let result: TypeRef
        switch name {
        case "Array" where full == "init(repeating:count:)": result = .array(compiled.first?.expr.type ?? .unknown)
        case "Int": result = parses ? .optional(.int) : .int
        case "Double": result = parses ? .optional(.double) : .double
        case "String": result = .string
        case "Bool": result = parses ? .optional(.bool) : .bool
        default: result = .unknown
        }
        return CallNativeExpr(at, native, compiled, result)
    }

    func initializer(_ info: TypeInfo, _ args: [ArgSyntax], _ node: some SyntaxProtocol, at: SourceLocation) -> Expr {
        if info.kind == .builtin {
            return libraryInit(info.name, args, node.as(FunctionCallExprSyntax.self)!)
        }
        if info.kind == .enumeration {
            if args.count == 1, args[0].label == "rawValue", let raw = info.rawType {
                return EnumFromRawExpr(at, typeID: info.id, raw: expr(args[0].expr, expected: raw))
            }
            if let f = pick(info.staticMethods, "init", args, skipSelf: true) { return initCall(info, f, args, at) }
            return bad(node, "enum '\(info.name)' has no initializer with these arguments")
        }
        if info.kind == .protocolType { return bad(node, "'\(info.name)' is a protocol and cannot be constructed") }
        if let f = pick(info.staticMethods, "init", args, skipSelf: true) { return initCall(info, f, args, at) }
        if info.isClass {
            // A class has no memberwise initializer; without one of its own, `C()` when every property has a value.
            guard args.isEmpty, !info.staticMethods.keys.contains(where: { $0.hasPrefix("init(") }) else {
                return bad(node, "no initializer of class '\(info.name)' takes (\(args.map { ($0.label ?? "_") + ":" }.joined()))")
            }
            let defaults = fieldDefaults(info)
            if let i = defaults.firstIndex(where: { $0 == nil }) {
                return bad(node, "class '\(info.name)' has no initializers: '\(info.fields[i].name)' has no initial value")
            }
            return NewObjectExpr(at, typeID: info.id, defaults: defaults)
        }
        if info.hasExplicitInit {
            return bad(node, "no initializer of '\(info.name)' takes (\(args.map { ($0.label ?? "_") + ":" }.joined()))")
        }
        // The memberwise initializer: every stored property in order, those with defaults optional.
        var values: [Expr?] = info.fields.map { $0.initial }
        var a = 0
        for (i, field) in info.fields.enumerated() {
            if field.isLet && field.initial != nil && !(field.initial is LiteralExpr && field.initial!.type.isOptional) {
                continue  // `let x = 1` is not a parameter of the memberwise initializer
            }
            if field.wrapper == "Environment" { continue }  // the view instance supplies it
            if a < args.count, args[a].trailing, args[a].label == nil, field.initial != nil || field.type.isOptional,
                !field.isBuilder, !acceptsClosure(field.type)
            {
                continue  // an unlabelled trailing closure matches forward, past defaulted properties (SE-0286)
            }
            if a < args.count, args[a].label == field.name || (args[a].trailing && args[a].label == nil) {
                if field.isBuilder, let c = args[a].expr.as(ClosureExprSyntax.self) {
                    values[i] = builderClosure(c)
                    a += 1
                    continue
                }
                if field.wrapper == "Binding" {
                    values[i] = expr(args[a].expr, expected: nil)
                    a += 1
                    continue
                }
                values[i] = expr(args[a].expr, expected: field.type.expectation)
                if let v = values[i], v.type.isKnown, field.type.isKnown, !assignable(v.type, to: field.type) {
                    error(args[a].expr, "cannot convert value of type '\(program.name(of: v.type))' to expected argument type '\(program.name(of: field.type))'")
                }
                a += 1
            } else if field.initial == nil && !field.type.isOptional && field.wrapper != "Environment" {
                return bad(node, "missing argument for parameter '\(field.name)' in call to \(info.name)(\(info.fields.map { $0.name + ":" }.joined()))")
            }
        }
        if a < args.count {
            return bad(args[a].expr, "extra or misplaced argument '\(args[a].label ?? "_")' in call to \(info.name)(\(info.fields.map { $0.name + ":" }.joined()))")
        }
        return MemberwiseInitExpr(at, typeID: info.id, fieldValues: values, fieldTypes: info.fields.map(\.type))
    }

    private func initCall(_ info: TypeInfo, _ f: Function, _ args: [ArgSyntax], _ at: SourceLocation) -> Expr {
        let (matched, problem) = match(f, args, skipSelf: true)
        if let problem { return LiteralExpr(at, .null, .unknown).reporting(self, at, problem) }
        let call = CallInitExpr(at, typeID: info.id, function: f, defaults: fieldDefaults(info), args: matched)
        call.makesObject = info.isClass
        return call
    }

    /// `.name(args)` with the type from context.
    private func implicitCall(_ n: String, _ args: [ArgSyntax], _ node: FunctionCallExprSyntax, expected: TypeRef?) -> Expr {
        if case .named(let id)? = expected?.unwrapped {
            return staticCall(.program(program.types[id]), n, args, node, expected: expected)
        }
        if n == "some", args.count == 1 { return expr(args[0].expr, expected: expected?.unwrapped) }
        if n == "init", args.map(\.label) == ["horizontal", "vertical"] { return alignmentInit(args, node) }
        if n == "constant", args.count == 1 {
            return BindingInitExpr(loc(node), get: nil, set: nil, constant: expr(args[0].expr, expected: nil))
        }
        // SwiftUI's unchecked surface: `.system(size: 12)` is kept as its name.
        _ = plainArguments(args)
        return LiteralExpr(loc(node), .string(n), .opaque("member"))
    }

    /// `Alignment(horizontal: .leading, vertical: .top)`: the alignment's name (`"topLeading"`), as `.topLeading`
    /// is kept, computed when it runs (the guides may be variables).
    private func alignmentInit(_ args: [ArgSyntax], _ node: FunctionCallExprSyntax) -> Expr {
        guard args.map(\.label) == ["horizontal", "vertical"], let f = Library.shared.functions["__alignment(_:_:)"] else {
            return bad(node, "Alignment takes (horizontal:vertical:): Alignment(horizontal: .leading, vertical: .top)")
        }
        return CallNativeExpr(loc(node), f, plainArguments(args), .opaque("Alignment"))
    }

    /// `T.name(args)`: an enum case with associated values, a static method, `T.init`.
    private func staticCall(_ target: TypeTarget, _ n: String, _ args: [ArgSyntax], _ node: FunctionCallExprSyntax, expected: TypeRef?) -> Expr {
        let at = loc(node)
        guard case .program(let info) = target else {
            if case .opaque(let name) = target, let why = Compiler.unrecordedInputs[name] { return bad(node, why) }
            if case .opaque("Binding") = target, n == "constant", args.count == 1 {
                return BindingInitExpr(at, get: nil, set: nil, constant: expr(args[0].expr, expected: nil))
            }
            if case .library(let name) = target {
                if n == "init" { return libraryInit(name, args, node) }
                if let f = Library.shared.typeFunctions[name]?[Compiler.fullName(n, args.map(\.label))] {
                    return CallNativeExpr(at, f, plainArguments(args), .unknown)
                }
                return bad(node, "type '\(name)' has no member '\(n)'")
            }
            _ = plainArguments(args)
            return LiteralExpr(at, .string(n), .opaque("member"))
        }
        if n == "init" { return initializer(info, args, node, at: at) }
        if let ci = info.caseIndex[n] {
            let c = info.cases[ci]
            guard args.count == c.payloadTypes.count else {
                return bad(node, "enum case '\(n)' takes \(c.payloadTypes.count) associated values, got \(args.count)")
            }
            let payload = args.enumerated().map { i, a in expr(a.expr, expected: c.payloadTypes[i].expectation) }
            return EnumCaseExpr(at, typeID: info.id, caseIndex: ci, payload: payload)
        }
        if let f = pick(info.staticMethods, n, args, skipSelf: false) { return callFunction(f, args, at, skipSelf: false) }
        if let ci = info.staticConstants[n] {
            let v = ConstantExpr(at, program.cells[ci], info.staticTypes[n] ?? .unknown)
            return callValue(v, args, at)
        }
        // `Dashboard.Widget(title:)`: a nested type (declared in the type or in an extension of it) constructed.
        if let nested = program.type(named: "\(info.name).\(n)") { return initializer(nested, args, node, at: at) }
        return bad(node, "type '\(info.name)' has no member '\(n)'")
    }
}

extension Expr {
    /// Reports a diagnostic at `at` and stands in for the failed expression.
    func reporting(_ c: Compiler, _ at: SourceLocation, _ message: String) -> Expr {
        c.diagnostics.append(Diagnostic(at, message))
        return self
    }
}
