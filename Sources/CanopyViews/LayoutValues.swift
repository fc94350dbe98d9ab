import CanopyLayout
import CanopyScript

/// SwiftUI's layout arguments as a body's values hold them (`.infinity`, `.topLeading`, `.horizontal` arrive as
/// the names of implicit members) turned into the layout's kinds.
enum LayoutValues {
    /// A length: a number, `.infinity`; nil for anything else (an absent argument).
    static func number(_ v: Value?) -> Double? {
        guard let v else { return nil }
        switch v.unboxed {
        case .int(let i): return Double(i)
        case .double(let d): return d
        case .string("infinity"): return .infinity
        case .string("nan"), .string("signalingNaN"): return .nan
        default: return nil
        }
    }

    static func horizontalAlignment(_ name: String) -> HorizontalAlignment? {
        switch name {
        case "leading": return .leading
        case "center": return .center
        case "trailing": return .trailing
        default: return nil
        }
    }

    static func verticalAlignment(_ name: String) -> VerticalAlignment? {
        switch name {
        case "top": return .top
        case "center": return .center
        case "bottom": return .bottom
        case "firstTextBaseline": return .firstTextBaseline
        case "lastTextBaseline": return .lastTextBaseline
        default: return nil
        }
    }

    /// A VStack's `alignment:` (a horizontal alignment).
    static func horizontal(_ v: Value?) -> Alignment {
        guard case .string(let s)? = v?.unboxed, let h = horizontalAlignment(s) else { return .center }
        return Alignment(horizontal: h, vertical: .center)
    }

    /// An HStack's `alignment:` (a vertical alignment).
    static func vertical(_ v: Value?) -> Alignment {
        guard case .string(let s)? = v?.unboxed, let a = verticalAlignment(s) else { return .center }
        return Alignment(horizontal: .center, vertical: a)
    }

    /// A two-dimensional alignment by name (`.topLeading`, `.center`, `.bottom`…).
    static func alignment(_ v: Value) -> Alignment? {
        guard case .string(let s) = v.unboxed else { return nil }
        switch s {
        case "topLeading": return .topLeading
        case "top": return .top
        case "topTrailing": return .topTrailing
        case "leading": return .leading
        case "center": return .center
        case "trailing": return .trailing
        case "bottomLeading": return .bottomLeading
        case "bottom": return .bottom
        case "bottomTrailing": return .bottomTrailing
        // iOS 16's text-baseline alignments.
        case "leadingFirstTextBaseline": return Alignment(horizontal: .leading, vertical: .firstTextBaseline)
        case "centerFirstTextBaseline": return Alignment(horizontal: .center, vertical: .firstTextBaseline)
        case "trailingFirstTextBaseline": return Alignment(horizontal: .trailing, vertical: .firstTextBaseline)
        case "leadingLastTextBaseline": return Alignment(horizontal: .leading, vertical: .lastTextBaseline)
        case "centerLastTextBaseline": return Alignment(horizontal: .center, vertical: .lastTextBaseline)
        case "trailingLastTextBaseline": return Alignment(horizontal: .trailing, vertical: .lastTextBaseline)
        default: return nil
        }
    }

    /// The implicit members an option set is written with: `.horizontal`, or `[.top, .leading]` (array or set).
    static func memberNames(_ v: Value) -> [String]? {
        func name(_ x: Value) -> String? {
            if case .string(let s) = x.unboxed { return s }
            return nil
        }
        switch v.unboxed {
        case .string(let s): return [s]
        case .array(let a): return a.compactMap(name)
        case .set(let set): return set.elements.compactMap(name)
        default: return nil
        }
    }

    /// A ScrollView's axes: `.vertical` (the default), `.horizontal`, `[.horizontal, .vertical]`.
    static func axes(_ v: Value?) -> (horizontal: Bool, vertical: Bool) {
        guard let v, let names = memberNames(v) else { return (false, true) }
        return (names.contains("horizontal"), names.contains("vertical") || names.isEmpty)
    }

