// How each kind chooses its size for a proposal (the first half of SwiftUI's layout; placing is in
// LayoutTree+Placement.swift). Sources per rule are in docs/layout.md, "The rules as built".

extension LayoutTree {
    /// The size `node` chooses for `proposal`, from its cache or computed (and then traced in `laidOut`).
    func size(_ node: LayoutNode, _ proposal: ProposedSize) throws -> LayoutSize {
        try enter(node)
        defer { recursionDepth -= 1 }
        let proposal = proposal.sanitized
        if let cached = node.sizes.lookup(proposal) { return cached }
        let size = try computeSize(node, proposal).sanitized
        node.sizes.store(proposal, size)
        trace.append((node.key, proposal, size))
        return size
    }

    private func computeSize(_ node: LayoutNode, _ p: ProposedSize) throws -> LayoutSize {
        switch node.kind {
        case .empty:
            return .zero
        case .shape:
            return LayoutSize(width: p.width ?? Shape.idealLength, height: p.height ?? Shape.idealLength)
        case .text(let spec):
            return TextModel.size(spec, proposal: p)
        case .control(let kind):
            let label = try node.firstChild.map { try size($0, Controls.labelProposal(kind, p)) }
            return Controls.size(
                kind, p, label: label, dividerIsVertical: node.orientation == .horizontal,
                pixelLength: canvas.pixelLength)
        case .button:
            return try subviews(of: node).reduce(LayoutSize.zero) { union, child in
                let size = try size(child, p)
                return LayoutSize(width: max(union.width, size.width), height: max(union.height, size.height))
            }
        case .spacer(let minLength):
            return spacerSize(minLength: minLength, orientation: node.orientation, p)
        case .stack(let axis, let spacing, let alignment):
            return try stackLayout(node, axis: axis, spacing: spacing, alignment: alignment, p).size
        case .zstack:
            return try zstackSize(node, p)
        case .frame(let width, let height, _):
            if let width, let height { return LayoutSize(width: width, height: height) }
            let child = try childSize(node, ProposedSize(width: width ?? p.width, height: height ?? p.height))
            return LayoutSize(width: width ?? child.width, height: height ?? child.height)
        case .flexibleFrame(let minW, let idealW, let maxW, let minH, let idealH, let maxH, _):
            let frame = FlexibleFrame(
                minWidth: minW, idealWidth: idealW, maxWidth: maxW, minHeight: minH, idealHeight: idealH,
                maxHeight: maxH)
            return try frame.size(for: p) { try childSize(node, $0) }
        case .padding(let insets):
            let child = try childSize(node, p.inset(by: insets))
            return LayoutSize(
                width: max(0, child.width + insets.horizontal), height: max(0, child.height + insets.vertical))
        case .background, .overlay, .layoutPriority, .offset, .effect, .ignoresSafeArea:
            return try childSize(node, p)
        case .fixedSize(let horizontal, let vertical):
            return try childSize(
                node, ProposedSize(width: horizontal ? nil : p.width, height: vertical ? nil : p.height))
        case .position:
            if let width = p.width, let height = p.height { return LayoutSize(width: width, height: height) }
            let child = try childSize(node, p)
            return LayoutSize(width: p.width ?? child.width, height: p.height ?? child.height)
        case .aspectRatio(let ratio, let fill):
            return try childSize(node, aspectRatioProposal(node, ratio: ratio, fill: fill, p))
        case .geometryReader:
            // GeometryReader has no layout computer of its own: SwiftUI's default takes the proposal, nil → 10.
            return LayoutSize(width: p.width ?? Shape.idealLength, height: p.height ?? Shape.idealLength)
        case .scrollView(let horizontal, let vertical):
            let content = try scrollContentSize(node, horizontal: horizontal, vertical: vertical, p)
            return LayoutSize(
                width: horizontal ? (p.width ?? content.width) : content.width,
                height: vertical ? (p.height ?? content.height) : content.height)
        case .custom(let id):
            guard let host = customHost else { return try zstackSize(node, p) }
            let subviews = LayoutSubviews(tree: self, nodes: subviews(of: node))
            let size = try host.sizeThatFits(layout: id, proposal: p, subviews: subviews)
            try rethrowPending()
            return size
        }
    }

    /// The node's children that are subviews of a container: all but EmptyViews.
    func subviews(of node: LayoutNode) -> [LayoutNode] {
        node.children.allSatisfy { !$0.isEmptyView } ? node.children : node.children.filter { !$0.isEmptyView }
    }

    /// A modifier's child's size; zero without a child.
    func childSize(_ node: LayoutNode, _ proposal: ProposedSize) throws -> LayoutSize {
        guard let child = node.firstChild else { return .zero }
        return try size(child, proposal)
    }

