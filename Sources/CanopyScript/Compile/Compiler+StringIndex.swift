/// Where `StringIndexPrelude` meets the compiler: a `String`'s index members bound to the prelude's extension,
/// `s[i]` and `s[i..<j]`, and the partial ranges `..<i`, `...i`, `i...` of indices.
extension Compiler {
    /// A `Unicode.Scalar` is a one-scalar string here; its `value` is refused like `asciiValue`.
    static let scalarValueMessage = "a Unicode.Scalar's 'value' is not part of Canopy's Swift subset: it is a UInt32 in "
        + "Swift, whose arithmetic traps where Int's would not ('s.value - 100' on \"a\"); compare scalars or characters instead"

    /// The prelude's `extension String`, when the program has it and it declares `n`.
    func stringIndexExtension(_ n: String) -> TypeInfo? {
        guard StringIndexPrelude.members.contains(n), program.typeIndex["__StringIndex"] != nil,
            let t = program.builtinTypes[.string]
        else { return nil }
        let info = program.types[t]
        return info.methods.keys.contains { $0 == n || $0.hasPrefix(n + "(") } ? info : nil
    }

    /// The prelude's method a call `s.n(args)` names by its labels exactly (a trailing closure is `where:`), so
    /// `s.prefix(3)` and `s.prefix { … }` stay the library's.
    func stringIndexMethod(_ n: String, _ args: [ArgSyntax]) -> Function? {
        let labels = args.map { $0.trailing && $0.label == nil ? "where" : $0.label }
        return stringIndexExtension(n)?.methods[Compiler.fullName(n, labels)]
    }

    /// `s[i]` (a `Character`) and `s[r]` for a range of indices (a substring), or nil for other subscripts.
    func stringIndexSubscript(_ base: Expr, _ index: Expr, at: SourceLocation) -> Expr? {
        guard case .named(let id) = index.type else { return nil }
        let name: String
        switch program.types[id].name {
        case "__StringIndex": name = "__character(at:)"
        case "__StringRange": name = "__substring(_:)"
        default: return nil
        }
        guard let info = stringIndexExtension(String(name.prefix { $0 != "(" })), let f = info.methods[name] else { return nil }
        return DirectMethodCallExpr(at, receiver: base, f, [.value(index)])
    }

    /// `..<i`, `...i`, `i...` of a `String.Index`: the prelude's range, or nil for other operands.
    func stringIndexRange(_ name: String, _ operand: Expr, _ at: SourceLocation) -> Expr? {
        guard case .named(let id) = operand.type, program.types[id].name == "__StringIndex",
            let f = program.types[id].staticMethods[name]
        else { return nil }
        return CallFunctionExpr(at, f, [.value(operand)], f.returnType)
    }
}
