/// SwiftUI's geometry values, written in Swift and compiled with programs that use them (LAYOUT.md §4):
/// `EdgeInsets`, `CoordinateSpace`, `Anchor` and `GeometryProxy`, whose members ask the program tree's layout
/// through the natives of `Library+Geometry`. An `Anchor` holds the rect (or point) it stands for in canvas
/// coordinates, so it survives the trip through a preference's JSON; a proxy resolves it into its own space.
enum GeometryPrelude {
    /// Whether `source` names something of the prelude (compiling it costs every other program nothing).
    static func isNeeded(by source: String) -> Bool {
        names.contains { source.contains($0) }
    }

    static let names = [
        "GeometryReader", "GeometryProxy", "Anchor", "anchorPreference", "AnchorPreference", "coordinateSpace", "CoordinateSpace",
        "EdgeInsets", "PreferenceValue", "onGeometryChange",
        // `.padding(.init(top: 1, leading: 2, bottom: 3, trailing: 4))` makes an EdgeInsets without naming it.
        "init(top:",
    ]

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
