// What a GeometryProxy asks of placed boxes: a rect of a box's own coordinates in the canvas or in an ancestor's
// coordinates, a canvas rect carried into a box's coordinates (an anchor resolved), a box's safe-area insets. A box
// is asked about as the view outside its own offset or effect: in SwiftUI `.scaleEffect(2).coordinateSpace(name:)`
// and `.offset(x: 10).anchorPreference(…)` name the view before the effect, not the one drawn through it. Rects go
// through effects as SwiftUI's ViewTransform carries them: the corners are mapped, the bounding box is the answer.

extension LayoutTree {
    /// `rect`, in the coordinates of `key`'s box (its top-leading corner at 0, 0, before its own offset or effect),
    /// in the coordinates of `ancestor`'s box when that is `key` or one of its ancestors, else in the canvas's (a
    /// name SwiftUI does not find around a view is the global space). nil if `key` is not placed.
    public func convert(_ rect: LayoutRect, from key: String, to ancestor: String?) -> LayoutRect? {
        guard let node = nodes[key], node.isPlaced else { return nil }
        let (origin, space) = outerPlacement(node)
        let moved = LayoutRect(x: origin.x + rect.x, y: origin.y + rect.y, width: rect.width, height: rect.height)
        guard let target = ancestor.flatMap({ enclosing($0, of: node) }) else {
            guard let space else { return moved }
            return Self.finite(space.toCanvas.boundingBox(moved))
        }
        let (targetOrigin, targetSpace) = outerPlacement(target)
        if space === targetSpace { return moved.offsetBy(dx: -targetOrigin.x, dy: -targetOrigin.y) }
        guard let map = relativeMap(from: origin, in: space, to: targetOrigin, in: targetSpace) else {
            return Self.finite(space?.toCanvas.boundingBox(moved) ?? moved)
        }
        return Self.finite(map.boundingBox(rect))
    }

    /// A point of `key`'s box in `ancestor`'s coordinates or the canvas's, as `convert(_:from:to:)` for a rect.
    public func convert(_ point: LayoutPoint, from key: String, to ancestor: String?) -> LayoutPoint? {
        guard let node = nodes[key], node.isPlaced else { return nil }
        let (origin, space) = outerPlacement(node)
        let moved = LayoutPoint(x: origin.x + point.x, y: origin.y + point.y)
        guard let target = ancestor.flatMap({ enclosing($0, of: node) }) else {
            guard let space else { return moved }
            return Self.finite(space.toCanvas.apply(moved))
        }
        let (targetOrigin, targetSpace) = outerPlacement(target)
        if space === targetSpace { return moved - targetOrigin }
        guard let map = relativeMap(from: origin, in: space, to: targetOrigin, in: targetSpace) else {
            return Self.finite(space?.toCanvas.apply(moved) ?? moved)
        }
        return Self.finite(map.apply(point))
    }

    /// A rect in canvas coordinates in the coordinates of `key`'s box: an anchor resolved by a GeometryProxy (the
    /// bounding box of its corners carried back through the effects). nil if `key` is not placed.
    public func convertFromCanvas(_ rect: LayoutRect, to key: String) -> LayoutRect? {
        guard let node = nodes[key], node.isPlaced else { return nil }
        let (origin, space) = outerPlacement(node)
        guard let space else { return rect.offsetBy(dx: -origin.x, dy: -origin.y) }
        guard let back = AffineTransform(translation: origin).concatenating(space.toCanvas).inverted() else {
            return nil
        }
        return Self.finite(back.boundingBox(rect))
    }

    /// A canvas point in the coordinates of `key`'s box.
    public func convertFromCanvas(_ point: LayoutPoint, to key: String) -> LayoutPoint? {
        guard let node = nodes[key], node.isPlaced else { return nil }
        let (origin, space) = outerPlacement(node)
        guard let space else { return point - origin }
        guard let back = AffineTransform(translation: origin).concatenating(space.toCanvas).inverted() else {
            return nil
        }
        return Self.finite(back.apply(point))
    }

    /// The safe-area insets of `key`'s box (GeometryProxy's `safeAreaInsets`): per edge, how far the canvas's edge
    /// lies beyond the box's edge when the box reaches the safe area's edge there, else 0 (see
    /// `safeAreaInsets(at:in:size:)`). nil if `key` is not placed.
    public func safeAreaInsets(of key: String) -> EdgeInsets? {
        guard let node = nodes[key], node.isPlaced else { return nil }
        let (origin, space) = outerPlacement(node)
        return safeAreaInsets(at: origin, in: space, size: node.placedSize)
    }

    /// The first of `key` and its ancestors for which `test` holds (the nearest view that names a space).
    public func nearest(from key: String, where test: (String) -> Bool) -> String? {
        var node = nodes[key]
        while let current = node {
            if test(current.key) { return current.key }
            node = current.parent
        }
        return nil
    }

