// User `Layout`s run in the integration (user Swift code); the engine reaches them through this hook, and they
// reach their subviews through LayoutSubviews, as SwiftUI's Layout protocol does.

/// Lays out `.custom(id)` nodes: the integration implements it by calling the user's Layout.
public protocol CustomLayoutHost: AnyObject {
    /// The layout's size for `proposal` (SwiftUI's `sizeThatFits(proposal:subviews:cache:)`).
    func sizeThatFits(layout id: Int, proposal: ProposedSize, subviews: LayoutSubviews) throws -> LayoutSize
    /// Places the subviews in `bounds` (origin 0, 0: the layout's own coordinates) by calling `place` on each.
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

    /// Places the subview with its `anchor` at `position` (in the layout's bounds), proposing `proposal`. Only
    /// meaningful inside `placeSubviews`; a subview not placed there is centred and proposed the layout's proposal.
    public func place(at position: LayoutPoint, anchor: UnitPoint = .topLeading, proposal: ProposedSize) {
        tree.recordPlacement(node, index: index, at: position, anchor: anchor, proposal: proposal)
    }
}

/// The custom layout whose `placeSubviews` is running and what its subviews were told so far.
struct CustomPlacement {
    let owner: LayoutNode
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

    func recordPlacement(
        _ node: LayoutNode, index: Int, at position: LayoutPoint, anchor: UnitPoint, proposal: ProposedSize
    ) {
        guard var current = customPlacement, node.parent === current.owner, current.slots.indices.contains(index)
        else { return }
        let size = finiteForPlacement(subviewSize(node, proposal))
        let x = position.x.isFinite ? position.x - anchor.x * size.width : 0
        let y = position.y.isFinite ? position.y - anchor.y * size.height : 0
        current.slots[index] = ChildPlacement(
            node: node, proposal: proposal.sanitized, size: size, origin: LayoutPoint(x: x, y: y))
        customPlacement = current
    }

    /// Runs the host's placeSubviews and collects where it put each subview.
    func customPlacements(_ node: LayoutNode, host: CustomLayoutHost, id: Int, _ p: ProposedSize, _ s: LayoutSize)
        throws -> [ChildPlacement]
    {
        let children = subviews(of: node)
        let saved = customPlacement
        customPlacement = CustomPlacement(owner: node, slots: Array(repeating: nil, count: children.count))
        defer { customPlacement = saved }
        let bounds = LayoutRect(origin: .zero, size: s)
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
