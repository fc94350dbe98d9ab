// The layout engine's state: nodes declared by key, their caches, and where the last layout put them. Layout is
// SwiftUI's: the parent proposes, the child chooses its size, the parent places it (docs/layout.md, "The rules as
// built"). Sizing and placing recurse along the tree, so layout stops with an error past `maxDepth` levels rather
// than risking the thread's stack.

/// SwiftUI's layout over a tree of nodes declared by key, incremental: a node caches its size per proposal, and a
/// change lays out again only the path to the root and the siblings whose proposals change.
public final class LayoutTree {
    /// The screen or window a tree is laid out in.
    public struct Canvas: Hashable, Sendable {
        public var width: Double
        public var height: Double
        public var safeArea: EdgeInsets
        /// Pixels per point: frames are rounded to 1 / scale.
        public var scale: Double

        public init(width: Double, height: Double, safeArea: EdgeInsets = .zero, scale: Double = 3) {
            self.width = width
            self.height = height
            self.safeArea = safeArea
            self.scale = scale
        }

        /// Non-finite or negative lengths become 0, lengths over 100,000 become 100,000, a bad scale becomes 1.
        var sanitized: Canvas {
            func length(_ value: Double) -> Double { value.isNaN ? 0 : min(max(value, 0), 100_000) }
            let insets = EdgeInsets(
                top: length(safeArea.top), leading: length(safeArea.leading), bottom: length(safeArea.bottom),
                trailing: length(safeArea.trailing))
            let goodScale = scale.isFinite && scale > 0 && scale <= 100
            return Canvas(
                width: length(width), height: length(height), safeArea: insets, scale: goodScale ? scale : 1)
        }

        /// 1 / scale: the pixel grid.
        var pixelLength: Double { 1 / scale }
    }

    /// Deeper trees make `layout()` throw `LayoutError.tooDeep` (sizing and placing recurse once per level).
    public static let maxDepth = 512

    /// The canvas; a new scale clears every cache (a Divider is one pixel thick).
    public var canvas: Canvas {
        didSet {
            canvas = canvas.sanitized
            guard canvas != oldValue else { return }
            if canvas.scale != oldValue.scale {
                for node in nodes.values {
                    node.sizes.removeAll()
                    node.spacing = nil
                    node.sizeStale = true
                    node.needsPlacement = true
                }
            } else {
                // What a view ignoring the safe area extends by depends on the canvas's edges, wherever it is.
                for node in nodes.values {
                    if case .ignoresSafeArea = node.kind { invalidatePlacement(node) }
                }
            }
            root?.needsPlacement = true
        }
    }

    /// The user `Layout`s' implementation; without one a `.custom` node lays out as a centred ZStack.
    public weak var customHost: CustomLayoutHost?

    var nodes: [String: LayoutNode] = [:]
    var root: LayoutNode?
    /// Sizes computed (not found in a cache) by the current or last layout.
    var trace: [(key: String, proposal: ProposedSize, size: LayoutSize)] = []
    /// Keys whose rounded canvas frame changed in the current layout.
    var changed: [String] = []
    /// The custom layout whose placeSubviews is running, and what its subviews were told.
    var customPlacement: CustomPlacement?
    /// The first error a subview's sizeThatFits met inside the host (the host's API does not throw there).
    var pendingError: (any Error)?
    /// How deep sizing and placing have recursed: about the depth in the tree of the node being laid out.
    var recursionDepth = 0
    /// Whether an effect was ever declared: from then on placing keeps every node's space (`place`).
    var tracksSpaces = false
    /// Stacks of many children laid out in the current `layout()`, by node: sizing a stack and then placing it at
    /// the same proposal shares its children out once. Emptied when `layout()` returns.
    var stackResults: [ObjectIdentifier: StackResult] = [:]

    public init(canvas: Canvas) {
        self.canvas = canvas.sanitized
    }

