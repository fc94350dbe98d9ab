/// What every operation on values needs: truth, equality, order, description, conversion, members, subscripts,
/// iteration.
extension Machine {
    @inline(__always)
    package func truth(_ v: Value, at location: SourceLocation) throws(ScriptFault) -> Bool {
        if case .bool(let b) = v { return b }
        if case .box(let b) = v { return try truth(b.value, at: location) }
        throw fault("a condition must be a Bool", at: location)
    }

    /// `==`: a user `static func ==` wins over the synthesized one.
    package func equal(_ a: Value, _ b: Value, at location: SourceLocation) throws(ScriptFault) -> Bool {
        if let t = a.programType, let f = program.types[t].staticMethods["==(_:_:)"] {
            return try truth(call(f, [a, b], site: location), at: location)
        }
        return a == b
    }

    /// `<`: numbers, strings, and types with a `static func <`; enums with raw values compare by their case order
    /// only through a user `<`, as in Swift.
    package func less(_ a: Value, _ b: Value, at location: SourceLocation) throws(ScriptFault) -> Bool {
        switch (a, b) {
        case (.int(let x), .int(let y)): return x < y
        case (.string(let x), .string(let y)): return x < y
        case (.bool, _), (_, .bool): break
        case (.record(let t, _), _), (.enumCase(let t, _, _), _):
            if let f = program.types[t].staticMethods["<(_:_:)"] {
                return try truth(call(f, [a, b], site: location), at: location)
            }
        case (.tuple(let x), .tuple(let y)):
            for (p, q) in zip(x, y) {
                if try less(p, q, at: location) { return true }
                if try less(q, p, at: location) { return false }
            }
            return false
        default:
            if let x = a.number, let y = b.number { return x < y }
        }
        throw fault("these values cannot be compared with <", at: location)
    }

    /// The text `String(describing:)` and interpolation give.
    package func describe(_ v: Value) -> String {
        switch v {
        case .null: return "nil"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return d.description
        case .string(let s): return s
        case .array(let a): return "[" + a.map { quoted($0) }.joined(separator: ", ") + "]"
        case .dictionary(let d):
            if d.count == 0 { return "[:]" }
            return "[" + d.keys.indices.map { "\(quoted(d.keys[$0])): \(quoted(d.values[$0]))" }.joined(separator: ", ")
                + "]"
        case .set(let s): return "Set([" + s.elements.map { quoted($0) }.joined(separator: ", ") + "])"
        case .record(let t, let f):
            let info = program.types[t]
            let parts = zip(info.fields, f).map { "\($0.name): \(quoted($1))" }
            return info.name + "(" + parts.joined(separator: ", ") + ")"
        case .enumCase(let t, let c, let p):
            let name = program.types[t].cases[c].name
            if p.isEmpty { return name }
            let labels = program.types[t].cases[c].payloadLabels
            let parts = p.indices.map { i in
                (i < labels.count ? labels[i].map { "\($0): " } ?? "" : "") + quoted(p[i])
            }
            return name + "(" + parts.joined(separator: ", ") + ")"
        case .tuple(let t): return "(" + t.map { quoted($0) }.joined(separator: ", ") + ")"
        case .range(let a, let b, let closed): return closed ? "\(a)...\(b - 1)" : "\(a)..<\(b)"
        case .doubleRange(let a, let b, let closed): return "\(a)\(closed ? "..." : "..<")\(b)"
        case .function: return "(Function)"
        case .view(let v): return v.type
        case .cell(let c): return describe(c.value)
        case .binding: return "Binding"
        case .metatype(let t): return program.name(of: t)
        case .keyPath: return "KeyPath"
        case .box(let b): return describe(b.value)
        case .object(let o): return "main." + program.types[o.type].name
        }
    }

    /// Inside collections Swift quotes strings.
    private func quoted(_ v: Value) -> String {
        if case .string(let s) = v { return "\"" + s + "\"" }
        if case .null = v { return "nil" }
        return describe(v)
    }