    /// OpenSwiftUI's SpacerLayoutComputer: in a stack the minimum length (default 8) or more along its axis, 0
    /// across it; outside a stack both ways.
    func spacerSize(minLength: Double?, orientation: Axis?, _ p: ProposedSize) -> LayoutSize {
        let least = minLength ?? ViewSpacing.defaultDistance
        let width = max(p.width ?? -.infinity, least)
        let height = max(p.height ?? -.infinity, least)
        switch orientation {
        case .horizontal: return LayoutSize(width: width, height: 0)
        case .vertical: return LayoutSize(width: 0, height: height)
        case nil: return LayoutSize(width: width, height: height)
        }
    }

    /// OpenSwiftUI's _ZStackLayout: the largest width and height of the children of the highest priority.
    func zstackSize(_ node: LayoutNode, _ p: ProposedSize) throws -> LayoutSize {
        let children = subviews(of: node)
        guard let top = children.map({ priority(of: $0) }).max() else { return .zero }
        var size = LayoutSize.zero
        for child in children where priority(of: child) == top {
            let childSize = try self.size(child, p)
            size = LayoutSize(width: max(size.width, childSize.width), height: max(size.height, childSize.height))
        }
        return size
    }

    /// What a scroll view's content chooses: nil is proposed along the scroll axes. Several children are
    /// laid on top of each other (the integration wraps them in a stack, as SwiftUI does).
    func scrollContentSize(_ node: LayoutNode, horizontal: Bool, vertical: Bool, _ p: ProposedSize) throws
        -> LayoutSize
    {
        let proposal = Self.scrollContentProposal(horizontal: horizontal, vertical: vertical, p)
        return try subviews(of: node).reduce(LayoutSize.zero) { union, child in
            let size = try size(child, proposal)
            return LayoutSize(width: max(union.width, size.width), height: max(union.height, size.height))
        }
    }

    static func scrollContentProposal(horizontal: Bool, vertical: Bool, _ p: ProposedSize) -> ProposedSize {
        ProposedSize(width: horizontal ? nil : p.width, height: vertical ? nil : p.height)
    }

    /// OpenSwiftUI's _AspectRatioLayout.spaceOffered: the ratio (or the child's ideal one) scaled to fit in or fill
    /// the proposal; an unspecified proposal passes through. A NaN (0 × ∞) becomes nil.
    func aspectRatioProposal(_ node: LayoutNode, ratio: Double?, fill: Bool, _ p: ProposedSize) throws -> ProposedSize {
        guard p != .unspecified else { return p }
        var shape = try ratio.map { LayoutSize(width: $0, height: 1) } ?? childSize(node, .unspecified)
        if shape.width == shape.height { shape = LayoutSize(width: 1, height: 1) }
        func scale(_ target: Double?, _ length: Double) -> Double {
            guard let target, length != 0 || target != 0 else { return .infinity }
            return target / length
        }
        let scaleX = scale(p.width, shape.width)
        let scaleY = scale(p.height, shape.height)
        let factor = fill ? max(scaleX, scaleY) : min(scaleX, scaleY)
        return ProposedSize(width: shape.width * factor, height: shape.height * factor).sanitized
    }

    /// The layout priority a stack or ZStack reads from a child: `layoutPriority`'s value, passed up through the
    /// modifiers that pass it (fixedSize, background, overlay, offset, a scale or rotation effect, a Button); a
    /// Spacer's is −∞
    /// (OpenSwiftUI's SpacerLayoutComputer), so the stack sizes its siblings first; other modifiers and containers
    /// report 0 (UnaryLayout's default).
    func priority(of node: LayoutNode) -> Double {
        var current = node
        while true {
            switch current.kind {
            case .layoutPriority(let value): return value.isNaN ? 0 : value
            case .spacer: return -.infinity
            case .fixedSize, .background, .overlay, .offset, .effect, .button:
                guard let child = current.firstChild else { return 0 }
                current = child
            default: return 0
            }
        }
    }

    /// Rethrows what a subview's sizing met inside the custom layout host.
    func rethrowPending() throws {
        if let error = pendingError {
            pendingError = nil
            throw error
        }
    }
}

extension ProposedSize {
    /// The proposal less `insets`, never below 0 (OpenSwiftUI's _ProposedSize.inset(by:)).
    func inset(by insets: EdgeInsets) -> ProposedSize {
        ProposedSize(
            width: width.map { max(0, $0 - insets.horizontal) }, height: height.map { max(0, $0 - insets.vertical) })
    }
}
