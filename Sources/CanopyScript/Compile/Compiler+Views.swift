import SwiftSyntax

/// View code (PROGRAMS.md §3–§4): SwiftUI's views and modifiers, `@ViewBuilder` blocks, wrapped properties.
extension Compiler {
    /// The accumulator of the `@ViewBuilder` block being compiled; `branchSlot` while the blocks of a builder
    /// `if`/`switch` are compiled (each block records its number there).
    struct BuilderState {
        var accumulator: Int
        var branchSlot: Int?
        var nextBranch = 0
        var awaitingBranch = false
    }

    /// Whether values of `t` are views: SwiftUI's, the program's view structs, `some View`, a view generic.
    func isViewType(_ t: TypeRef) -> Bool {
        switch t.unwrapped {
        case .opaque(let n): return n == "View" || Compiler.viewNames.contains(n)
        case .named(let id): return program.types[id].name == "View" || program.types[id].conforms(to: "View")
        case .generic(let n):
            if n == "Content" || n == "Label" || n == "Body" { return true }
            return constraint(of: n) == "View"
        default: return false
        }
    }

    /// Whether values of `t` are known not to be views (a number, a string, a SwiftUI constant such as
    /// `Font.title`): a modifier on one or a builder statement of one is an error Swift reports too.
    func isNeverAView(_ t: TypeRef) -> Bool {
        switch t.unwrapped {
        case .int, .double, .bool, .string, .range, .dictionary, .set, .tuple, .function, .metatype, .void: return true
        case .opaque(let n): return n == "member"
        case .named(let id):
            let info = program.types[id]
            return info.kind != .protocolType && !info.conforms(to: "View")
        case .array(let e): return isNeverAView(e)
        default: return false
        }
    }

    /// Whether `id` is a view struct or the `View` protocol (an `extension View`).
    func isViewTypeID(_ id: TypeID) -> Bool {
        program.types[id].name == "View" || program.types[id].conforms(to: "View")
    }

    // MARK: Views

    /// `Name(args)` for a SwiftUI view.
    func viewInit(_ name: String, _ args: [ArgSyntax], _ node: some SyntaxProtocol) -> Expr {
        let at = loc(node)
        if name == "GeometryReader" { return geometryReader(args, node) }
        if name == "Grid" || name == "GridRow" {
            return bad(node, "'\(name)' is not part of Canopy's Swift subset yet: its columns are not laid out; use a VStack of HStacks with fixed or flexible frames")
        }
        if name == "ViewThatFits" {
            return bad(node, "'ViewThatFits' is not part of Canopy's Swift subset yet: it would show every candidate; pick one with a GeometryReader")
        }
        var out: [ViewArgument] = []
        var unlabeled = 0
        // A Button's first unlabeled closure is its action (`Button("Save") { … }`, `Button { … } label: { … }`),
        // unless `action:` is given (`Button(action: save) { Text("Save") }`: the closure is the label).
        let buttonAction: Int? =
            name == "Button" && !args.contains(where: { $0.label == "action" })
            ? args.firstIndex { $0.label == nil && $0.expr.is(ClosureExprSyntax.self) } : nil
        for (i, a) in args.enumerated() {
            let isClosure = a.expr.is(ClosureExprSyntax.self)
            if let label = a.label, Compiler.handlerLabels.contains(label) {
                out.append(.handler(label, expr(a.expr, expected: nil)))
            } else if i == buttonAction {
                out.append(.handler("action", expr(a.expr, expected: nil)))
            } else if isClosure && (a.label == nil || Compiler.contentLabels.contains(a.label!)) {
                out.append(.content(builderClosure(a.expr.as(ClosureExprSyntax.self)!)))
            } else if let label = a.label {
                if name == "Text" && label == "verbatim" {
                    out.append(.prop("text", expr(a.expr, expected: .string)))
                } else if Compiler.contentLabels.contains(label) {
                    let e = viewOperand(a.expr)
                    out.append(.prop(label, e))
                } else if label == "spacing" || label == "minLength" {
                    // CGFloat arguments of stacks and Spacer: `HStack(spacing: 10 / 4)` is 2.5 in Swift.
                    out.append(.prop(label, expr(a.expr, expected: .optional(.double))))
                } else {
                    out.append(.prop(label, expr(a.expr, expected: nil)))
                }
            } else {
                let label: String
                if unlabeled == 0 {
                    label = ["Text"].contains(name) ? "text"
                        : ["TextField", "SecureField", "Button", "Toggle", "Stepper", "Label", "Section", "Picker",
                            "Link", "Menu", "LabeledContent", "GroupBox", "DisclosureGroup"].contains(name) ? "title"
                        : name == "ForEach" ? "data" : "_0"
                } else {
                    label = "_\(unlabeled)"
                }
                unlabeled += 1
                out.append(.prop(label, viewOperand(a.expr)))
            }
        }
        return ViewInitExpr(at, name, out)
    }

