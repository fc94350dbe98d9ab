/// An argument of a call: a value, or `&place` for an `inout` parameter.
enum Argument {
    case value(Expr)
    case reference(Place, Expr)

    var expr: Expr {
        switch self {
        case .value(let e), .reference(_, let e): return e
        }
    }
}

extension Machine {
    func evaluate(_ args: [Argument]) throws(ScriptFault) -> [Value] {
        var out: [Value] = []
        out.reserveCapacity(args.count)
        for a in args { out.append(try a.expr.eval(self)) }
        return out
    }

    /// Writes `inout` arguments back after a call.
    func writeBack(_ args: [Argument], _ values: [Value]) throws(ScriptFault) {
        for (i, a) in args.enumerated() {
            if case .reference(let p, _) = a { try p.set(self, values[i]) }
        }
    }

    /// Calls method `f` on `receiver`; a mutating method writes `self` back into it.
    func invokeMethod(_ f: Function, _ receiver: inout Value, _ args: inout [Value], site: SourceLocation)
        throws(ScriptFault) -> Value
    {
        let base = reserve(f.slotCount)
        defer { release(base) }
        stack[base] = receiver
        let n = f.parameterCount - 1
        if args.count != n { throw fault("\(f.name) takes \(n) arguments, got \(args.count)", at: site) }
        for i in 0..<n {
            stack[base + 1 + i] = args[i]
            args[i] = .null
        }
        let result = try run(f, base: base, captures: [], site: site)
        if f.isMutating { receiver = stack[base].unboxed }
        for i in f.inoutParameters where i >= 1 { args[i - 1] = stack[base + i].unboxed }
        return result
    }
}

/// A call of a function known when compiling: a top-level function, a static method, an initializer.
final class CallFunctionExpr: Expr {
    let function: Function
    let args: [Argument]

    init(_ location: SourceLocation, _ function: Function, _ args: [Argument], _ type: TypeRef) {
        self.function = function
        self.args = args
        super.init(location, type)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        var values = try m.evaluate(args)
        let r = try m.invoke(function, captures: [], receiver: nil, &values, site: location)
        if !function.inoutParameters.isEmpty { try m.writeBack(args, values) }
        return r
    }
}

/// A call of a function value: a closure, `nextValue()`, a function-typed parameter.
final class CallValueExpr: Expr {
    let callee: Expr
    let args: [Argument]

    init(_ location: SourceLocation, _ callee: Expr, _ args: [Argument], _ type: TypeRef) {
        self.callee = callee
        self.args = args
        super.init(location, type)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        let f = try callee.eval(m)
        guard case .function(let c) = f else { throw m.fault("this value cannot be called", at: location) }
        var values = try m.evaluate(args)
        let r = try m.call(c, &values, site: location)
        try m.writeBack(args, values)
        return r
    }
}

/// A library function (`max(_:_:)`, `Int(_:)`).
final class CallNativeExpr: Expr {
    let function: NativeFunction
    let args: [Argument]

    init(_ location: SourceLocation, _ function: NativeFunction, _ args: [Argument], _ type: TypeRef) {
        self.function = function
        self.args = args
        super.init(location, type)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        try m.callNative(function, m.evaluate(args), at: location)
    }
}

/// `receiver.name(args)`: a method of the receiver's type (found once per type and cached), a method an
/// extension added to a library type, or a library member.
final class MethodCallExpr: Expr {
    let receiver: Expr
    /// Set when the call may mutate the receiver and the receiver is assignable.
    let receiverPlace: Place?
    let name: String
    let fullName: String
    let args: [Argument]
    let natives: NativeSite
    /// Set when the call names a protocol extension's member that is not a requirement, through that protocol: Swift
    /// binds it statically to the extension's (this type's copy of it), not to the type's own member of that name.
    var viaProtocol: String?
    /// Set when the call reaches a requirement through a protocol (an existential, a generic, `self` in a protocol
    /// extension) or a class's protocol-extension default: a class's witness then decides, not its newest method.
    var throughProtocol = false
    private var cachedType: TypeID = -1
    private var cachedFunction: Function?