    /// Converts a value stored into a place of type `t`: an integer where a `Double`/`CGFloat` is expected
    /// becomes a double (Swift types the literal so; the implicit CGFloat ↔ Double conversion is free).
    @inline(__always)
    package func coerce(_ v: Value, to t: TypeRef) -> Value {
        switch t {
        case .double:
            if case .int(let i) = v { return .double(Double(i)) }
            return v
        case .optional(let w):
            return v.isNull ? v : coerce(v, to: w)
        case .array(let e) where e == .double || e.isOptional:
            guard case .array(var a) = v else { return v }
            for i in a.indices { a[i] = coerce(a[i], to: e) }
            return .array(a)
        case .dictionary(let k, let e) where e == .double || e.isOptional || k == .double:
            guard case .dictionary(let d) = v else { return v }
            var out = OrderedDictionary()
            for i in d.keys.indices { out[coerce(d.keys[i], to: k)] = coerce(d.values[i], to: e) }
            return .dictionary(out)
        default:
            return v
        }
    }

    /// Whether `v` is a value of `t` (for `is`, `as?` and patterns).
    package func value(_ v: Value, isA t: TypeRef) -> Bool {
        switch (t, v.unboxed) {
        case (.unknown, _), (.generic, _), (.opaque, _): return true
        case (.optional(let w), let x): return x.isNull || value(x, isA: w)
        case (_, .null): return false
        case (.bool, .bool), (.int, .int), (.double, .double), (.double, .int), (.string, .string): return true
        case (.array(let e), .array(let a)): return a.allSatisfy { value($0, isA: e) }
        case (.dictionary, .dictionary), (.set, .set), (.range, .range), (.tuple, .tuple), (.function, .function):
            return true
        case (.named(let id), .record), (.named(let id), .enumCase), (.named(let id), .object):
            guard let t = v.programType else { return false }
            if id == t || program.isSubclass(t, of: id) { return true }
            let target = program.types[id]
            return target.kind == .protocolType && program.types[t].conforms(to: target.name)
        default: return false
        }
    }

    /// `v.name` read through a protocol: a protocol extension's member that is not a requirement runs the copy of
    /// protocol `via`, and a requirement (`throughProtocol`) a class's witness; otherwise as `member(of:_:at:)`.
    package func member(of v: Value, _ name: String, via: String?, throughProtocol: Bool, at location: SourceLocation)
        throws(ScriptFault) -> Value
    {
        let t: TypeID?
        switch v.unboxed {
        case .record(let id, _), .enumCase(let id, _, _): t = id
        case .object(let o): t = o.type
        default: t = nil
        }
        if let t {
            let info = program.types[t]
            let getter = via.flatMap { info.protocolCopies["\($0).\(name)"] } ?? (throughProtocol ? info.classWitnesses[name] : nil)
            if let getter { return try call(BoundMethod(getter, receiver: v.unboxed), [], site: location) }
        }
        return try member(of: v, name, at: location)
    }

    /// `v.name` where the type is known only now: a stored property, a computed one, or a library property.
    package func member(of v: Value, _ name: String, at location: SourceLocation) throws(ScriptFault) -> Value {
        let v = v.unboxed
        switch v {
        case .binding: return try bindingMember(v, name, at: location)
        case .cell(let box): return try member(of: read(box), name, at: location)
        case .record(let t, let fields):
            let info = program.types[t]
            if let i = info.fieldIndex[name] { return fields[i] }
            if let getter = info.methods[name] { return try call(BoundMethod(getter, receiver: v), [], site: location) }
        case .object(let o):
            let info = program.types[o.type]
            if let i = info.fieldIndex[name] { return o.fields[i] }
            if let getter = info.methods[name] { return try call(BoundMethod(getter, receiver: v), [], site: location) }
        case .enumCase(let t, let c, _):
            let info = program.types[t]
            if name == "rawValue", let raw = info.cases[c].rawValue { return raw }
            if let getter = info.methods[name] { return try call(BoundMethod(getter, receiver: v), [], site: location) }
        case .tuple(let items):
            if let i = Int(name), i < items.count { return items[i] }
            // The labels of the library's tuples: enumerated() and a dictionary's elements.
            if items.count == 2 {
                if name == "offset" || name == "key" { return items[0] }
                if name == "element" || name == "value" { return items[1] }
            }
        default:
            if let ext = program.builtinType(of: v), let getter = program.types[ext].methods[name] {
                return try call(BoundMethod(getter, receiver: v), [], site: location)
            }
        }
        let site = Library.shared.site(name, labels: [], trailing: 0, property: true)
        if let native = site[v.kind] {
            var receiver = v
            return try callNative(native, &receiver, [], at: location)
        }
        throw fault("value of type \(typeName(of: v)) has no member '\(name)'", at: location)
    }

