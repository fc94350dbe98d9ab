@_spi(ExperimentalLanguageFeatures) import SwiftSyntax

/// Passes 1 and 2: type names, then members, signatures and conformances.
extension Compiler {
    // MARK: #if

    /// The items of the active clause of an `#if`, evaluated as on iOS with SwiftUI.
    func activeItems(_ node: IfConfigDeclSyntax) -> Syntax? {
        for clause in node.clauses {
            if let c = clause.condition {
                if evalCondition(c) { return clause.elements.map { Syntax($0) } }
            } else {
                return clause.elements.map { Syntax($0) }
            }
        }
        return nil
    }

    private func evalCondition(_ e: ExprSyntax) -> Bool {
        if let p = e.as(PrefixOperatorExprSyntax.self), p.operator.text == "!" { return !evalCondition(p.expression) }
        if let i = e.as(InfixOperatorExprSyntax.self), let op = i.operator.as(BinaryOperatorExprSyntax.self) {
            if op.operator.text == "&&" { return evalCondition(i.leftOperand) && evalCondition(i.rightOperand) }
            if op.operator.text == "||" { return evalCondition(i.leftOperand) || evalCondition(i.rightOperand) }
        }
        if let t = e.as(TupleExprSyntax.self), t.elements.count == 1 { return evalCondition(t.elements.first!.expression) }
        if let b = e.as(BooleanLiteralExprSyntax.self) { return b.literal.text == "true" }
        if let call = e.as(FunctionCallExprSyntax.self), let name = call.calledExpression.as(DeclReferenceExprSyntax.self) {
            let arg = call.arguments.first?.expression.trimmedDescription ?? ""
            switch name.baseName.text {
            case "canImport": return ["SwiftUI", "UIKit", "Foundation", "Combine", "CoreGraphics"].contains(arg)
            case "os": return arg == "iOS"
            case "arch": return arg == "arm64"
            case "swift", "compiler": return true
            case "targetEnvironment": return false
            default: return false
            }
        }
        return false
    }

    /// Statements of a block with `#if`s replaced by their active clauses.
    func flatten(_ items: CodeBlockItemListSyntax) -> [CodeBlockItemSyntax] {
        var out: [CodeBlockItemSyntax] = []
        for item in items {
            if let ifc = item.item.as(IfConfigDeclSyntax.self) {
                if let active = activeItems(ifc), let list = active.as(CodeBlockItemListSyntax.self) {
                    out.append(contentsOf: flatten(list))
                }
                continue
            }
            out.append(item)
        }
        return out
    }

    func flatten(_ members: MemberBlockItemListSyntax) -> [DeclSyntax] {
        var out: [DeclSyntax] = []
        for m in members {
            if let ifc = m.decl.as(IfConfigDeclSyntax.self) {
                if let active = activeItems(ifc), let list = active.as(MemberBlockItemListSyntax.self) {
                    out.append(contentsOf: flatten(list))
                }
                continue
            }
            out.append(m.decl)
        }
        return out
    }

    // MARK: Pass 1

    /// Types declared inside function bodies, closures and `#Preview`s, outermost first.
    func localTypes(_ file: SourceFileSyntax) -> [DeclSyntax] {
        let finder = LocalTypeFinder(viewMode: .sourceAccurate)
        finder.walk(file)
        return finder.found
    }

    /// Declares body-local types as program types (pass 1), then their members (pass 2).
    func declareLocalTypes(_ decls: [DeclSyntax], members: Bool) {
        for d in decls {
            if members { declareTypeMembers(d, prefix: nil) } else { declareType(d, prefix: nil, parent: nil) }
        }
    }

    func declareTypes(_ items: CodeBlockItemListSyntax, prefix: String?, parent: TypeID?) {
        for item in flatten(items) {
            guard let decl = item.item.as(DeclSyntax.self) else { continue }
            declareType(decl, prefix: prefix, parent: parent)
        }
    }

    private func declareType(_ decl: DeclSyntax, prefix: String?, parent: TypeID?) {
        func qualified(_ n: String) -> String { prefix.map { "\($0).\(n)" } ?? n }
        var members: MemberBlockItemListSyntax?
        var info: TypeInfo?
        if let s = decl.as(StructDeclSyntax.self) {
            info = newType(qualified(s.name.text), .structure, s, parent: parent)
            members = s.memberBlock.members
        } else if let c = decl.as(ClassDeclSyntax.self) {
            info = newType(qualified(c.name.text), .structure, c, parent: parent)
            info?.isClass = true
            members = c.memberBlock.members
        } else if let e = decl.as(EnumDeclSyntax.self) {
            info = newType(qualified(e.name.text), .enumeration, e, parent: parent)
            members = e.memberBlock.members
        } else if let p = decl.as(ProtocolDeclSyntax.self) {
            info = newType(qualified(p.name.text), .protocolType, p, parent: parent)
            members = p.memberBlock.members
        } else if let x = decl.as(ExtensionDeclSyntax.self) {
            // Nested types declared in an extension belong to the extended type.
            let name = x.extendedType.trimmedDescription
            let extended = qualifiedTypeName(name)
            for m in flatten(x.memberBlock.members) {
                declareType(m, prefix: extended, parent: program.typeIndex[extended])
            }
            return
        } else if let a = decl.as(ActorDeclSyntax.self) {
            error(decl, "actors are not part of Canopy's Swift subset; use a class or a struct")
            refused.insert(a.name.text)
            return
        }
        guard let info, let members else { return }
        for m in flatten(members) { declareType(m, prefix: info.name, parent: info.id) }
    }

