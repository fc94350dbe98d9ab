import CanopyInflection

/// A compiled expression: names resolved to slots, members to indexes, before anything runs.
class Expr {
    let location: SourceLocation
    /// What the compiler knows of the result's type.
    var type: TypeRef

    init(_ location: SourceLocation, _ type: TypeRef) {
        self.location = location
        self.type = type
    }

    func eval(_ m: Machine) throws(ScriptFault) -> Value { preconditionFailure("\(Self.self) does not evaluate") }

    /// The expression as an assignable place, when it is one.
    var place: Place? { nil }
}

final class LiteralExpr: Expr {
    let value: Value

    init(_ location: SourceLocation, _ value: Value, _ type: TypeRef) {
        self.value = value
        super.init(location, type)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value { value }
}

/// A local variable or parameter of the running frame.
final class LocalExpr: Expr {
    let slot: Int
    let boxed: Bool
    let mutable: Bool

    init(_ location: SourceLocation, slot: Int, boxed: Bool, mutable: Bool, _ type: TypeRef) {
        self.slot = slot
        self.boxed = boxed
        self.mutable = mutable
        super.init(location, type)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        let v = m.stack[m.fp + slot]
        if boxed, case .box(let b) = v { return b.value }
        return v
    }

    override var place: Place? { mutable ? LocalPlace(slot: slot, boxed: boxed) : nil }
}

/// A variable a closure captured (always a box).
final class CaptureExpr: Expr {
    let index: Int
    let mutable: Bool

    init(_ location: SourceLocation, index: Int, mutable: Bool, _ type: TypeRef) {
        self.index = index
        self.mutable = mutable
        super.init(location, type)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value { m.captures[index].value }

    override var place: Place? { mutable ? CapturePlace(index: index) : nil }
}

/// A static property or top-level constant, computed once when the program compiled.
final class ConstantExpr: Expr {
    let cell: ConstantCell

    init(_ location: SourceLocation, _ cell: ConstantCell, _ type: TypeRef) {
        self.cell = cell
        super.init(location, type)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        if let v = cell.value { return v }
        return try cell.compute(m, at: location)
    }
}

/// A method of a value used as a function (`events.map(screen.handle)`): bound to the value as it is now.
final class BoundMethodExpr: Expr {
    let base: Expr
    let function: Function

    init(_ location: SourceLocation, base: Expr, _ function: Function, _ type: TypeRef) {
        self.base = base
        self.function = function
        super.init(location, type)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        .function(BoundMethod(function, receiver: try base.eval(m)))
    }
}

/// A static property read through a metatype value (`key.defaultValue` with `key: T.Type`).
final class MetatypeMemberExpr: Expr {
    let base: Expr
    let name: String

    init(_ location: SourceLocation, base: Expr, name: String, _ type: TypeRef) {
        self.base = base
        self.name = name
        super.init(location, type)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        guard case .metatype(.named(let id)) = try base.eval(m).unboxed, let i = m.program.types[id].staticConstants[name]
        else { throw m.fault("this type has no static property '\(name)'", at: location) }
        let cell = m.program.cells[i]
        if let v = cell.value { return v }
        return try cell.compute(m, at: location)
    }
}

/// A constant's value and the expression it is computed from (once, in dependency order, at compile time).
final class ConstantCell {
    let name: String
    var initializer: Expr?
    var value: Value?
    var computing = false

    init(name: String) { self.name = name }

    func compute(_ m: Machine, at location: SourceLocation) throws(ScriptFault) -> Value {
        guard let initializer else { throw m.fault("\(name) has no value", at: location) }
        guard !computing else { throw m.fault("\(name) is defined in terms of itself", at: location) }
        computing = true
        defer { computing = false }
        let v = try initializer.eval(m)
        value = v
        return v
    }
}

/// A stored property of a struct value.
final class FieldExpr: Expr {
    let base: Expr
    let index: Int
    let name: String
    /// A `let` property outside its type's initializers: it has no place to assign.
    let readOnly: Bool

