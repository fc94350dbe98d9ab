// HStack and VStack as SwiftUI lays them out (OpenSwiftUI's StackLayout, audited against SwiftUI 6.5):
//
// * A concrete proposal along the axis is shared out. Children are ordered by layout priority (highest first) and,
//   within a priority, least flexible first (flexibility: the length at ∞ minus the length at 0, both proposed with
//   the stack's proposal across; two infinitely flexible children: the one with the larger minimum first).
//   Before the first group, the minimum lengths of all lower-priority groups are reserved; each later group gets its
//   own minimums back. Within a group each child is offered an equal share of what is left (never below 0), then
//   what it takes is subtracted.
// * A nil proposal along the axis: every child is asked for its ideal length.
// * The stack's length is the children's plus the spacing; across, the union of the children aligned (and of 0).
// * Placing, a nil proposal across becomes the stack's size across, and the sharing runs again.

/// A child's proposal, size and position in its parent's bounds, as a layout decided them.
struct ChildPlacement {
    let node: LayoutNode
    let proposal: ProposedSize
    let size: LayoutSize
    var origin: LayoutPoint
}

/// A stack's layout for one proposal, kept for the rest of a `layout()` call.
struct StackResult {
    let proposal: ProposedSize
    let size: LayoutSize
    let children: [ChildPlacement]
}

extension LayoutTree {
    /// Stacks with at least this many children keep their layout for the rest of a `layout()` call: sizing one and
    /// placing it at the same proposal (a stack proposed a concrete size) would share its children out twice.
    /// Smaller stacks are cheaper to lay out again than to look up.
    static let stackResultMinimumChildren = 8

    /// The stack's size for `p` and where its children go. Within one `layout()` the answer for a proposal cannot
    /// change (nothing is declared during a layout), so a stack of many children computes it once.
    func stackLayout(
        _ node: LayoutNode, axis: Axis, spacing: Double?, alignment: Alignment, _ p: ProposedSize
    ) throws -> (size: LayoutSize, children: [ChildPlacement]) {
        guard node.children.count >= Self.stackResultMinimumChildren else {
            return try computeStackLayout(node, axis: axis, spacing: spacing, alignment: alignment, p)
        }
        let id = ObjectIdentifier(node)
        if let kept = stackResults[id], kept.proposal == p { return (kept.size, kept.children) }
        let result = try computeStackLayout(node, axis: axis, spacing: spacing, alignment: alignment, p)
        stackResults[id] = StackResult(proposal: p, size: result.size, children: result.children)
        return result
    }

    private func computeStackLayout(
        _ node: LayoutNode, axis: Axis, spacing: Double?, alignment: Alignment, _ p: ProposedSize
    ) throws -> (size: LayoutSize, children: [ChildPlacement]) {
        let children = subviews(of: node)
        guard !children.isEmpty else { return (.zero, []) }
        let count = children.count
        let across = p[axis.other]
        var gaps = [Double](repeating: 0, count: count)
        for index in 1..<count {
            gaps[index] =
                spacing
                ?? viewSpacing(of: children[index - 1]).distance(to: viewSpacing(of: children[index]), along: axis)
        }
        var proposals = [ProposedSize](repeating: .unspecified, count: count)
        var sizes = [LayoutSize](repeating: .zero, count: count)
        if let along = p[axis] {
            let available = along - gaps.reduce(0, +)
            try shareOut(
                available, children: children, axis: axis, across: across, proposals: &proposals, sizes: &sizes)
        } else {
            for index in 0..<count {
                proposals[index] = ProposedSize(nil, along: axis, minor: across)
                sizes[index] = try size(children[index], proposals[index])
            }
        }
        // Across: each child's guide on the stack's guide line, the union shifted to start at 0.
        var guides = [Double](repeating: 0, count: count)
        var low = 0.0
        var high = 0.0
        for index in 0..<count {
            let guide =
                axis == .horizontal
                ? try verticalGuide(alignment.vertical, of: children[index], proposals[index], sizes[index])
                : alignment.horizontal.value(in: sizes[index].width)
            guides[index] = guide.isNaN ? 0 : guide
            low = min(low, -guides[index])
            high = max(high, -guides[index] + sizes[index][axis.other])
        }
        var placements: [ChildPlacement] = []
        placements.reserveCapacity(count)
        var position = 0.0
        for index in 0..<count {
            let start = position + gaps[index]
            position = start + sizes[index][axis]
            let origin =
                axis == .horizontal
                ? LayoutPoint(x: start.isNaN ? 0 : start, y: -guides[index] - low)
                : LayoutPoint(x: -guides[index] - low, y: start.isNaN ? 0 : start)
            placements.append(
                ChildPlacement(node: children[index], proposal: proposals[index], size: sizes[index], origin: origin))
        }
        return (LayoutSize(position, along: axis, minor: high - low), placements)
    }

