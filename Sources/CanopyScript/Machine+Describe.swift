/// Values as text, the way Swift's `print`, `String(describing:)` and interpolation show them. The static type
/// decides what the value alone cannot: an optional that holds a value prints as `Optional(…)`, a `Double` that
/// holds a whole number as `1.0`.
extension Machine {
    /// `String(describing:)` of `v` known to have type `t` (`.unknown` when the compiler does not know it).
    package func describe(_ v: Value, as t: TypeRef) -> String {
        switch t {
        case .optional(let w):
            if v.unboxed.isNull { return "nil" }
            return "Optional(" + debugDescribe(v, as: w) + ")"
        case .double:
            if case .int(let i) = v.unboxed { return Double(i).description }
            return describe(v)
        case .array(let e):
            guard case .array(let a) = v.unboxed else { return describe(v) }
            return "[" + a.map { debugDescribe($0, as: e) }.joined(separator: ", ") + "]"
        case .dictionary(let k, let e):
            guard case .dictionary(let d) = v.unboxed else { return describe(v) }
            if d.count == 0 { return "[:]" }
            return "["
                + d.keys.indices.map { "\(debugDescribe(d.keys[$0], as: k)): \(debugDescribe(d.values[$0], as: e))" }
                .joined(separator: ", ") + "]"
        case .set(let e):
            guard case .set(let s) = v.unboxed else { return describe(v) }
            return "Set([" + s.elements.map { debugDescribe($0, as: e) }.joined(separator: ", ") + "])"
        case .tuple(let ts, let labels):
            guard case .tuple(let parts) = v.unboxed, parts.count == ts.count else { return describe(v) }
            let shown = parts.indices.map { i in
                (i < labels.count ? labels[i].map { "\($0): " } ?? "" : "") + debugDescribe(parts[i], as: ts[i])
            }
            return "(" + shown.joined(separator: ", ") + ")"
        default:
            break
        }
        switch v.unboxed {
        case .record(let id, let f):
            let info = program.types[id]
            let parts = zip(info.fields, f).map { "\($0.name): \(debugDescribe($1, as: $0.type))" }
            return info.name.afterLastDot + "(" + parts.joined(separator: ", ") + ")"
        case .enumCase(let id, let c, let p):
            let info = program.types[id].cases[c]
            if p.isEmpty { return info.name }
            let parts = p.indices.map { i in
                let label = i < info.payloadLabels.count ? info.payloadLabels[i].map { "\($0): " } ?? "" : ""
                let type = i < info.payloadTypes.count ? info.payloadTypes[i] : .unknown
                return label + debugDescribe(p[i], as: type)
            }
            return info.name + "(" + parts.joined(separator: ", ") + ")"
        default:
            return describe(v)
        }
    }

    /// `String(reflecting:)`-style text of an element inside a collection, optional or record: strings quoted.
    package func debugDescribe(_ v: Value, as t: TypeRef) -> String {
        if case .optional = t { return describe(v, as: t) }
        if case .string(let s) = v.unboxed { return "\"" + s.debugEscaped + "\"" }
        return describe(v, as: t)
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
