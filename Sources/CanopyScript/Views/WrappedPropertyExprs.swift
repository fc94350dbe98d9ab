/// Property wrappers of views: `@State`, `@Binding`, `@Environment` read and write through their storage, and
/// `$x` projects a binding (PROGRAMS.md §4).

/// Reading a wrapped stored property: through its cell or binding when the view instance holds one.
final class WrappedFieldExpr: Expr {
    let base: Expr
    let index: Int
    let name: String

    init(_ location: SourceLocation, base: Expr, index: Int, name: String, _ type: TypeRef) {
        self.base = base
        self.index = index
        self.name = name
        super.init(location, type)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        guard case .record(_, let fields) = try base.eval(m), index < fields.count else {
            throw m.fault("value has no property \(name)", at: location)
        }
        return try m.unwrapProperty(fields[index], at: location)
    }

    override var place: Place? { WrappedFieldPlace(base: base, fallback: base.place, index: index, name: name, at: location) }
}

/// Assigning a wrapped property writes its cell or binding: allowed in non-mutating code, as in SwiftUI.
final class WrappedFieldPlace: Place {
    let base: Expr
    let fallback: Place?
    let index: Int
    let name: String
    let location: SourceLocation

    init(base: Expr, fallback: Place?, index: Int, name: String, at location: SourceLocation) {
        self.base = base
        self.fallback = fallback
        self.index = index
        self.name = name
        self.location = location
    }

    private func storage(_ m: Machine) throws(ScriptFault) -> Value {
        guard case .record(_, let fields) = try base.eval(m), index < fields.count else {
            throw m.fault("value has no property \(name)", at: location)
        }
        return fields[index]
    }

    override func get(_ m: Machine) throws(ScriptFault) -> Value { try m.unwrapProperty(try storage(m), at: location) }

    override func modify(_ m: Machine, _ body: (inout Value) throws(ScriptFault) -> Void) throws(ScriptFault) {
        switch try storage(m) {
        case .cell(let box):
            var v = m.read(box)
            try body(&v)
            m.write(box, v)
        case .binding(let b):
            let saved = m.site
            m.site = location
            defer { m.site = saved }
            var v = try b.get(m)
            try body(&v)
            try b.set(m, v)
        default:
            // Not yet given storage (inside an initializer): an ordinary stored property.
            guard let fallback else {
                throw m.fault("cannot assign to property '\(name)': 'self' is immutable", at: location)
            }
            try FieldPlace(base: fallback, index: index, name: name, location: location).modify(m, body)
        }
    }
}

/// `$x`: the binding of a `@State` property, or the binding a `@Binding` property holds.
final class ProjectedFieldExpr: Expr {
    let base: Expr
    let index: Int
    let name: String

    init(_ location: SourceLocation, base: Expr, index: Int, name: String) {
        self.base = base
        self.index = index
        self.name = name
        super.init(location, .opaque("Binding"))
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        guard case .record(_, let fields) = try base.eval(m), index < fields.count else {
            throw m.fault("value has no property \(name)", at: location)
        }
        switch fields[index] {
        case .cell(let box): return .binding(BindingValue(.cell(box, path: [])))
        case .binding(let b): return .binding(b)
        case let v: return .binding(BindingValue(.constant(v)))
        }
    }
}

/// `binding.wrappedValue`, `binding.name` (a binding to a property), `binding.projectedValue`.
final class BindingMemberExpr: Expr {
    let base: Expr
    let name: String

    init(_ location: SourceLocation, base: Expr, name: String, _ type: TypeRef) {
        self.base = base
        self.name = name
        super.init(location, type)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        try m.bindingMember(try base.eval(m), name, at: location)
    }

    override var place: Place? { name == "wrappedValue" ? BindingPlace(base: base, at: location) : nil }
}

/// `$items[i]`: a binding to one element of the bound collection.
final class BindingElementExpr: Expr {
    let base: Expr
    let index: Expr

    init(_ location: SourceLocation, base: Expr, index: Expr) {
        self.base = base
        self.index = index
        super.init(location, .opaque("Binding"))
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        guard case .binding(let b) = try base.eval(m).unboxed else { throw m.fault("this value is not a Binding", at: location) }
        return .binding(BindingValue(.element(b, try index.eval(m))))
    }
}

/// `binding.wrappedValue = x`.
final class BindingPlace: Place {
    let base: Expr
    let location: SourceLocation

    init(base: Expr, at location: SourceLocation) {
        self.base = base
        self.location = location
    }

    private func binding(_ m: Machine) throws(ScriptFault) -> BindingValue {
        guard case .binding(let b) = try base.eval(m).unboxed else { throw m.fault("this value is not a Binding", at: location) }
        return b
    }

    override func get(_ m: Machine) throws(ScriptFault) -> Value { try binding(m).get(m) }

    override func modify(_ m: Machine, _ body: (inout Value) throws(ScriptFault) -> Void) throws(ScriptFault) {
        let b = try binding(m)
        var v = try b.get(m)
        try body(&v)
        try b.set(m, v)
    }
}

/// `Binding(get: { … }, set: { … })`, `.constant(x)`, `Binding.constant(x)`.
final class BindingInitExpr: Expr {
    let get: Expr?
    let set: Expr?
    let constant: Expr?

    init(_ location: SourceLocation, get: Expr?, set: Expr?, constant: Expr?) {
        self.get = get
        self.set = set
        self.constant = constant
        super.init(location, .opaque("Binding"))
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        if let constant { return .binding(BindingValue(.constant(try constant.eval(m)))) }
        guard let get, let set else { throw m.fault("Binding needs get: and set:", at: location) }
        return .binding(BindingValue(.closures(get: try get.eval(m), set: try set.eval(m))))
    }
}

extension Machine {
    /// The value a wrapped property stands for.
    package func unwrapProperty(_ stored: Value, at location: SourceLocation) throws(ScriptFault) -> Value {
        switch stored {
        case .cell(let box): return read(box)
        case .binding(let b):
            let saved = site
            site = location
            defer { site = saved }
            return try b.get(self)
        default: return stored
        }
    }

    func bindingMember(_ v: Value, _ name: String, at location: SourceLocation) throws(ScriptFault) -> Value {
        guard case .binding(let b) = v.unboxed else { return try member(of: v, name, at: location) }
        switch name {
        case "wrappedValue":
            let saved = site
            site = location
            defer { site = saved }
            return try b.get(self)
        case "projectedValue": return v
        default: return .binding(b.member(name))
        }
    }
}