    /// A new type; `parent` is the type it is nested in, whose nested types and aliases its members see.
    private func newType(_ name: String, _ kind: TypeInfo.Kind, _ node: some SyntaxProtocol, parent: TypeID?) -> TypeInfo {
        if let existing = program.typeIndex[name], program.types[existing].kind != .builtin {
            error(node, "invalid redeclaration of '\(name)'")
        }
        return addType(name, kind, at: loc(node), parent: parent)
    }

    /// A top-level `var`: program-wide state, set to its initial value on first use (as Swift initializes globals
    /// lazily), one per program tree, stored and restored like `@State` cells.
    private func declareGlobalVariable(_ b: PatternBindingSyntax) {
        guard let name = b.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else {
            return error(b.pattern, "a global variable needs a simple name")
        }
        if b.accessorBlock != nil { return error(b, "computed global variables are not part of Canopy's Swift subset") }
        var type = TypeRef.unknown
        if let t = b.typeAnnotation?.type { type = resolveType(t, in: nil, generics: []) }
        let index = program.globalVariables.count
        program.globalVariables.append(GlobalVariable(name: name, type: type, initial: nil))
        globalVariables[name] = index
        let initial = b.initializer?.value
        if initial == nil, !type.isOptional { return error(b, "global variable '\(name)' needs an initial value") }
        compileLater(first: true) { c in
            guard let initial else {
                c.program.globalVariables[index].initial = LiteralExpr(c.loc(b), .null, type)
                return
            }
            let ctx = c.makeContext(name: name, selfType: nil, isStatic: true, generics: [])
            let e = c.withContext(ctx) { c.expr(initial, expected: type.expectation) }
            c.program.globalVariables[index].initial = ctx.function.slotCount > 0 ? c.wrapInFunction(e, ctx.function) : e
            if !type.isKnown { c.program.globalVariables[index].type = e.type }
        }
    }

    /// Two functions with the same name and labels: Swift picks one by the arguments' types, Canopy by labels only,
    /// so it refuses them rather than call the wrong one.
    private func overloadedByType(_ f: FunctionDeclSyntax, _ name: String) {
        error(f.name, "'\(name)' is declared twice with the same argument labels; overloading by type is not part of "
            + "Canopy's Swift subset: give the functions different names or labels")
    }

    /// The qualified name of a type written in an extension (`A.B`), or the name itself.
    func qualifiedTypeName(_ written: String) -> String {
        let t = written.replacingAll(" ", with: "")
        if let id = program.typeIndex[t] { return program.types[id].name }
        return t
    }

    // MARK: Pass 2

    func declareMembers(_ items: CodeBlockItemListSyntax, prefix: String?, parent: TypeID?) {
        for item in flatten(items) {
            if let decl = item.item.as(DeclSyntax.self) {
                declareTopLevel(decl)
            } else if let macro = topLevelMacro(item.item) {
                // swift-syntax parses a top-level `#Preview { … }` as an expression.
                declarePreview(macro)
            } else {
                error(item, "top-level statements are not allowed; put code in a function or a property")
            }
        }
    }

    /// One case per kind of declaration swift-syntax has (see `exprInner`).
    private func declareTopLevel(_ decl: DeclSyntax) {
        switch decl.as(DeclSyntaxEnum.self) {
        case .importDecl(let i):
            if let module = i.path.first?.name.text, Compiler.foundationModules.contains(module) {
                program.importsFoundation = true
            }
        case .functionDecl(let f):
            let fn = declareFunction(f, in: nil, isStatic: true)
            if program.functions[fn.name] != nil { overloadedByType(f, fn.name) }
            program.functions[fn.name] = fn
        case .variableDecl(let v):
            if v.bindingSpecifier.tokenKind == .keyword(.var) {
                for b in v.bindings { declareGlobalVariable(b) }
            } else {
                for b in v.bindings { declareConstant(b, owner: nil, decl: v) }
            }
        case .typeAliasDecl(let a):
            let name = a.name.text
            pending.append(
                PendingBody(converter: converter, inPrelude: inPrelude) { c in
                    c.aliases[name] = c.resolveType(a.initializer.value, in: nil, generics: [])
                })
            // Aliases are needed by signatures: resolve now when possible, again later for forward references.
            aliases[name] = resolveType(a.initializer.value, in: nil, generics: [], quiet: true)
        case .macroExpansionDecl(let m): declarePreview(m)
        case .structDecl, .classDecl, .enumDecl, .protocolDecl, .extensionDecl: declareTypeMembers(decl, prefix: nil)
        case .actorDecl: break  // refused when types were declared
        case .initializerDecl, .deinitializerDecl, .subscriptDecl, .enumCaseDecl, .associatedTypeDecl, .accessorDecl:
            error(decl, "this declaration is only allowed inside a type")
        case .operatorDecl, .precedenceGroupDecl:
            error(decl, "custom operators are not part of Canopy's Swift subset; use a function")
        case .macroDecl: error(decl, "macro declarations are not part of Canopy's Swift subset")
        case .ifConfigDecl, .poundSourceLocation: error(decl, "compiler directives ('#if', '#sourceLocation') are not part of Canopy's Swift subset")
        case .usingDecl: error(decl, "'using' declarations are not part of Canopy's Swift subset")
        case .editorPlaceholderDecl: error(decl, "an editor placeholder is left in the code; write the declaration")
        case .missingDecl, .unexpectedCodeDecl: error(decl, "expected a declaration")
        }
    }