    /// A text style (`.title`) or `.system(size:)`.
    static func font(_ v: Value?) -> FontSpec? {
        guard let v else { return nil }
        switch v.unboxed {
        case .string(let s): return FontSpec.textStyle(s)
        default: return nil
        }
    }

    /// The JSON of a `.coordinateSpace(name:)` or `.coordinateSpace(.named(…))` name.
    static func spaceName(_ args: [(String, Value)]) -> Value? {
        guard let (label, value) = args.first else { return nil }
        if label == "name" { return value }
        if case .enumCase(_, _, let payload) = value.unboxed, payload.count == 1 { return payload[0] }
        return nil
    }

    /// The edges of `.padding(.horizontal, 8)`: an edge set by name or a list of them.
    static func edges(_ v: Value) -> (top: Bool, leading: Bool, bottom: Bool, trailing: Bool)? {
        guard let names = memberNames(v) else { return nil }
        var e = (top: false, leading: false, bottom: false, trailing: false)
        for n in names {
            switch n {
            case "all": e = (true, true, true, true)
            case "horizontal": e.leading = true; e.trailing = true
            case "vertical": e.top = true; e.bottom = true
            case "top": e.top = true
            case "bottom": e.bottom = true
            case "leading": e.leading = true
            case "trailing": e.trailing = true
            default: return nil
            }
        }
        return e
    }

    /// An edge set as the layout's `Edges` (`.all`, `.top`, `[.top, .leading]`, `.horizontal`, `[]`).
    static func edgeSet(_ v: Value) -> Edges? {
        guard let e = edges(v) else { return nil }
        var set: Edges = []
        if e.top { set.insert(.top) }
        if e.leading { set.insert(.leading) }
        if e.bottom { set.insert(.bottom) }
        if e.trailing { set.insert(.trailing) }
        return set
    }

    /// A `UnitPoint`: a `UnitPoint` value, or the name of one of its static members.
    static func unitPoint(_ v: Value?) -> UnitPoint? {
        guard let v else { return nil }
        if let n = numbers(v), n.count == 2 { return UnitPoint(x: n[0], y: n[1]) }
        guard case .string(let s) = v.unboxed else { return nil }
        switch s {
        case "zero", "topLeading": return .topLeading
        case "top": return .top
        case "topTrailing": return .topTrailing
        case "leading": return .leading
        case "center": return .center
        case "trailing": return .trailing
        case "bottomLeading": return .bottomLeading
        case "bottom": return .bottom
        case "bottomTrailing": return .bottomTrailing
        default: return nil
        }
    }

    /// The numbers of a record by field position (`CGSize`, `CGPoint`, `EdgeInsets`).
    static func numbers(_ v: Value) -> [Double]? {
        guard case .record(_, let f) = v.unboxed else { return nil }
        let n = f.compactMap { number($0) }
        return n.count == f.count ? n : nil
    }

