// SwiftUI's flexible frame, rule for rule as OpenSwiftUI's _FlexFrameLayout (audited against SwiftUI 6.4): its
// initializer's clamps, its sizing, and (with the iOS 17 semantics, FlexFrameIdealSizing) the proposal it gives its
// child when placing it.

/// A `frame(minWidth:idealWidth:maxWidth:minHeight:idealHeight:maxHeight:)` with SwiftUI's clamps applied.
struct FlexibleFrame {
    let minWidth: Double?
    let idealWidth: Double?
    let maxWidth: Double?
    let minHeight: Double?
    let idealHeight: Double?
    let maxHeight: Double?

    /// min < 0 → 0; ideal < min → min; max < ideal → ideal (a missing min or ideal counts as 0 there, so
    /// min 100 with max 50 and no ideal stays contradictory).
    init(
        minWidth: Double?, idealWidth: Double?, maxWidth: Double?, minHeight: Double?, idealHeight: Double?,
        maxHeight: Double?
    ) {
        let (minW, idealW, maxW) = Self.clamped(minWidth, idealWidth, maxWidth)
        let (minH, idealH, maxH) = Self.clamped(minHeight, idealHeight, maxHeight)
        self.minWidth = minW
        self.idealWidth = idealW
        self.maxWidth = maxW
        self.minHeight = minH
        self.idealHeight = idealH
        self.maxHeight = maxH
    }

    private static func clamped(_ min: Double?, _ ideal: Double?, _ max: Double?) -> (Double?, Double?, Double?) {
        let low = min.map { Swift.max($0, 0) }
        let middle = ideal.map { Swift.max(low ?? 0, $0) }
        let high = max.map { Swift.max(middle ?? 0, $0) }
        return (low, middle, high)
    }

    /// The frame's size for `p`; `child` sizes the child for a proposal.
    func size(for p: ProposedSize, child: (ProposedSize) throws -> LayoutSize) rethrows -> LayoutSize {
        let width = Self.ownLength(p.width, min: minWidth, ideal: idealWidth, max: maxWidth)
        let height = Self.ownLength(p.height, min: minHeight, ideal: idealHeight, max: maxHeight)
        if let width, let height { return LayoutSize(width: width, height: height) }
        let proposal = childProposal(p)
        let size = try child(proposal)
        return LayoutSize(
            width: width ?? Self.lengthAround(size.width, proposed: proposal.width, min: minWidth, max: maxWidth),
            height: height ?? Self.lengthAround(size.height, proposed: proposal.height, min: minHeight, max: maxHeight))
    }

    /// A length the frame takes without asking its child: the proposal clamped when both min and max are given
    /// (and in order), the ideal for a nil proposal.
    private static func ownLength(_ proposed: Double?, min: Double?, ideal: Double?, max: Double?) -> Double? {
        guard let proposed else { return ideal }
        guard let min, let max, min <= max else { return nil }
        return Swift.min(Swift.max(proposed, min), max)
    }

    /// The length around a child of length `child`.
    private static func lengthAround(_ child: Double, proposed: Double?, min: Double?, max: Double?) -> Double {
        switch (min, max) {
        case (let min?, let max?) where min <= max: Swift.min(Swift.max(min, child), max)
        case (let min?, nil): Swift.max(Swift.min(proposed ?? .infinity, child), min)
        case (nil, let max?): Swift.min(Swift.max(proposed ?? -.infinity, child), max)
        default: child
        }
    }

    /// What the frame proposes to its child while sizing: its proposal (or ideal) clamped to min…max.
    func childProposal(_ p: ProposedSize) -> ProposedSize {
        func clamp(_ value: Double?, _ min: Double?, _ max: Double?) -> Double? {
            value.map { Swift.min(Swift.max(min ?? -.infinity, $0), max ?? .infinity) }
        }
        return ProposedSize(
            width: clamp(p.width ?? idealWidth, minWidth, maxWidth),
            height: clamp(p.height ?? idealHeight, minHeight, maxHeight))
    }

    /// What the frame proposes to its child when placing it at `size`: its size, except nil along an axis with no
    /// ideal, a nil proposal, and a size strictly between min and max (the child keeps its ideal there).
    func placementProposal(_ p: ProposedSize, size: LayoutSize) -> ProposedSize {
        func length(_ value: Double, proposed: Double?, min: Double?, ideal: Double?, max: Double?) -> Double? {
            guard ideal == nil, proposed == nil, (min ?? -.infinity) < value, value < (max ?? .infinity) else {
                return value
            }
            return nil
        }
        return ProposedSize(
            width: length(size.width, proposed: p.width, min: minWidth, ideal: idealWidth, max: maxWidth),
            height: length(size.height, proposed: p.height, min: minHeight, ideal: idealHeight, max: maxHeight))
    }
}
