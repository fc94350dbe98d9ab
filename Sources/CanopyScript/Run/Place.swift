/// Something assignable: a variable, a stored property of one, an element of one. `modify` hands the current value
/// over `inout`, so an append to an array in a local mutates it in place (copy on write sees one owner).
class Place {
    func get(_ m: Machine) throws(ScriptFault) -> Value { preconditionFailure("abstract") }
    func modify(_ m: Machine, _ body: (inout Value) throws(ScriptFault) -> Void) throws(ScriptFault) {
        preconditionFailure("abstract")
    }
    func set(_ m: Machine, _ v: Value) throws(ScriptFault) { try modify(m) { $0 = v } }
}

final class LocalPlace: Place {
    let slot: Int
    let boxed: Bool

    init(slot: Int, boxed: Bool) {
        self.slot = slot
        self.boxed = boxed
    }

    override func get(_ m: Machine) throws(ScriptFault) -> Value { m.stack[m.fp + slot].unboxed }

    override func modify(_ m: Machine, _ body: (inout Value) throws(ScriptFault) -> Void) throws(ScriptFault) {
        let i = m.fp + slot
        if boxed, case .box(let b) = m.stack[i] {
            var v = b.value
            b.value = .null
            defer { b.value = v }
            try body(&v)
            return
        }
        var v = m.stack[i]
        m.stack[i] = .null
        defer { m.stack[i] = v }
        try body(&v)
    }

    override func set(_ m: Machine, _ v: Value) throws(ScriptFault) {
        let i = m.fp + slot
        if boxed, case .box(let b) = m.stack[i] { b.value = v } else { m.stack[i] = v }
    }
}

final class CapturePlace: Place {
    let index: Int

    init(index: Int) { self.index = index }

    override func get(_ m: Machine) throws(ScriptFault) -> Value { m.captures[index].value }

    override func modify(_ m: Machine, _ body: (inout Value) throws(ScriptFault) -> Void) throws(ScriptFault) {
        let b = m.captures[index]
        var v = b.value
        b.value = .null
        defer { b.value = v }
        try body(&v)
    }
}

final class FieldPlace: Place {
    let base: Place
    let index: Int
    let name: String
    let location: SourceLocation

    init(base: Place, index: Int, name: String, location: SourceLocation) {
        self.base = base
        self.index = index
        self.name = name
        self.location = location
    }

    override func get(_ m: Machine) throws(ScriptFault) -> Value {
        if case .record(_, let f) = try base.get(m), index < f.count { return f[index] }
        throw m.fault("value has no property \(name)", at: location)
    }

    override func modify(_ m: Machine, _ body: (inout Value) throws(ScriptFault) -> Void) throws(ScriptFault) {
        let index = self.index
        let name = self.name
        let location = self.location
        try base.modify(m) { (v: inout Value) throws(ScriptFault) in
            guard try modifyField(m, &v, index, body) else { throw m.fault("value has no property \(name)", at: location) }
        }
    }
}

/// Modifies stored property `index` of the struct in `v` in place (the fields move out, so they have one owner);
/// false when `v` is not a struct with such a property.
private func modifyField(
    _ m: Machine, _ v: inout Value, _ index: Int, _ body: (inout Value) throws(ScriptFault) -> Void
) throws(ScriptFault) -> Bool {
    if case .object(let o) = v.unboxed, index >= 0, index < o.fields.count {
        m.objectWrites?.note(o)
        try body(&o.fields[index])
        return true
    }
    guard case .record(let t, var fields) = v, index >= 0, index < fields.count else { return false }
    v = .null
    defer { v = .record(t, fields) }
    try body(&fields[index])
    return true
}

/// A stored property found by name at run time.
final class DynamicFieldPlace: Place {
    let base: Place
    let name: String
    let location: SourceLocation

    init(base: Place, name: String, location: SourceLocation) {
        self.base = base
        self.name = name
        self.location = location
    }

    override func get(_ m: Machine) throws(ScriptFault) -> Value { try m.member(of: base.get(m), name, at: location) }

    override func modify(_ m: Machine, _ body: (inout Value) throws(ScriptFault) -> Void) throws(ScriptFault) {
        let name = self.name
        let location = self.location
        try base.modify(m) { (v: inout Value) throws(ScriptFault) in
            if case .tuple(var parts) = v, let i = Int(name), i < parts.count {
                // `t.0 = 5`, `acc.odds += x` (labels are positions by now).
                v = .null
                try body(&parts[i])
                v = .tuple(parts)
                return
            }
            let index: Int? = if case .record(let t, _) = v { m.program.types[t].fieldIndex[name] } else { nil }
            guard let index, try modifyField(m, &v, index, body) else {
                throw m.fault("cannot assign to property \(name) of this value", at: location)
            }
        }
    }
}