    /// The layout kind of a SwiftUI modifier, or nil for a modifier that does not take part in layout.
    static func modifierKind(_ name: String, _ args: [(String, Value)]) -> LayoutKind? {
        func arg(_ label: String) -> Value? { args.first { $0.0 == label }?.1 }
        let alignment = arg("alignment").flatMap(alignment) ?? .center
        switch name {
        case "frame":
            let flexible = ["minWidth", "idealWidth", "maxWidth", "minHeight", "idealHeight", "maxHeight"]
            if args.contains(where: { flexible.contains($0.0) }) {
                return .flexibleFrame(
                    minWidth: number(arg("minWidth")), idealWidth: number(arg("idealWidth")), maxWidth: number(arg("maxWidth")),
                    minHeight: number(arg("minHeight")), idealHeight: number(arg("idealHeight")),
                    maxHeight: number(arg("maxHeight")), alignment: alignment)
            }
            return .frame(width: number(arg("width")), height: number(arg("height")), alignment: alignment)
        case "padding":
            var length = 16.0
            var sides = (top: true, leading: true, bottom: true, trailing: true)
            if let first = arg("_0") {
                if let n = numbers(first), n.count == 4 {
                    return .padding(EdgeInsets(top: n[0], leading: n[1], bottom: n[2], trailing: n[3]))
                }
                if let d = number(first) {
                    length = d
                } else if let e = edges(first) {
                    sides = e
                    if let d = number(arg("_1")) { length = d }
                }
            }
            return .padding(
                EdgeInsets(
                    top: sides.top ? length : 0, leading: sides.leading ? length : 0, bottom: sides.bottom ? length : 0,
                    trailing: sides.trailing ? length : 0))
        case "offset":
            if let s = arg("_0").flatMap(numbers), s.count == 2 { return .offset(x: s[0], y: s[1]) }
            return .offset(x: number(arg("x")) ?? 0, y: number(arg("y")) ?? 0)
        case "position":
            if let p = arg("_0").flatMap(numbers), p.count == 2 { return .position(x: p[0], y: p[1]) }
            return .position(x: number(arg("x")) ?? 0, y: number(arg("y")) ?? 0)
        case "fixedSize":
            if args.isEmpty { return .fixedSize(horizontal: true, vertical: true) }
            let h = arg("horizontal").map { if case .bool(let b) = $0.unboxed { return b } else { return false } } ?? false
            let v = arg("vertical").map { if case .bool(let b) = $0.unboxed { return b } else { return false } } ?? false
            return .fixedSize(horizontal: h, vertical: v)
        case "layoutPriority":
            return number(arg("_0")).map { .layoutPriority($0) }
        case "aspectRatio":
            var ratio = number(arg("_0"))
            if ratio == nil, let s = arg("_0").flatMap(numbers), s.count == 2, s[1] != 0 { ratio = s[0] / s[1] }
            let mode = arg("contentMode") ?? arg("_1")
            var fill = false
            if case .string("fill")? = mode?.unboxed { fill = true }
            return .aspectRatio(ratio, fill: fill)
        case "scaleEffect":
            // `scaleEffect(2)`, `scaleEffect(CGSize)`, `scaleEffect(x:y:)`, each with `anchor:` (default .center).
            let anchor = unitPoint(arg("anchor")) ?? .center
            if let first = arg("_0") {
                if let s = numbers(first), s.count == 2 { return .effect(.scale(x: s[0], y: s[1], anchor: anchor)) }
                guard let k = number(first) else { return nil }
                return .effect(.scale(x: k, y: k, anchor: anchor))
            }
            return .effect(.scale(x: number(arg("x")) ?? 1, y: number(arg("y")) ?? 1, anchor: anchor))
        case "rotationEffect":
            // An `Angle` is a record of its radians.
            guard let angle = arg("_0").flatMap(numbers), angle.count == 1 else { return nil }
            return .effect(.rotation(radians: angle[0], anchor: unitPoint(arg("anchor")) ?? .center))
        case "ignoresSafeArea":
            // `ignoresSafeArea(_ regions: = .all, edges: = .all)`: the keyboard's region alone ignores nothing here
            // (there is no keyboard), but the view still lays out as SwiftUI's ignoring layout.
            let edges = arg("edges").flatMap(edgeSet) ?? .all
            if let regions = arg("_0").flatMap(memberNames), !regions.contains("all"), !regions.contains("container") {
                return .ignoresSafeArea([])
            }
            return .ignoresSafeArea(edges)
        case "edgesIgnoringSafeArea":
            return .ignoresSafeArea(arg("_0").flatMap(edgeSet) ?? .all)
        case "scaledToFit": return .aspectRatio(nil, fill: false)
        case "scaledToFill": return .aspectRatio(nil, fill: true)
        default: return nil
        }
    }
}
