// The spacing preferences each kind shows its stack (OpenSwiftUI's spacing() of each layout engine, with the iOS 16+
// semantics: frames and padding reset the edges they set, position reports an ordinary view's).

extension LayoutTree {
    /// The node's spacing preferences, cached until its subtree changes.
    func viewSpacing(of node: LayoutNode) -> ViewSpacing {
        if let known = node.spacing { return known }
        let spacing = computeSpacing(node)
        node.spacing = spacing
        return spacing
    }

    private func computeSpacing(_ node: LayoutNode) -> ViewSpacing {
        switch node.kind {
        case .empty, .shape, .text, .control, .geometryReader, .scrollView, .position, .ignoresSafeArea:
            // `ignoresSafeArea`: a position-aware unary layout, whose engine has LayoutEngine's default `Spacing()`.
            return .standard
        case .spacer:
            return node.orientation.map { ViewSpacing.spacer(along: $0) } ?? .zero
        case .stack(let axis, _, _):
            let children = subviews(of: node)
            guard !children.isEmpty else { return .zero }
            // The stack's ends are its first and last child's; across, every child's.
            var spacing = ViewSpacing(top: nil, leading: nil, bottom: nil, trailing: nil)
            for (index, child) in children.enumerated() {
                let first = index == 0
                let last = index == children.count - 1
                let horizontal = axis == .horizontal
                spacing.formUnion(
                    viewSpacing(of: child), top: !horizontal || first, leading: horizontal || first,
                    bottom: !horizontal || last, trailing: horizontal || last)
            }
            return spacing
        case .zstack, .custom:
            let children = subviews(of: node)
            guard !children.isEmpty else { return .zero }
            var spacing = ViewSpacing(top: nil, leading: nil, bottom: nil, trailing: nil)
            for child in children {
                spacing.formUnion(viewSpacing(of: child), top: true, leading: true, bottom: true, trailing: true)
            }
            return spacing
        case .frame(let width, let height, _):
            return framedSpacing(node, horizontal: width != nil, vertical: height != nil)
        case .flexibleFrame(let minW, let idealW, let maxW, let minH, let idealH, let maxH, _):
            return framedSpacing(
                node, horizontal: minW != nil || idealW != nil || maxW != nil,
                vertical: minH != nil || idealH != nil || maxH != nil)
        case .padding(let insets):
            guard let child = node.firstChild else { return .standard }
            var spacing = viewSpacing(of: child)
            if insets.top != 0 { spacing.top = nil }
            if insets.leading != 0 { spacing.leading = nil }
            if insets.bottom != 0 { spacing.bottom = nil }
            if insets.trailing != 0 { spacing.trailing = nil }
            return spacing
        case .background, .overlay, .fixedSize, .layoutPriority, .offset, .effect, .aspectRatio, .button:
            return node.firstChild.map { viewSpacing(of: $0) } ?? .standard
        }
    }

    /// A frame keeps its child's spacing but resets the edges across the dimensions it sets; a Spacer's passes
    /// through whole (it "requires spacing projection").
    private func framedSpacing(_ node: LayoutNode, horizontal: Bool, vertical: Bool) -> ViewSpacing {
        guard let child = node.firstChild else { return .standard }
        var spacing = viewSpacing(of: child)
        if case .spacer = child.kind { return spacing }
        if horizontal { spacing.reset(along: .horizontal) }
        if vertical { spacing.reset(along: .vertical) }
        return spacing
    }
}
