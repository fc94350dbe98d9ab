import CanopyCore

/// The natives under `GeometryPrelude`: a proxy's frame in a coordinate space, its safe area, an anchor resolved
/// into its space — answered by the program tree's layout (`GeometryHost`), which records each question so the code
/// that asked runs again when the answer changes. Without a layout (a script run alone) every answer is zero.
extension Library {
    func registerGeometry() {
        // `Alignment(horizontal:vertical:)` as the name of the static member it equals (`.topLeading`, `.center`,
        // iOS 16's `.leadingFirstTextBaseline`), which is how the layout reads alignments.
        function("__alignment(_:_:)") { m, args throws(ScriptFault) in
            let h = try m.string(args[0])
            let v = try m.string(args[1])
            guard ["leading", "center", "trailing"].contains(h) else {
                throw m.fault("'\(h)' is not a horizontal alignment Canopy knows (leading, center, trailing)")
            }
            switch v {
            case "center": return .string(h)
            case "top", "bottom": return .string(h == "center" ? v : v + h.prefix(1).uppercased() + h.dropFirst())
            case "firstTextBaseline", "lastTextBaseline": return .string(h + v.prefix(1).uppercased() + v.dropFirst())
            default:
                throw m.fault("'\(v)' is not a vertical alignment Canopy knows (top, center, bottom, firstTextBaseline, lastTextBaseline)")
            }
        }
        function("__geometryFrame(_:_:)") { m, args throws(ScriptFault) in
            let node = try m.string(args[0])
            let r = m.geometry?.geometryFrame(of: node, in: try m.coordinateSpace(args[1])) ?? GeometryRect()
            return try m.makeRect(r)
        }
        function("__geometryInsets(_:)") { m, args throws(ScriptFault) in
            let node = try m.string(args[0])
            let i = m.geometry?.geometryInsets(of: node) ?? GeometryRect()
            guard let t = m.program.type(named: "EdgeInsets") else { throw m.fault("EdgeInsets is missing") }
            return .record(t.id, [.double(i.y), .double(i.x), .double(i.height), .double(i.width)])
        }
        function("__geometryResolve(_:_:)") { m, args throws(ScriptFault) in
            let node = try m.string(args[0])
            guard case .record(_, let f) = args[1].unboxed, f.count == 2 else { throw m.fault("expected an Anchor") }
            let rect = try m.rectFields(f[0])
            let point = try m.truth(f[1], at: m.site)
            let local = m.geometry?.geometryResolve(of: node, rect, point: point) ?? rect
            if point { return try m.makePoint(local.x, local.y) }
            return try m.makeRect(local)
        }
    }
}

/// A rect as the layout reports it to programs: canvas points, origin top-left. (For insets: x = leading,
/// y = top, width = trailing, height = bottom.)
package struct GeometryRect: Hashable, Sendable {
    package var x = 0.0
    package var y = 0.0
    package var width = 0.0
    package var height = 0.0

    package init() {}

    package init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// A coordinate space a program names: the canvas (`.global`), the view's own bounds (`.local`), or the view that
/// `.coordinateSpace(name:)` named, by the JSON of its name.
package enum GeometrySpace: Hashable, Sendable {
    case global
    case local
    case named(String)
}

/// What answers a program's geometry questions: the program tree, after its layout.
package protocol GeometryHost: AnyObject {
    func geometryFrame(of node: String, in space: GeometrySpace) -> GeometryRect
    func geometryInsets(of node: String) -> GeometryRect
    /// An anchor's rect (or point, a zero-size rect) in canvas coordinates, in the coordinates of `node`'s box.
    func geometryResolve(of node: String, _ rect: GeometryRect, point: Bool) -> GeometryRect
}

extension Machine {
    /// A `CoordinateSpace` value (or a bare name, as `.named` takes) as a space.
    package func coordinateSpace(_ v: Value) throws(ScriptFault) -> GeometrySpace {
        switch v.unboxed {
        case .enumCase(let t, let c, let payload):
            let name = program.types[t].cases[c].name
            switch name {
            case "global": return .global
            case "local": return .local
            case "named" where payload.count == 1: return .named(program.encode(payload[0]).encoded())
            default: throw fault("unknown coordinate space .\(name)")
            }
        case .string(let s) where s == "global": return .global
        case .string(let s) where s == "local": return .local
        default: throw fault("expected a CoordinateSpace such as .global, .local or .named(\"name\")")
        }
    }

    /// A `CGRect` of the program's prelude.
    package func makeRect(_ r: GeometryRect) throws(ScriptFault) -> Value {
        guard let rect = program.type(named: "CGRect"), let point = program.type(named: "CGPoint"),
            let size = program.type(named: "CGSize")
        else { throw fault("CGRect is missing") }
        return .record(
            rect.id,
            [.record(point.id, [.double(r.x), .double(r.y)]), .record(size.id, [.double(r.width), .double(r.height)])])
    }

    package func makePoint(_ x: Double, _ y: Double) throws(ScriptFault) -> Value {
        guard let point = program.type(named: "CGPoint") else { throw fault("CGPoint is missing") }
        return .record(point.id, [.double(x), .double(y)])
    }

    /// The numbers of a `CGRect` value.
    package func rectFields(_ v: Value) throws(ScriptFault) -> GeometryRect {
        guard case .record(_, let f) = v.unboxed, f.count == 2, case .record(_, let o) = f[0].unboxed,
            case .record(_, let s) = f[1].unboxed, o.count == 2, s.count == 2
        else { throw fault("expected a CGRect") }
        return GeometryRect(x: try double(o[0]), y: try double(o[1]), width: try double(s[0]), height: try double(s[1]))
    }
}
