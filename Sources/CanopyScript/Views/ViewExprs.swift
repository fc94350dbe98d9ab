/// What the compiler makes of view code: SwiftUI views and modifiers, `@ViewBuilder` blocks, wrapped properties.

/// An argument of a SwiftUI view's initializer, sorted by what it is for.
enum ViewArgument {
    /// A value shown in `props` under `label`.
    case prop(String, Expr)
    /// A closure the runtime calls on an event (`action`, `onEditingChanged`, …).
    case handler(String, Expr)
    /// A `@ViewBuilder` closure producing children (`content`, `label`, a trailing closure).
    case content(Expr)
}

/// `Text("a")`, `VStack { … }`, `TextField("Name", text: $name)`: a library view built at once, its content
/// closures run (they are pure), `ForEach` over its data.
final class ViewInitExpr: Expr {
    let name: String
    let arguments: [ViewArgument]

    init(_ location: SourceLocation, _ name: String, _ arguments: [ViewArgument]) {
        self.name = name
        self.arguments = arguments
        super.init(location, .opaque("View"))
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        try m.charge(at: location)
        let v = ViewValue(name == "ForEach" ? .forEach : .library, name, at: location)
        var contents: [Value] = []
        for a in arguments {
            switch a {
            case .prop(let label, let e): v.props.append((label, try e.eval(m)))
            case .handler(let role, let e): v.handlers.append((role, try e.eval(m)))
            case .content(let e): contents.append(try e.eval(m))
            }
        }
        if name == "ForEach" {
            try forEach(v, contents, m)
        } else if name == "AnyView" {
            // `AnyView(view)`: the view it erases is its child, not a value to show.
            for (_, p) in v.props { v.children += m.views(in: p) }
            v.props = []
        } else {
            for c in contents {
                let produced = try m.call(value: c, [], site: location)
                v.children += m.views(in: produced)
            }
        }
        return .view(v)
    }

    /// Runs the content closure once per element; the children are identified by the elements' ids.
    private func forEach(_ v: ViewValue, _ contents: [Value], _ m: Machine) throws(ScriptFault) {
        guard let data = v.prop("data") ?? v.prop("_0") ?? v.props.first?.1 else {
            throw m.fault("ForEach needs the data it shows", at: location)
        }
        guard let content = contents.first else { throw m.fault("ForEach needs a content closure", at: location) }
        let idPath = v.prop("id")
        let elements = try m.elements(data, at: location)
        try m.checkCount(elements.count, at: location)
        var seen: Set<String> = []
        for element in elements {
            let id: Value
            if let idPath {
                id = try m.call(value: idPath, [element], site: location)
            } else if case .record(let t, let f) = element, let i = m.program.types[t].fieldIndex["id"] {
                id = f[i]
            } else {
                id = element
            }
            let key = m.program.encode(id).string ?? m.program.encode(id).encoded()
            guard seen.insert(key).inserted else {
                throw m.fault("ForEach: the id \(key) appears twice; ids must be unique", at: location)
            }
            let produced = try m.call(value: content, [element], site: location)
            for child in m.views(in: produced) {
                v.children.append(child)
                v.childKeys.append(key)
            }
        }
        // The elements are its children; the data itself is not repeated as a prop.
        v.props = v.props.filter { $0.0 != "id" && $0.0 != "data" }
    }
}

/// `Color.gray` where a view is expected: a leaf node of that view type.
final class ViewLeafExpr: Expr {
    let name: String
    let member: String

    init(_ location: SourceLocation, _ name: String, member: String) {
        self.name = name
        self.member = member
        super.init(location, .opaque(name))
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        let v = ViewValue(.library, name, at: location)
        v.props = [("_0", .string(member))]
        return .view(v)
    }
}

/// A modifier applied to a view: `.padding()`, `.preference(key:value:)`, `.background { … }`.
final class ModifierExpr: Expr {
    enum Shape {
        case preference(key: TypeID, value: Expr)
        case onPreferenceChange(key: TypeID, perform: Expr)
        case transformPreference(key: TypeID, source: String)
        case attached(kind: String, view: Expr, args: [(String, Expr)])
        case environment(key: String, value: Expr)
        case onChange(value: Expr, action: Expr, initial: Expr?)
        case onReceive(name: String, action: Expr)
        case action(kind: String, action: Expr)
        case id(Expr)
        case anchorPreference(key: TypeID, source: Expr, transform: Expr, merging: Bool)
        case preferenceValue(overlay: Bool, key: TypeID, alignment: Expr?, content: Expr)
        case geometryChange(of: Expr, action: Expr)
        case other(name: String, args: [(String, Expr)])
    }

    let base: Expr
    let shape: Shape