    init(
        _ location: SourceLocation, receiver: Expr, place: Place?, name: String, fullName: String, args: [Argument],
        natives: NativeSite, _ type: TypeRef
    ) {
        self.receiver = receiver
        receiverPlace = place
        self.name = name
        self.fullName = fullName
        self.args = args
        self.natives = natives
        super.init(location, type)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        var values = try m.evaluate(args)
        var result = Value.null
        if let p = receiverPlace {
            try p.modify(m) { (recv: inout Value) throws(ScriptFault) in
                result = try dispatch(m, &recv, &values)
            }
        } else {
            var recv = try receiver.eval(m)
            result = try dispatch(m, &recv, &values)
        }
        try m.writeBack(args, values)
        return result
    }

    private func userMethod(_ m: Machine, _ t: TypeID) -> Function? {
        if t == cachedType { return cachedFunction }
        let info = m.program.types[t]
        let f = viaProtocol.flatMap { info.protocolCopies["\($0).\(fullName)"] }
            ?? (throughProtocol ? info.classWitnesses[fullName] : nil) ?? info.methods[fullName]
        cachedType = t
        cachedFunction = f
        return f
    }

    /// A method of `extension View` called on a SwiftUI view (`Text("a").card()`), or on a view struct.
    private func viewExtensionMethod(_ m: Machine, _ recv: Value) -> Function? {
        switch recv {
        case .view: break
        case .record(let id, _) where m.program.types[id].conforms(to: "View"): break
        default: return nil
        }
        return m.program.type(named: "View")?.methods[fullName]
    }

    private func dispatch(_ m: Machine, _ recv: inout Value, _ values: inout [Value]) throws(ScriptFault) -> Value {
        let t: TypeID?
        switch recv {
        case .record(let id, _), .enumCase(let id, _, _): t = id
        case .object(let o): t = o.type
        default: t = m.program.builtinType(of: recv)
        }
        if let t, let f = userMethod(m, t) { return try m.invokeMethod(f, &recv, &values, site: location) }
        if let f = viewExtensionMethod(m, recv) { return try m.invokeMethod(f, &recv, &values, site: location) }
        if let native = natives[recv.kind] { return try m.callNative(native, &recv, values, at: location) }
        if case .record(let id, let fields) = recv, let i = m.program.types[id].fieldIndex[name] {
            // A protocol's property requirement met by a stored property: `rule.name`, `name` in an extension.
            if fullName == name { return fields[i] }
            // A stored property holding a closure: `rule.check(x)`.
            return try m.call(value: fields[i], values, site: location)
        }
        throw m.fault("value of type \(m.typeName(of: recv)) has no member '\(fullName)'", at: location)
    }
}

/// A struct's memberwise initializer: arguments by field, defaults for the rest.
final class MemberwiseInitExpr: Expr {
    let typeID: TypeID
    /// One entry per field: the argument, or the field's default, or nil (an optional field starts as nil).
    let fieldValues: [Expr?]
    let fieldTypes: [TypeRef]

    init(_ location: SourceLocation, typeID: TypeID, fieldValues: [Expr?], fieldTypes: [TypeRef]) {
        self.typeID = typeID
        self.fieldValues = fieldValues
        self.fieldTypes = fieldTypes
        super.init(location, .named(typeID))
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        var fields: [Value] = []
        fields.reserveCapacity(fieldValues.count)
        for (i, e) in fieldValues.enumerated() {
            fields.append(try e.map { e throws(ScriptFault) in m.coerce(try e.eval(m), to: fieldTypes[i]) } ?? .null)
        }
        return .record(typeID, fields)
    }
}

/// An explicit `init`: runs on a fresh value whose fields start at their defaults, and returns `self`.
final class CallInitExpr: Expr {
    let typeID: TypeID
    let function: Function
    let defaults: [Expr?]
    let args: [Argument]

