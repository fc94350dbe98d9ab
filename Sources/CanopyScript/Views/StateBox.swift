/// The storage behind a `@State` property or an `@Environment` value of one view instance. Views hold it in their
/// property; reads and writes go through the machine's `ViewHost`, which records what each body read and which cells
/// a transaction changed.
public final class StateBox: @unchecked Sendable {  // touched only by the thread running its program tree
    public enum Kind: Sendable, Equatable {
        /// `@State var name` of the view instance at `node`.
        case state(node: String, name: String)
        /// `@Environment(\.key)` as the view instance at `node` sees it.
        case environment(node: String, key: String)
        /// A top-level `var name` of the program.
        case global(name: String)
    }

    public let kind: Kind
    package var value: Value
    /// Bumped by every write: lets the runtime see which cells a transaction changed.
    public package(set) var generation = 0
    /// The instances whose last body run read it (node ids).
    package var readers: Set<String> = []

    package init(_ kind: Kind, _ value: Value) {
        self.kind = kind
        self.value = value
    }
}

/// A `Binding`: to a cell (through a property path, `$form.name`), to get/set closures, to a property of another
/// binding, or a constant.
package final class BindingValue {
    package enum Source {
        case cell(StateBox, path: [String])
        case closures(get: Value, set: Value)
        case member(BindingValue, String)
        /// `$items[i]`, `$scores["a"]`: an element of the bound array or dictionary.
        case element(BindingValue, Value)
        case constant(Value)
    }

    package let source: Source

    package init(_ source: Source) { self.source = source }

    /// The binding one property further down: `$model.name`.
    package func member(_ name: String) -> BindingValue {
        if case .cell(let box, let path) = source { return BindingValue(.cell(box, path: path + [name])) }
        return BindingValue(.member(self, name))
    }

    /// The cell it reaches, if it reaches one directly.
    package var box: StateBox? {
        if case .cell(let b, _) = source { return b }
        return nil
    }

    /// Bindings are equal when they reach the same storage the same way (closures by identity).
    package func same(as o: BindingValue) -> Bool {
        if self === o { return true }
        switch (source, o.source) {
        case (.cell(let a, let p), .cell(let b, let q)): return a === b && p == q
        case (.closures(let g1, let s1), .closures(let g2, let s2)): return g1 == g2 && s1 == s2
        case (.member(let a, let n), .member(let b, let m)): return n == m && a.same(as: b)
        case (.element(let a, let i), .element(let b, let j)): return i == j && a.same(as: b)
        case (.constant(let a), .constant(let b)): return a == b
        default: return false
        }
    }

    package func get(_ m: Machine) throws(ScriptFault) -> Value {
        switch source {
        case .cell(let box, let path):
            var v = m.read(box)
            for n in path { v = try m.member(of: v, n, at: m.site) }
            return v
        case .closures(let get, _):
            return try m.call(value: get, [], site: m.site)
        case .member(let parent, let name):
            return try m.member(of: parent.get(m), name, at: m.site)
        case .element(let parent, let key):
            return try m.subscriptGet(parent.get(m), key, fallback: nil, at: m.site)
        case .constant(let v):
            return v
        }
    }

    package func set(_ m: Machine, _ new: Value) throws(ScriptFault) {
        switch source {
        case .cell(let box, let path):
            if path.isEmpty { return m.write(box, new) }
            var whole = box.value
            try m.setPath(&whole, path[...], to: new)
            m.write(box, whole)
        case .closures(_, let set):
            _ = try m.call(value: set, [new], site: m.site)
        case .member(let parent, let name):
            var whole = try parent.get(m)
            try m.setMember(of: &whole, name, to: new)
            try parent.set(m, whole)
        case .element(let parent, let key):
            var whole = try parent.get(m)
            switch (whole, key) {
            case (.array(var a), .int(let i)):
                guard i >= 0, i < a.count else { throw m.fault("Index out of range") }
                a[i] = new
                whole = .array(a)
            case (.dictionary(var d), _):
                d[key] = new.isNull ? nil : new
                whole = .dictionary(d)
            default:
                throw m.fault("this binding's value cannot be subscripted with this index")
            }
            try parent.set(m, whole)
        case .constant:
            break  // `.constant(x)` ignores writes, as in SwiftUI
        }
    }
}

/// What a running program tree does when Swift code touches view state: record reads (dependencies of the body
/// running), and apply writes (marking the bodies that read the cell).
package protocol ViewHost: AnyObject {
    func read(_ box: StateBox) -> Value
    func write(_ box: StateBox, _ value: Value)
    /// The cell of top-level `var` number `index`, made on first use with its restored or initial value.
    func globalBox(_ index: Int, name: String, initial: () throws(ScriptFault) -> Value) throws(ScriptFault) -> StateBox
}

