/// One node of a LayoutTree: its declaration, its context in the tree, its caches and where it was last placed.
final class LayoutNode {
    let key: String
    var kind: LayoutKind
    var children: [LayoutNode] = []
    /// Unowned, not weak: a parent is always a declared node (the tree's `nodes` keeps it alive, and `remove` clears
    /// its children's `parent`), and a weak reference would give every parent a side table, which sends each of its
    /// retains and releases down the runtime's slow path.
    unowned var parent: LayoutNode?

    /// The axis of the stack this node is in, through the modifiers between (SwiftUI's stack orientation input):
    /// a Spacer and a Divider read it. nil outside a stack and inside a ZStack, GeometryReader, background or Layout.
    var orientation: Axis?

    /// Sizes chosen for recent proposals.
    var sizes = SizeCache()
    /// The spacing preferences the node shows its stack, once computed.
    var spacing: ViewSpacing?
    /// The caches were cleared since the last layout (so were every ancestor's, unless a layout placed them since).
    var sizeStale = true
    /// The node or a descendant must be placed again at the next layout.
    var needsPlacement = true

    /// Set by the last layout that reached the node; false while it is detached from the root.
    var isPlaced = false
    /// What the parent proposed at the last placement, and the size the node chose.
    var placedProposal = ProposedSize.unspecified
    var placedSize = LayoutSize.zero
    /// The node's top-leading corner, offsets and scrolling applied, in `space`'s coordinates (the canvas's when
    /// there is none).
    var origin = LayoutPoint.zero
    /// The space of the innermost scale or rotation effect around the node (for an effect node, its own): nil, the
    /// canvas, but for nodes inside an effect.
    var space: EffectSpace?
    /// The node's position in its parent's bounds, as the parent's layout placed it (no offset or scrolling).
    var localOrigin = LayoutPoint.zero
    /// A scroll view's offset: as set, then as clamped by the last layout.
    var scrollOffset = LayoutPoint.zero

    init(key: String, kind: LayoutKind) {
        self.key = key
        self.kind = kind
    }

    /// EmptyView: not a subview of its container.
    var isEmptyView: Bool {
        if case .empty = kind { return true }
        return false
    }

    /// children[0], the view a modifier modifies, if any.
    var firstChild: LayoutNode? { children.first }

    /// The frame the node was last placed at in canvas coordinates, offsets, effects and scrolling applied, not
    /// rounded: through an effect, the bounding box of its corners.
    var frame: LayoutRect {
        let rect = LayoutRect(origin: origin, size: placedSize)
        guard let space else { return rect }
        return LayoutTree.finite(space.toCanvas.boundingBox(rect))
    }

    /// Whether the node is a scale or rotation effect.
    var isEffect: Bool {
        if case .effect = kind { return true }
        return false
    }

    /// Whether `other` is this node or one of its ancestors.
    func hasAncestorOrSelf(_ other: LayoutNode) -> Bool {
        var node: LayoutNode? = self
        while let current = node {
            if current === other { return true }
            node = current.parent
        }
        return false
    }
}

/// The sizes a node chose for its last few proposals. A stack probes each child at 0, at ∞ and at its share, and
/// places it at its share again; a few entries keep all of these across layouts.
struct SizeCache {
    static let capacity = 6

    private var proposals: [ProposedSize] = []
    private var sizes: [LayoutSize] = []
    private var next = 0

    func lookup(_ proposal: ProposedSize) -> LayoutSize? {
        for index in proposals.indices where proposals[index] == proposal { return sizes[index] }
        return nil
    }

    mutating func store(_ proposal: ProposedSize, _ size: LayoutSize) {
        if proposals.count < Self.capacity {
            proposals.append(proposal)
            sizes.append(size)
        } else {
            // Round robin: the oldest entry goes.
            proposals[next] = proposal
            sizes[next] = size
            next = (next + 1) % Self.capacity
        }
    }

    mutating func removeAll() {
        proposals.removeAll()
        sizes.removeAll()
        next = 0
    }

    var isEmpty: Bool { proposals.isEmpty }
}
