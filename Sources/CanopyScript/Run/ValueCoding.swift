import CanopyCore

/// Values across the JSON boundary (PROGRAMS.md §5): numbers, strings, booleans, arrays, dictionaries with String
/// or Int keys (an Int key as its decimal string, as JSONEncoder writes it), `nil` ↔ `null`, a struct ↔ an object
/// of its stored properties in declaration order, an enum with raw values ↔ its raw value, other enums ↔ the case
/// name or `{"case":…,"values":[…]}`.
extension Program {
    /// Decodes `json` as a value of type `t`; the error says what did not fit, for `type_mismatch`.
    /// The path to a mismatch (`value.size.width`) is built on the way out of a failure only, so decoding that
    /// succeeds builds no strings. With `objects` (a program tree's stored state) a class instance is a reference
    /// into its object table (docs/programs.md, "Objects in state"); without, an object of its stored properties.
    package func decode(_ json: JSON, as t: TypeRef, objects: ObjectGraphDecoder? = nil) -> Result<Value, CodingMismatch> {
        func fail(_ what: String) -> Result<Value, CodingMismatch> {
            .failure(CodingMismatch(problem: "is \(json.typeName), expected \(what)"))
        }
        switch t {
        case .unknown, .generic, .opaque:
            if let objects { return objects.untyped(json) }
            return .success(plain(json))
        case .optional(let w):
            if json.isNull { return .success(.null) }
            return decode(json, as: w, objects: objects)
        case .int:
            if case .int(let i) = json { return .success(.int(Int(i))) }
            if case .double(let d) = json, let i = Int(exactly: d) { return .success(.int(i)) }
            return fail("Int")
        case .double:
            if let d = json.number { return .success(.double(d)) }
            return fail("Double")
        case .bool:
            if let b = json.bool { return .success(.bool(b)) }
            return fail("Bool")
        case .string:
            if let s = json.string { return .success(.string(s)) }
            return fail("String")
        case .array(let e), .set(let e), .slice(let e):
            guard let items = json.array else { return fail(name(of: t)) }
            var out: [Value] = []
            out.reserveCapacity(items.count)
            for (i, item) in items.enumerated() {
                switch decode(item, as: e, objects: objects) {
                case .success(let v): out.append(v)
                case .failure(let f): return .failure(f.inside("[\(i)]"))
                }
            }
            if case .set = t {
                var s = OrderedSet()
                for v in out { s.insert(v) }
                return .success(.set(s))
            }
            return .success(.array(out))
        case .dictionary(let k, let v):
            guard let o = json.object else { return fail(name(of: t)) }
            var d = OrderedDictionary()
            for m in o.members {
                let key: Value
                switch k {
                case .int:
                    guard let i = Int(m.key) else {
                        return .failure(CodingMismatch(problem: "has key \"\(m.key)\", expected an Int key"))
                    }
                    key = .int(i)
                default: key = .string(m.key)
                }
                switch decode(m.value, as: v, objects: objects) {
                case .success(let x): d[key] = x
                case .failure(let f): return .failure(f.inside("[\"\(m.key)\"]"))
                }
            }
            return .success(.dictionary(d))
        case .tuple(let ts, _):
            guard let items = json.array, items.count == ts.count else { return fail(name(of: t)) }
            var out: [Value] = []
            for (i, item) in items.enumerated() {
                switch decode(item, as: ts[i], objects: objects) {
                case .success(let v): out.append(v)
                case .failure(let f): return .failure(f.inside(".\(i)"))
                }
            }
            return .success(.tuple(out))
        case .named(let id):
            return decodeNamed(json, types[id], objects: objects)
        case .range:
            guard let lo = json["lowerBound"]?.number, let hi = json["upperBound"]?.number, let l = Int(exactly: lo),
                let h = Int(exactly: hi), l <= h
            else { return fail("a range {\"lowerBound\",\"upperBound\"}") }
            return .success(.range(l, h, closed: false))
        case .void, .function, .metatype:
            return fail(name(of: t))
        }
    }