    /// Shares `available` out to the children in fitting order (see the top of this file).
    private func shareOut(
        _ available: Double, children: [LayoutNode], axis: Axis, across: Double?, proposals: inout [ProposedSize],
        sizes: inout [LayoutSize]
    ) throws {
        let count = children.count
        let priorities = children.map { priority(of: $0) }
        var minimums = [Double?](repeating: nil, count: count)
        var maximums = [Double?](repeating: nil, count: count)
        func minimum(_ index: Int) throws -> Double {
            if let known = minimums[index] { return known }
            let length = try size(children[index], ProposedSize(0, along: axis, minor: across))[axis]
            minimums[index] = length
            return length
        }
        // Flexibility is measured only where it orders something: children sharing a priority with another. Most
        // stacks have one priority (no layoutPriority, no Spacer): then every child shares it, with no table.
        let onePriority = priorities.allSatisfy { $0 == priorities[0] }
        var groupSizes: [Double: Int] = [:]
        if !onePriority { for priority in priorities { groupSizes[priority, default: 0] += 1 } }
        for index in 0..<count where onePriority ? count > 1 : groupSizes[priorities[index], default: 0] > 1 {
            _ = try minimum(index)
            maximums[index] = try size(children[index], ProposedSize(.infinity, along: axis, minor: across))[axis]
        }
        let order = (0..<count).sorted { a, b in
            if priorities[a] != priorities[b] { return priorities[a] > priorities[b] }
            let flexibilityA = Flexibility(min: minimums[a] ?? 0, max: maximums[a] ?? 0)
            let flexibilityB = Flexibility(min: minimums[b] ?? 0, max: maximums[b] ?? 0)
            if flexibilityA != flexibilityB { return flexibilityA < flexibilityB }
            return a < b
        }
        var remainingSpace = available
        var start = 0
        while start < count {
            let groupPriority = priorities[order[start]]
            var end = start + 1
            while end < count && priorities[order[end]] == groupPriority { end += 1 }
            if start == 0 {
                for position in end..<count { remainingSpace -= try minimum(order[position]) }
            } else {
                for position in start..<end { remainingSpace += try minimum(order[position]) }
            }
            var left = end - start
            for position in start..<end {
                let index = order[position]
                let share = max(remainingSpace / Double(left), 0)
                proposals[index] = ProposedSize(share, along: axis, minor: across)
                sizes[index] = try size(children[index], proposals[index])
                let rest = remainingSpace - sizes[index][axis]
                if !rest.isNaN { remainingSpace = rest }
                left -= 1
            }
            start = end
        }
    }

    /// The stack's proposal for placing its children: a nil proposal across becomes its size across.
    static func stackPlacementProposal(axis: Axis, _ p: ProposedSize, size: LayoutSize) -> ProposedSize {
        axis == .horizontal
            ? ProposedSize(width: p.width, height: p.height ?? size.height)
            : ProposedSize(width: p.width ?? size.width, height: p.height)
    }
}

/// SwiftUI's _LayoutTraits.FlexibilityEstimate: the smaller range is less flexible; two infinite ranges compare by
/// their minimums, the larger minimum being less flexible.
struct Flexibility: Comparable {
    let range: Double
    let tieBreak: Double

    init(min: Double, max: Double) {
        let range = max - min
        self.range = range.isNaN ? 0 : range
        self.tieBreak = self.range == .infinity ? -min : 0
    }

    static func < (a: Flexibility, b: Flexibility) -> Bool {
        a.range == b.range ? a.tieBreak < b.tieBreak : a.range < b.range
    }
}