    /// Declares (or re-declares) the node `key` with its kind and its children (keys declared before, in order).
    /// Unchanged kind and children keep the node's caches; a change invalidates it and its ancestors' caches only.
    /// The kind is cleaned as `LayoutKind.validated` does. A child key not declared yet is created as `.empty`;
    /// a child that would make a cycle is left out; a child declared under another parent moves here.
    public func set(_ key: String, kind: LayoutKind, children childKeys: [String]) {
        let kind = LayoutKind.validated(kind).0
        if !tracksSpaces, case .effect = kind { tracksSpaces = true }
        let node = nodes[key] ?? makeNode(key, kind: kind)
        // The common re-declaration: the same children in the same order. A child is always a declared node, so its
        // key names it: no lookup, cycle or duplicate check is needed.
        if node.children.count == childKeys.count && zip(node.children, childKeys).allSatisfy({ $0.key == $1 }) {
            guard node.kind != kind else { return }
            if Self.differOnlyInPlacement(node.kind, kind) {
                // Sizes, spacing, priority and baselines are the child's (or fixed): only placement changes.
                node.kind = kind
                invalidatePlacement(node)
                return
            }
            node.kind = kind
            invalidateSize(node)
            propagateContext(from: node)
            checkInvariants(around: node)
            return
        }
        // Duplicates are found with a set in long lists (a linear search each would make a wide stack quadratic).
        let manyChildren = childKeys.count > 16
        var seen = Set<ObjectIdentifier>()
        var newChildren: [LayoutNode] = []
        newChildren.reserveCapacity(childKeys.count)
        for childKey in childKeys {
            let child = nodes[childKey] ?? makeNode(childKey, kind: .empty)
            // A child already under this node cannot be one of its ancestors; any other needs the walk to the root.
            if child.parent !== node && node.hasAncestorOrSelf(child) { continue }
            let duplicate =
                manyChildren
                ? !seen.insert(ObjectIdentifier(child)).inserted : newChildren.contains(where: { $0 === child })
            if duplicate { continue }
            newChildren.append(child)
        }
        let sameChildren =
            newChildren.count == node.children.count && zip(newChildren, node.children).allSatisfy { $0 === $1 }
        guard !sameChildren || node.kind != kind else { return }
        if !sameChildren {
            for old in node.children
            where manyChildren ? !seen.contains(ObjectIdentifier(old)) : !newChildren.contains(where: { $0 === old }) {
                old.parent = nil
                detach(old)
                makeTop(old)
            }
            for child in newChildren where child.parent !== node {
                if let previous = child.parent {
                    previous.children.removeAll { $0 === child }
                    invalidateSize(previous)
                } else if child === root {
                    root = nil
                }
                child.parent = node
            }
            node.children = newChildren
        }
        node.kind = kind
        invalidateSize(node)
        propagateContext(from: node)
        checkInvariants(around: node)
    }

    /// Two kinds that lay out alike and differ only in where they put their child or how they draw it: an offset's
    /// values, an effect's, the edges a view ignores the safe area on.
    static func differOnlyInPlacement(_ a: LayoutKind, _ b: LayoutKind) -> Bool {
        switch (a, b) {
        case (.offset, .offset), (.effect, .effect), (.ignoresSafeArea, .ignoresSafeArea): return true
        default: return false
        }
    }

    /// Removes a node no longer shown, with its caches; its children stay declared, detached.
    public func remove(_ key: String) {
        guard let node = nodes.removeValue(forKey: key) else { return }
        if let parent = node.parent {
            parent.children.removeAll { $0 === node }
            invalidateSize(parent)
        }
        if node === root { root = nil }
        for child in node.children {
            child.parent = nil
            detach(child)
            makeTop(child)
        }
        node.children = []
        node.isPlaced = false
    }