    /// Members of a struct, enum, protocol or extension.
    func declareTypeMembers(_ decl: DeclSyntax, prefix: String?) {
        func qualified(_ n: String) -> String { prefix.map { "\($0).\(n)" } ?? n }
        var members: MemberBlockItemListSyntax
        var info: TypeInfo
        var inheritance: InheritanceClauseSyntax?
        var generics: [String] = []
        if let s = decl.as(StructDeclSyntax.self) {
            guard let t = program.type(named: qualified(s.name.text)) else { return }
            info = t
            members = s.memberBlock.members
            inheritance = s.inheritanceClause
            generics = s.genericParameterClause?.parameters.map(\.name.text) ?? []
            for g in s.genericParameterClause?.parameters ?? [] {
                if let c = g.inheritedType?.trimmedDescription { t.genericConstraints[g.name.text] = c }
            }
        } else if let c = decl.as(ClassDeclSyntax.self) {
            guard let t = program.type(named: qualified(c.name.text)) else { return }
            info = t
            members = c.memberBlock.members
            inheritance = c.inheritanceClause
            generics = c.genericParameterClause?.parameters.map(\.name.text) ?? []
            // The first inherited type may be the superclass; the others are protocols.
            if let first = c.inheritanceClause?.inheritedTypes.first?.type.trimmedDescription,
                let s = lookupType(first, from: t.parent), s.isClass
            {
                t.superclass = s.id
            }
        } else if let e = decl.as(EnumDeclSyntax.self) {
            guard let t = program.type(named: qualified(e.name.text)) else { return }
            info = t
            members = e.memberBlock.members
            inheritance = e.inheritanceClause
        } else if let p = decl.as(ProtocolDeclSyntax.self) {
            guard let t = program.type(named: qualified(p.name.text)) else { return }
            info = t
            members = p.memberBlock.members
            inheritance = p.inheritanceClause
            if let w = p.genericWhereClause { addSameTypeAliases(w, to: t) }
        } else if let x = decl.as(ExtensionDeclSyntax.self) {
            var name = qualifiedTypeName(x.extendedType.trimmedDescription)
            // `extension TextField { func styled() … }`: a SwiftUI view's extension serves as `extension View`.
            let base = String(name.split(separator: "<").first ?? "")
            if Compiler.viewNames.contains(base), program.type(named: base) == nil { name = "View" }
            guard let t = program.type(named: name) ?? lookupType(name, from: nil) else {
                error(x.extendedType, "cannot find type '\(name)' in scope")
                return
            }
            info = t
            members = x.memberBlock.members
            inheritance = x.inheritanceClause
            if let w = x.genericWhereClause, t.kind == .protocolType { addSameTypeAliases(w, to: t) }
        } else {
            if !decl.is(ActorDeclSyntax.self) { error(decl, "this declaration is not part of Canopy's Swift subset") }
            return
        }
        info.genericParameters.append(contentsOf: generics)
        for inherited in inheritance?.inheritedTypes ?? [] {
            let name = inherited.type.trimmedDescription
            if let why = Compiler.refusedProtocols[name], program.type(named: name) == nil {
                error(inherited.type, why)
                continue
            }
            if let s = info.superclass, program.types[s].name.hasSuffix(name) { continue }
            if info.kind == .enumeration, info.rawType == nil, let raw = rawType(name) {
                info.rawType = raw
                continue
            }
            info.conformances.insert(name)
        }
        let genericSet = Set(info.genericParameters)
        let hadExplicitInit = info.hasExplicitInit
        for m in flatten(members) { declareMember(m, in: info, generics: genericSet) }
        // As in Swift, an init declared in an extension keeps the memberwise initializer.
        if decl.is(ExtensionDeclSyntax.self) { info.hasExplicitInit = hadExplicitInit }
        if info.kind == .enumeration { assignRawValues(info) }
    }

    private func rawType(_ name: String) -> TypeRef? {
        switch name {
        case "Int": return .int
        case "String": return .string
        case "Double", "CGFloat": return .double
        default: return nil
        }
    }

    /// `where Value == CGFloat` on a protocol or its extension: `Value` means `CGFloat` there.
    private func addSameTypeAliases(_ w: GenericWhereClauseSyntax, to t: TypeInfo) {
        for r in w.requirements {
            guard let same = r.requirement.as(SameTypeRequirementSyntax.self) else { continue }
            let left = same.leftType.trimmedDescription.replacingAll("Self.", with: "")
            if let right = same.rightType.as(TypeSyntax.self) {
                t.aliases[left] = resolveType(right, in: t.id, generics: [], quiet: true)
            }
        }
    }