    /// `a[i]`, `d[k]` (optional), `d[k, default: x]`.
    package func subscriptGet(_ base: Value, _ key: Value, fallback: Value?, at location: SourceLocation) throws(ScriptFault)
        -> Value
    {
        switch base.unboxed {
        case .array(let a):
            switch key {
            case .int(let i):
                guard i >= 0, i < a.count else { throw fault("Index out of range", at: location) }
                return a[i]
            case .range(let l, let h, _):
                let (lo, hi) = partialBounds(l, h, count: a.count)
                guard lo >= 0, hi <= a.count, lo <= hi else { throw fault("Range out of bounds", at: location) }
                return .array(Array(a[lo..<hi]))
            default: break
            }
        case .dictionary(let d):
            return d[key] ?? fallback ?? .null
        case .record(let t, _) where program.types[t].name == "EnvironmentValues":
            // `self[K.self]` in an `EnvironmentValues` property: the key's default (set values never reach here).
            if case .metatype(.named(let k)) = key, let i = program.types[k].staticConstants["defaultValue"],
                let v = program.cells[i].value
            {
                return v
            }
        case .string(let s):
            if case .range(let l, let h, _) = key {
                let chars = Array(s)
                let (lo, hi) = partialBounds(l, h, count: chars.count)
                guard lo >= 0, hi <= chars.count, lo <= hi else { throw fault("Range out of bounds", at: location) }
                return .string(String(chars[lo..<hi]))
            }
        default: break
        }
        throw fault("value of type \(typeName(of: base)) cannot be subscripted with this index", at: location)
    }

    /// A range's ends in a collection of `count` elements: a partial range's missing ends (stored as `Int.min` and
    /// `Int.max`, `PartialRangeExpr`) are the collection's start and end (`a[..<2]`, `a[2...]`).
    package func partialBounds(_ lo: Int, _ hi: Int, count: Int) -> (Int, Int) {
        (lo == Int.min ? 0 : lo, hi == Int.max ? count : hi)
    }

    /// Runs `body` for each element of a sequence until it returns false.
    package func iterate(_ seq: Value, at location: SourceLocation, _ body: (Value) throws(ScriptFault) -> Bool)
        throws(ScriptFault)
    {
        switch seq.unboxed {
        case .array(let a):
            for v in a where !(try body(v)) { return }
        case .range(let lo, let hi, _):
            var i = lo
            while i < hi {
                if !(try body(.int(i))) { return }
                i += 1
            }
        case .dictionary(let d):
            for i in d.keys.indices where !(try body(.tuple([d.keys[i], d.values[i]]))) { return }
        case .set(let s):
            for v in s.elements where !(try body(v)) { return }
        case .string(let s):
            for c in s where !(try body(.string(String(c)))) { return }
        default:
            throw fault("value of type \(typeName(of: seq)) is not a sequence", at: location)
        }
    }

    /// The elements of a sequence as an array.
    package func elements(_ seq: Value, at location: SourceLocation) throws(ScriptFault) -> [Value] {
        if case .array(let a) = seq.unboxed { return a }
        var out: [Value] = []
        try iterate(seq, at: location) { (v: Value) throws(ScriptFault) -> Bool in
            out.append(v)
            return true
        }
        return out
    }

    /// A Swift-like name of a value's type, for messages.
    package func typeName(of v: Value) -> String {
        switch v.unboxed {
        case .null: return "Optional"
        case .bool: return "Bool"
        case .int: return "Int"
        case .double: return "Double"
        case .string: return "String"
        case .array: return "Array"
        case .dictionary: return "Dictionary"
        case .set: return "Set"
        case .record(let t, _), .enumCase(let t, _, _): return program.types[t].name
        case .object(let o): return program.types[o.type].name
        case .tuple: return "tuple"
        case .range, .doubleRange: return "Range"
        case .function: return "function"
        case .metatype: return "metatype"
        case .keyPath: return "KeyPath"
        case .box: return "box"
        case .view(let v): return v.type
        case .cell: return "State"
        case .binding: return "Binding"
        }
    }
}