/// `a[i]` of an array, `d[k]` or `d[k, default: x]` of a dictionary.
final class SubscriptPlace: Place {
    let base: Place
    let index: Expr
    let fallback: Expr?
    let location: SourceLocation

    init(base: Place, index: Expr, fallback: Expr?, location: SourceLocation) {
        self.base = base
        self.index = index
        self.fallback = fallback
        self.location = location
    }

    override func get(_ m: Machine) throws(ScriptFault) -> Value {
        try m.subscriptGet(base.get(m), index.eval(m), fallback: fallback?.eval(m), at: location)
    }

    override func modify(_ m: Machine, _ body: (inout Value) throws(ScriptFault) -> Void) throws(ScriptFault) {
        let key = try index.eval(m)
        let dflt = try fallback?.eval(m)
        let location = self.location
        try base.modify(m) { (v: inout Value) throws(ScriptFault) in
            switch v {
            case .array(var a):
                if case .range(let lo, let hi, _) = key {
                    // `a[1...2] = [x, y]`: the slice replaced, which may change the array's length.
                    guard lo >= 0, lo <= hi, hi <= a.count else { throw m.fault("Index out of range", at: location) }
                    v = .null
                    var slice = Value.array(Array(a[lo..<hi]))
                    defer {
                        if case .array(let new) = slice.unboxed { a.replaceSubrange(lo..<hi, with: new) }
                        v = .array(a)
                    }
                    try body(&slice)
                    return
                }
                guard case .int(let i) = key, i >= 0, i < a.count else {
                    throw m.fault("Index out of range", at: location)
                }
                v = .null
                defer { v = .array(a) }
                try body(&a[i])
            case .dictionary(var d):
                v = .null
                var element = d[key] ?? dflt ?? .null
                // Leave `.null` in the key's slot while `body` runs, so the element is not copied and the key keeps
                // its place in insertion order.
                if d[key] != nil { d[key] = Value.null }
                defer {
                    d[key] = element.isNull && dflt == nil ? nil : element
                    v = .dictionary(d)
                }
                try body(&element)
            default:
                throw m.fault("this value cannot be subscripted", at: location)
            }
        }
    }
}

/// `a?` as the start of an assignable chain: a `nil` ends the assignment without effect.
final class ChainBindPlace: Place {
    let base: Place
    let location: SourceLocation

    init(base: Place, location: SourceLocation) {
        self.base = base
        self.location = location
    }

    override func get(_ m: Machine) throws(ScriptFault) -> Value {
        let v = try base.get(m)
        if v.isNull { throw ScriptFault(.nilChain, "", at: location) }
        return v
    }

    override func modify(_ m: Machine, _ body: (inout Value) throws(ScriptFault) -> Void) throws(ScriptFault) {
        let location = self.location
        try base.modify(m) { (v: inout Value) throws(ScriptFault) in
            if v.isNull { throw ScriptFault(.nilChain, "", at: location) }
            try body(&v)
        }
    }
}

final class ForceUnwrapPlace: Place {
    let base: Place
    let location: SourceLocation

    init(base: Place, location: SourceLocation) {
        self.base = base
        self.location = location
    }

    override func get(_ m: Machine) throws(ScriptFault) -> Value {
        let v = try base.get(m)
        if v.isNull { throw m.fault("Unexpectedly found nil while unwrapping an Optional value", at: location) }
        return v
    }

    override func modify(_ m: Machine, _ body: (inout Value) throws(ScriptFault) -> Void) throws(ScriptFault) {
        let location = self.location
        try base.modify(m) { (v: inout Value) throws(ScriptFault) in
            if v.isNull { throw m.fault("Unexpectedly found nil while unwrapping an Optional value", at: location) }
            try body(&v)
        }
    }
}

/// An expression whose value is read and written through a place.
final class PlaceExpr: Expr {
    let target: Place

    init(_ location: SourceLocation, _ target: Place, _ type: TypeRef) {
        self.target = target
        super.init(location, type)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value { try target.get(m) }

    override var place: Place? { target }
}

/// An assignable optional chain (`a?.b = x`): a `nil` on the way makes the assignment do nothing.
final class ChainPlace: Place {
    let base: Place

    init(base: Place) { self.base = base }

    override func get(_ m: Machine) throws(ScriptFault) -> Value {
        do { return try base.get(m) } catch {
            if error.kind == .nilChain { return .null }
            throw error
        }
    }

    override func modify(_ m: Machine, _ body: (inout Value) throws(ScriptFault) -> Void) throws(ScriptFault) {
        do { try base.modify(m, body) } catch {
            if error.kind != .nilChain { throw error }
        }
    }
}

/// A stored property of a class instance: reached through any expression that yields the instance, since the
/// instance is shared (`let account = Account(); account.balance += 1`). Found by its index where the compiler
/// knew the class, by name where the base's type was known only at run time (`models[0].counter.value = 7`); a base
/// that is not an object then has no place to assign.
final class ObjectFieldPlace: Place {
    let base: Expr
    let index: Int?
    let name: String
    let location: SourceLocation

