/// The natives under `LayoutPrelude`: what a `LayoutSubview` asks of the layout whose `sizeThatFits` or
/// `placeSubviews` is running (`LayoutCallHost`), and a `ViewDimensions`' alignment guides. Outside a layout call
/// (a subview kept past its call, a script run alone) asking faults.
extension Library {
    func registerLayout() {
        function("__subviewSize(_:_:_:_:)") { m, args throws(ScriptFault) in
            let (call, index) = (try m.int(args[0]), try m.int(args[1]))
            let size = try m.layoutCalls(call).subviewSize(
                call: call, index: index, width: try m.optionalLength(args[2]), height: try m.optionalLength(args[3]))
            return try m.makeSize(size.width, size.height)
        }
        function("__subviewDimensions(_:_:_:_:)") { m, args throws(ScriptFault) in
            let (call, index) = (try m.int(args[0]), try m.int(args[1]))
            let d = try m.layoutCalls(call).subviewDimensions(
                call: call, index: index, width: try m.optionalLength(args[2]), height: try m.optionalLength(args[3]))
            guard let t = m.program.type(named: "ViewDimensions") else { throw m.fault("ViewDimensions is missing") }
            return .record(
                t.id,
                [.double(d.width), .double(d.height), d.firstBaseline.map(Value.double) ?? .null,
                    d.lastBaseline.map(Value.double) ?? .null])
        }
        function("__subviewPlace(_:_:_:_:_:_:_:_:)") { m, args throws(ScriptFault) in
            let (call, index) = (try m.int(args[0]), try m.int(args[1]))
            try m.layoutCalls(call).placeSubview(
                call: call, index: index, x: try m.double(args[2]), y: try m.double(args[3]),
                anchorX: try m.double(args[4]), anchorY: try m.double(args[5]),
                width: try m.optionalLength(args[6]), height: try m.optionalLength(args[7]))
            return .null
        }
        function("__subviewPriority(_:_:)") { m, args throws(ScriptFault) in
            let (call, index) = (try m.int(args[0]), try m.int(args[1]))
            return .double(try m.layoutCalls(call).subviewPriority(call: call, index: index))
        }
        function("__subviewSpacing(_:_:)") { m, args throws(ScriptFault) in
            let (call, index) = (try m.int(args[0]), try m.int(args[1]))
            let s = try m.layoutCalls(call).subviewSpacing(call: call, index: index)
            guard let t = m.program.type(named: "ViewSpacing") else { throw m.fault("ViewSpacing is missing") }
            return .record(t.id, [s.top, s.leading, s.bottom, s.trailing].map { $0.map(Value.double) ?? .null })
        }
        // A guide of a view `length` long along the guide's axis: its edges, its centre, or a text baseline (its
        // bottom without text).
        function("__dimensionGuide(_:_:_:_:)") { m, args throws(ScriptFault) in
            let length = try m.double(args[0])
            let guide = try m.string(args[3])
            switch guide {
            case "leading", "top": return .double(0)
            case "center": return .double(length / 2)
            case "trailing", "bottom": return .double(length)
            case "firstTextBaseline": return args[1].unboxed.number.map(Value.double) ?? .double(length)
            case "lastTextBaseline": return args[2].unboxed.number.map(Value.double) ?? .double(length)
            default:
                throw m.fault("'\(guide)' is not an alignment guide Canopy knows (leading, center, trailing, top, bottom, firstTextBaseline, lastTextBaseline)")
            }
        }
    }
}

/// A subview's dimensions as the layout reports them to programs.
package struct SubviewDimensions: Sendable {
    package var width: Double
    package var height: Double
    package var firstBaseline: Double?
    package var lastBaseline: Double?

    package init(width: Double, height: Double, firstBaseline: Double?, lastBaseline: Double?) {
        self.width = width
        self.height = height
        self.firstBaseline = firstBaseline
        self.lastBaseline = lastBaseline
    }
}

/// What answers a `LayoutSubview`'s questions while a program's `Layout` runs: the program tree's layout. `call`
/// names the layout call the subview was handed in (a nested layout's call has its own).
package protocol LayoutCallHost: AnyObject {
    func subviewSize(call: Int, index: Int, width: Double?, height: Double?) throws(ScriptFault) -> (width: Double, height: Double)
    func subviewDimensions(call: Int, index: Int, width: Double?, height: Double?) throws(ScriptFault) -> SubviewDimensions
    func placeSubview(
        call: Int, index: Int, x: Double, y: Double, anchorX: Double, anchorY: Double, width: Double?, height: Double?
    ) throws(ScriptFault)
    func subviewPriority(call: Int, index: Int) throws(ScriptFault) -> Double
    func subviewSpacing(call: Int, index: Int) throws(ScriptFault) -> (top: Double?, leading: Double?, bottom: Double?, trailing: Double?)
}

extension Machine {
    /// The host of a running layout call, or a fault naming the mistake.
    func layoutCalls(_ call: Int) throws(ScriptFault) -> any LayoutCallHost {
        guard let host = layoutHost else {
            throw fault("a LayoutSubview can only be asked inside its layout's sizeThatFits, placeSubviews or makeCache")
        }
        return host
    }

    /// A proposal's dimension: nil, or a number.
    func optionalLength(_ v: Value) throws(ScriptFault) -> Double? {
        if case .null = v.unboxed { return nil }
        return try double(v)
    }

    /// A `CGSize` of the program's prelude.
    package func makeSize(_ width: Double, _ height: Double) throws(ScriptFault) -> Value {
        guard let size = program.type(named: "CGSize") else { throw fault("CGSize is missing") }
        return .record(size.id, [.double(width), .double(height)])
    }

    /// The numbers of a `CGSize` value.
    package func sizeFields(_ v: Value) throws(ScriptFault) -> (width: Double, height: Double) {
        guard case .record(_, let f) = v.unboxed, f.count == 2 else { throw fault("expected a CGSize") }
        return (try double(f[0]), try double(f[1]))
    }
}