    /// OpenSwiftUI's `SafeAreaInsets.resolve` for the canvas's safe area (the root's one `.container` element) and a
    /// box of `size` at `origin` in `space`. The safe rect and the canvas are carried into the box's coordinates;
    /// on each edge where the box's edge lies between them (within half a pixel and 0.001), the box reaches out to
    /// the canvas's edge, and the inset is how far that is. Through an effect that is not rectilinear as SwiftUI
    /// computes it (any rotation but 0) the insets are 0.
    func safeAreaInsets(at origin: LayoutPoint, in space: EffectSpace?, size: LayoutSize) -> EdgeInsets {
        let insets = canvas.safeArea
        guard insets != .zero else { return .zero }
        if let space, !space.isRectilinear { return .zero }
        let across = insets.leading + insets.trailing
        let along = insets.top + insets.bottom
        let inner = LayoutRect(
            x: insets.leading, y: insets.top, width: canvas.width - across, height: canvas.height - along)
        let outer = LayoutRect(
            x: inner.x - insets.leading, y: inner.y - insets.top, width: inner.width + across,
            height: inner.height + along)
        var points = [
            LayoutPoint(x: inner.minX, y: inner.minY), LayoutPoint(x: inner.maxX, y: inner.minY),
            LayoutPoint(x: inner.maxX, y: inner.maxY), LayoutPoint(x: inner.minX, y: inner.maxY),
            LayoutPoint(x: outer.minX, y: outer.minY), LayoutPoint(x: outer.maxX, y: outer.minY),
            LayoutPoint(x: outer.maxX, y: outer.maxY), LayoutPoint(x: outer.minX, y: outer.maxY),
        ]
        if let space {
            guard let back = AffineTransform(translation: origin).concatenating(space.toCanvas).inverted() else {
                return .zero
            }
            points = points.map { back.apply($0) }
        } else {
            points = points.map { $0 - origin }
        }
        let safe = LayoutRect.bounding(Array(points[0..<4]))
        let screen = LayoutRect.bounding(Array(points[4..<8]))
        let rect = LayoutRect(origin: .zero, size: size)
        var adjusted = rect
        let epsilon = canvas.pixelLength * 0.5 + 0.001
        if rect.minY - epsilon < safe.minY, screen.minY < rect.minY + epsilon {
            let delta = rect.minY - screen.minY
            adjusted.y -= delta
            adjusted.height += delta
        }
        if safe.maxY < rect.maxY + epsilon, rect.maxY - epsilon < screen.maxY {
            adjusted.height += screen.maxY - rect.maxY
        }
        if rect.minX - epsilon < safe.minX, screen.minX < rect.minX + epsilon {
            let delta = rect.minX - screen.minX
            adjusted.x -= delta
            adjusted.width += delta
        }
        if safe.maxX < rect.maxX + epsilon, rect.maxX - epsilon < screen.maxX {
            adjusted.width += screen.maxX - rect.maxX
        }
        let result = EdgeInsets(
            top: rect.minY - adjusted.minY, leading: rect.minX - adjusted.minX, bottom: adjusted.maxY - rect.maxY,
            trailing: adjusted.maxX - rect.maxX)
        // Through a scale of 0 (SwiftUI's 1.5e-154) the canvas is out of range in the box's coordinates.
        guard [result.top, result.leading, result.bottom, result.trailing].allSatisfy(\.isFinite) else { return .zero }
        return result
    }

    /// Where a placed node's box is before its own offset or effect: its origin and the space it is in.
    private func outerPlacement(_ node: LayoutNode) -> (LayoutPoint, EffectSpace?) {
        switch node.kind {
        case .effect:
            guard let space = node.space else { return (node.origin, nil) }
            return (space.origin, space.parent)
        case .offset:
            // The origin its parent placed it at: the same arithmetic as placing.
            guard let parent = node.parent else { return (node.localOrigin, nil) }
            return (Self.finite(parent.origin + node.localOrigin), node.space)
        default:
            return (node.origin, node.space)
        }
    }

    /// The node `key` if it is `node` or one of its placed ancestors.
    private func enclosing(_ key: String, of node: LayoutNode) -> LayoutNode? {
        guard let candidate = nodes[key], candidate.isPlaced, node.hasAncestorOrSelf(candidate) else { return nil }
        return candidate
    }

    /// The map from the coordinates of a box at `origin` in `space` to those of a box at `targetOrigin` in
    /// `targetSpace`, a space around it: the effects in between, innermost first, as SwiftUI walks a ViewTransform
    /// up to a named space. nil if `targetSpace` is not around `space`.
    private func relativeMap(
        from origin: LayoutPoint, in space: EffectSpace?, to targetOrigin: LayoutPoint, in targetSpace: EffectSpace?
    ) -> AffineTransform? {
        var map = AffineTransform(translation: origin)
        var current = space
        while let inner = current, inner !== targetSpace {
            map = map.concatenating(inner.effect).concatenating(AffineTransform(translation: inner.origin))
            current = inner.parent
        }
        guard current === targetSpace else { return nil }
        return map.concatenating(AffineTransform(translation: LayoutPoint(x: -targetOrigin.x, y: -targetOrigin.y)))
    }
}
