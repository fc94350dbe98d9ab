/// Values as text, the way Swift's `print`, `String(describing:)` and interpolation show them. The static type
/// decides what the value alone cannot: an optional that holds a value prints as `Optional(…)`, a `Double` that
/// holds a whole number as `1.0`.
extension Machine {
    /// `String(describing:)` of `v` known to have type `t` (`.unknown` when the compiler does not know it).
    package func describe(_ v: Value, as t: TypeRef) throws(ScriptFault) -> String {
        try describe(v, as: t, nested: false)
    }

    /// `nested`: inside a collection, an optional or another value, where Swift prints a program type's name
    /// qualified by its module (`[main.Point(x: 1)]`); Canopy's programs are the module `main`, as a file that
    /// `swiftc` builds with `-module-name main`.
    private func describe(_ v: Value, as t: TypeRef, nested: Bool) throws(ScriptFault) -> String {
        switch t {
        case .optional(let w):
            if v.unboxed.isNull { return "nil" }
            return "Optional(" + (try debugDescribe(v, as: w)) + ")"
        case .double:
            if case .int(let i) = v.unboxed { return Double(i).description }
            return describe(v)
        case .array(let e):
            guard case .array(let a) = v.unboxed else { return describe(v) }
            var parts: [String] = []
            for x in a { parts.append(try debugDescribe(x, as: e)) }
            return "[" + parts.joined(separator: ", ") + "]"
        case .dictionary(let k, let e):
            guard case .dictionary(let d) = v.unboxed else { return describe(v) }
            if d.count == 0 { return "[:]" }
            var parts: [String] = []
            for i in d.keys.indices {
                parts.append((try debugDescribe(d.keys[i], as: k)) + ": " + (try debugDescribe(d.values[i], as: e)))
            }
            return "[" + parts.joined(separator: ", ") + "]"
        case .set(let e):
            guard case .set(let s) = v.unboxed else { return describe(v) }
            var parts: [String] = []
            for x in s.elements { parts.append(try debugDescribe(x, as: e)) }
            return "Set([" + parts.joined(separator: ", ") + "])"
        case .tuple(let ts, let labels):
            guard case .tuple(let parts) = v.unboxed, parts.count == ts.count else { return describe(v) }
            var shown: [String] = []
            for i in parts.indices {
                let label = i < labels.count ? labels[i].map { "\($0): " } ?? "" : ""
                shown.append(label + (try debugDescribe(parts[i], as: ts[i])))
            }
            return "(" + shown.joined(separator: ", ") + ")"
        default:
            break
        }
        switch v.unboxed {
        case .metatype(.named(let id)) where program.types[id].name.hasPrefix("__String"):
            throw fault("the type of a String.Index or of its range is not part of Canopy's Swift subset")
        case .metatype(.named(let id)):
            // `type(of: p)`, `Point.self`: the type's own name, module-qualified inside another value.
            return nested ? "main." + program.types[id].name : program.types[id].name.afterLastDot
        case .record(let id, let f):
            let info = program.types[id]
            if let text = try customDescription(v, info) { return text }
            var parts: [String] = []
            for (field, value) in zip(info.fields, f) { parts.append(field.name + ": " + (try debugDescribe(value, as: field.type))) }
            return (nested ? "main." + info.name : info.name.afterLastDot) + "(" + parts.joined(separator: ", ") + ")"
        case .object(let o):
            // A class instance prints as its module-qualified name, unless it describes itself.
            return try customDescription(v, program.types[o.type]) ?? "main." + program.types[o.type].name
        case .enumCase(let id, let c, let p):
            if let text = try customDescription(v, program.types[id]) { return text }
            let info = program.types[id].cases[c]
            let name = nested ? "main.\(program.types[id].name).\(info.name)" : info.name
            if p.isEmpty { return name }
            var parts: [String] = []
            for i in p.indices {
                let label = i < info.payloadLabels.count ? info.payloadLabels[i].map { "\($0): " } ?? "" : ""
                let type = i < info.payloadTypes.count ? info.payloadTypes[i] : .unknown
                parts.append(label + (try debugDescribe(p[i], as: type)))
            }
            return name + "(" + parts.joined(separator: ", ") + ")"
        default:
            return describe(v)
        }
    }

    /// A `CustomStringConvertible` type's own `description`, which `print` and interpolation show.
    private func customDescription(_ v: Value, _ info: TypeInfo) throws(ScriptFault) -> String? {
        guard info.conforms(to: "CustomStringConvertible"), let getter = info.methods["description"] else { return nil }
        let text = try call(BoundMethod(getter, receiver: v), [], site: site)
        return describe(text)
    }

    /// `String(reflecting:)`-style text of an element inside a collection, optional or record: strings quoted.
    package func debugDescribe(_ v: Value, as t: TypeRef) throws(ScriptFault) -> String {
        if case .optional = t { return try describe(v, as: t, nested: true) }
        if case .string(let s) = v.unboxed { return "\"" + s.debugEscaped + "\"" }
        return try describe(v, as: t, nested: true)
    }
}

extension String {
    /// The name after the last dot: a nested type prints under its own name (`Inner(x: 1)`).
    var afterLastDot: String {
        guard let i = lastIndex(of: ".") else { return self }
        return String(self[index(after: i)...])
    }

    /// Escapes as Swift's `debugDescription` of a string does.
    var debugEscaped: String {
        var out = ""
        for c in unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "\0": out += "\\0"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