    /// The node laid out in the canvas, or none.
    public func setRoot(_ key: String?) {
        let newRoot = key.map { nodes[$0] ?? makeNode($0, kind: .empty) }
        guard newRoot !== root else { return }
        if let old = root { detach(old) }
        root = newRoot
        if let newRoot {
            if let parent = newRoot.parent {
                parent.children.removeAll { $0 === newRoot }
                invalidateSize(parent)
                newRoot.parent = nil
            }
            detach(newRoot)
            makeTop(newRoot)
            invalidatePlacement(newRoot)
        }
    }

    /// Sets a scroll view's offset; the next layout clamps it to the content and `scrollOffset(of:)` reads that.
    public func setScrollOffset(_ key: String, _ offset: LayoutPoint) {
        guard let node = nodes[key] else { return }
        let clean = LayoutPoint(x: offset.x.isFinite ? offset.x : 0, y: offset.y.isFinite ? offset.y : 0)
        guard clean != node.scrollOffset else { return }
        node.scrollOffset = clean
        invalidatePlacement(node)
    }

    /// A scroll view's offset, clamped to its content by the last layout (.zero for an unknown key).
    public func scrollOffset(of key: String) -> LayoutPoint {
        nodes[key]?.scrollOffset ?? .zero
    }

    /// Marks a node's cached sizes stale although its kind and children did not change (a custom layout whose
    /// parameters changed, a control whose content did).
    public func invalidate(_ key: String) {
        guard let node = nodes[key] else { return }
        invalidateSize(node)
    }

    /// The node's frame in canvas coordinates (origin top-left), offsets and scrolling applied, rounded to the pixel
    /// grid as SwiftUI rounds what it draws; nil if the last layout did not place it.
    public func frame(of key: String) -> LayoutRect? {
        guard let node = nodes[key], node.isPlaced else { return nil }
        return PixelRounding.rounded(node.frame, pixelLength: canvas.pixelLength)
    }

    /// The same frame before rounding: the values SwiftUI's GeometryProxy reports.
    public func unroundedFrame(of key: String) -> LayoutRect? {
        guard let node = nodes[key], node.isPlaced else { return nil }
        return node.frame
    }

    /// What the node's parent proposed to it at the last layout.
    public func proposal(of key: String) -> ProposedSize? {
        guard let node = nodes[key], node.isPlaced else { return nil }
        return node.placedProposal
    }

    /// The size the node chose at the last layout (not rounded).
    public func size(of key: String) -> LayoutSize? {
        guard let node = nodes[key], node.isPlaced else { return nil }
        return node.placedSize
    }

    /// The nodes whose size was computed (not a cache hit) in the last `layout()`, in order, for a trace.
    public var laidOut: [(key: String, proposal: ProposedSize, size: LayoutSize)] { trace }

    /// How many nodes are declared.
    public var count: Int { nodes.count }

    /// Lays out what changed since the last call: the root is proposed the canvas minus the safe area and centred in
    /// it (also when larger). Returns the keys whose (rounded) frame changed. Throws what the CustomLayoutHost throws,
    /// and `LayoutError.tooDeep` for a tree deeper than `maxDepth`.
    @discardableResult
    public func layout() throws -> [String] {
        trace = []
        changed = []
        pendingError = nil
        recursionDepth = 0
        defer { stackResults = [:] }
        guard let root else { return [] }
        let insets = canvas.safeArea
        let available = LayoutSize(
            width: max(0, canvas.width - insets.horizontal), height: max(0, canvas.height - insets.vertical))
        let proposal = ProposedSize(available)
        let size = finiteForPlacement(try self.size(root, proposal))
        let origin = LayoutPoint(
            x: insets.leading + (available.width - size.width) / 2, y: insets.top + (available.height - size.height) / 2
        )
        root.localOrigin = origin
        try place(root, proposal: proposal, size: size, at: origin, in: nil)
        return changed
    }

    private func makeNode(_ key: String, kind: LayoutKind) -> LayoutNode {
        let node = LayoutNode(key: key, kind: kind)
        nodes[key] = node
        return node
    }

