// Placing: each node is placed at the proposal its parent gave it and the size it chose, then places its children
// where its kind's rule says. A node whose subtree did not change and whose proposal and size are the same keeps its
// children's placements: if it moved, its subtree's canvas frames move with it, without any sizing.

extension LayoutTree {
    /// Places `node` with its top-leading corner at `origin` in `space` (the canvas when nil), before the node's own
    /// offset or effect. Until a tree declares an effect, no node has a space: it is placed without them, as it was
    /// before effects existed (passing and comparing a nil space costs a wide stack 2 % more work).
    func place(
        _ node: LayoutNode, proposal: ProposedSize, size: LayoutSize, at origin: LayoutPoint, in space: EffectSpace?
    ) throws {
        if tracksSpaces {
            try placeInSpace(node, proposal, size, origin, space)
        } else {
            try placeOnCanvas(node, proposal, size, origin)
        }
    }

    private func placeInSpace(
        _ node: LayoutNode, _ proposal: ProposedSize, _ size: LayoutSize, _ origin: LayoutPoint, _ space: EffectSpace?
    ) throws {
        try place(node, proposal, size, origin, space, tracking: true)
    }

    private func placeOnCanvas(_ node: LayoutNode, _ proposal: ProposedSize, _ size: LayoutSize, _ origin: LayoutPoint)
        throws
    {
        try place(node, proposal, size, origin, nil, tracking: false)
    }

    /// The placement itself, inlined in each of the two ways to place.
    @inline(__always)
    private func place(
        _ node: LayoutNode, _ proposal: ProposedSize, _ size: LayoutSize, _ origin: LayoutPoint, _ space: EffectSpace?,
        tracking: Bool
    ) throws {
        try enter(node)
        defer { recursionDepth -= 1 }
        var origin = origin
        var space = space
        switch node.kind {
        case .offset(let x, let y): origin = Self.finite(origin + LayoutPoint(x: x, y: y))
        case .effect(let effect) where tracking:
            space = effectSpace(node, effect, size: size, at: origin, in: space)
            origin = .zero
        default: break
        }
        if node.isPlaced && !node.needsPlacement && node.placedProposal == proposal && node.placedSize == size {
            if node.origin != origin || (tracking && node.space !== space) { try move(node, to: origin, in: space) }
            return
        }
        let before = node.isPlaced ? rounded(node.frame) : nil
        node.placedProposal = proposal
        node.placedSize = size
        node.origin = origin
        if tracking { node.space = space }
        node.isPlaced = true
        if rounded(node.frame) != before { changed.append(node.key) }
        // The loop of `placeChildren`, written here: as a call of its own, each child's placement is copied through
        // value witnesses: 5 % more instructions in canopy-bench --layout's wide stack.
        let placements = try childPlacements(node, proposal, size, committing: true)
        for child in placements {
            child.node.localOrigin = Self.finite(child.origin)
            let childOrigin = Self.finite(origin + child.node.localOrigin)
            if tracking {
                try placeInSpace(child.node, child.proposal, finiteForPlacement(child.size), childOrigin, space)
            } else {
                try placeOnCanvas(child.node, child.proposal, finiteForPlacement(child.size), childOrigin)
            }
        }
        if placements.count != node.children.count { placeLeftovers(node, placements) }
        node.needsPlacement = false
        node.sizeStale = false
    }

    /// Where a node placed at `origin` in `space` draws: an offset moves it; an effect starts a space of its own,
    /// whose origin is the node's top-leading corner.
    @inline(__always)
    private func resolvedPlacement(_ node: LayoutNode, size: LayoutSize, at origin: LayoutPoint, in space: EffectSpace?)
        -> (LayoutPoint, EffectSpace?)
    {
        switch node.kind {
        case .offset(let x, let y): return (Self.finite(origin + LayoutPoint(x: x, y: y)), space)
        case .effect(let effect): return (.zero, effectSpace(node, effect, size: size, at: origin, in: space))
        default: return (origin, space)
        }
    }

    /// The space of an effect node placed at `origin` in `parent`: its old one when nothing changed.
    private func effectSpace(
        _ node: LayoutNode, _ effect: GeometryEffect, size: LayoutSize, at origin: LayoutPoint, in parent: EffectSpace?
    ) -> EffectSpace {
        let map = effect.transform(in: size)
        if let old = node.space, old.isSame(parent: parent, origin: origin, effect: map) { return old }
        return EffectSpace(parent: parent, origin: origin, effect: map, rectilinear: effect.isRectilinear)
    }

