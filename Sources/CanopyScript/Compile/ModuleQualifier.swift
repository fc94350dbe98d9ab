import SwiftSyntax

/// Removes module qualifiers from expressions (`Swift.max(a, b)`, `SwiftUI.ScrollView { … }`): Canopy's programs
/// see one namespace. The qualifier becomes spaces, so every later column stays where the source has it.
final class ModuleQualifierRemover: SyntaxRewriter {
    static let modules: Set<String> = ["Swift", "SwiftUI", "Foundation", "Combine", "UIKit", "CoreGraphics"]
    /// Where each name that was qualified starts: `Swift.min` never means a local `min`.
    var qualified: Set<AbsolutePosition> = []

    override func visit(_ node: MemberAccessExprSyntax) -> ExprSyntax {
        guard let base = node.base?.as(DeclReferenceExprSyntax.self), Self.modules.contains(base.baseName.text),
            base.argumentNames == nil
        else { return super.visit(node) }
        let width = base.baseName.text.utf8.count + 1
        qualified.insert(node.declName.positionAfterSkippingLeadingTrivia)
        var name = node.declName
        name.leadingTrivia = base.leadingTrivia + Trivia(pieces: [.spaces(width)])
        return ExprSyntax(name)
    }
}
