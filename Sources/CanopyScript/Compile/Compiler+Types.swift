import SwiftSyntax

/// Type syntax to `TypeRef`, with the names in scope: generic parameters, the enclosing types' aliases and nested
/// types, the program's types and aliases, the library's.
extension Compiler {
    /// One case per kind of type swift-syntax has (see `exprInner`).
    func resolveType(_ t: TypeSyntax, in owner: TypeID?, generics: Set<String>, quiet: Bool = false) -> TypeRef {
        func resolve(_ t: TypeSyntax) -> TypeRef { resolveType(t, in: owner, generics: generics, quiet: quiet) }
        func refuse(_ message: String) -> TypeRef {
            if !quiet { error(t, message) }
            return .unknown
        }
        switch t.as(TypeSyntaxEnum.self) {
        case .optionalType(let o):
            let wrapped = resolve(o.wrappedType)
            if wrapped.isOptional, !quiet { error(t, Compiler.nestedOptionalMessage(program.name(of: .optional(wrapped)))) }
            return .optional(wrapped)
        case .implicitlyUnwrappedOptionalType(let o): return .optional(resolve(o.wrappedType))
        case .arrayType(let a): return .array(resolve(a.element))
        case .dictionaryType(let d): return .dictionary(resolve(d.key), resolve(d.value))
        case .attributedType(let a): return resolve(a.baseType)
        case .someOrAnyType(let s): return resolve(s.constraint)
        case .tupleType(let tu):
            let items = tu.elements.map { resolve($0.type) }
            if items.isEmpty { return .void }
            let labels = tu.elements.map { $0.firstName?.text }
            return items.count == 1 ? items[0] : .tuple(items, labels: labels.contains { $0 != nil } ? labels : [])
        case .functionType(let f): return .function(f.parameters.map { resolve($0.type) }, resolve(f.returnClause.type))
        case .metatypeType(let m): return .metatype(resolve(m.baseType))
        case .compositionType, .classRestrictionType: return .unknown
        case .memberType(let m): return qualifiedType(m, in: owner, generics: generics, quiet: quiet)
        case .identifierType(let i):
            let args = i.genericArgumentClause?.arguments.compactMap { a -> TypeRef? in
                guard let ty = a.argument.as(TypeSyntax.self) else { return nil }
                return resolve(ty)
            } ?? []
            return named(i.name.text, t, in: owner, generics: generics, args: args, quiet: quiet)
        case .inlineArrayType: return refuse("inline arrays ('[n of T]') are not part of Canopy's Swift subset; use an array")
        case .namedOpaqueReturnType: return refuse("named opaque result types are not part of Canopy's Swift subset; use 'some P'")
        case .packElementType, .packExpansionType: return refuse("parameter packs are not part of Canopy's Swift subset")
        case .suppressedType: return refuse("suppressed conformances ('~Copyable') are not part of Canopy's Swift subset")
        case .missingType: return refuse("expected a type")
        }
    }

    /// `Outer.Inner`, `Self.Value`, `SwiftUI.Text`.
    private func qualifiedType(_ m: MemberTypeSyntax, in owner: TypeID?, generics: Set<String>, quiet: Bool) -> TypeRef {
        let full = m.trimmedDescription.replacingAll(" ", with: "")
        if let id = program.typeIndex[full] { return .named(id) }
        if full == "String.Index" || full == "Substring.Index", let id = program.typeIndex["__StringIndex"] { return .named(id) }
        if full.hasPrefix("Self.") || full.hasPrefix("Swift.") || full.hasPrefix("SwiftUI.") {
            return named(String(full.split(separator: ".").last!), TypeSyntax(m), in: owner, generics: generics, args: [], quiet: quiet)
        }
        let base = resolveType(m.baseType, in: owner, generics: generics, quiet: true)
        if case .named(let id) = base, let inner = program.type(named: "\(program.types[id].name).\(m.name.text)") {
            return .named(inner.id)
        }
        if case .named(let id) = base, let alias = program.types[id].aliases[m.name.text] { return alias }
        return .opaque(full)
    }