    init(_ location: SourceLocation, typeID: TypeID, function: Function, defaults: [Expr?], args: [Argument]) {
        self.typeID = typeID
        self.function = function
        self.defaults = defaults
        self.args = args
        super.init(location, .named(typeID))
    }

    /// A class's initializer: `self` is a new shared instance rather than a struct value.
    var makesObject = false

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        var fields: [Value] = []
        for e in defaults { fields.append(try e?.eval(m) ?? .null) }
        var me = makesObject ? Value.object(Instance(type: typeID, fields: fields)) : Value.record(typeID, fields)
        var values = try m.evaluate(args)
        _ = try m.invokeMethod(function, &me, &values, site: location)
        try m.writeBack(args, values)
        return me
    }
}

/// `.case(payload…)` or `E.case`.
final class EnumCaseExpr: Expr {
    let typeID: TypeID
    let caseIndex: Int
    let payload: [Expr]

    init(_ location: SourceLocation, typeID: TypeID, caseIndex: Int, payload: [Expr]) {
        self.typeID = typeID
        self.caseIndex = caseIndex
        self.payload = payload
        super.init(location, .named(typeID))
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        var values: [Value] = []
        for p in payload { values.append(try p.eval(m)) }
        return .enumCase(typeID, caseIndex, values)
    }
}

/// `E(rawValue: x)`: the case with that raw value, or nil.
final class EnumFromRawExpr: Expr {
    let typeID: TypeID
    let raw: Expr

    init(_ location: SourceLocation, typeID: TypeID, raw: Expr) {
        self.typeID = typeID
        self.raw = raw
        super.init(location, .optional(.named(typeID)))
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        let r = try raw.eval(m)
        for (i, c) in m.program.types[typeID].cases.enumerated() where c.rawValue == r {
            return .enumCase(typeID, i, [])
        }
        return .null
    }
}

final class SubscriptExpr: Expr {
    let base: Expr
    let index: Expr
    let fallback: Expr?

    init(_ location: SourceLocation, base: Expr, index: Expr, fallback: Expr?, _ type: TypeRef) {
        self.base = base
        self.index = index
        self.fallback = fallback
        super.init(location, type)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        try m.subscriptGet(base.eval(m), index.eval(m), fallback: fallback?.eval(m), at: location)
    }

    override var place: Place? {
        base.place.map { SubscriptPlace(base: $0, index: index, fallback: fallback, location: location) }
    }
}

/// `optional.map { }` / `flatMap`: the closure runs on a non-nil value.
final class OptionalMapExpr: Expr {
    let base: Expr
    let transform: Expr

    init(_ location: SourceLocation, base: Expr, transform: Expr, _ type: TypeRef) {
        self.base = base
        self.transform = transform
        super.init(location, type)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        let v = try base.eval(m)
        if v.isNull { return .null }
        return try m.call(value: transform.eval(m), [v], site: location)
    }
}

/// `C()` for a class without initializers: a new instance with every stored property's initial value.
final class NewObjectExpr: Expr {
    let typeID: TypeID
    let defaults: [Expr?]

    init(_ location: SourceLocation, typeID: TypeID, defaults: [Expr?]) {
        self.typeID = typeID
        self.defaults = defaults
        super.init(location, .named(typeID))
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        var fields: [Value] = []
        for e in defaults { fields.append(try e?.eval(m) ?? .null) }
        return .object(Instance(type: typeID, fields: fields))
    }
}

/// A method run on a receiver without looking it up by its dynamic type: `super.describe()`, `super.init(x:)`.
final class DirectMethodCallExpr: Expr {
    let receiver: Expr
    let function: Function
    let args: [Argument]

    init(_ location: SourceLocation, receiver: Expr, _ function: Function, _ args: [Argument]) {
        self.receiver = receiver
        self.function = function
        self.args = args
        super.init(location, function.returnType)
    }

    override func eval(_ m: Machine) throws(ScriptFault) -> Value {
        var recv = try receiver.eval(m)
        var values = try m.evaluate(args)
        let result = try m.invokeMethod(function, &recv, &values, site: location)
        try m.writeBack(args, values)
        return result
    }
}
