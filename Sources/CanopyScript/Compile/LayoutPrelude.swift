/// SwiftUI's `Layout` protocol and its values, written in Swift and compiled with programs that use them
/// (LAYOUT.md §4): `ProposedViewSize`, `LayoutSubview` (whose members ask the layout that is running through the
/// natives of `Library+Layout`), `ViewDimensions`, `ViewSpacing`, `UnitPoint`, and the built-in `HStackLayout`,
/// `VStackLayout`, `ZStackLayout` and `AnyLayout`. A view written `MyLayout { … }` is laid out by calling the
/// program's `sizeThatFits` and `placeSubviews` (CanopyViews' `ScriptLayoutHost`).
enum LayoutPrelude {
    /// Whether `source` names something of the prelude.
    static func isNeeded(by source: String) -> Bool {
        names.contains { source.contains($0) }
    }

    static let names = [
        "Layout", "ProposedViewSize", "LayoutSubview", "ViewDimensions", "ViewSpacing", "UnitPoint",
    ]

    static let source = """
        protocol Layout {
            associatedtype Cache = Void
        }
        typealias LayoutSubviews = [LayoutSubview]
        // `Layout.Subviews`, written in conforming types as `Subviews`.
        typealias Subviews = LayoutSubviews

        struct UnitPoint: Hashable {
            var x: CGFloat = 0
            var y: CGFloat = 0
            init() {}
            init(x: CGFloat, y: CGFloat) {
                self.x = x
                self.y = y
            }
            static let zero = UnitPoint(x: 0, y: 0)
            static let topLeading = UnitPoint(x: 0, y: 0)
            static let top = UnitPoint(x: 0.5, y: 0)
            static let topTrailing = UnitPoint(x: 1, y: 0)
            static let leading = UnitPoint(x: 0, y: 0.5)
            static let center = UnitPoint(x: 0.5, y: 0.5)
            static let trailing = UnitPoint(x: 1, y: 0.5)
            static let bottomLeading = UnitPoint(x: 0, y: 1)
            static let bottom = UnitPoint(x: 0.5, y: 1)
            static let bottomTrailing = UnitPoint(x: 1, y: 1)
        }

        struct ProposedViewSize: Hashable {
            var width: CGFloat?
            var height: CGFloat?
            init(width: CGFloat?, height: CGFloat?) {
                self.width = width
                self.height = height
            }
            init(_ size: CGSize) {
                width = size.width
                height = size.height
            }
            static let zero = ProposedViewSize(width: 0, height: 0)
            static let unspecified = ProposedViewSize(width: nil, height: nil)
            static let infinity = ProposedViewSize(width: CGFloat.infinity, height: CGFloat.infinity)
            func replacingUnspecifiedDimensions(by size: CGSize = CGSize(width: 10, height: 10)) -> CGSize {
                CGSize(width: width ?? size.width, height: height ?? size.height)
            }
        }

        struct ViewDimensions: Equatable {
            let width: CGFloat
            let height: CGFloat
            let __firstBaseline: CGFloat?
            let __lastBaseline: CGFloat?
            func __horizontal(_ guide: HorizontalAlignment) -> CGFloat {
                __dimensionGuide(width, nil, nil, guide)
            }
            func __vertical(_ guide: VerticalAlignment) -> CGFloat {
                __dimensionGuide(height, __firstBaseline, __lastBaseline, guide)
            }
        }

        struct ViewSpacing: Equatable {
            var __top: CGFloat?
            var __leading: CGFloat?
            var __bottom: CGFloat?
            var __trailing: CGFloat?
            init() {}
            init(__top: CGFloat?, __leading: CGFloat?, __bottom: CGFloat?, __trailing: CGFloat?) {
                self.__top = __top
                self.__leading = __leading
                self.__bottom = __bottom
                self.__trailing = __trailing
            }
            static let zero = ViewSpacing(__top: 0, __leading: 0, __bottom: 0, __trailing: 0)
            func distance(to next: ViewSpacing, along axis: Axis) -> CGFloat {
                let mine = axis == .horizontal ? __trailing : __bottom
                let theirs = axis == .horizontal ? next.__leading : next.__top
                if mine == nil && theirs == nil { return 8 }
                return max(mine ?? -CGFloat.infinity, theirs ?? -CGFloat.infinity)
            }
            mutating func formUnion(_ other: ViewSpacing) {
                __top = ViewSpacing.__larger(__top, other.__top)
                __leading = ViewSpacing.__larger(__leading, other.__leading)
                __bottom = ViewSpacing.__larger(__bottom, other.__bottom)
                __trailing = ViewSpacing.__larger(__trailing, other.__trailing)
            }
            func union(_ other: ViewSpacing) -> ViewSpacing {
                var result = self
                result.formUnion(other)
                return result
            }
            static func __larger(_ a: CGFloat?, _ b: CGFloat?) -> CGFloat? {
                guard let a else { return b }
                guard let b else { return a }
                return max(a, b)
            }
        }

        struct LayoutSubview: Equatable {
            let __call: Int
            let __index: Int
            func sizeThatFits(_ proposal: ProposedViewSize) -> CGSize {
                __subviewSize(__call, __index, proposal.width, proposal.height)
            }
            func dimensions(in proposal: ProposedViewSize) -> ViewDimensions {
                __subviewDimensions(__call, __index, proposal.width, proposal.height)
            }
            func place(at position: CGPoint, anchor: UnitPoint = .topLeading, proposal: ProposedViewSize) {
                __subviewPlace(__call, __index, position.x, position.y, anchor.x, anchor.y, proposal.width, proposal.height)
            }
            var priority: Double { __subviewPriority(__call, __index) }
            var spacing: ViewSpacing { __subviewSpacing(__call, __index) }
        }

        struct HStackLayout: Layout {
            var alignment: VerticalAlignment = .center
            var spacing: CGFloat? = nil
        }

        struct VStackLayout: Layout {
            var alignment: HorizontalAlignment = .center
            var spacing: CGFloat? = nil
        }

        struct ZStackLayout: Layout {
            var alignment: Alignment = .center
        }

        struct AnyLayout: Layout {
            let __layout: Any
            init(_ layout: Any) {
                __layout = layout
            }
        }
        """
}
