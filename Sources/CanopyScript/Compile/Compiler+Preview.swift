import SwiftSyntax

/// `#Preview("Name", traits: .modifier(SampleData())) { SignupForm() }`: what a program tree shows by default.
extension Compiler {
    func declarePreview(_ m: some FreestandingMacroExpansionSyntax) {
        guard m.macroName.text == "Preview" else {
            return error(m, "macro '#\(m.macroName.text)' is not part of Canopy's Swift subset")
        }
        guard let body = m.trailingClosure else { return error(m, "#Preview needs a closure with the view it shows") }
        var name: String?
        var modifiers: [String] = []
        for a in m.arguments {
            if a.label == nil, let s = a.expression.as(StringLiteralExprSyntax.self) { name = s.segments.trimmedDescription }
            if a.label?.text == "traits" {
                // `.modifier(M())`, possibly several traits: each `.modifier(…)` names a preview modifier.
                let finder = ModifierTraitFinder()
                finder.walk(a.expression)
                modifiers += finder.names
            }
        }
        let fn = Function(name: "#Preview", location: loc(m))
        fn.isBuilder = true
        fn.returnType = .opaque("View")
        program.previews.append(PreviewInfo(name: name, function: fn, modifiers: modifiers))
        compileLater { c in
            c.compileBody(fn, body.statements, selfType: nil, isStatic: true, mutating: false, generics: [])
        }
    }
}

extension Compiler {
    /// A freestanding macro written as a top-level statement.
    func topLevelMacro(_ item: CodeBlockItemSyntax.Item) -> MacroExpansionExprSyntax? {
        if let e = item.as(MacroExpansionExprSyntax.self) { return e }
        return item.as(ExpressionStmtSyntax.self)?.expression.as(MacroExpansionExprSyntax.self)
    }
}

/// Collects `X` of every `.modifier(X())` in a preview's traits.
final class ModifierTraitFinder: SyntaxVisitor {
    var names: [String] = []

    init() { super.init(viewMode: .sourceAccurate) }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if let m = node.calledExpression.as(MemberAccessExprSyntax.self), m.declName.baseName.text == "modifier",
            let inner = node.arguments.first?.expression.as(FunctionCallExprSyntax.self)
        {
            names.append(inner.calledExpression.trimmedDescription)
            return .skipChildren
        }
        return .visitChildren
    }
}
