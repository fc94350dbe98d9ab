/// A readable print of a compiled program's declarations, for tests and bug reports: what the compiler made of the
/// source (types with their resolved properties, cases, methods and conformances, functions with their signatures,
/// top-level values and previews), in source order, without the prelude.
extension Program {
    package func dump() -> String {
        var out: [String] = []
        for t in types where t.location.line > 0 {
            var head: String
            switch t.kind {
            case .structure: head = t.isClass ? "class" : "struct"
            case .enumeration: head = "enum"
            case .protocolType: head = "protocol"
            case .builtin: continue
            }
            head += " \(t.name)"
            var inherits: [String] = []
            if let s = t.superclass { inherits.append(types[s].name) }
            inherits += t.conformances.sorted()
            if let raw = t.rawType { inherits.insert(name(of: raw), at: 0) }
            if !inherits.isEmpty { head += ": " + inherits.joined(separator: ", ") }
            out.append(head + "  // \(t.location.line):\(t.location.column)")
            for f in t.fields {
                let wrapper = f.wrapper.map { "@\($0) " } ?? ""
                out.append("    \(wrapper)\(f.isLet ? "let" : "var") \(f.name): \(name(of: f.type))\(f.initial == nil ? "" : " = …")")
            }
            for c in t.cases {
                var text = "    case \(c.name)"
                if !c.payloadTypes.isEmpty {
                    let parts = c.payloadTypes.indices.map { i in
                        (i < c.payloadLabels.count ? c.payloadLabels[i].map { "\($0): " } ?? "" : "") + name(of: c.payloadTypes[i])
                    }
                    text += "(" + parts.joined(separator: ", ") + ")"
                }
                if let raw = c.rawValue { text += " = \(encode(raw).encoded())" }
                out.append(text)
            }
            for (n, _) in t.staticConstants.sorted(by: { $0.key < $1.key }) {
                out.append("    static \(n): \(name(of: t.staticTypes[n] ?? .unknown))")
            }
            for f in t.staticMethods.values.sorted(by: { $0.name < $1.name }) { out.append("    static " + signature(f)) }
            for f in t.methods.values.sorted(by: { $0.name < $1.name }) where f.name.hasPrefix(t.name + ".") {
                out.append("    " + signature(f))
            }
            if !t.requirements.isEmpty { out.append("    requires " + t.requirements.sorted().joined(separator: ", ")) }
        }
        for f in functions.values.sorted(by: { ($0.location.line, $0.name) < ($1.location.line, $1.name) })
        where f.location.line > 0 {
            out.append(signature(f))
        }
        for c in cells where !c.name.contains(".") { out.append("let \(c.name)") }
        for g in globalVariables { out.append("var \(g.name): \(name(of: g.type))") }
        for p in previews {
            let modifiers = p.modifiers.isEmpty ? "" : " traits: " + p.modifiers.joined(separator: ", ")
            out.append("#Preview\(p.name.map { " \"\($0)\"" } ?? "")\(modifiers)")
        }
        return out.joined(separator: "\n")
    }

    /// `func name(label: Type, …) -> Result`, `self` left out.
    private func signature(_ f: Function) -> String {
        let first = f.hasSelf ? 1 : 0
        let params = (first..<f.parameterCount).map { i in
            let label = i < f.parameterLabels.count ? f.parameterLabels[i] ?? "_" : "_"
            let type = i < f.parameterTypes.count ? name(of: f.parameterTypes[i]) : "_"
            return "\(label): \(type)\(f.variadic == i ? "..." : "")"
        }
        let base = f.name.afterDot.split(separator: "(").first.map(String.init) ?? f.name
        let result = f.returnType == .void ? "" : " -> " + name(of: f.returnType)
        return "\(f.isMutating ? "mutating " : "")func \(base)(\(params.joined(separator: ", ")))\(result)"
    }
}
