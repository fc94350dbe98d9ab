import CanopyCore

/// Values across the JSON boundary (PROGRAMS.md §5): numbers, strings, booleans, arrays, dictionaries with String
/// or Int keys (an Int key as its decimal string, as JSONEncoder writes it), `nil` ↔ `null`, a struct ↔ an object
/// of its stored properties in declaration order, an enum with raw values ↔ its raw value, other enums ↔ the case
/// name or `{"case":…,"values":[…]}`.
extension Program {
    /// Decodes `json` as a value of type `t`; the error says what did not fit, for `type_mismatch`.
    /// The path to a mismatch (`value.size.width`) is built on the way out of a failure only, so decoding that
    /// succeeds builds no strings.
    package func decode(_ json: JSON, as t: TypeRef) -> Result<Value, CodingMismatch> {
        func fail(_ what: String) -> Result<Value, CodingMismatch> {
            .failure(CodingMismatch(problem: "is \(json.typeName), expected \(what)"))
        }
        switch t {
        case .unknown, .generic, .opaque: return .success(plain(json))
        case .optional(let w):
            if json.isNull { return .success(.null) }
            return decode(json, as: w)
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
                switch decode(item, as: e) {
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
                switch decode(m.value, as: v) {
                case .success(let x): d[key] = x
                case .failure(let f): return .failure(f.inside("[\"\(m.key)\"]"))
                }
            }
            return .success(.dictionary(d))
        case .tuple(let ts, _):
            guard let items = json.array, items.count == ts.count else { return fail(name(of: t)) }
            var out: [Value] = []
            for (i, item) in items.enumerated() {
                switch decode(item, as: ts[i]) {
                case .success(let v): out.append(v)
                case .failure(let f): return .failure(f.inside(".\(i)"))
                }
            }
            return .success(.tuple(out))
        case .named(let id):
            return decodeNamed(json, types[id])
        case .range:
            guard let lo = json["lowerBound"]?.number, let hi = json["upperBound"]?.number, let l = Int(exactly: lo),
                let h = Int(exactly: hi), l <= h
            else { return fail("a range {\"lowerBound\",\"upperBound\"}") }
            return .success(.range(l, h, closed: false))
        case .void, .function, .metatype:
            return fail(name(of: t))
        }
    }

    private func decodeNamed(_ json: JSON, _ info: TypeInfo) -> Result<Value, CodingMismatch> {
        switch info.kind {
        case .structure:
            guard let o = json.object else {
                return .failure(CodingMismatch(problem: "is \(json.typeName), expected an object for \(info.name)"))
            }
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
                switch decode(member, as: f.type) {
                case .success(let v): fields.append(v)
                case .failure(let e): return .failure(e.inside(".\(f.name)"))
                }
            }
            // Only look for the unknown member when there is one (the common case builds nothing).
            if o.count > matched, let extra = o.keys.first(where: { info.fieldIndex[$0] == nil }) {
                return .failure(CodingMismatch(problem: "has \"\(extra)\", which \(info.name) does not have"))
            }
            if info.isClass { return .success(.object(Instance(type: info.id, fields: fields))) }
            return .success(.record(info.id, fields))
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
                switch decode(p, as: c.payloadTypes[j]) {
                case .success(let v): values.append(v)
                case .failure(let e): return .failure(e.inside(".values[\(j)]"))
                }
            }
            return .success(.enumCase(info.id, i, values))
        case .protocolType, .builtin:
            return .success(plain(json))
        }
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

    /// Encodes a value as JSON.
    package func encode(_ v: Value) -> JSON {
        switch v {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(Int64(i))
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .array(let a): return .array(a.map(encode))
        case .set(let s): return .array(s.elements.map(encode))
        case .tuple(let t): return .array(t.map(encode))
        case .dictionary(let d):
            var members: [(key: String, value: JSON)] = []
            members.reserveCapacity(d.count)
            for i in d.keys.indices {
                let key: String
                switch d.keys[i] {
                case .string(let s): key = s
                case .int(let n): key = String(n)
                default: key = encode(d.keys[i]).encoded()
                }
                members.append((key, encode(d.values[i])))
            }
            return .object(JSONObject(uniqueMembers: members))
        case .object(let o):
            // An object crosses as its stored properties (what it refers to is not kept: see docs/programs.md).
            return encode(.record(o.type, o.fields))
        case .record(let t, let fields):
            let info = types[t]
            var members: [(key: String, value: JSON)] = []
            for (i, f) in info.fields.enumerated() where i < fields.count { members.append((f.name, encode(fields[i]))) }
            return .object(JSONObject(uniqueMembers: members))
        case .enumCase(let t, let c, let payload):
            let info = types[t]
            if let raw = info.cases[c].rawValue { return encode(raw) }
            if payload.isEmpty { return .string(info.cases[c].name) }
            return ["case": .string(info.cases[c].name), "values": .array(payload.map(encode))]
        case .range(let a, let b, let closed):
            return ["lowerBound": .int(Int64(a)), "upperBound": .int(Int64(closed ? b - 1 : b))]
        case .doubleRange(let a, let b, _): return ["lowerBound": .double(a), "upperBound": .double(b)]
        case .function, .metatype, .keyPath: return .null
        case .box(let b): return encode(b.value)
        case .view(let v): return v.colorJSON(encode) ?? .string(v.type)
        case .cell(let c): return encode(c.value)
        case .binding(let b): return encode(bindingValue(b) ?? .null)
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