    /// Clears the caches of `node` and its ancestors, and marks them for placement.
    func invalidateSize(_ node: LayoutNode) {
        var current: LayoutNode? = node
        var first = true
        while let n = current {
            if n.sizeStale && !first && n.needsPlacement { break }
            n.sizes.removeAll()
            n.spacing = nil
            n.sizeStale = true
            n.needsPlacement = true
            first = false
            current = n.parent
        }
    }

    /// Marks `node` and its ancestors for placement, keeping their caches.
    func invalidatePlacement(_ node: LayoutNode) {
        var current: LayoutNode? = node
        var first = true
        while let n = current {
            if n.needsPlacement && !first { break }
            n.needsPlacement = true
            first = false
            current = n.parent
        }
    }

    /// A subtree that left the root: no frames until it is placed again.
    func detach(_ node: LayoutNode) {
        var stack = [node]
        while let n = stack.popLast() {
            guard n.isPlaced else { continue }
            n.isPlaced = false
            n.needsPlacement = true
            stack.append(contentsOf: n.children)
        }
    }

    /// A node that has no parent any more: no stack around it.
    func makeTop(_ node: LayoutNode) {
        if node.orientation != nil {
            node.orientation = nil
            invalidateSize(node)
        }
        propagateContext(from: node)
    }

    /// Recomputes the stack orientation below `start`, down to where it does not change; a node whose orientation
    /// changes loses its caches (a Spacer's or Divider's size depends on it).
    func propagateContext(from start: LayoutNode) {
        var stack = [start]
        while let node = stack.popLast() {
            for (index, child) in node.children.enumerated() {
                let orientation = Self.childOrientation(of: node, childIndex: index)
                guard child.orientation != orientation else { continue }
                child.orientation = orientation
                invalidateSize(child)
                stack.append(child)
            }
        }
    }

    /// The stack orientation a node passes to its child: a stack its axis, a layout modifier its own, a container
    /// that lays children out on its own (ZStack, GeometryReader, a background's secondary, a Layout) none.
    static func childOrientation(of node: LayoutNode, childIndex: Int) -> Axis? {
        switch node.kind {
        case .stack(let axis, _, _): axis
        case .scrollView(let horizontal, let vertical): vertical ? .vertical : (horizontal ? .horizontal : nil)
        case .background, .overlay: childIndex == 0 ? node.orientation : nil
        case .frame, .flexibleFrame, .padding, .fixedSize, .layoutPriority, .offset, .position, .aspectRatio, .button,
            .effect, .ignoresSafeArea:
            node.orientation
        case .empty, .shape, .text, .control, .spacer, .zstack, .geometryReader, .custom: nil
        }
    }

    /// A size to place at: infinite lengths (a child's answer to an infinite proposal) become a large finite one.
    func finiteForPlacement(_ size: LayoutSize) -> LayoutSize {
        LayoutSize(width: Self.finite(size.width), height: Self.finite(size.height))
    }

    /// Frames stay within ±1,000,000 points, so the wire never carries an infinity.
    static let largestLength = 1_000_000.0

    static func finite(_ value: Double) -> Double {
        value.isNaN ? 0 : min(max(value, -largestLength), largestLength)
    }

    static func finite(_ point: LayoutPoint) -> LayoutPoint {
        LayoutPoint(x: finite(point.x), y: finite(point.y))
    }

    static func finite(_ rect: LayoutRect) -> LayoutRect {
        LayoutRect(x: finite(rect.x), y: finite(rect.y), width: finite(rect.width), height: finite(rect.height))
    }

    /// One level deeper into the tree; past `maxDepth` levels, layout stops with `LayoutError.tooDeep`.
    func enter(_ node: LayoutNode) throws {
        guard recursionDepth <= Self.maxDepth else { throw LayoutError.tooDeep(node.key) }
        recursionDepth += 1
    }
}