    init(_ location: SourceLocation, base: Expr, index: Int, name: String, readOnly: Bool = false, _ type: TypeRef) {
        self.base = base
        self.index = index
        self.name = name
        self.readOnly = readOnly
        super.init(location, type)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        let b = try base.eval(m)
        if case .record(_, let fields) = b, index < fields.count { return fields[index] }
        if case .object(let o) = b.unboxed, index < o.fields.count { return o.fields[index] }
        throw m.fault("value has no property \(name)", at: location)
    }

    /// Set for a class's stored property: assigning it changes the shared instance, whatever holds it.
    var onObject = false
    /// The property's `willSet` and `didSet`, when an assignment here runs them.
    var observed: (willSet: Function?, didSet: Function?)?

    override var place: Place? {
        if readOnly { return nil }
        let plain: Place?
        if onObject {
            plain = ObjectFieldPlace(base: base, index: index, name: name, location: location)
        } else {
            plain = base.place.map { FieldPlace(base: $0, index: index, name: name, location: location) }
        }
        guard let observed, let plain else { return plain }
        return ObservedFieldPlace(plain, base: base, observers: observed, location: location)
    }
}

/// A member looked up by name when the receiver's type is only known at run time (an existential, a generic).
final class DynamicMemberExpr: Expr {
    let base: Expr
    let name: String
    /// A protocol extension's property that is not a requirement, read through the protocol: its copy runs.
    var viaProtocol: String?
    /// A requirement read through the protocol: a class's witness decides (`MethodCallExpr.throughProtocol`).
    var throughProtocol = false

    init(_ location: SourceLocation, base: Expr, name: String) {
        self.base = base
        self.name = name
        super.init(location, .unknown)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        try m.member(of: base.eval(m), name, via: viaProtocol, throughProtocol: throughProtocol, at: location)
    }

    override var place: Place? {
        // Without a place for the base, only an object's property can change (`models[0].counter.value = 7`).
        base.place.map { DynamicFieldPlace(base: $0, name: name, location: location) }
            ?? ObjectFieldPlace(base: base, index: nil, name: name, location: location)
    }
}

/// `a?` inside an optional chain: a `nil` ends the whole chain with `nil`.
final class ChainBindExpr: Expr {
    let base: Expr

    init(_ location: SourceLocation, base: Expr) {
        self.base = base
        super.init(location, base.type.unwrapped)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        let v = try base.eval(m)
        if v.isNull { throw ScriptFault(.nilChain, "", at: location) }
        return v
    }

    override var place: Place? { base.place.map { ChainBindPlace(base: $0, location: location) } }
}

/// The outermost expression of an optional chain: `nil` if any `?` in it met `nil`.
final class ChainExpr: Expr {
    let body: Expr

    init(_ location: SourceLocation, body: Expr) {
        self.body = body
        super.init(location, body.type.isOptional ? body.type : .optional(body.type))
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        do {
            return try body.eval(m)
        } catch {
            if error.kind == .nilChain { return .null }
            throw error
        }
    }

    override var place: Place? { body.place.map { ChainPlace(base: $0) } }
}

final class ForceUnwrapExpr: Expr {
    let base: Expr

    init(_ location: SourceLocation, base: Expr) {
        self.base = base
        super.init(location, base.type.unwrapped)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        let v = try base.eval(m)
        if v.isNull { throw m.fault("Unexpectedly found nil while unwrapping an Optional value", at: location) }
        return v
    }

    override var place: Place? { base.place.map { ForceUnwrapPlace(base: $0, location: location) } }
}

final class TernaryExpr: Expr {
    let condition: Expr, then: Expr, otherwise: Expr

    init(_ location: SourceLocation, _ c: Expr, _ t: Expr, _ e: Expr, _ type: TypeRef) {
        condition = c
        then = t
        otherwise = e
        super.init(location, type)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        try m.truth(condition.eval(m), at: condition.location) ? then.eval(m) : otherwise.eval(m)
    }
}

final class ArrayLiteralExpr: Expr {
    let elements: [Expr]

    init(_ location: SourceLocation, _ elements: [Expr], _ type: TypeRef) {
        self.elements = elements
        super.init(location, type)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        var out: [Value] = []
        out.reserveCapacity(elements.count)
        for e in elements { out.append(try e.eval(m)) }
        return .array(out)
    }
}

final class DictionaryLiteralExpr: Expr {
    let pairs: [(Expr, Expr)]

