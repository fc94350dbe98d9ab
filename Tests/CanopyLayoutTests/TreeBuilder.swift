@testable import CanopyLayout

/// Declares nodes in a LayoutTree the way a view body reads: each call declares one node (children first) and
/// returns its key.
final class TreeBuilder {
    let tree: LayoutTree
    private var next = 0

    init(width: Double = 393, height: Double = 852, safeArea: EdgeInsets = .zero, scale: Double = 3) {
        tree = LayoutTree(canvas: .init(width: width, height: height, safeArea: safeArea, scale: scale))
    }

    @discardableResult
    func node(_ kind: LayoutKind, _ children: [String] = [], key: String? = nil) -> String {
        let key = key ?? "n\(next)"
        next += 1
        tree.set(key, kind: kind, children: children)
        return key
    }

    func color(key: String? = nil) -> String { node(.shape, key: key) }
    func text(_ string: String, _ font: FontSpec = .body, lineLimit: Int? = nil, key: String? = nil) -> String {
        node(.text(TextSpec(string, font: font, lineLimit: lineLimit)), key: key)
    }
    func spacer(_ minLength: Double? = nil, key: String? = nil) -> String {
        node(.spacer(minLength: minLength), key: key)
    }
    func empty() -> String { node(.empty) }

    func hstack(
        spacing: Double? = nil, alignment: VerticalAlignment = .center, key: String? = nil, _ children: String...
    )
        -> String
    {
        node(
            .stack(.horizontal, spacing: spacing, alignment: Alignment(horizontal: .center, vertical: alignment)),
            children, key: key)
    }
    func vstack(
        spacing: Double? = nil, alignment: HorizontalAlignment = .center, key: String? = nil, _ children: String...
    ) -> String {
        node(
            .stack(.vertical, spacing: spacing, alignment: Alignment(horizontal: alignment, vertical: .center)),
            children, key: key)
    }
    func zstack(alignment: Alignment = .center, key: String? = nil, _ children: String...) -> String {
        node(.zstack(alignment), children, key: key)
    }

    func frame(
        _ child: String, width: Double? = nil, height: Double? = nil, alignment: Alignment = .center,
        key: String? = nil
    ) -> String {
        node(.frame(width: width, height: height, alignment: alignment), [child], key: key)
    }
    func flexibleFrame(
        _ child: String, minWidth: Double? = nil, idealWidth: Double? = nil, maxWidth: Double? = nil,
        minHeight: Double? = nil, idealHeight: Double? = nil, maxHeight: Double? = nil, alignment: Alignment = .center,
        key: String? = nil
    ) -> String {
        node(
            .flexibleFrame(
                minWidth: minWidth, idealWidth: idealWidth, maxWidth: maxWidth, minHeight: minHeight,
                idealHeight: idealHeight, maxHeight: maxHeight, alignment: alignment), [child], key: key)
    }
    /// `Color.frame(width:height:)`, the usual fixed-size box.
    func box(_ width: Double, _ height: Double, key: String? = nil) -> String {
        frame(color(), width: width, height: height, key: key)
    }
    func padding(_ child: String, _ insets: EdgeInsets = EdgeInsets(all: 16), key: String? = nil) -> String {
        node(.padding(insets), [child], key: key)
    }
    func background(_ child: String, _ secondary: String, _ alignment: Alignment = .center, key: String? = nil)
        -> String
    {
        node(.background(alignment), [child, secondary], key: key)
    }
    func overlay(_ child: String, _ secondary: String, _ alignment: Alignment = .center, key: String? = nil)
        -> String
    {
        node(.overlay(alignment), [child, secondary], key: key)
    }
    func priority(_ child: String, _ value: Double, key: String? = nil) -> String {
        node(.layoutPriority(value), [child], key: key)
    }
    func fixedSize(_ child: String, horizontal: Bool = true, vertical: Bool = true, key: String? = nil) -> String {
        node(.fixedSize(horizontal: horizontal, vertical: vertical), [child], key: key)
    }
    func offset(_ child: String, x: Double = 0, y: Double = 0, key: String? = nil) -> String {
        node(.offset(x: x, y: y), [child], key: key)
    }
    func position(_ child: String, x: Double = 0, y: Double = 0, key: String? = nil) -> String {
        node(.position(x: x, y: y), [child], key: key)
    }
    func aspectRatio(_ child: String, _ ratio: Double?, fill: Bool = false, key: String? = nil) -> String {
        node(.aspectRatio(ratio, fill: fill), [child], key: key)
    }

    /// Lays out with `root` as the root and returns the tree.
    @discardableResult
    func layout(_ root: String) throws -> LayoutTree {
        tree.setRoot(root)
        try tree.layout()
        return tree
    }

    func frame(_ key: String) -> LayoutRect? { tree.frame(of: key) }
    func exact(_ key: String) -> LayoutRect? { tree.unroundedFrame(of: key) }
}

func rect(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> LayoutRect {
    LayoutRect(x: x, y: y, width: width, height: height)
}

/// Equal within floating-point noise.
func close(_ a: LayoutRect?, _ b: LayoutRect, tolerance: Double = 1e-9) -> Bool {
    guard let a else { return false }
    return abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance && abs(a.width - b.width) <= tolerance
        && abs(a.height - b.height) <= tolerance
}