    /// `GeometryReader { proxy in … }`: its content closure is kept, not run: the program tree runs it with a
    /// `GeometryProxy` once layout knows the reader's place, and again when what it read changes.
    func geometryReader(_ args: [ArgSyntax], _ node: some SyntaxProtocol) -> Expr {
        guard args.count == 1, args[0].label == nil || args[0].label == "content",
            let c = args[0].expr.as(ClosureExprSyntax.self)
        else { return bad(node, "GeometryReader takes one content closure: GeometryReader { proxy in … }") }
        guard let proxy = program.type(named: "GeometryProxy") else { return bad(node, "GeometryProxy is missing") }
        let content = closure(c, expected: .function([.named(proxy.id)], .opaque("View")), builder: true)
        return ViewInitExpr(loc(node), "GeometryReader", [.handler("content", content)])
    }

    /// An expression where a view may be written: `Color.gray` there is a `Color` node.
    func viewOperand(_ e: ExprSyntax) -> Expr {
        if let m = e.as(MemberAccessExprSyntax.self), let base = m.base?.as(DeclReferenceExprSyntax.self),
            Compiler.viewNames.contains(base.baseName.text), lookupType(base.baseName.text, from: nil) == nil
        {
            return ViewLeafExpr(loc(e), base.baseName.text, member: m.declName.baseName.text)
        }
        return expr(e, expected: nil)
    }

    /// A `@ViewBuilder` closure: several statements build several views.
    func builderClosure(_ c: ClosureExprSyntax) -> Expr { closure(c, expected: nil, builder: true) }

    // MARK: Modifiers