    init(_ location: SourceLocation, _ pairs: [(Expr, Expr)], _ type: TypeRef) {
        self.pairs = pairs
        super.init(location, type)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        var d = OrderedDictionary()
        for (k, v) in pairs {
            let key = try k.eval(m)
            if d[key] != nil { throw m.fault("Dictionary literal contains duplicate keys", at: k.location) }
            d[key] = try v.eval(m)
        }
        return .dictionary(d)
    }
}

final class TupleExpr: Expr {
    let elements: [Expr]

    init(_ location: SourceLocation, _ elements: [Expr], _ type: TypeRef) {
        self.elements = elements
        super.init(location, type)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        var out: [Value] = []
        for e in elements { out.append(try e.eval(m)) }
        return .tuple(out)
    }
}

/// String interpolation: the pieces, described as `String(describing:)` would.
final class InterpolationExpr: Expr {
    let parts: [Expr]

    init(_ location: SourceLocation, _ parts: [Expr]) {
        self.parts = parts
        super.init(location, .string)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        var s = ""
        for p in parts {
            let v = try p.eval(m)
            if case .string(let t) = v, !p.type.isOptional { s += t } else { s += try m.describe(v, as: p.type) }
        }
        try m.checkCount(s.utf8.count, at: location)
        return .string(s)
    }
}

/// `print(items…, separator:, terminator:)`: each item described by its static type, into the machine's output.
final class PrintExpr: Expr {
    let items: [Expr]
    let separator: Expr?
    let terminator: Expr?

    init(_ location: SourceLocation, _ items: [Expr], separator: Expr?, terminator: Expr?) {
        self.items = items
        self.separator = separator
        self.terminator = terminator
        super.init(location, .void)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        var line = ""
        let sep = try separator.map { e throws(ScriptFault) in m.describe(try e.eval(m)) } ?? " "
        for (i, item) in items.enumerated() {
            if i > 0 { line += sep }
            let v = try item.eval(m)
            if case .string(let t) = v.unboxed, !item.type.isOptional { line += t } else { line += try m.describe(v, as: item.type) }
        }
        line += try terminator.map { e throws(ScriptFault) in m.describe(try e.eval(m)) } ?? "\n"
        try m.charge(1, at: location)
        guard m.output != nil else { return .null }
        m.output! += line
        try m.checkCount(m.output!.utf8.count, at: location)
        return .null
    }
}

/// `AttributedString(localized:)`: the literal's pieces, then English grammar agreement.
final class LocalizedExpr: Expr {
    let parts: [(literal: String?, argument: Expr?)]

    init(_ location: SourceLocation, _ parts: [(literal: String?, argument: Expr?)]) {
        self.parts = parts
        super.init(location, .string)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        var segments: [LocalizedSegment] = []
        for p in parts {
            if let l = p.literal { segments.append(.literal(l)) }
            if let a = p.argument {
                let v = try a.eval(m)
                let text: String
                // A program type's own `description` (a `Date`, a `UUID`) as `print` shows it.
                if case .string(let t) = v { text = t } else { text = try m.describe(v, as: .unknown) }
                segments.append(.argument(text: text, number: v.number))
            }
        }
        return .string(Inflection.render(segments))
    }
}

/// `{ … }`: a closure made from a compiled body and the boxes it captures.
final class ClosureExpr: Expr {
    let function: Function
    /// Where each capture comes from in the enclosing frame.
    let sources: [CaptureSource]

    init(_ location: SourceLocation, _ function: Function, sources: [CaptureSource], _ type: TypeRef) {
        self.function = function
        self.sources = sources
        super.init(location, type)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        var boxes: [Box] = []
        boxes.reserveCapacity(sources.count)
        for s in sources {
            switch s {
            case .local(let slot):
                if case .box(let b) = m.stack[m.fp + slot] {
                    boxes.append(b)
                } else {
                    // A variable declared boxed but not yet initialized: box it now.
                    let b = Box(m.stack[m.fp + slot])
                    m.stack[m.fp + slot] = .box(b)
                    boxes.append(b)
                }
            case .capture(let i): boxes.append(m.captures[i])
            case .value(let e): boxes.append(Box(try e.eval(m)))
            }
        }
        return .function(Closure(function, captures: boxes))
    }
}

/// Where a closure's captured box comes from.
enum CaptureSource {
    case local(Int)
    case capture(Int)
    /// A capture list entry `[x = expr]`: a fresh box with the value at creation.
    case value(Expr)
}

/// A reference to a function as a value (`max`, `Self.helper`).
final class FunctionValueExpr: Expr {
    let callable: Callable