    /// One case per kind of declaration swift-syntax has (see `exprInner`).
    private func declareMember(_ decl: DeclSyntax, in info: TypeInfo, generics: Set<String>) {
        switch decl.as(DeclSyntaxEnum.self) {
        case .variableDecl(let v): declareProperties(v, in: info, generics: generics)
        case .functionDecl(let f): declareMethod(f, in: info, generics: generics)
        case .initializerDecl(let i):
            if i.body == nil { return }
            let fn = declareInit(i, in: info, generics: generics)
            info.staticMethods[fn.name.afterDot] = fn
            if info.kind == .structure { info.hasExplicitInit = true }
        case .enumCaseDecl(let c):
            guard info.kind == .enumeration else { return error(c, "'case' is only allowed in enums") }
            for e in c.elements { declareCase(e, in: info, generics: generics) }
        case .typeAliasDecl(let a):
            info.aliases[a.name.text] = resolveType(a.initializer.value, in: info.id, generics: generics, quiet: true)
            let name = a.name.text
            pending.insert(
                PendingBody(converter: converter, inPrelude: inPrelude) { c in
                    info.aliases[name] = c.resolveType(a.initializer.value, in: info.id, generics: generics)
                }, at: 0)
        case .associatedTypeDecl: return
        case .structDecl, .enumDecl, .protocolDecl, .classDecl: declareTypeMembers(decl, prefix: info.name)
        case .deinitializerDecl:
            error(decl, "'deinit' is not part of Canopy's Swift subset: when an object goes away is not observable here")
        case .subscriptDecl: error(decl, "subscript declarations are not part of Canopy's Swift subset; use a method")
        case .actorDecl: error(decl, "actors are not part of Canopy's Swift subset; use a class or a struct")
        case .extensionDecl, .importDecl: error(decl, "this declaration is only allowed at the top level")
        case .operatorDecl, .precedenceGroupDecl:
            error(decl, "custom operators are not part of Canopy's Swift subset; use a function")
        case .macroExpansionDecl, .macroDecl: error(decl, "macros are not part of Canopy's Swift subset")
        case .ifConfigDecl, .poundSourceLocation: error(decl, "compiler directives ('#if', '#sourceLocation') are not part of Canopy's Swift subset")
        case .usingDecl: error(decl, "'using' declarations are not part of Canopy's Swift subset")
        case .accessorDecl: error(decl, "an accessor belongs inside a property's braces")
        case .editorPlaceholderDecl: error(decl, "an editor placeholder is left in the code; write the declaration")
        case .missingDecl, .unexpectedCodeDecl: error(decl, "expected a declaration")
        }
    }