    /// `receiver.name(args)` on a view, where no method of the program has that name.
    func modifier(_ receiver: Expr, _ n: String, _ args: [ArgSyntax], _ node: some SyntaxProtocol) -> Expr {
        let at = loc(node)
        func keyType(_ a: ArgSyntax?) -> TypeID? {
            guard let a else { return nil }
            let e = expr(a.expr, expected: nil)
            if case .metatype(.named(let id)) = e.type, program.types[id].conforms(to: "PreferenceKey") { return id }
            error(a.expr, "expected a PreferenceKey type such as 'MyKey.self'")
            return nil
        }
        func closureArg() -> ArgSyntax? { args.first { $0.expr.is(ClosureExprSyntax.self) } }
        switch n {
        case "preference":
            guard args.count == 2, let key = keyType(args.first(where: { $0.label == "key" })),
                let v = args.first(where: { $0.label == "value" })
            else { return bad(node, "preference takes (key: K.self, value: …)") }
            let value = expr(v.expr, expected: keyValueType(key))
            return ModifierExpr(at, base: receiver, .preference(key: key, value: value))
        case "onPreferenceChange", "transformPreference":
            guard let key = keyType(args.first), let c = args.dropFirst().first else {
                return bad(node, "\(n) takes a key type and a closure: \(n)(MyKey.self) { … }")
            }
            if n == "transformPreference" {
                guard let closure = c.expr.as(ClosureExprSyntax.self) else {
                    return bad(c.expr, "transformPreference needs a closure literal")
                }
                return ModifierExpr(at, base: receiver, .transformPreference(key: key, source: closure.trimmedDescription))
            }
            let perform = expr(c.expr, expected: .function([keyValueType(key) ?? .unknown], .void))
            return ModifierExpr(at, base: receiver, .onPreferenceChange(key: key, perform: perform))
        case "background", "overlay":
            var content: Expr?
            var isClosure = false
            var isStyle = false
            var shape: Expr?
            var rest: [(String, Expr)] = []
            for a in args {
                if a.label == nil || a.label == "content" {
                    if let c = a.expr.as(ClosureExprSyntax.self) {
                        content = builderClosure(c)
                        isClosure = true
                    } else if startsWithImplicitMember(a.expr) {
                        // A shape style (`.background(.blue)`, `.background(.red.opacity(0.2))`) fills the view's
                        // bounds as a colour does.
                        content = expr(a.expr, expected: .opaque("Color"))
                        isStyle = true
                    } else {
                        content = viewOperand(a.expr)
                        isStyle = isColor(a.expr)
                    }
                } else if a.label == "in" {
                    shape = viewOperand(a.expr)
                } else {
                    rest.append((a.label!, expr(a.expr, expected: nil)))
                }
            }
            if let shape {
                // `.background(.blue, in: Capsule())`, `.background(in: Capsule())`: the shape, filled with the
                // style, is the layer.
                let at = loc(node)
                content = content.map { ModifierExpr(at, base: shape, .other(name: "fill", args: [("_0", $0)])) } ?? shape
            }
            guard let content else { return bad(node, "\(n) needs a view") }
            // A `@ViewBuilder` closure (`.overlay(alignment: .top) { … }`) makes its views when it runs.
            if !isClosure, isNeverAView(content.type) {
                return bad(node, "\(n) needs a view; a value of type '\(program.name(of: content.type))' is not one")
            }
            // A shape style alone (`.background(.blue)`, `.background(Color.red)`: Color is a ShapeStyle, and the
            // view form is disfavoured) is SwiftUI's `background(_:ignoresSafeAreaEdges: .all)`: the layer grows into
            // the safe area the view reaches. The layout reads the edges from this argument.
            let styleForm = !isClosure && shape == nil && !rest.contains { $0.0 == "alignment" }
                && (isStyle || content.type == .opaque("Color"))
            if styleForm, !rest.contains(where: { $0.0 == "ignoresSafeAreaEdges" }) {
                rest.append(("ignoresSafeAreaEdges", LiteralExpr(at, .string("all"), .unknown)))
            }
            return ModifierExpr(at, base: receiver, .attached(kind: n, view: content, args: rest))
        case "environment":
            guard args.count == 2, let k = args[0].expr.as(KeyPathExprSyntax.self), k.components.count == 1,
                case .property(let p) = k.components.first!.component
            else { return bad(node, "environment takes a key path and a value: .environment(\\.name, value)") }
            let key = p.declName.baseName.text
            return ModifierExpr(at, base: receiver, .environment(key: key, value: expr(args[1].expr, expected: environmentType(key))))
        case "onChange":
            guard let of = args.first(where: { $0.label == "of" }), let c = closureArg() else {
                return bad(node, "onChange takes (of: value) and a closure")
            }
            let initial = args.first { $0.label == "initial" }.map { expr($0.expr, expected: .bool) }
            let value = expr(of.expr, expected: nil)
            let action = expr(c.expr, expected: .function([value.type, value.type], .void))
            return ModifierExpr(at, base: receiver, .onChange(value: value, action: action, initial: initial))
        case "onReceive":
            guard let publisher = args.first, let c = closureArg() else {
                return bad(node, "onReceive takes a publisher and a closure")
            }
            return ModifierExpr(at, base: receiver, .onReceive(name: notificationName(publisher.expr), action: expr(c.expr, expected: nil)))
        case "onAppear", "onDisappear", "task":
            // Accepted, they would never run: SwiftUI runs them as views appear and disappear.
            return bad(node, "'\(n)' is not part of Canopy's Swift subset yet: lifecycle closures do not run in a program tree")
        case "onSubmit":
            // A closure, or a function named as one: `.onSubmit(perform: save)`.
            guard let c = closureArg() ?? args.first(where: { $0.label == "perform" || $0.label == nil })
            else { return bad(node, "\(n) needs a closure") }
            return ModifierExpr(at, base: receiver, .action(kind: n, action: expr(c.expr, expected: .function([], .void))))
        case "anchorPreference":
            guard let key = keyType(args.first(where: { $0.label == "key" })),
                let source = args.first(where: { $0.label == "value" }),
                let transform = args.first(where: { $0.label == "transform" }) ?? closureArg(),
                let anchor = program.type(named: "Anchor")
            else { return bad(node, "anchorPreference takes (key: K.self, value: .bounds) { anchor in … }") }
            let f = expr(transform.expr, expected: .function([.named(anchor.id)], keyValueType(key) ?? .unknown))
            return ModifierExpr(
                at, base: receiver,
                .anchorPreference(key: key, source: expr(source.expr, expected: nil), transform: f, merging: false))
        case "transformAnchorPreference":
            guard let key = keyType(args.first(where: { $0.label == "key" })),
                let source = args.first(where: { $0.label == "value" }),
                let transform = args.first(where: { $0.label == "transform" }) ?? closureArg(),
                let anchor = program.type(named: "Anchor")
            else {
                return bad(node, "transformAnchorPreference takes (key: K.self, value: .bounds) { value, anchor in … }")
            }
            let f = expr(transform.expr, expected: .function([keyValueType(key) ?? .unknown, .named(anchor.id)], .void))
            return ModifierExpr(
                at, base: receiver,
                .anchorPreference(key: key, source: expr(source.expr, expected: nil), transform: f, merging: true))
        case "overlayPreferenceValue", "backgroundPreferenceValue":
            guard let key = keyType(args.first), let c = closureArg()?.expr.as(ClosureExprSyntax.self) else {
                return bad(node, "\(n) takes a key type and a view closure: \(n)(MyKey.self) { value in … }")
            }
            let alignment = args.first { $0.label == "alignment" }.map { expr($0.expr, expected: nil) }
            let content = closure(c, expected: .function([keyValueType(key) ?? .unknown], .opaque("View")), builder: true)
            return ModifierExpr(
                at, base: receiver,
                .preferenceValue(overlay: n == "overlayPreferenceValue", key: key, alignment: alignment, content: content))
        case "coordinateSpace":
            // `.coordinateSpace(name: "scroll")`, or iOS 17's `.coordinateSpace(.named("scroll"))`.
            guard args.count == 1, let space = program.type(named: "CoordinateSpace") else {
                return bad(node, "coordinateSpace takes a name: .coordinateSpace(name: \"scroll\")")
            }
            let value = args[0].label == "name" ? expr(args[0].expr, expected: nil) : expr(args[0].expr, expected: .named(space.id))
            return ModifierExpr(at, base: receiver, .other(name: "coordinateSpace", args: [(args[0].label ?? "_0", value)]))
        case "rotation3DEffect", "projectionEffect", "transformEffect":
            return bad(node, "'\(n)' is not part of Canopy's Swift subset yet: frames read through a 3D, projective or arbitrary affine transform are not modelled, so they would differ from SwiftUI's; use scaleEffect, rotationEffect or offset")
        case "alignmentGuide":
            return bad(node, "'alignmentGuide' is not part of Canopy's Swift subset yet: its closure does not run in layout, so the views would not line up as in SwiftUI; use frame(alignment:), padding or offset")
        case "safeAreaInset", "safeAreaPadding":
            return bad(node, "'\(n)' is not part of Canopy's Swift subset yet: the safe area is not laid out; use padding, or a VStack with the bar after the content")
        case "containerRelativeFrame", "contentMargins", "defaultScrollAnchor", "matchedGeometryEffect":
            return bad(node, "'\(n)' is not part of Canopy's Swift subset yet: the layout does not apply it, so frames would differ from SwiftUI's; use a GeometryReader, padding or frame")
        case "onGeometryChange":
            // `.onGeometryChange(for: T.self, of: { proxy in … }) { new in … }` (or `{ old, new in … }`).
            // `of:` is labelled or the first trailing closure; `action:` labelled (also as a trailing closure) or
            // the only trailing closure after a labelled `of:`.
            let of = args.first { $0.label == "of" } ?? args.first { $0.trailing && $0.label == nil }
            let action = args.first { $0.label == "action" } ?? args.last { $0.trailing && $0.label == nil && $0.expr.id != of?.expr.id }
            guard let of, let action, let proxy = program.type(named: "GeometryProxy") else { return bad(node, "onGeometryChange takes (for: T.self, of: { proxy in … }) and an action closure") }
            var valueType = TypeRef.unknown
            if let t = args.first(where: { $0.label == "for" }), case .metatype(let m) = expr(t.expr, expected: nil).type {
                valueType = m
            }
            let transform = expr(of.expr, expected: .function([.named(proxy.id)], valueType))
            let perform = expr(action.expr, expected: nil)
            return ModifierExpr(at, base: receiver, .geometryChange(of: transform, action: perform))
        case "id":
            guard args.count == 1 else { return bad(node, "id takes one value") }
            return ModifierExpr(at, base: receiver, .id(expr(args[0].expr, expected: nil)))
        default:
            var evaluated: [(String, Expr)] = []
            var unlabeled = 0
            for a in args {
                let label = a.label ?? "_\(unlabeled)"
                if a.label == nil { unlabeled += 1 }
                if let c = a.expr.as(ClosureExprSyntax.self) {
                    // Closures of modifiers without a meaning here (`.sheet { … }` content) are built, not shown.
                    evaluated.append((label, closure(c, expected: nil, builder: true)))
                } else if let t = layoutArgumentType(n, label, a.expr) {
                    evaluated.append((label, expr(a.expr, expected: t)))
                } else {
                    evaluated.append((label, viewOperand(a.expr)))
                }
            }
            return ModifierExpr(at, base: receiver, .other(name: n, args: evaluated))
        }
    }

