import SwiftSyntax

extension Compiler {
    /// The parameter types of a method a program or the Foundation prelude declares in an extension of a library
    /// type (`extension Double { func formatted(_ style: …) }`), matched by name and labels: what its arguments
    /// expect, so an implicit member argument (`x.formatted(.number.precision(.fractionLength(2)))`) resolves
    /// against the parameter's type. Nil when there is no such method.
    func extensionArgumentTypes(_ receiver: TypeRef, _ n: String, _ labels: [String?]) -> [TypeRef?]? {
        guard let kind = receiver.libraryKind, let t = program.builtinTypes[kind],
            let f = program.types[t].methods[Compiler.fullName(n, labels)]
        else { return nil }
        let types = Array(f.parameterTypes.dropFirst(f.hasSelf ? 1 : 0))
        guard types.count == labels.count else { return nil }
        return types.map { $0.expectation }
    }
}

extension Compiler {
    /// The type the receiver of a method call inside an implicit member chain is looked up in: as in Swift, the
    /// chain `.number.precision(.fractionLength(2))` starts in the type its context expects. Nil for any other
    /// receiver, or when the context expects no program type.
    func implicitChainExpectation(_ base: ExprSyntax, _ expected: TypeRef?) -> TypeRef? {
        switch expected?.unwrapped {
        case .named?: break
        // `.blue.opacity(0.5)` where a Color is expected: `.blue` is `Color.blue`.
        case .opaque(let name)? where Compiler.colorTypes.contains(name): break
        default: return nil
        }
        var e = base
        while true {
            if let c = e.as(FunctionCallExprSyntax.self) {
                e = c.calledExpression
            } else if let m = e.as(MemberAccessExprSyntax.self) {
                guard let b = m.base else { return expected?.unwrapped }
                e = b
            } else {
                return nil
            }
        }
    }
}