    init(_ location: SourceLocation, base: Expr, _ shape: Shape) {
        self.base = base
        self.shape = shape
        super.init(location, .opaque("View"))
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        try m.charge(at: location)
        let target = try m.asView(try base.eval(m), at: location)
        let modifier: ViewModifier
        switch shape {
        case .preference(let key, let value):
            modifier = .preference(key: key, value: try value.eval(m))
        case .onPreferenceChange(let key, let perform):
            modifier = .onPreferenceChange(key: key, perform: try perform.eval(m))
        case .transformPreference(let key, let source):
            modifier = .transformPreference(key: key, source: source)
        case .attached(let kind, let view, let args):
            let produced = try view.eval(m)
            let content: Value
            if case .function = produced { content = try m.call(value: produced, [], site: location) } else {
                content = produced
            }
            let views = m.views(in: content)
            let attached: ViewValue
            if views.count == 1 { attached = views[0] } else {
                attached = ViewValue(.library, "Group", at: location)
                attached.children = views
            }
            var evaluated: [(String, Value)] = []
            for (label, e) in args { evaluated.append((label, try e.eval(m))) }
            modifier = .attached(kind: kind, view: attached, args: evaluated)
        case .environment(let key, let value):
            modifier = .environment(key: key, value: try value.eval(m))
        case .onChange(let value, let action, let initial):
            let isInitial = try initial?.eval(m)
            modifier = .onChange(value: try value.eval(m), action: try action.eval(m), initial: isInitial == .bool(true))
        case .onReceive(let name, let action):
            modifier = .onReceive(name: name, action: try action.eval(m))
        case .action(let kind, let action):
            modifier = .action(kind: kind, action: try action.eval(m))
        case .id(let e):
            let v = target.copy()
            let id = try e.eval(m)
            v.explicitID = m.program.encode(id).string ?? m.program.encode(id).encoded()
            return .view(v)
        case .anchorPreference(let key, let source, let transform, let merging):
            modifier = .anchorPreference(
                key: key, source: try source.eval(m), transform: try transform.eval(m), merging: merging)
        case .preferenceValue(let overlay, let key, let alignment, let content):
            modifier = .preferenceValue(
                overlay: overlay, key: key, alignment: try alignment?.eval(m), content: try content.eval(m))
        case .geometryChange(let of, let action):
            modifier = .geometryChange(of: try of.eval(m), action: try action.eval(m))
        case .other(let name, let args):
            var evaluated: [(String, Value)] = []
            for (label, e) in args { evaluated.append((label, try e.eval(m))) }
            modifier = .other(name: name, args: evaluated)
        }
        return .view(target.adding(modifier))
    }
}

/// Appends the views of an expression statement of a `@ViewBuilder` block to the block's hidden accumulator.
final class BuilderAppendStmt: Stmt {
    let slot: Int
    let expr: Expr

    init(slot: Int, _ expr: Expr) {
        self.slot = slot
        self.expr = expr
        super.init(expr.location)
    }

    override func exec(_ m: Machine) throws(ScriptFault) -> Flow {
        try m.charge(at: location)
        let v = try expr.eval(m)
        guard case .array(var views) = m.stack[m.fp + slot] else { return .normal }
        m.stack[m.fp + slot] = .null
        views += try m.builderViews(v, at: location).map { .view($0) }
        m.stack[m.fp + slot] = .array(views)
        return .normal
    }
}

/// Sets a hidden integer slot: which branch of a builder `if`/`switch` ran.
final class SetBranchStmt: Stmt {
    let slot: Int
    let branch: Int

    init(_ location: SourceLocation, slot: Int, branch: Int) {
        self.slot = slot
        self.branch = branch
        super.init(location)
    }

    override func exec(_ m: Machine) throws(ScriptFault) -> Flow {
        m.stack[m.fp + slot] = .int(branch)
        return .normal
    }
}

/// `if`/`switch` inside a builder: runs the statement with its own accumulator, then appends one `If` view holding
/// what the branch taken produced (PROGRAMS.md §3: present even when it shows nothing).
final class BuilderConditionalStmt: Stmt {
    let outer: Int
    let inner: Int
    let branchSlot: Int
    let body: Stmt

    init(_ location: SourceLocation, outer: Int, inner: Int, branchSlot: Int, body: Stmt) {
        self.outer = outer
        self.inner = inner
        self.branchSlot = branchSlot
        self.body = body
        super.init(location)
    }

    override func exec(_ m: Machine) throws(ScriptFault) -> Flow {
        m.stack[m.fp + inner] = .array([])
        m.stack[m.fp + branchSlot] = .int(-1)
        let flow = try body.exec(m)
        let v = ViewValue(.conditional, "If", at: location)
        if case .int(let b) = m.stack[m.fp + branchSlot] { v.branch = b }
        if case .array(let views) = m.stack[m.fp + inner] { v.children = views.compactMap(\.viewValue) }
        m.stack[m.fp + inner] = .null
        if case .array(var views) = m.stack[m.fp + outer] {
            m.stack[m.fp + outer] = .null
            views.append(.view(v))
            m.stack[m.fp + outer] = .array(views)
        }
        return flow
    }
}

/// Starts a builder block: its accumulator is empty.
final class BuilderStartStmt: Stmt {
    let slot: Int

    init(_ location: SourceLocation, slot: Int) {
        self.slot = slot
        super.init(location)
    }

    override func exec(_ m: Machine) throws(ScriptFault) -> Flow {
        m.stack[m.fp + slot] = .array([])
        return .normal
    }
}

/// The result of a builder block: its one view, or a group of them.
final class BuilderResultExpr: Expr {
    let slot: Int

    init(_ location: SourceLocation, slot: Int) {
        self.slot = slot
        super.init(location, .opaque("View"))
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        guard case .array(let views) = m.stack[m.fp + slot] else { return .null }
        if views.count == 1 { return views[0] }
        let g = ViewValue(.group, "Group", at: location)
        g.children = views.compactMap(\.viewValue)
        return .view(g)
    }
}