    /// The type SwiftUI gives an argument of a layout modifier, so that its literals and implicit members mean
    /// what they mean in Swift: `.frame(width: 100 / 3)` divides CGFloats (33.33, not 33), `.frame(maxWidth:
    /// .greatestFiniteMagnitude)` is a number, `.offset(.zero)` is `CGSize.zero`, `.padding(.init(top: …))` is an
    /// `EdgeInsets`. Nil where the argument is not a number or a geometry value (an alignment, an edge set).
    func layoutArgumentType(_ modifier: String, _ label: String, _ e: ExprSyntax) -> TypeRef? {
        func named(_ name: String) -> TypeRef? { program.type(named: name).map { .named($0.id) } }
        let implicitInit = isImplicitInit(e)
        switch (modifier, label) {
        case ("frame", "alignment"): return nil
        case ("frame", _): return .optional(.double)
        case ("padding", "_0"):
            if e.is(ArrayExprSyntax.self) { return nil }
            if implicitInit { return named("EdgeInsets") }
            if let m = e.as(MemberAccessExprSyntax.self), m.base == nil { return nil }
            return .double
        case ("padding", "_1"), ("offset", "x"), ("offset", "y"), ("position", "x"), ("position", "y"),
            ("layoutPriority", "_0"):
            return .double
        case ("offset", "_0"): return named("CGSize")
        case ("scaleEffect", "_0"): return implicitInit || isCGSize(e) ? named("CGSize") : .double
        case ("scaleEffect", "x"), ("scaleEffect", "y"): return .double
        case ("rotationEffect", "_0"): return named("Angle")
        case ("scaleEffect", "anchor"), ("rotationEffect", "anchor"): return named("UnitPoint")
        case ("position", "_0"): return named("CGPoint")
        case ("aspectRatio", "_0"): return implicitInit ? named("CGSize") : .optional(.double)
        default: return nil
        }
    }

