// SwiftUI's stacks ask each pair of neighbours for the distance between them (OpenSwiftUI's Spacing.swift and
// StackLayout.swift). A view's spacing is a dictionary keyed by (category, edge); ordinary views carry only
// "edge next to text" categories, which never match between two neighbours, so the distance falls back to the
// uncategorised values: when neither side has one it is the default 8, otherwise the larger. This model keeps just
// those uncategorised values, one per edge, which gives the same distances for every kind Canopy lays out (Text's own
// text-to-text categories are not modelled: see docs/layout.md, "Departures").

/// A view's spacing preferences: per edge, an uncategorised distance or nil for none.
struct ViewSpacing: Hashable {
    var top: Double?
    var leading: Double?
    var bottom: Double?
    var trailing: Double?

    /// An ordinary view (SwiftUI's `Spacing()`): no uncategorised value, so 8 from a neighbour without one.
    static let standard = ViewSpacing()
    /// `Spacing.zero`: 0 on every edge (an empty stack, a Spacer outside a stack).
    static let zero = ViewSpacing(top: 0, leading: 0, bottom: 0, trailing: 0)
    /// SwiftUI's default distance between views on iOS (`CoreGlue.defaultSpacing`, 8 × 8).
    static let defaultDistance = 8.0

    /// A Spacer in a stack of `axis`: 0 at both ends along it.
    static func spacer(along axis: Axis) -> ViewSpacing {
        axis == .horizontal
            ? ViewSpacing(top: nil, leading: 0, bottom: nil, trailing: 0)
            : ViewSpacing(top: 0, leading: nil, bottom: 0, trailing: nil)
    }

    /// The distance from this view to the next one along `axis`.
    func distance(to next: ViewSpacing, along axis: Axis) -> Double {
        let mine = axis == .horizontal ? trailing : bottom
        let theirs = axis == .horizontal ? next.leading : next.top
        guard mine != nil || theirs != nil else { return Self.defaultDistance }
        return max(mine ?? -.infinity, theirs ?? -.infinity)
    }

    /// Clears the edges across `axis`'s ends (`.horizontal`: leading and trailing), as a frame or padding does.
    mutating func reset(along axis: Axis) {
        if axis == .horizontal {
            leading = nil
            trailing = nil
        } else {
            top = nil
            bottom = nil
        }
    }

    /// Merges `other`'s values on the chosen edges, keeping the larger where both have one.
    mutating func formUnion(_ other: ViewSpacing, top t: Bool, leading l: Bool, bottom b: Bool, trailing r: Bool) {
        if t { top = Self.larger(top, other.top) }
        if l { leading = Self.larger(leading, other.leading) }
        if b { bottom = Self.larger(bottom, other.bottom) }
        if r { trailing = Self.larger(trailing, other.trailing) }
    }

    private static func larger(_ a: Double?, _ b: Double?) -> Double? {
        guard let a else { return b }
        guard let b else { return a }
        return max(a, b)
    }
}