    private func decodeNamed(_ json: JSON, _ info: TypeInfo, objects: ObjectGraphDecoder?) -> Result<Value, CodingMismatch> {
        switch info.kind {
        case .structure:
            if info.isClass, let objects { return objects.reference(json, to: info) }
            guard let o = json.object else {
                return .failure(CodingMismatch(problem: "is \(json.typeName), expected an object for \(info.name)"))
            }
            switch decodeFields(o, of: info, objects: objects) {
            case .success(let fields) where info.isClass: return .success(.object(Instance(type: info.id, fields: fields)))
            case .success(let fields): return .success(.record(info.id, fields))
            case .failure(let e): return .failure(e)
            }
        case .enumeration:
            if info.rawType != nil {
                let raw = plain(json)
                if let i = info.cases.firstIndex(where: { $0.rawValue == raw }) { return .success(.enumCase(info.id, i, [])) }
                return .failure(CodingMismatch(problem: "is \(json.encoded()), not a raw value of \(info.name)"))
            }
            var caseName = json.string
            var payload: [JSON] = []
            if let o = json.object, let c = o["case"]?.string {
                caseName = c
                payload = o["values"]?.array ?? []
            }
            guard let caseName, let i = info.caseIndex[caseName] else {
                return .failure(CodingMismatch(problem: "is not a case of \(info.name)"))
            }
            let c = info.cases[i]
            guard payload.count == c.payloadTypes.count else {
                return .failure(CodingMismatch(problem: "has case \(caseName), which takes \(c.payloadTypes.count) values"))
            }
            var values: [Value] = []
            for (j, p) in payload.enumerated() {
                switch decode(p, as: c.payloadTypes[j], objects: objects) {
                case .success(let v): values.append(v)
                case .failure(let e): return .failure(e.inside(".values[\(j)]"))
                }
            }
            return .success(.enumCase(info.id, i, values))
        case .protocolType, .builtin:
            if let objects { return objects.untyped(json) }
            return .success(plain(json))
        }
    }

    /// The stored properties of a struct or class from an object of them by name (a missing optional property is
    /// `nil`; a missing other one, or one the type does not have, is a mismatch).
    package func decodeFields(_ o: JSONObject, of info: TypeInfo, objects: ObjectGraphDecoder?)
        -> Result<[Value], CodingMismatch>
    {
        var fields: [Value] = []
        fields.reserveCapacity(info.fields.count)
        var matched = 0
        for f in info.fields {
            guard let member = o[f.name] else {
                if f.type.isOptional {
                    fields.append(.null)
                    continue
                }
                return .failure(CodingMismatch(problem: "has no \"\(f.name)\" for \(info.name)"))
            }
            matched += 1
            switch decode(member, as: f.type, objects: objects) {
            case .success(let v): fields.append(v)
            case .failure(let e): return .failure(e.inside(".\(f.name)"))
            }
        }
        // Only look for the unknown member when there is one (the common case builds nothing).
        if o.count > matched, let extra = o.keys.first(where: { info.fieldIndex[$0] == nil }) {
            return .failure(CodingMismatch(problem: "has \"\(extra)\", which \(info.name) does not have"))
        }
        return .success(fields)
    }

    /// JSON as a value without a type to guide it (objects become `[String: …]`).
    package func plain(_ json: JSON) -> Value {
        switch json {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(Int(i))
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .array(let a): return .array(a.map(plain))
        case .object(let o):
            var d = OrderedDictionary()
            for m in o.members { d[.string(m.key)] = plain(m.value) }
            return .dictionary(d)
        }
    }

    /// How deep `encode(_:)` shows a value: what nests deeper is `{"$truncated":"deeper than 256 levels"}`.
    package static let shownDepth = 256
    private static let truncated: JSON = ["$truncated": .string("deeper than \(shownDepth) levels")]

    /// Encodes a value as JSON, as props, traces and keys show it. A class instance crosses as its stored properties,
    /// and where it contains itself the repetition is `{"$cycle":"Name"}`; arrays and objects nested deeper than
    /// `shownDepth` are cut (a program tree's state keeps objects as a graph and refuses what is too deep:
    /// `ObjectGraphEncoder`).
    package func encode(_ v: Value) -> JSON {
        var path: [ObjectIdentifier] = []
        return shown(v, depth: 0, path: &path)
    }