    /// Places a placed node's children again where its kind puts them (`move`'s, for a node whose children's
    /// placement depends on where it is; `place` has the same loop).
    private func placeChildren(_ node: LayoutNode) throws {
        let placements = try childPlacements(node, node.placedProposal, node.placedSize, committing: true)
        let origin = node.origin
        let space = node.space
        for child in placements {
            child.node.localOrigin = Self.finite(child.origin)
            try place(
                child.node, proposal: child.proposal, size: finiteForPlacement(child.size),
                at: Self.finite(origin + child.node.localOrigin), in: space)
        }
        if placements.count != node.children.count { placeLeftovers(node, placements) }
    }

    /// Children the kind does not lay out: an EmptyView sits at the parent's origin with no size; any other is not
    /// laid out (a leaf's children, a modifier's second child) and has no frame.
    private func placeLeftovers(_ node: LayoutNode, _ placements: [ChildPlacement]) {
        let placed = Set(placements.map { ObjectIdentifier($0.node) })
        for child in node.children where !placed.contains(ObjectIdentifier(child)) {
            if child.isEmptyView {
                let before = child.isPlaced ? rounded(child.frame) : nil
                child.placedProposal = node.placedProposal
                child.placedSize = .zero
                child.origin = node.origin
                child.space = node.space
                child.localOrigin = .zero
                child.isPlaced = true
                child.needsPlacement = false
                child.sizeStale = false
                if rounded(child.frame) != before { changed.append(child.key) }
                // An EmptyView lays nothing out: what it held before (as another kind) has no frame now.
                for grandchild in child.children { detach(grandchild) }
            } else {
                detach(child)
            }
        }
    }

    /// Moves a placed subtree: `node` to `origin` in `space`, its descendants after it, each at its parent's origin
    /// plus its local origin (and its own offset or effect), the same arithmetic as placing it afresh. A node whose
    /// children's placement depends on where it is (an effect rounds its content's size to the pixel grid there;
    /// `ignoresSafeArea` reads its safe-area insets) places them again.
    private func move(_ node: LayoutNode, to origin: LayoutPoint, in space: EffectSpace?) throws {
        var stack = [(node, origin, space)]
        while let (current, newOrigin, newSpace) = stack.popLast() {
            let before = rounded(current.frame)
            current.origin = newOrigin
            current.space = newSpace
            if rounded(current.frame) != before { changed.append(current.key) }
            switch current.kind {
            case .effect, .ignoresSafeArea:
                try placeChildren(current)
            default:
                for child in current.children where child.isPlaced {
                    let (childOrigin, childSpace) = resolvedPlacement(
                        child, size: child.placedSize, at: Self.finite(newOrigin + child.localOrigin), in: newSpace)
                    stack.append((child, childOrigin, childSpace))
                }
            }
        }
    }

    func rounded(_ rect: LayoutRect) -> LayoutRect {
        PixelRounding.rounded(rect, pixelLength: canvas.pixelLength)
    }

