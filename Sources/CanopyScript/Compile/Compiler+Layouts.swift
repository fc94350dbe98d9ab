import SwiftSyntax

/// Views laid out by a `Layout` (LAYOUT.md §4): `MyLayout(spacing: 4) { … }`, `layout { … }` with a value of a
/// layout type (Swift calls its `callAsFunction`), and the requirements Canopy does not run.
extension Compiler {
    /// Whether values of `t` are layouts: a type conforming to `Layout` (`AnyLayout`, `HStackLayout` included).
    func isLayoutType(_ t: TypeRef) -> Bool {
        guard case .named(let id) = t.unwrapped else { return false }
        let info = program.types[id]
        return info.kind != .protocolType && info.conforms(to: "Layout")
    }

    /// `MyLayout(args) { content }`: the layout made with `args`, laying out the content's views.
    func layoutView(_ info: TypeInfo, _ args: [ArgSyntax], _ node: some SyntaxProtocol, _ at: SourceLocation) -> Expr? {
        guard info.kind != .protocolType, info.conforms(to: "Layout"), let last = args.last, last.trailing,
            last.label == nil, let content = last.expr.as(ClosureExprSyntax.self)
        else { return nil }
        let layout = initializer(info, Array(args.dropLast()), node, at: at)
        return layoutView(layout, content, at)
    }

    /// `layout { content }` where `layout` is a value of a layout type.
    func layoutView(value: Expr, _ args: [ArgSyntax], _ at: SourceLocation) -> Expr? {
        guard isLayoutType(value.type), args.count == 1, args[0].label == nil || args[0].label == "content",
            let content = args[0].expr.as(ClosureExprSyntax.self)
        else { return nil }
        return layoutView(value, content, at)
    }

    private func layoutView(_ layout: Expr, _ content: ClosureExprSyntax, _ at: SourceLocation) -> Expr {
        var name = "Layout"
        if case .named(let id) = layout.type.unwrapped { name = program.types[id].name }
        return ViewInitExpr(at, name, [.prop("layout", layout), .content(builderClosure(content))])
    }

    /// The parts of the `Layout` protocol Canopy does not run are compile errors on the program's layouts, not
    /// silently SwiftUI's defaults.
    func checkLayoutConformances() {
        let refused: [(String, String)] = [
            ("explicitAlignment(of:in:proposal:subviews:cache:)", "a Layout's explicitAlignment"),
            ("spacing(subviews:cache:)", "a Layout's own spacing(subviews:cache:)"),
        ]
        let builtIn: Set = ["HStackLayout", "VStackLayout", "ZStackLayout", "AnyLayout"]
        for t in program.types where t.kind != .protocolType && t.conforms(to: "Layout") && !builtIn.contains(t.name) {
            for method in ["sizeThatFits(proposal:subviews:cache:)", "placeSubviews(in:proposal:subviews:cache:)"]
            where t.methods[method] == nil {
                diagnostics.append(
                    Diagnostic(t.location, "type '\(t.name)' does not conform to protocol 'Layout': add \(method)"))
            }
            for (method, what) in refused {
                guard let f = t.methods[method] else { continue }
                diagnostics.append(
                    Diagnostic(f.location, "\(what) is not part of Canopy's Swift subset yet: remove it to use SwiftUI's default"))
            }
            if t.staticTypes["layoutProperties"] != nil || t.staticConstants["layoutProperties"] != nil
                || t.staticMethods.keys.contains(where: { $0.hasPrefix("layoutProperties") })
            {
                diagnostics.append(
                    Diagnostic(t.location, "a Layout's layoutProperties is not part of Canopy's Swift subset yet"))
            }
        }
    }

    /// `dimensions[.leading]`, `d[VerticalAlignment.center]`: a `ViewDimensions`' guide, its axis from the guide
    /// (`.center` alone is ambiguous, as in Swift).
    func dimensionGuide(_ base: Expr, _ args: [LabeledExprSyntax], _ s: SubscriptCallExprSyntax) -> Expr? {
        guard case .named(let id) = base.type.unwrapped, program.types[id].name == "ViewDimensions" else { return nil }
        guard args.count == 1, args[0].label == nil, let m = args[0].expression.as(MemberAccessExprSyntax.self) else {
            return bad(s, "a ViewDimensions subscript takes an alignment guide such as .leading or VerticalAlignment.center")
        }
        let guide = m.declName.baseName.text
        let owner = m.base?.trimmedDescription
        let horizontal: Bool
        switch (owner, guide) {
        case ("HorizontalAlignment", _), (nil, "leading"), (nil, "trailing"): horizontal = true
        case ("VerticalAlignment", _), (nil, "top"), (nil, "bottom"), (nil, "firstTextBaseline"),
            (nil, "lastTextBaseline"):
            horizontal = false
        case (nil, "center"):
            return bad(s, "ambiguous use of 'center': write HorizontalAlignment.center or VerticalAlignment.center")
        default:
            return bad(s, "'\(m.trimmedDescription)' is not an alignment guide Canopy knows (custom alignment guides are not part of Canopy's Swift subset yet)")
        }
        guard let method = program.types[id].methods[horizontal ? "__horizontal(_:)" : "__vertical(_:)"] else {
            return nil
        }
        return DirectMethodCallExpr(loc(s), receiver: base, method, [.value(LiteralExpr(loc(m), .string(guide), .opaque(horizontal ? "HorizontalAlignment" : "VerticalAlignment")))])
    }
}