    /// `encode(_:)`'s walk: direct recursion without closures (keys encode every reduced value, so this is a hot
    /// path), with the same depths as `encode(_:depth:maxDepth:beyond:object:)`; `path` holds the objects that
    /// enclose `v`.
    private func shown(_ v: Value, depth: Int, path: inout [ObjectIdentifier]) -> JSON {
        switch v {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(Int64(i))
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .function, .metatype, .keyPath: return .null
        case .box(let b): return shown(b.value, depth: depth, path: &path)
        case .cell(let c): return shown(c.value, depth: depth, path: &path)
        case .binding(let b): return shown(bindingValue(b) ?? .null, depth: depth, path: &path)
        case .view(let v): return v.colorJSON(encode) ?? .string(v.type)
        default: break
        }
        guard depth < Self.shownDepth else { return Self.truncated }
        switch v {
        case .array(let a), .tuple(let a):
            var out: [JSON] = []
            out.reserveCapacity(a.count)
            for x in a { out.append(shown(x, depth: depth + 1, path: &path)) }
            return .array(out)
        case .set(let s):
            var out: [JSON] = []
            out.reserveCapacity(s.elements.count)
            for x in s.elements { out.append(shown(x, depth: depth + 1, path: &path)) }
            return .array(out)
        case .dictionary(let d):
            var members: [(key: String, value: JSON)] = []
            members.reserveCapacity(d.count)
            for i in d.keys.indices {
                let key: String
                switch d.keys[i] {
                case .string(let s): key = s
                case .int(let n): key = String(n)
                default: key = shown(d.keys[i], depth: depth + 1, path: &path).encoded()
                }
                members.append((key, shown(d.values[i], depth: depth + 1, path: &path)))
            }
            return .object(JSONObject(uniqueMembers: members))
        case .object(let o):
            let id = ObjectIdentifier(o)
            if path.contains(id) { return ["$cycle": .string(types[o.type].name)] }
            path.append(id)
            defer { path.removeLast() }
            return shown(.record(o.type, o.fields), depth: depth, path: &path)
        case .record(let t, let fields):
            let info = types[t]
            var members: [(key: String, value: JSON)] = []
            members.reserveCapacity(fields.count)
            for (i, f) in info.fields.enumerated() where i < fields.count {
                members.append((f.name, shown(fields[i], depth: depth + 1, path: &path)))
            }
            return .object(JSONObject(uniqueMembers: members))
        case .enumCase(let t, let c, let payload):
            let info = types[t]
            if let raw = info.cases[c].rawValue { return shown(raw, depth: depth + 1, path: &path) }
            if payload.isEmpty { return .string(info.cases[c].name) }
            var values: [JSON] = []
            for p in payload { values.append(shown(p, depth: depth + 2, path: &path)) }
            return ["case": .string(info.cases[c].name), "values": .array(values)]
        case .range(let a, let b, let closed):
            return ["lowerBound": .int(Int64(a)), "upperBound": .int(Int64(closed ? b - 1 : b))]
        case .doubleRange(let a, let b, _): return ["lowerBound": .double(a), "upperBound": .double(b)]
        default: return .null
        }
    }