extension Machine {
    /// Writes a cell through the host (or directly when no program tree runs).
    package func write(_ box: StateBox, _ value: Value) {
        if let host { host.write(box, value) } else {
            box.value = value
            box.generation += 1
        }
    }

    /// The cell of a top-level `var`: the program tree's, or this machine's own when none runs. Its initial value is
    /// computed on first use, as Swift initializes a global.
    package func globalBox(_ index: Int, at location: SourceLocation) throws(ScriptFault) -> StateBox {
        let name = program.globalVariables[index].name
        if let host {
            return try host.globalBox(index, name: name) { () throws(ScriptFault) in try globalInitial(index, at: location) }
        }
        if let box = globals[index] { return box }
        let box = StateBox(.global(name: name), try globalInitial(index, at: location))
        globals[index] = box
        return box
    }

    /// A top-level `var`'s initial value, computed on its first use.
    private func globalInitial(_ index: Int, at location: SourceLocation) throws(ScriptFault) -> Value {
        let g = program.globalVariables[index]
        guard let e = g.initial else { throw fault("\(g.name) has no value", at: location) }
        return coerce(try e.eval(self), to: g.type)
    }

    /// Reads a cell through the host.
    package func read(_ box: StateBox) -> Value { host?.read(box) ?? box.value }

    /// Sets the stored property `name` of a struct value.
    package func setMember(of v: inout Value, _ name: String, to new: Value) throws(ScriptFault) {
        guard case .record(let t, var fields) = v, let i = program.types[t].fieldIndex[name] else {
            throw fault("cannot set property '\(name)' through this binding")
        }
        fields[i] = new
        v = .record(t, fields)
    }

    package func setPath(_ v: inout Value, _ path: ArraySlice<String>, to new: Value) throws(ScriptFault) {
        guard let first = path.first else {
            v = new
            return
        }
        var inner = try member(of: v, first, at: site)
        try setPath(&inner, path.dropFirst(), to: new)
        try setMember(of: &v, first, to: inner)
    }
}

extension StateBox {
    /// Where a stored cell lives: its view instance's node and name; a top-level `var` has the node "".
    package var cell: (node: String, name: String)? {
        switch kind {
        case .state(let node, let name): return (node, name)
        case .global(let name): return ("", name)
        case .environment: return nil
        }
    }

    /// What a body that read it says changed: the property name, or the environment key.
    package var label: String {
        switch kind {
        case .state(_, let name): return name
        case .environment(_, let key): return key
        case .global(let name): return name
        }
    }
}

extension Machine {
    /// How many parameters a function value takes (`nil` when it is not a function).
    package func arity(of f: Value) -> Int? {
        guard case .function(let c) = f.unboxed else { return nil }
        switch c.kind {
        case .function: return unsafeDowncast(c, to: Function.self).parameterCount
        case .closure: return unsafeDowncast(c, to: Closure.self).function.parameterCount
        case .bound: return unsafeDowncast(c, to: BoundMethod.self).function.parameterCount - 1
        case .native, .nextValue: return nil
        }
    }

    /// Where a function value's code is written: a closure's `{`, a function's or method's declaration (`nil` for
    /// library functions and what is not a function).
    package func sourceLocation(of f: Value) -> SourceLocation? {
        guard case .function(let c) = f.unboxed else { return nil }
        let location: SourceLocation
        switch c.kind {
        case .function: location = unsafeDowncast(c, to: Function.self).location
        case .closure: location = unsafeDowncast(c, to: Closure.self).function.location
        case .bound: location = unsafeDowncast(c, to: BoundMethod.self).function.location
        case .native, .nextValue: return nil
        }
        return location.line > 0 ? location : nil
    }

    /// Writes through a binding value.
    package func assign(binding: Value, _ value: Value) throws(ScriptFault) {
        guard case .binding(let b) = binding.unboxed else { throw fault("this value is not a Binding") }
        try b.set(self, value)
    }

    /// `T()` for a struct of the program: its memberwise initializer with every default, or its `init()`.
    package func construct(_ info: TypeInfo) throws(ScriptFault) -> Value {
        if let i = info.staticMethods["init()"] {
            var fields: [Value] = []
            for f in info.fields { fields.append(try f.initial?.eval(self) ?? .null) }
            var me = Value.record(info.id, fields)
            var none: [Value] = []
            _ = try invokeMethod(i, &me, &none, site: i.location)
            return me
        }
        var fields: [Value] = []
        for f in info.fields {
            if let initial = f.initial {
                fields.append(try initial.eval(self))
            } else if f.type.isOptional || f.wrapper == "Environment" {
                fields.append(.null)
            } else {
                throw fault("\(info.name)() needs a value for '\(f.name)'", at: info.location)
            }
        }
        return .record(info.id, fields)
    }
}