    /// A `Color` written as one: `Color.red`, `Color(red:green:blue:)`, either with `.opacity(…)` (Color's own, which
    /// returns a Color).
    func isColor(_ e: ExprSyntax) -> Bool {
        var current = e
        while let call = current.as(FunctionCallExprSyntax.self), let m = call.calledExpression.as(MemberAccessExprSyntax.self),
            let base = m.base, m.declName.baseName.text == "opacity"
        {
            current = base
        }
        if let call = current.as(FunctionCallExprSyntax.self) { return call.calledExpression.trimmedDescription == "Color" }
        if let m = current.as(MemberAccessExprSyntax.self) { return m.base?.trimmedDescription == "Color" }
        return false
    }

    /// `CGSize(…)` or a name of a `CGSize`: `scaleEffect`'s size form rather than its number.
    func isCGSize(_ e: ExprSyntax) -> Bool {
        if let call = e.as(FunctionCallExprSyntax.self), call.calledExpression.trimmedDescription == "CGSize" { return true }
        guard e.is(DeclReferenceExprSyntax.self) || e.is(MemberAccessExprSyntax.self),
            let size = program.type(named: "CGSize")
        else { return false }
        return expr(e, expected: nil).type == .named(size.id)
    }

    /// `.init(…)`: an initializer whose type the context gives.
    func isImplicitInit(_ e: ExprSyntax) -> Bool {
        guard let call = e.as(FunctionCallExprSyntax.self), let m = call.calledExpression.as(MemberAccessExprSyntax.self)
        else { return false }
        return m.base == nil && m.declName.baseName.text == "init"
    }