    private func declareProperties(_ v: VariableDeclSyntax, in info: TypeInfo, generics: Set<String>) {
        let isStatic = v.modifiers.contains { ["static", "class"].contains($0.name.text) }
        for b in v.bindings {
            if info.kind == .protocolType, let name = b.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
                if isRequirement(b) {
                    info.requirements.insert(name)
                } else if info.name != "View" {
                    info.extensionMembers[name] = ExtensionMember(
                        decl: DeclSyntax(v), binding: b, isStatic: isStatic, converter: converter, inPrelude: inPrelude)
                }
            }
            if isStatic {
                declareConstant(b, owner: info, decl: v)
            } else if info.kind == .structure, let observers = observerAccessors(b) {
                // `var x = 0 { didSet { … } }`: a stored property with observers.
                declareField(b, in: info, decl: v, generics: generics)
                declareObservers(b, observers, in: info, generics: generics)
            } else if b.accessorBlock != nil {
                info.methods[b.pattern.trimmedDescription] = declareComputed(b, in: info, generics: generics)
            } else if info.kind == .structure {
                declareField(b, in: info, decl: v, generics: generics)
            } else if info.kind != .protocolType {
                error(b, "stored properties are only allowed in structs")
            }
        }
    }

    private func declareMethod(_ f: FunctionDeclSyntax, in info: TypeInfo, generics: Set<String>) {
        let isStatic = f.modifiers.contains { ["static", "class"].contains($0.name.text) }
        if f.body == nil {
            if info.kind != .protocolType { error(f, "function '\(f.name.text)' needs a body") }
            info.requirements.insert(Compiler.fullName(f.name.text, f.signature.parameterClause.parameters.map {
                $0.firstName.text == "_" ? nil : $0.firstName.text
            }))
            return
        }
        let fn = declareFunction(f, in: info, isStatic: isStatic)
        if (isStatic ? info.staticMethods : info.methods)[fn.name.afterDot] != nil { overloadedByType(f, fn.name) }
        if info.kind == .protocolType, info.name != "View" {
            info.extensionMembers[fn.name.afterDot] = ExtensionMember(
                decl: DeclSyntax(f), binding: nil, isStatic: isStatic, converter: converter, inPrelude: inPrelude)
        }
        if isStatic { info.staticMethods[fn.name.afterDot] = fn } else { info.methods[fn.name.afterDot] = fn }
    }

    private func declareField(_ b: PatternBindingSyntax, in info: TypeInfo, decl: VariableDeclSyntax, generics: Set<String>) {
        guard let name = b.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else {
            return error(b.pattern, "a stored property needs a simple name")
        }
        let attributes = decl.attributes.compactMap { $0.as(AttributeSyntax.self) }
        let wrapper = attributes.map(\.attributeName.trimmedDescription)
            .first { !["MainActor", "preconcurrency", "usableFromInline", "inlinable", "available", "ViewBuilder"].contains($0) }
        if let wrapper, !["State", "Binding", "Environment"].contains(wrapper) {
            error(decl, "property wrapper '@\(wrapper)' is not part of Canopy's Swift subset (use @State, @Binding or @Environment)")
        }
        var environmentKey: String?
        if wrapper == "Environment" {
            guard case .argumentList(let list)? = attributes.first(where: { $0.attributeName.trimmedDescription == "Environment" })?.arguments,
                let k = list.first?.expression.as(KeyPathExprSyntax.self), k.components.count == 1,
                case .property(let p) = k.components.first!.component
            else { return error(decl, "@Environment takes a key path: @Environment(\\.name)") }
            environmentKey = p.declName.baseName.text
        }
        var type = TypeRef.unknown
        if let t = b.typeAnnotation?.type { type = resolveType(t, in: info.id, generics: generics) }
        let isLet = decl.bindingSpecifier.tokenKind == .keyword(.let)
        let index = info.fields.count
        info.fields.append(
            Field(
                name: name, type: type, isLet: isLet, initial: nil, wrapper: wrapper, environmentKey: environmentKey,
                isBuilder: attributes.contains { $0.attributeName.trimmedDescription == "ViewBuilder" }))
        info.fieldIndex[name] = index
        if let initial = b.initializer?.value {
            // Field defaults compile early: later bodies rely on an inferred field type.
            compileLater(first: true) { c in
                let ctx = c.makeContext(name: "\(info.name).\(name)", selfType: info.id, isStatic: true, generics: generics)
                let e = c.withContext(ctx) { c.expr(initial, expected: type.expectation) }
                // By name: a subclass's fields move behind its superclass's before bodies compile.
                let at = info.fieldIndex[name] ?? index
                info.fields[at].initial = e
                if !type.isKnown { info.fields[at].type = e.type }
            }
        } else if b.typeAnnotation?.type.is(OptionalTypeSyntax.self) == true, !isLet {
            info.fields[index].initial = LiteralExpr(loc(b), .null, type)
        }
        if decl.modifiers.contains(where: { $0.name.text == "lazy" }) {
            error(decl, "'lazy' properties are not part of Canopy's Swift subset: their initializer would run at a different time than in Swift")
        }
    }

    /// The `willSet`/`didSet` accessors of a stored property, when that is all its accessor block holds.
    private func observerAccessors(_ b: PatternBindingSyntax) -> [AccessorDeclSyntax]? {
        guard case .accessors(let list)? = b.accessorBlock?.accessors, !list.isEmpty,
            list.allSatisfy({ ["willSet", "didSet"].contains($0.accessorSpecifier.text) })
        else { return nil }
        return Array(list)
    }

    /// `willSet { … }` (with `newValue`) and `didSet { … }` (with `oldValue`): methods of `info` run around every
    /// assignment of the property outside the type's initializers and the observers themselves.
    private func declareObservers(
        _ b: PatternBindingSyntax, _ accessors: [AccessorDeclSyntax], in info: TypeInfo, generics: Set<String>
    ) {
        guard let name = b.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
            let index = info.fieldIndex[name]
        else { return }
        if let wrapper = info.fields[index].wrapper {
            return error(b, "observers of a @\(wrapper) property are not part of Canopy's Swift subset; use onChange(of:)")
        }
        for a in accessors {
            let kind = a.accessorSpecifier.text
            guard let body = a.body?.statements else { continue }
            let fn = Function(name: "\(info.name).\(name).\(kind)", location: loc(a))
            fn.hasSelf = true
            fn.isMutating = !info.isClass
            fn.parameterCount = 2
            fn.slotCount = 2
            fn.parameterLabels = [nil, nil]
            fn.parameterTypes = [selfTypeRef(info), info.fields[index].type]
            fn.bodyParameterNames = ["self", a.parameters?.name.text ?? (kind == "willSet" ? "newValue" : "oldValue")]
            if kind == "willSet" { info.willSet[name] = fn } else { info.didSet[name] = fn }
            compileLater { c in
                if let at = info.fieldIndex[name] { fn.parameterTypes[1] = info.fields[at].type }
                c.compileBody(fn, body, selfType: info.id, isStatic: false, mutating: fn.isMutating, generics: generics)
            }
        }
    }

    /// `set { … }` / `set(v) { … }` of a computed property: a method of `info` taking the new value (`newValue`),
    /// mutating for a struct.
    private func declareSetter(
        _ name: String, _ body: CodeBlockItemListSyntax, _ accessor: AccessorDeclSyntax, type: TypeRef, in info: TypeInfo,
        generics: Set<String>
    ) {
        let fn = Function(name: "\(info.name).\(name).set", location: loc(accessor))
        fn.hasSelf = true
        fn.isMutating = !info.isClass
        fn.parameterCount = 2
        fn.slotCount = 2
        fn.parameterLabels = [nil, nil]
        fn.parameterTypes = [selfTypeRef(info), type]
        fn.bodyParameterNames = ["self", accessor.parameters?.name.text ?? "newValue"]
        info.setters[name] = fn
        compileLater { c in
            c.compileBody(fn, body, selfType: info.id, isStatic: false, mutating: fn.isMutating, generics: generics)
        }
    }

    /// A property requirement: `var name: String { get }` (accessors without bodies).
    private func isRequirement(_ b: PatternBindingSyntax) -> Bool {
        guard let block = b.accessorBlock else { return b.initializer == nil }
        if case .accessors(let list) = block.accessors { return list.allSatisfy { $0.body == nil } }
        return false
    }

    /// A computed property's getter, as a method of `info` (the caller decides where it is registered).
    @discardableResult
    private func declareComputed(
        _ b: PatternBindingSyntax, in info: TypeInfo, generics: Set<String>, copying via: TypeInfo? = nil
    ) -> Function? {
        guard let name = b.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
            let accessors = b.accessorBlock
        else {
            error(b, "a computed property needs a simple name")
            return nil
        }
        let fn = Function(name: "\(info.name).\(name)", location: loc(b))
        fn.hasSelf = true
        fn.parameterCount = 1
        fn.slotCount = 1
        fn.parameterLabels = [nil]
        fn.parameterTypes = [selfTypeRef(info)]
        fn.returnType = b.typeAnnotation.map { resolveType($0.type, in: info.id, generics: generics) } ?? .unknown
        var getterBody: CodeBlockItemListSyntax?
        switch accessors.accessors {
        case .getter(let items): getterBody = items
        case .accessors(let list):
            for a in list {
                switch a.accessorSpecifier.text {
                case "get": getterBody = a.body?.statements
                case "set" where info.name == "EnvironmentValues":
                    break  // `.environment(\\.key, v)` sets environment values; the setter is never called
                case "set":
                    if let body = a.body?.statements { declareSetter(name, body, a, type: fn.returnType, in: info, generics: generics) }
                case "willSet", "didSet", "_modify":
                    error(a, "'\(a.accessorSpecifier.text)' accessors are not part of Canopy's Swift subset")
                default: break
                }
            }
        }
        guard let body = getterBody else { return fn }
        let marked = b.parent?.parent?.as(VariableDeclSyntax.self)?.attributes.contains {
            $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "ViewBuilder"
        } ?? false
        compileLater { c in
            // A view's `body` is a `@ViewBuilder`, as the `View` protocol declares it.
            fn.isBuilder = marked || (name == "body" && c.isViewTypeID(info.id))
            c.copying = via
            defer { c.copying = nil }
            c.quietIfCopied(info.id) {
                c.compileBody(fn, body, selfType: info.id, isStatic: false, mutating: false, generics: generics)
            }
        }
        return fn
    }

    /// A static property or a top-level `let`: a constant computed once.
    private func declareConstant(_ b: PatternBindingSyntax, owner: TypeInfo?, decl: VariableDeclSyntax) {
        guard let name = b.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else {
            return error(b.pattern, "a constant needs a simple name")
        }
        let cell = ConstantCell(name: owner.map { "\($0.name).\(name)" } ?? name)
        var type = TypeRef.unknown
        if let t = b.typeAnnotation?.type { type = resolveType(t, in: owner?.id, generics: []) }
        if let accessors = b.accessorBlock {
            // `static var defaultValue: Int { 0 }`: a constant too, since it cannot depend on anything mutable.
            var body: CodeBlockItemListSyntax?
            switch accessors.accessors {
            case .getter(let items): body = items
            case .accessors(let list): body = list.first { $0.accessorSpecifier.text == "get" }?.body?.statements
            }
            guard let body else {
                // A protocol's requirement (`static var symbol: String { get }`): the conforming types declare it.
                if owner?.kind == .protocolType { return }
                return error(b, "\(name) needs a getter")
            }
            let fn = Function(name: cell.name, location: loc(b))
            fn.returnType = type
            if name == "previews", let owner, owner.conforms(to: "PreviewProvider") {
                // A `PreviewProvider`'s `previews` is what the tree shows, like a `#Preview`'s body.
                fn.isBuilder = true
                fn.isStatic = true
                program.previews.append(PreviewInfo(name: owner.name, function: fn, modifiers: []))
                compileLater { c in
                    c.compileBody(fn, body, selfType: owner.id, isStatic: true, mutating: false, generics: [])
                }
                return
            }
            compileLater(first: true) { c in
                c.compileBody(fn, body, selfType: owner?.id, isStatic: true, mutating: false, generics: [])
                cell.initializer = CallFunctionExpr(c.loc(b), fn, [], fn.returnType)
            }
        } else if let initial = b.initializer?.value {
            compileLater(first: true) { c in
                let ctx = c.makeContext(name: cell.name, selfType: owner?.id, isStatic: true, generics: [])
                let e = c.withContext(ctx) { c.expr(initial, expected: type.expectation) }
                if type.isKnown, e.type.isKnown, !c.assignable(e.type, to: type) {
                    c.error(initial, "cannot convert value of type '\(c.program.name(of: e.type))' to specified type '\(c.program.name(of: type))'")
                }
                cell.initializer = ctx.function.slotCount > 0 ? c.wrapInFunction(e, ctx.function) : e
                if !type.isKnown {
                    type = e.type
                    c.setConstantType(name, owner: owner, type)
                }
            }
        } else if type.isOptional, decl.bindingSpecifier.text == "var" {
            // Swift starts an optional `var` without an initializer as `nil` (`static var defaultValue: Message?`).
            cell.initializer = LiteralExpr(loc(b), .null, type)
        } else {
            return error(b, "'\(name)' needs an initial value")
        }
        program.cells.append(cell)
        if let owner {
            owner.staticConstants[name] = program.cells.count - 1
            owner.staticTypes[name] = type
        } else {
            globals[name] = (cell, type)
        }
    }

    func setConstantType(_ name: String, owner: TypeInfo?, _ type: TypeRef) {
        if let owner { owner.staticTypes[name] = type } else { globals[name]?.type = type }
    }

    private func declareCase(_ e: EnumCaseElementSyntax, in info: TypeInfo, generics: Set<String>) {
        var c = EnumCaseInfo(name: e.name.text)
        for p in e.parameterClause?.parameters ?? [] {
            c.payloadLabels.append(p.firstName?.text == "_" ? nil : p.firstName?.text)
            c.payloadTypes.append(resolveType(p.type, in: info.id, generics: generics))
        }
        if let raw = e.rawValue?.value {
            if let i = raw.as(IntegerLiteralExprSyntax.self), let n = Int(i.literal.text) {
                c.rawValue = .int(n)
            } else if let p = raw.as(PrefixOperatorExprSyntax.self), p.operator.text == "-",
                let i = p.expression.as(IntegerLiteralExprSyntax.self), let n = Int(i.literal.text)
            {
                c.rawValue = .int(-n)
            } else if let f = raw.as(FloatLiteralExprSyntax.self), let d = Double(f.literal.text) {
                c.rawValue = .double(d)
            } else if let s = raw.as(StringLiteralExprSyntax.self), let text = s.representedLiteralValue {
                c.rawValue = .string(text)
            } else {
                error(raw, "a raw value must be a literal")
            }
        }
        info.caseIndex[c.name] = info.cases.count
        info.cases.append(c)
    }

    /// Swift's implicit raw values: integers count up from the previous one (0 first), strings are case names.
    private func assignRawValues(_ info: TypeInfo) {
        guard let raw = info.rawType else { return }
        var next = 0
        for i in info.cases.indices {
            if let v = info.cases[i].rawValue {
                if case .int(let n) = v { next = n + 1 }
                if raw == .double, case .int(let n) = v { info.cases[i].rawValue = .double(Double(n)) }
                continue
            }
            switch raw {
            case .int:
                info.cases[i].rawValue = .int(next)
                next += 1
            case .double:
                info.cases[i].rawValue = .double(Double(next))
                next += 1
            default:
                info.cases[i].rawValue = .string(info.cases[i].name)
            }
        }
    }

    // MARK: Conformances

    /// Closes conformances over protocol refinement and adds `Equatable` where Swift implies it.
    /// A subclass's stored properties are its superclass's followed by its own; the methods, initializers and
    /// conformances it does not declare are its superclass's (overrides replace them). Superclasses first.
    func inheritClassMembers() {
        var done: Set<TypeID> = []
        func inherit(_ t: TypeInfo) {
            guard t.isClass, !done.contains(t.id) else { return }
            done.insert(t.id)
            guard let sid = t.superclass else { return }
            let s = program.types[sid]
            inherit(s)
            let own = t.fields
            t.fields = s.fields + own
            t.inheritedFields = s.fields.count
            t.fieldIndex = [:]
            for (i, f) in t.fields.enumerated() { t.fieldIndex[f.name] = i }
            for (n, f) in s.methods where t.methods[n] == nil { t.methods[n] = f }
            // Swift inherits initializers when a subclass declares no designated one of its own.
            let ownInits = t.staticMethods.keys.contains { $0.hasPrefix("init(") }
            for (n, f) in s.staticMethods where t.staticMethods[n] == nil && (!n.hasPrefix("init(") || !ownInits) {
                t.staticMethods[n] = f
            }
            for (n, c) in s.staticConstants where t.staticConstants[n] == nil {
                t.staticConstants[n] = c
                t.staticTypes[n] = s.staticTypes[n]
            }
            t.conformances.formUnion(s.conformances)
        }
        for t in program.types { inherit(t) }
        // The superclass's property types and initial values are inferred when their initializers compile (first
        // in pass 3): copy them again then, superclasses first.
        compileLater(first: true) { c in
            var refreshed: Set<TypeID> = []
            func refresh(_ t: TypeInfo) {
                guard let sid = t.superclass, !refreshed.contains(t.id) else { return }
                refreshed.insert(t.id)
                let s = c.program.types[sid]
                refresh(s)
                for i in 0..<min(t.inheritedFields, s.fields.count) { t.fields[i] = s.fields[i] }
            }
            for t in c.program.types where t.isClass { refresh(t) }
        }
    }

    func finishConformances() {
        for t in program.types {
            var seen = t.conformances
            var work = Array(t.conformances)
            while let p = work.popLast() {
                guard let pt = program.type(named: p), pt.kind == .protocolType else { continue }
                for q in pt.conformances where !seen.contains(q) {
                    seen.insert(q)
                    work.append(q)
                }
            }
            t.conformances = seen
            if t.kind == .enumeration && t.cases.allSatisfy({ $0.payloadTypes.isEmpty }) {
                t.conformances.insert("Equatable")
                t.conformances.insert("Hashable")
            }
        }
    }

    /// Methods and aliases from protocol extensions, for the types that conform and do not declare their own.
    /// Runs before bodies compile, so they can use inherited members, and again after, for inferred types.
    func inheritProtocolDefaults() {
        for t in program.types where t.kind == .structure || t.kind == .enumeration {
            // The most refined protocol first: its defaults win over those of the protocols it refines.
            let protocols = t.conformances.compactMap { program.type(named: $0) }.filter { $0.kind == .protocolType }
                .sorted { ($0.conformances.count, $1.name) > ($1.conformances.count, $0.name) }
            for pt in protocols { copyExtensionMembers(of: pt, into: t) }
            for pt in protocols {
                // A stored property meets a property requirement (`var name: String { get }`) itself.
                for (n, f) in pt.methods where t.methods[n] == nil && t.fieldIndex[n] == nil { t.methods[n] = f }
                for (n, f) in pt.staticMethods where t.staticMethods[n] == nil { t.staticMethods[n] = f }
                for (n, c) in pt.staticConstants where t.staticConstants[n] == nil || t.staticConstants[n] == c {
                    t.staticConstants[n] = c
                    t.staticTypes[n] = pt.staticTypes[n]
                }
            }
        }
    }

    /// For each class, the requirements whose witness is a protocol extension's default: the class that declared the
    /// conformance (the highest one that conforms) had no member of that name, so Swift's witness table holds the
    /// default, and a subclass's member of the same name does not replace it.
    func bindClassWitnesses() {
        for t in program.types where t.isClass {
            for pt in t.conformances.compactMap({ program.type(named: $0) }) where pt.kind == .protocolType {
                var declaring = t
                while let s = declaring.superclass, program.types[s].conformances.contains(pt.name) {
                    declaring = program.types[s]
                }
                for r in pt.requirements {
                    guard let copy = declaring.protocolCopies["\(pt.name).\(r)"], declaring.methods[r] === copy else { continue }
                    t.classWitnesses[r] = copy
                }
            }
        }
    }

    /// Compiles `pt`'s extension members again as members of `t` (once): `Self`, static members and requirements
    /// inside them then mean `t`'s, as Swift's dispatch through the protocol's witness gives. A member `t` does not
    /// declare itself becomes `t`'s; every copy is kept for calls through the protocol.
    private func copyExtensionMembers(of pt: TypeInfo, into t: TypeInfo) {
        let saved = (converter, inPrelude)
        defer { (converter, inPrelude) = saved }
        let generics = Set(t.genericParameters)
        for (n, member) in pt.extensionMembers.sorted(by: { $0.key < $1.key }) where t.protocolCopies["\(pt.name).\(n)"] == nil {
            converter = member.converter
            inPrelude = member.inPrelude
            var copy: Function?
            if let f = member.decl.as(FunctionDeclSyntax.self) {
                copy = declareFunction(f, in: t, isStatic: member.isStatic, copying: pt)
            } else if let b = member.binding, !member.isStatic {
                copy = declareComputed(b, in: t, generics: generics, copying: pt)
            }
            guard let copy else { continue }
            t.protocolCopies["\(pt.name).\(n)"] = copy
            if member.isStatic {
                if t.staticMethods[n] == nil && t.staticConstants[n] == nil { t.staticMethods[n] = copy }
            } else if t.methods[n] == nil && t.fieldIndex[n] == nil {
                t.methods[n] = copy
            }
        }
    }

    func compileLater(first: Bool = false, _ body: @escaping (Compiler) -> Void) {
        let p = PendingBody(converter: converter, inPrelude: inPrelude, compile: body)
        if first {
            let i = pending.firstIndex { !$0.early } ?? pending.count
            var q = p
            q.early = true
            pending.insert(q, at: i)
        } else {
            pending.append(p)
        }
    }
}