    init(base: Expr, index: Int?, name: String, location: SourceLocation) {
        self.base = base
        self.index = index
        self.name = name
        self.location = location
    }

    private func slot(_ m: Machine) throws(ScriptFault) -> (Instance, Int) {
        if case .object(let o) = try base.eval(m).unboxed,
            let i = index ?? m.program.types[o.type].fieldIndex[name], i < o.fields.count
        {
            return (o, i)
        }
        if index != nil { throw m.fault("value has no property \(name)", at: location) }
        throw m.fault("cannot assign to property \(name): the value is not a variable", at: location)
    }

    override func get(_ m: Machine) throws(ScriptFault) -> Value {
        let (o, i) = try slot(m)
        return o.fields[i]
    }

    override func modify(_ m: Machine, _ body: (inout Value) throws(ScriptFault) -> Void) throws(ScriptFault) {
        let (o, i) = try slot(m)
        m.objectWrites?.note(o)
        try body(&o.fields[i])
    }
}

/// A top-level `var` as an assignable place.
final class GlobalVariablePlace: Place {
    let index: Int
    let location: SourceLocation

    init(index: Int, location: SourceLocation) {
        self.index = index
        self.location = location
    }

    override func get(_ m: Machine) throws(ScriptFault) -> Value { m.read(try m.globalBox(index, at: location)) }

    override func modify(_ m: Machine, _ body: (inout Value) throws(ScriptFault) -> Void) throws(ScriptFault) {
        let box = try m.globalBox(index, at: location)
        var v = m.read(box)
        try body(&v)
        m.write(box, v)
    }
}

/// Assigning a computed property: the new value goes to its setter.
final class ComputedPropertyPlace: Place {
    let base: Expr
    let name: String
    let getter: Expr
    let location: SourceLocation

    init(base: Expr, name: String, getter: Expr, location: SourceLocation) {
        self.base = base
        self.name = name
        self.getter = getter
        self.location = location
    }

    override func get(_ m: Machine) throws(ScriptFault) -> Value { try getter.eval(m) }

    override func modify(_ m: Machine, _ body: (inout Value) throws(ScriptFault) -> Void) throws(ScriptFault) {
        var value = try getter.eval(m)
        try body(&value)
        let name = self.name
        let location = self.location
        func set(_ recv: inout Value) throws(ScriptFault) {
            guard let t = recv.programType, let setter = m.program.types[t].setters[name] else {
                throw m.fault("property '\(name)' has no setter", at: location)
            }
            var args = [value]
            _ = try m.invokeMethod(setter, &recv, &args, site: location)
        }
        let receiver = try base.eval(m)
        if case .object = receiver.unboxed {
            var recv = receiver.unboxed
            return try set(&recv)
        }
        guard let place = base.place else {
            throw m.fault("cannot assign to property '\(name)': the value is a 'let' constant or 'self' is immutable", at: location)
        }
        try place.modify(m) { (recv: inout Value) throws(ScriptFault) in try set(&recv) }
    }
}

/// A stored property with observers: `willSet` with the new value, the assignment, then `didSet` with the old one,
/// each run on the receiver (its place for a struct, the shared instance for a class).
final class ObservedFieldPlace: Place {
    let field: Place
    let base: Expr
    let observers: (willSet: Function?, didSet: Function?)
    let location: SourceLocation

    init(_ field: Place, base: Expr, observers: (willSet: Function?, didSet: Function?), location: SourceLocation) {
        self.field = field
        self.base = base
        self.observers = observers
        self.location = location
    }

    override func get(_ m: Machine) throws(ScriptFault) -> Value { try field.get(m) }

    override func modify(_ m: Machine, _ body: (inout Value) throws(ScriptFault) -> Void) throws(ScriptFault) {
        let old = try field.get(m)
        var new = old
        try body(&new)
        if let willSet = observers.willSet { try run(willSet, new, m) }
        try field.set(m, new)
        if let didSet = observers.didSet { try run(didSet, old, m) }
    }

    private func run(_ observer: Function, _ value: Value, _ m: Machine) throws(ScriptFault) {
        var args = [value]
        let receiver = try base.eval(m)
        if case .object = receiver.unboxed {
            var recv = receiver.unboxed
            _ = try m.invokeMethod(observer, &recv, &args, site: location)
            return
        }
        guard let place = base.place else { return }
        let location = self.location
        try place.modify(m) { (recv: inout Value) throws(ScriptFault) in
            _ = try m.invokeMethod(observer, &recv, &args, site: location)
        }
    }
}