    private func named(
        _ name: String, _ node: TypeSyntax, in owner: TypeID?, generics: Set<String>, args: [TypeRef], quiet: Bool
    ) -> TypeRef {
        if generics.contains(name) { return .generic(name) }
        switch name {
        case "Int", "Int64": return .int
        case "Double", "CGFloat", "Float64", "TimeInterval": return .double
        case _ where Compiler.unsupportedNumberTypes.contains(name):
            if !quiet { error(node, Compiler.unsupportedNumberMessage(name)) }
            return .unknown
        case "Bool": return .bool
        case "String", "Substring", "Character", "AttributedString", "LocalizedStringKey", "LocalizedStringResource":
            return .string
        case "Void": return .void
        case "Any", "AnyObject", "AnyHashable", "Never": return .unknown
        case "Array": return .array(args.first ?? .unknown)
        case "ArraySlice": return .slice(args.first ?? .unknown)
        case "Set": return .set(args.first ?? .unknown)
        case "Optional": return .optional(args.first ?? .unknown)
        case "Dictionary": return .dictionary(args.first ?? .unknown, args.count > 1 ? args[1] : .unknown)
        case "Range", "ClosedRange": return .range
        case "Self":
            if let owner { return .named(owner) }
        default: break
        }
        // Aliases and nested types of the enclosing types, innermost first.
        var scope = owner
        while let s = scope {
            let info = program.types[s]
            if let a = info.aliases[name] { return a }
            if let nested = program.type(named: "\(info.name).\(name)") { return .named(nested.id) }
            if info.genericParameters.contains(name) { return .generic(name) }
            if name == "Value", info.conforms(to: "PreferenceKey") || info.conforms(to: "EnvironmentKey") {
                return inferValueType(info) ?? .generic("Value")
            }
            scope = info.parent
        }
        if let a = aliases[name] { return a }
        if let id = program.typeIndex[name], program.types[id].kind != .builtin { return .named(id) }
        if Compiler.opaqueTypes.contains(name) { return .opaque(name) }
        if ["Value", "Content", "Context", "Body", "Element", "Key"].contains(name) { return .generic(name) }
        if !quiet { error(node, "cannot find type '\(name)' in scope") }
        return .unknown
    }

    /// The type of `self` in a member of `info`: in an extension of a library type, that type itself, so
    /// `self > limit` in `extension Double` is a comparison of Doubles.
    func selfTypeRef(_ info: TypeInfo) -> TypeRef {
        guard info.kind == .builtin else { return .named(info.id) }
        switch info.name {
        case "Int": return .int
        case "Double": return .double
        case "Bool": return .bool
        case "String": return .string
        case "Array": return .array(.unknown)
        case "Dictionary": return .dictionary(.unknown, .unknown)
        case "Set": return .set(.unknown)
        case "Optional": return .optional(.unknown)
        case "Range": return .range
        default: return .unknown
        }
    }

    /// A program or library type by name as written in an expression, looked up from `owner` outward.
    func lookupType(_ name: String, from owner: TypeID?) -> TypeInfo? {
        var scope = owner
        while let s = scope {
            if let t = program.type(named: "\(program.types[s].name).\(name)") { return t }
            scope = program.types[s].parent
        }
        return program.type(named: name)
    }

    /// An optional of an optional (`Int??`, an optional dictionary value read by subscript): Canopy's values do not
    /// tell `.some(nil)` from `nil`, so it refuses them rather than print or compare them differently from Swift.
    static func nestedOptionalMessage(_ type: String) -> String {
        "'\(type)' is an optional of an optional, which Canopy's Swift subset does not model; unwrap the inner optional first"
    }

    static func unsupportedNumberMessage(_ name: String) -> String {
        let instead = name.hasPrefix("Float") ? "Double (or CGFloat)" : "Int"
        return "'\(name)' is not part of Canopy's Swift subset, which computes with 64-bit Int and Double only; use \(instead)"
    }

    /// A key's `Value` when no `typealias` names it: the declared type of `defaultValue`, else the type of
    /// `reduce`'s `value:` parameter (as Swift infers the associated type).
    func inferValueType(_ info: TypeInfo) -> TypeRef? {
        if let t = info.staticTypes["defaultValue"], t.isKnown { return t }
        if let r = info.staticMethods["reduce(value:nextValue:)"], r.parameterTypes.first?.isKnown == true {
            return r.parameterTypes[0]
        }
        return nil
    }
}