extension String {
    /// The part after the last dot: `CGRect.union(_:)` → `union(_:)`.
    var afterDot: String {
        guard let paren = firstIndex(of: "(") else { return split(separator: ".").last.map(String.init) ?? self }
        let head = self[..<paren]
        // An operator with dots (`T...<(_:_:)`): the operator is the run after the dot that ends the type's name.
        var run = head.endIndex
        while run > head.startIndex, "./=-+!*%<>&|^~?".contains(head[head.index(before: run)]) { run = head.index(before: run) }
        if run > head.startIndex, run < head.endIndex, head[run] == "." { return String(self[head.index(after: run)...]) }
        guard let dot = head.lastIndex(of: ".") else { return self }
        return String(self[index(after: dot)...])
    }

    func replacingAll(_ a: String, with b: String) -> String {
        guard !a.isEmpty else { return self }
        var out = ""
        var rest = Substring(self)
        while let r = rest.range(of: a) {
            out += rest[..<r.lowerBound]
            out += b
            rest = rest[r.upperBound...]
        }
        return out + rest
    }
}

extension Substring {
    func range(of s: String) -> Range<Index>? {
        guard !s.isEmpty else { return nil }
        var i = startIndex
        while i < endIndex {
            if self[i...].hasPrefix(s) { return i..<index(i, offsetBy: s.count) }
            i = index(after: i)
        }
        return nil
    }
}

/// Finds type declarations inside code blocks (function bodies, closures, macro bodies), not inside other types.
final class LocalTypeFinder: SyntaxVisitor {
    var found: [DeclSyntax] = []
    private var blocks = 0

    override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind {
        blocks += 1
        return .visitChildren
    }
    override func visitPost(_ node: CodeBlockSyntax) { blocks -= 1 }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
        blocks += 1
        return .visitChildren
    }
    override func visitPost(_ node: ClosureExprSyntax) { blocks -= 1 }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { take(DeclSyntax(node)) }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { take(DeclSyntax(node)) }
    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { take(DeclSyntax(node)) }

    /// A type inside a block is local; its own members are declared with it, so the walk does not enter it.
    private func take(_ decl: DeclSyntax) -> SyntaxVisitorContinueKind {
        guard blocks > 0 else { return .visitChildren }
        found.append(decl)
        return .skipChildren
    }
}