    /// Encodes `v`, which `depth` arrays and objects enclose, as JSON: `object` writes each class instance it holds
    /// (given its depth); an array or object deeper than `maxDepth` is `beyond`, or without it `CodingLimit`.
    package func encode(
        _ v: Value, depth: Int, maxDepth: Int, beyond: JSON? = nil, object: (Instance, Int) throws(CodingLimit) -> JSON
    ) throws(CodingLimit) -> JSON {
        func inner(_ x: Value) throws(CodingLimit) -> JSON {
            try encode(x, depth: depth + 1, maxDepth: maxDepth, beyond: beyond, object: object)
        }
        switch v {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(Int64(i))
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .function, .metatype, .keyPath: return .null
        case .box(let b): return try encode(b.value, depth: depth, maxDepth: maxDepth, beyond: beyond, object: object)
        case .cell(let c): return try encode(c.value, depth: depth, maxDepth: maxDepth, beyond: beyond, object: object)
        case .binding(let b):
            return try encode(bindingValue(b) ?? .null, depth: depth, maxDepth: maxDepth, beyond: beyond, object: object)
        case .view(let v): return v.colorJSON(encode) ?? .string(v.type)
        default: break
        }
        guard depth < maxDepth else {
            if let beyond { return beyond }
            throw CodingLimit(tooDeep: true, problem: "nests deeper than \(maxDepth) arrays and objects")
        }
        switch v {
        case .array(let a): return .array(try a.map(inner))
        case .set(let s): return .array(try s.elements.map(inner))
        case .tuple(let t): return .array(try t.map(inner))
        case .dictionary(let d):
            var members: [(key: String, value: JSON)] = []
            members.reserveCapacity(d.count)
            for i in d.keys.indices {
                let key: String
                switch d.keys[i] {
                case .string(let s): key = s
                case .int(let n): key = String(n)
                default: key = try inner(d.keys[i]).encoded()
                }
                members.append((key, try inner(d.values[i])))
            }
            return .object(JSONObject(uniqueMembers: members))
        case .object(let o): return try object(o, depth)
        case .record(let t, let fields):
            let info = types[t]
            var members: [(key: String, value: JSON)] = []
            for (i, f) in info.fields.enumerated() where i < fields.count { members.append((f.name, try inner(fields[i]))) }
            return .object(JSONObject(uniqueMembers: members))
        case .enumCase(let t, let c, let payload):
            let info = types[t]
            if let raw = info.cases[c].rawValue { return try inner(raw) }
            if payload.isEmpty { return .string(info.cases[c].name) }
            let values = try payload.map { p throws(CodingLimit) in
                try encode(p, depth: depth + 2, maxDepth: maxDepth, beyond: beyond, object: object)
            }
            return ["case": .string(info.cases[c].name), "values": .array(values)]
        case .range(let a, let b, let closed):
            return ["lowerBound": .int(Int64(a)), "upperBound": .int(Int64(closed ? b - 1 : b))]
        case .doubleRange(let a, let b, _): return ["lowerBound": .double(a), "upperBound": .double(b)]
        default: return .null
        }
    }

    /// A binding's current value where no code needs to run (a cell, a constant, their properties).
    package func bindingValue(_ b: BindingValue) -> Value? {
        switch b.source {
        case .cell(let box, let path):
            var v = box.value
            for n in path {
                guard case .record(let t, let f) = v, let i = types[t].fieldIndex[n] else { return nil }
                v = f[i]
            }
            return v
        case .constant(let v): return v
        case .member(let parent, let n):
            guard case .record(let t, let f)? = bindingValue(parent), let i = types[t].fieldIndex[n] else { return nil }
            return f[i]
        case .element(let parent, let key):
            switch (bindingValue(parent), key) {
            case (.array(let a)?, .int(let i)) where i >= 0 && i < a.count: return a[i]
            case (.dictionary(let d)?, _): return d[key] ?? .null
            default: return nil
            }
        case .closures: return nil
        }
    }
}

/// Why a value cannot be encoded: it nests too deep, or a state would hold more objects than it may.
package struct CodingLimit: Error {
    /// Too deep (else too many objects).
    package var tooDeep: Bool
    /// What is over the limit, to follow the thing encoded (`nests deeper than 256 arrays and objects`).
    package var problem: String

    package init(tooDeep: Bool, problem: String) {
        self.tooDeep = tooDeep
        self.problem = problem
    }
}

/// Why a JSON value does not decode to a Swift type.
package struct CodingMismatch: Error {
    /// Where in the value, outermost first (`.size`, `.width`).
    package var path: [String] = []
    /// What is wrong there.
    package var problem: String

    package init(problem: String) { self.problem = problem }

    /// The same mismatch seen from the enclosing value.
    package func inside(_ component: String) -> CodingMismatch {
        var m = self
        m.path.insert(component, at: 0)
        return m
    }

    package var message: String { "value" + path.joined() + " " + problem }
}
