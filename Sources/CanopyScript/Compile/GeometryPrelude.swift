/// SwiftUI's geometry values, written in Swift and compiled with programs that use them (LAYOUT.md §4):
/// `EdgeInsets`, `CoordinateSpace`, `Anchor`, `Angle` and `GeometryProxy`, whose members ask the program tree's
/// layout through the natives of `Library+Geometry`. An `Anchor` holds the rect (or point) it stands for in canvas
/// coordinates, so it survives the trip through a preference's JSON; a proxy resolves it into its own space.
enum GeometryPrelude {
    /// Whether `source` names something of the prelude (compiling it costs every other program nothing).
    static func isNeeded(by source: String) -> Bool {
        names.contains { source.contains($0) }
    }

    static let names = [
        "GeometryReader", "GeometryProxy", "Anchor", "anchorPreference", "AnchorPreference", "coordinateSpace", "CoordinateSpace",
        "EdgeInsets", "PreferenceValue", "onGeometryChange", "Angle", "rotationEffect",
        // `.padding(.init(top: 1, leading: 2, bottom: 3, trailing: 4))` makes an EdgeInsets without naming it.
        "init(top:",
    ]

    /// The prelude for a program: `Angle` only where the program does not declare its own (in Swift a program's
    /// type shadows SwiftUI's; here both would be a redeclaration). `UnitPoint`, an effect's anchor, is the Layout
    /// prelude's; without it an anchor is written by name (`.topLeading`), which the layout reads as such.
    static func source(for program: String) -> String {
        declares(program, "Angle") ? source : source + "\n" + angle
    }

    /// Whether `source` declares a type `name` of its own.
    static func declares(_ source: String, _ name: String) -> Bool {
        ["struct", "enum", "class", "typealias", "protocol"].contains { keyword in
            var rest = Substring(source)
            while let r = rest.range(of: keyword + " " + name) {
                let next = rest[r.upperBound...].first
                if next.map({ !($0.isLetter || $0.isNumber || $0 == "_") }) ?? true { return true }
                rest = rest[r.upperBound...]
            }
            return false
        }
    }

    /// SwiftUI's `Angle`, as `rotationEffect` takes it.
    static let angle = """
        struct Angle: Equatable, Hashable, Comparable {
            var radians: Double = 0
            var degrees: Double { radians * (180.0 / Double.pi) }
            init() {}
            init(radians: Double) { self.radians = radians }
            init(degrees: Double) { radians = degrees * (Double.pi / 180.0) }
            static func radians(_ radians: Double) -> Angle { Angle(radians: radians) }
            static func degrees(_ degrees: Double) -> Angle { Angle(degrees: degrees) }
            static let zero = Angle()
            static func < (lhs: Angle, rhs: Angle) -> Bool { lhs.radians < rhs.radians }
            static func + (lhs: Angle, rhs: Angle) -> Angle { Angle(radians: lhs.radians + rhs.radians) }
            static func - (lhs: Angle, rhs: Angle) -> Angle { Angle(radians: lhs.radians - rhs.radians) }
            static prefix func - (angle: Angle) -> Angle { Angle(radians: -angle.radians) }
            static func * (lhs: Angle, rhs: Double) -> Angle { Angle(radians: lhs.radians * rhs) }
            static func / (lhs: Angle, rhs: Double) -> Angle { Angle(radians: lhs.radians / rhs) }
        }
        """

    static let source = """
        struct EdgeInsets: Equatable, Hashable {
            var top: CGFloat = 0
            var leading: CGFloat = 0
            var bottom: CGFloat = 0
            var trailing: CGFloat = 0
            init() {}
            init(top: CGFloat, leading: CGFloat, bottom: CGFloat, trailing: CGFloat) {
                self.top = top
                self.leading = leading
                self.bottom = bottom
                self.trailing = trailing
            }
        }

        enum CoordinateSpace: Equatable, Hashable {
            case global
            case local
            case named(AnyHashable)
        }

        struct Anchor: Equatable {
            var __rect: CGRect
            var __point: Bool
        }

        struct GeometryProxy {
            let __node: String
            var size: CGSize { __geometryFrame(__node, CoordinateSpace.local).size }
            var safeAreaInsets: EdgeInsets { __geometryInsets(__node) }
            func frame(in space: CoordinateSpace) -> CGRect { __geometryFrame(__node, space) }
            func __resolve(_ anchor: Anchor) -> Any { __geometryResolve(__node, anchor) }
        }
        """
}