    init(_ location: SourceLocation, _ callable: Callable, _ type: TypeRef) {
        self.callable = callable
        super.init(location, type)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value { .function(callable) }
}

/// `v is T`, `v as? T`, `v as! T`, `v as T`.
final class CastExpr: Expr {
    enum Mode { case check, optional, forced, plain }
    let base: Expr
    let target: TypeRef
    let mode: Mode

    init(_ location: SourceLocation, base: Expr, target: TypeRef, mode: Mode) {
        self.base = base
        self.target = target
        self.mode = mode
        let t: TypeRef
        switch mode {
        case .check: t = .bool
        case .optional: t = .optional(target)
        case .forced, .plain: t = target
        }
        super.init(location, t)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        let v = try base.eval(m)
        if mode == .plain { return m.coerce(v, to: target) }
        let fits = m.value(v, isA: target)
        switch mode {
        case .check: return .bool(fits)
        case .optional: return fits ? m.coerce(v, to: target) : .null
        case .forced:
            guard fits else { throw m.fault("Could not cast value to \(m.program.name(of: target))", at: location) }
            return m.coerce(v, to: target)
        case .plain: return v
        }
    }
}

/// A library property (`a.count`) resolved by kind of value; an extension's computed property or a stored one when
/// the value turns out to be of a program type.
final class NativePropertyExpr: Expr {
    let base: Expr
    let name: String
    let site: NativeSite

    init(_ location: SourceLocation, base: Expr, name: String, site: NativeSite, _ type: TypeRef) {
        self.base = base
        self.name = name
        self.site = site
        super.init(location, type)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        var v = try base.eval(m)
        if let native = site[v.kind] { return try m.callNative(native, &v, [], at: location) }
        return try m.member(of: v, name, at: location)
    }

    override var place: Place? { base.place.map { DynamicFieldPlace(base: $0, name: name, location: location) } }
}

/// A top-level `var`: read and written through the program tree's cell for it (or the machine's own store when
/// no tree runs), so a body that reads it re-runs when it changes.
final class GlobalVariableExpr: Expr {
    let index: Int

    init(_ location: SourceLocation, index: Int, _ type: TypeRef) {
        self.index = index
        super.init(location, type)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value { m.read(try m.globalBox(index, at: location)) }

    override var place: Place? { GlobalVariablePlace(index: index, location: location) }
}

/// A computed property with a setter: read through its getter, assigned through its setter (on the receiver's
/// place for a struct, on the shared instance for a class).
final class ComputedPropertyExpr: Expr {
    let base: Expr
    let name: String
    let getter: Expr

    init(_ location: SourceLocation, base: Expr, name: String, getter: Expr) {
        self.base = base
        self.name = name
        self.getter = getter
        super.init(location, getter.type)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value { try getter.eval(m) }

    override var place: Place? { ComputedPropertyPlace(base: base, name: name, getter: getter, location: location) }
}

/// `type(of: x)`: the dynamic type of a value of the program or a scalar; a collection's element types are not
/// known when the code runs, so it faults rather than print `Array` where Swift prints `Array<Int>`.
final class TypeOfExpr: Expr {
    let value: Expr

    init(_ location: SourceLocation, _ value: Expr) {
        self.value = value
        super.init(location, .metatype(value.type))
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        let v = try value.eval(m).unboxed
        // A generic type's arguments (`Pair<String, Int>`) and a `Substring` (a `String` here) are not known when
        // the code runs.
        if let t = v.programType, m.program.types[t].genericParameters.isEmpty { return .metatype(.named(t)) }
        if value.type.isOptional { throw m.fault("type(of:) of an optional is not part of Canopy's Swift subset", at: location) }
        switch v {
        case .int: return .metatype(.int)
        case .double: return .metatype(.double)
        case .bool: return .metatype(.bool)
        default: throw m.fault("type(of:) of this value is not part of Canopy's Swift subset", at: location)
        }
    }
}