    /// Whether an expression starts with an implicit member: `.blue`, `.red.opacity(0.5)`, `.init(white: 0.9)`.
    func startsWithImplicitMember(_ e: ExprSyntax) -> Bool {
        var current = e
        while true {
            if let m = current.as(MemberAccessExprSyntax.self) {
                guard let base = m.base else { return true }
                current = base
            } else if let c = current.as(FunctionCallExprSyntax.self) {
                current = c.calledExpression
            } else {
                return false
            }
        }
    }

    /// The `Value` type of a preference key.
    func keyValueType(_ key: TypeID?) -> TypeRef? {
        guard let key else { return nil }
        let info = program.types[key]
        if let a = info.aliases["Value"] { return a }
        if let t = info.staticTypes["defaultValue"], t.isKnown { return t }
        return nil
    }

    /// The type of an `EnvironmentValues` property the program declares.
    func environmentType(_ key: String) -> TypeRef? {
        guard let env = program.type(named: "EnvironmentValues"), let getter = env.methods[key] else { return nil }
        return getter.returnType.expectation
    }

    /// The notification an `onReceive` publisher stands for, as written: `UIApplication.didBecomeActiveNotification`,
    /// or the raw string of `Notification.Name("…")`.
    func notificationName(_ e: ExprSyntax) -> String {
        var target = e
        if let call = e.as(FunctionCallExprSyntax.self), let arg = call.arguments.first(where: { $0.label?.text == "for" }) {
            target = arg.expression
        }
        if let call = target.as(FunctionCallExprSyntax.self), call.calledExpression.trimmedDescription.hasSuffix("Name"),
            let s = call.arguments.first?.expression.as(StringLiteralExprSyntax.self)
        {
            return s.segments.trimmedDescription
        }
        return target.trimmedDescription
    }

    // MARK: Builder blocks

    /// A `@ViewBuilder` body: every expression statement is a view, `if`/`switch` become `If` views.
    func builderStatements(_ items: CodeBlockItemListSyntax) -> [Stmt] {
        let at = loc(items)
        let acc = context.declare("#views\(context.function.slotCount)", type: .unknown, mutable: true).slot
        let saved = builder
        builder = BuilderState(accumulator: acc)
        defer { builder = saved }
        var out: [Stmt] = [BuilderStartStmt(at, slot: acc)]
        for item in flatten(items) { out.append(contentsOf: statement(item.item)) }
        out.append(ReturnStmt(at, value: BuilderResultExpr(at, slot: acc), type: .opaque("View")))
        return out
    }

    /// An `if` or `switch` statement inside a builder block.
    func builderConditional(_ at: SourceLocation, _ body: () -> Stmt) -> Stmt {
        let outer = builder!.accumulator
        let inner = context.declare("#views\(context.function.slotCount)", type: .unknown, mutable: true).slot
        let branch = context.declare("#branch\(context.function.slotCount)", type: .int, mutable: true).slot
        let saved = builder
        builder = BuilderState(accumulator: inner, branchSlot: branch, nextBranch: 0, awaitingBranch: true)
        let s = body()
        builder = saved
        return BuilderConditionalStmt(at, outer: outer, inner: inner, branchSlot: branch, body: s)
    }

    /// Whether a block has a `return` of its own (then it is not a builder, as in Swift).
    func hasExplicitReturn(_ items: CodeBlockItemListSyntax) -> Bool {
        let finder = ReturnFinder()
        finder.walk(items)
        return finder.found
    }
}

/// Finds a `return` outside nested closures and functions.
final class ReturnFinder: SyntaxVisitor {
    var found = false

    init() { super.init(viewMode: .sourceAccurate) }

    override func visit(_ node: ReturnStmtSyntax) -> SyntaxVisitorContinueKind {
        found = true
        return .skipChildren
    }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}
