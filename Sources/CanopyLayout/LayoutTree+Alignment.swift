// Alignment guides: leading/center/trailing and top/center/bottom are fractions of a size; text baselines are
// explicit values of a Text (the text model's ascender), carried up through the layouts that contain one. A view
// without a baseline aligns its bottom edge to a baseline, as in SwiftUI.

extension LayoutTree {
    /// The y of `alignment`'s guide in `node` at `size` (placed with `proposal`).
    func verticalGuide(
        _ alignment: VerticalAlignment, of node: LayoutNode, _ proposal: ProposedSize, _ size: LayoutSize
    )
        throws -> Double
    {
        switch alignment {
        case .top, .center, .bottom:
            return alignment.defaultValue(in: size.height)
        case .firstTextBaseline, .lastTextBaseline:
            return try baseline(of: node, last: alignment == .lastTextBaseline, proposal, size) ?? size.height
        }
    }

    /// The node's first (or last) text baseline, nil without text: a Text's own, else the topmost first (the
    /// bottommost last) baseline of the children its layout places.
    func baseline(of node: LayoutNode, last: Bool, _ proposal: ProposedSize, _ size: LayoutSize) throws -> Double? {
        try enter(node)
        defer { recursionDepth -= 1 }
        switch node.kind {
        case .text(let spec):
            return last ? TextModel.lastBaseline(spec, height: size.height) : TextModel.firstBaseline(spec)
        case .frame, .flexibleFrame, .padding, .fixedSize, .layoutPriority, .offset, .effect, .aspectRatio, .button,
            .stack, .zstack, .control, .background, .overlay:
            var placements = try childPlacements(node, proposal, size, committing: false)
            if case .background = node.kind { placements = Array(placements.prefix(1)) }
            if case .overlay = node.kind { placements = Array(placements.prefix(1)) }
            var result: Double?
            for child in placements {
                guard let value = try baseline(of: child.node, last: last, child.proposal, child.size) else {
                    continue
                }
                let inNode = value + child.origin.y
                result = result.map { last ? max($0, inNode) : min($0, inNode) } ?? inNode
            }
            return result
        case .empty, .shape, .spacer, .position, .geometryReader, .scrollView, .custom, .ignoresSafeArea:
            // `ignoresSafeArea`'s engine has no explicit alignment (OpenSwiftUI `UnaryPositionAwareLayoutEngine`).
            return nil
        }
    }
}