    /// Where `node`, proposed `p` and of size `s`, puts its children (in its own coordinates). `committing`: this is
    /// the placement itself (a scroll view records its clamped offset, a custom layout asks its host), not a look
    /// at the children for an alignment guide.
    func childPlacements(_ node: LayoutNode, _ p: ProposedSize, _ s: LayoutSize, committing: Bool) throws
        -> [ChildPlacement]
    {
        switch node.kind {
        case .empty, .shape, .text, .spacer:
            return []
        case .control(let kind):
            guard let label = node.firstChild else { return [] }
            let proposal = Controls.labelProposal(kind, p)
            let size = try size(label, proposal)
            return [
                ChildPlacement(
                    node: label, proposal: proposal, size: size,
                    origin: Controls.labelOrigin(kind, size: s, label: size))
            ]
        case .button:
            return try subviews(of: node).map { try centered($0, p, in: s) }
        case .stack(let axis, let spacing, let alignment):
            let proposal = Self.stackPlacementProposal(axis: axis, p, size: s)
            return try stackLayout(node, axis: axis, spacing: spacing, alignment: alignment, proposal).children
        case .zstack(let alignment):
            return try zstackPlacements(subviews(of: node), alignment: alignment, in: s)
        case .frame(let width, let height, let alignment):
            guard let child = node.firstChild else { return [] }
            let proposal = ProposedSize(width: width ?? p.width, height: height ?? p.height)
            return [try aligned(child, proposal, alignment, in: s)]
        case .flexibleFrame(let minW, let idealW, let maxW, let minH, let idealH, let maxH, let alignment):
            guard let child = node.firstChild else { return [] }
            let frame = FlexibleFrame(
                minWidth: minW, idealWidth: idealW, maxWidth: maxW, minHeight: minH, idealHeight: idealH,
                maxHeight: maxH)
            return [try aligned(child, frame.placementProposal(p, size: s), alignment, in: s)]
        case .padding(let insets):
            guard let child = node.firstChild else { return [] }
            let proposal = p.inset(by: insets)
            let size = try size(child, proposal)
            return [
                ChildPlacement(
                    node: child, proposal: proposal, size: size, origin: LayoutPoint(x: insets.leading, y: insets.top))
            ]
        case .background(let alignment), .overlay(let alignment):
            guard let primary = node.firstChild else { return [] }
            var placements = [ChildPlacement(node: primary, proposal: p, size: try size(primary, p), origin: .zero)]
            if node.children.count > 1 {
                placements.append(try aligned(node.children[1], ProposedSize(s), alignment, in: s))
            }
            return placements
        case .fixedSize(let horizontal, let vertical):
            guard let child = node.firstChild else { return [] }
            return [
                try centered(
                    child, ProposedSize(width: horizontal ? nil : p.width, height: vertical ? nil : p.height), in: s)
            ]
        case .layoutPriority:
            guard let child = node.firstChild else { return [] }
            return [try centered(child, p, in: s)]
        case .offset:
            guard let child = node.firstChild else { return [] }
            return [ChildPlacement(node: child, proposal: p, size: try size(child, p), origin: .zero)]
        case .effect:
            guard let child = node.firstChild else { return [] }
            let size = try size(child, p)
            guard committing, let space = node.space else {
                return [ChildPlacement(node: child, proposal: p, size: size, origin: .zero)]
            }
            // The content is placed at the effect's size rounded to the pixel grid where the effect stands
            // (OpenSwiftUI `RoundedSize`), proposed what the effect was.
            let placed = PixelRounding.rounded(
                LayoutRect(origin: space.origin, size: s), pixelLength: canvas.pixelLength)
            return [ChildPlacement(node: child, proposal: p, size: placed.size, origin: .zero)]
        case .ignoresSafeArea(let edges):
            guard let child = node.firstChild else { return [] }
            guard committing else {
                return [ChildPlacement(node: child, proposal: p, size: try size(child, p), origin: .zero)]
            }
            // OpenSwiftUI `_SafeAreaRegionsIgnoringLayout.placement`: the proposal grown by the insets on `edges`,
            // the child's top-leading corner moved out by them.
            let insets = safeAreaInsets(at: node.origin, in: node.space, size: s).on(edges)
            let proposal = p.inset(by: EdgeInsets(
                top: -insets.top, leading: -insets.leading, bottom: -insets.bottom, trailing: -insets.trailing))
            return [
                ChildPlacement(
                    node: child, proposal: proposal, size: try size(child, proposal),
                    origin: LayoutPoint(x: -insets.leading, y: -insets.top))
            ]
        case .position(let x, let y):
            guard let child = node.firstChild else { return [] }
            let proposal = ProposedSize(s)
            let size = try size(child, proposal)
            return [
                ChildPlacement(
                    node: child, proposal: proposal, size: size,
                    origin: LayoutPoint(x: x - size.width / 2, y: y - size.height / 2))
            ]
        case .aspectRatio(let ratio, let fill):
            guard let child = node.firstChild else { return [] }
            return [try centered(child, aspectRatioProposal(node, ratio: ratio, fill: fill, p), in: s)]
        case .geometryReader:
            return try subviews(of: node).map { child in
                ChildPlacement(
                    node: child, proposal: ProposedSize(s), size: try size(child, ProposedSize(s)), origin: .zero)
            }
        case .scrollView(let horizontal, let vertical):
            return try scrollPlacements(node, horizontal: horizontal, vertical: vertical, p, s, committing: committing)
        case .custom(let id):
            guard let host = customHost else {
                return try zstackPlacements(subviews(of: node), alignment: .center, in: s)
            }
            guard committing else { return [] }
            return try customPlacements(node, host: host, id: id, p, s)
        }
    }

