/// View values as the machine sees them: a builder item's views, a value used as a view.
extension Value {
    package var viewValue: ViewValue? {
        if case .view(let v) = self { return v }
        return nil
    }
}

extension Machine {
    /// The views a builder item contributes: a view, a group's views, nothing for `()`.
    package func views(in v: Value) -> [ViewValue] {
        switch v.unboxed {
        case .view(let view): return view.kind == .group ? view.children : [view]
        case .record(let t, _) where program.types[t].conforms(to: "View"):
            let c = ViewValue(.custom, program.types[t].name, at: site)
            c.record = v.unboxed
            return [c]
        case .array(let items): return items.flatMap { views(in: $0) }
        default: return []
        }
    }

    /// The views a builder statement contributes: none for `nil` (an optional view), a fault for a value that is not
    /// a view (the compiler rejects what it knows; this catches what it could not type).
    package func builderViews(_ v: Value, at location: SourceLocation) throws(ScriptFault) -> [ViewValue] {
        let list = views(in: v)
        if list.isEmpty, !v.unboxed.isNull {
            if case .view = v.unboxed { return list }
            if case .array = v.unboxed { return list }
            throw fault("value of type \(typeName(of: v)) is not a view", at: location)
        }
        return list
    }

    /// A value used as a view: a library view, or a view struct of the program.
    package func asView(_ v: Value, at location: SourceLocation) throws(ScriptFault) -> ViewValue {
        let list = views(in: v)
        if list.count == 1 { return list[0] }
        if case .view(let g) = v.unboxed, g.kind == .group { return g }
        throw fault("value of type \(typeName(of: v)) is not a view", at: location)
    }
}
