// User `Layout`s run in the integration (user Swift code); the engine reaches them through this hook, and they
// reach their subviews through LayoutSubviews, as SwiftUI's Layout protocol does.

/// Lays out `.custom(id)` nodes: the integration implements it by calling the user's Layout.
public protocol CustomLayoutHost: AnyObject {
    /// The layout's size for `proposal` (SwiftUI's `sizeThatFits(proposal:subviews:cache:)`).
    func sizeThatFits(layout id: Int, proposal: ProposedSize, subviews: LayoutSubviews) throws -> LayoutSize
    /// Places the subviews in `bounds` (the layout's box in canvas coordinates, as SwiftUI gives it in its parent's
    /// space) by calling `place` on each, with positions in the same coordinates.
    func placeSubviews(layout id: Int, in bounds: LayoutRect, proposal: ProposedSize, subviews: LayoutSubviews) throws
}

/// A custom layout's subviews (its children except EmptyViews), in order.
public struct LayoutSubviews: RandomAccessCollection {
    let tree: LayoutTree
    let nodes: [LayoutNode]

    public var startIndex: Int { 0 }
    public var endIndex: Int { nodes.count }

    public subscript(index: Int) -> LayoutSubview {
        LayoutSubview(tree: tree, node: nodes[index], index: index)
    }
}

/// One subview of a custom layout.
public struct LayoutSubview {
    let tree: LayoutTree
    let node: LayoutNode
    let index: Int

    /// The subview's node key.
    public var key: String { node.key }

    /// Its layout priority, as a stack reads it.
    public var priority: Double { tree.priority(of: node) }

    /// The size the subview chooses for `proposal`. An error inside it (a nested custom layout's) is thrown by the
    /// enclosing `LayoutTree.layout()` once the host returns; meanwhile the size is zero.
    public func sizeThatFits(_ proposal: ProposedSize) -> LayoutSize {
        tree.subviewSize(node, proposal)
    }

    /// Its size for `proposal` and its text baselines there (nil without text), as `ViewDimensions` reports them.
    public func dimensions(_ proposal: ProposedSize) -> LayoutDimensions {
        tree.subviewDimensions(node, proposal)
    }

    /// Its spacing preferences, per edge (nil: none of its own, so 8 from a neighbour without one either).
    public var spacing: (top: Double?, leading: Double?, bottom: Double?, trailing: Double?) {
        let s = tree.viewSpacing(of: node)
        return (s.top, s.leading, s.bottom, s.trailing)
    }

    /// Places the subview with its `anchor` at `position` (in the coordinates of the layout's bounds), proposing `proposal`. Only
    /// meaningful inside `placeSubviews`; a subview not placed there is centred and proposed the layout's proposal.
    public func place(at position: LayoutPoint, anchor: UnitPoint = .topLeading, proposal: ProposedSize) {
        tree.recordPlacement(node, index: index, at: position, anchor: anchor, proposal: proposal)
    }
}

/// A subview's size for a proposal and its first and last text baselines (nil without text).
public struct LayoutDimensions: Hashable, Sendable {
    public var size: LayoutSize
    public var firstBaseline: Double?
    public var lastBaseline: Double?
}

/// The custom layout whose `placeSubviews` is running, where its bounds are, and what its subviews were told so far.
struct CustomPlacement {
    let owner: LayoutNode
    let boundsOrigin: LayoutPoint
    var slots: [ChildPlacement?]
}

extension LayoutTree {
    func subviewSize(_ node: LayoutNode, _ proposal: ProposedSize) -> LayoutSize {
        do {
            return try size(node, proposal)
        } catch {
            if pendingError == nil { pendingError = error }
            return .zero
        }
    }

    func subviewDimensions(_ node: LayoutNode, _ proposal: ProposedSize) -> LayoutDimensions {
        let size = subviewSize(node, proposal)
        do {
            let first = try baseline(of: node, last: false, proposal, size)
            let last = try baseline(of: node, last: true, proposal, size)
            return LayoutDimensions(size: size, firstBaseline: first, lastBaseline: last)
        } catch {
            if pendingError == nil { pendingError = error }
            return LayoutDimensions(size: size)
        }
    }

    func recordPlacement(
        _ node: LayoutNode, index: Int, at position: LayoutPoint, anchor: UnitPoint, proposal: ProposedSize
    ) {
        guard let owner = customPlacement?.owner, node.parent === owner,
            let o = customPlacement?.boundsOrigin, customPlacement?.slots.indices.contains(index) == true
        else { return }
        let size = finiteForPlacement(subviewSize(node, proposal))
        let x = position.x.isFinite ? position.x - o.x - anchor.x * size.width : 0
        let y = position.y.isFinite ? position.y - o.y - anchor.y * size.height : 0
        // In place: copying the slots for each subview would make placing n subviews O(n²).
        customPlacement?.slots[index] = ChildPlacement(
            node: node, proposal: proposal.sanitized, size: size, origin: LayoutPoint(x: x, y: y))
    }

    /// Runs the host's placeSubviews and collects where it put each subview.
    func customPlacements(_ node: LayoutNode, host: CustomLayoutHost, id: Int, _ p: ProposedSize, _ s: LayoutSize)
        throws -> [ChildPlacement]
    {
        let children = subviews(of: node)
        let saved = customPlacement
        customPlacement = CustomPlacement(
            owner: node, boundsOrigin: node.origin, slots: Array(repeating: nil, count: children.count))
        defer { customPlacement = saved }
        let bounds = LayoutRect(origin: node.origin, size: s)
        try host.placeSubviews(
            layout: id, in: bounds, proposal: p, subviews: LayoutSubviews(tree: self, nodes: children))
        try rethrowPending()
        let slots = customPlacement?.slots ?? []
        return try children.indices.map { index in
            if let placed = slots[index] { return placed }
            let size = try size(children[index], p)
            let origin = LayoutPoint(x: (s.width - size.width) / 2, y: (s.height - size.height) / 2)
            return ChildPlacement(node: children[index], proposal: p, size: size, origin: origin)
        }
    }
}