    /// A child proposed `proposal`, centred in `s`.
    private func centered(_ child: LayoutNode, _ proposal: ProposedSize, in s: LayoutSize) throws -> ChildPlacement {
        let size = try size(child, proposal)
        let origin = LayoutPoint(x: (s.width - size.width) / 2, y: (s.height - size.height) / 2)
        return ChildPlacement(node: child, proposal: proposal, size: size, origin: origin)
    }

    /// A child proposed `proposal`, its alignment guides on those of a box of size `s` (a frame's rule).
    private func aligned(_ child: LayoutNode, _ proposal: ProposedSize, _ alignment: Alignment, in s: LayoutSize)
        throws -> ChildPlacement
    {
        let size = try size(child, proposal)
        let x = alignment.horizontal.value(in: s.width) - alignment.horizontal.value(in: size.width)
        let y =
            alignment.vertical.defaultValue(in: s.height)
            - (try verticalGuide(alignment.vertical, of: child, proposal, size))
        return ChildPlacement(node: child, proposal: proposal, size: size, origin: LayoutPoint(x: x, y: y))
    }

    /// OpenSwiftUI's _ZStackLayout.placeSubviews: every child proposed the ZStack's size; the guide line is the
    /// furthest guide of the highest-priority children.
    func zstackPlacements(_ children: [LayoutNode], alignment: Alignment, in s: LayoutSize) throws -> [ChildPlacement] {
        guard !children.isEmpty else { return [] }
        let proposal = ProposedSize(s)
        var placements: [ChildPlacement] = []
        var guides: [(x: Double, y: Double)] = []
        for child in children {
            let size = try size(child, proposal)
            placements.append(ChildPlacement(node: child, proposal: proposal, size: size, origin: .zero))
            guides.append(
                (
                    alignment.horizontal.value(in: size.width),
                    try verticalGuide(alignment.vertical, of: child, proposal, size)
                ))
        }
        let priorities = children.map { priority(of: $0) }
        let top = priorities.max() ?? 0
        var lineX = -Double.infinity
        var lineY = -Double.infinity
        for index in children.indices where priorities[index] == top {
            lineX = max(lineX, guides[index].x)
            lineY = max(lineY, guides[index].y)
        }
        for index in placements.indices {
            placements[index].origin = LayoutPoint(x: lineX - guides[index].x, y: lineY - guides[index].y)
        }
        return placements
    }

    /// The content top-leading, moved back by the scroll offset, which is clamped to 0…(content − scroll view) on
    /// the scroll axes and 0 across them.
    private func scrollPlacements(
        _ node: LayoutNode, horizontal: Bool, vertical: Bool, _ p: ProposedSize, _ s: LayoutSize, committing: Bool
    ) throws -> [ChildPlacement] {
        let proposal = Self.scrollContentProposal(horizontal: horizontal, vertical: vertical, p)
        var placements: [ChildPlacement] = []
        var content = LayoutSize.zero
        for child in subviews(of: node) {
            let size = try size(child, proposal)
            content = LayoutSize(width: max(content.width, size.width), height: max(content.height, size.height))
            placements.append(ChildPlacement(node: child, proposal: proposal, size: size, origin: .zero))
        }
        func clamp(_ value: Double, _ scrolls: Bool, content: Double, visible: Double) -> Double {
            guard scrolls else { return 0 }
            return min(max(value, 0), max(0, Self.finite(content) - visible))
        }
        let offset = LayoutPoint(
            x: clamp(node.scrollOffset.x, horizontal, content: content.width, visible: s.width),
            y: clamp(node.scrollOffset.y, vertical, content: content.height, visible: s.height))
        if committing { node.scrollOffset = offset }
        for index in placements.indices { placements[index].origin = LayoutPoint(x: -offset.x, y: -offset.y) }
        return placements
    }
}
