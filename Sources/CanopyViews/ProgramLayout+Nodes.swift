import CanopyCore
import CanopyLayout
import CanopyScript

/// Views as layout nodes: each SwiftUI view's own box, one box per layout modifier around it, groups flattened into
/// their container, a view struct standing for its body.
extension ProgramLayout {
    /// What a rendered node adds to its container's children: its outermost box, or, for a group, an `if` or a
    /// `ForEach` without modifiers of their own, its children's.
    func items(_ node: RenderedNode, _ inherited: LayoutEnvironment) -> [String] {
        var env = inherited
        env.absorb(node.view.modifiers)
        var inner: [String]
        // `Group { … }` and `AnyView(v)` only gather other views: their views are their container's, as a
        // builder's group is.
        let gathers = node.view.kind == .library && (node.view.type == "Group" || node.view.type == "AnyView")
        switch gathers ? .group : node.view.kind {
        case .group, .conditional, .forEach, .custom:
            inner = node.instance.map { walk($0, env) } ?? node.children.flatMap { items($0, env) }
            if node.view.modifiers.isEmpty || inner.isEmpty {
                setBoxes(node.id, NodeBoxes(outer: inner.count == 1 ? inner[0] : nil))
                return inner
            }
            if inner.count > 1, node.view.modifiers.allSatisfy(Self.appliesToEachView) {
                setBoxes(node.id, NodeBoxes())
                return inner.enumerated().map { j, item in eachView(node, item, j) }
            }
        case .library:
            let children = node.instance.map { walk($0, env) } ?? node.children.flatMap { items($0, env) }
            inner = [own(node, children, env)]
        }
        var key: String
        if inner.count == 1 {
            key = inner[0]
        } else {
            key = node.id + "$group"
            set(key, .stack(.vertical, spacing: nil, alignment: .center), inner)
        }
        var b = NodeBoxes()
        var attachedIndex = 0
        for (i, m) in node.view.modifiers.enumerated() {
            let wrapped = node.id + "#\(i)"
            let kind: LayoutKind
            switch m {
            case .attached(let name, _, let args):
                guard attachedIndex < node.attached.count else { continue }
                let alignment = args.first { $0.0 == "alignment" }.flatMap { LayoutValues.alignment($0.1) } ?? .center
                var second = secondary(node.attached[attachedIndex], inherited, alignment, wrapped)
                if let edges = args.first(where: { $0.0 == "ignoresSafeAreaEdges" }).flatMap({ LayoutValues.edgeSet($0.1) }),
                    !edges.isEmpty
                {
                    // A shape style's layer grows into the safe area the view reaches (SwiftUI's
                    // `background(_:ignoresSafeAreaEdges:)`, OpenSwiftUI `_BackgroundStyleModifier`).
                    let layer = wrapped + "$style"
                    set(layer, .ignoresSafeArea(edges), [second])
                    second = layer
                }
                attachedIndex += 1
                set(wrapped, name == "overlay" ? .overlay(alignment) : .background(alignment), [key, second])
                b.modifiers.append((i, wrapped))
                key = wrapped
                continue
            case .preferenceValue(let overlay, _, let alignmentValue, _):
                guard attachedIndex < node.attached.count else { continue }
                let alignment = alignmentValue.flatMap { LayoutValues.alignment($0) } ?? .center
                let second = secondary(node.attached[attachedIndex], inherited, alignment, wrapped)
                attachedIndex += 1
                set(wrapped, overlay ? .overlay(alignment) : .background(alignment), [key, second])
                b.modifiers.append((i, wrapped))
                key = wrapped
                continue
            case .anchorPreference, .geometryChange:
                b.anchors.append((wrapped, key))
                continue
            case .other(let name, let args):
                if name == "coordinateSpace", let space = LayoutValues.spaceName(args) {
                    b.spaces.append((encode(space), key))
                    continue
                }
                guard let k = LayoutValues.modifierKind(name, args) else { continue }
                kind = k
            default:
                continue
            }
            set(wrapped, kind, [key])
            b.modifiers.append((i, wrapped))
            key = wrapped
        }
        b.outer = key
        setBoxes(node.id, b)
        return [key]
    }

    /// The secondary box of an overlay or background: its one view, or several in an implicit ZStack. That stack
    /// is centred whatever the modifier's alignment, which places the stack as a whole (Apple's documentation of
    /// `overlay(alignment:content:)`: "it applies to the implicit stack rather than to the individual views").
    private func secondary(_ node: RenderedNode, _ env: LayoutEnvironment, _ alignment: Alignment, _ wrapped: String)
        -> String
    {
        let views = items(node, env)
        if views.count == 1 { return views[0] }
        let content = wrapped + "$content"
        set(content, .zstack(.center), views)
        return content
    }

    /// Whether SwiftUI's way with the modifiers of a Group, or of a view whose body is several views, can be
    /// followed: each view gets its own copy of them (`Group { a; b }.padding()` pads a and b). An attached view
    /// (a background, an overlay) or a named coordinate space is one node of the program tree and cannot be
    /// copied; with one of those the views stand in an implicit VStack (docs/layout.md, Departures).
    static func appliesToEachView(_ m: ViewModifier) -> Bool {
        switch m {
        case .attached, .preferenceValue, .anchorPreference, .geometryChange: return false
        case .other(let name, _): return name != "coordinateSpace"
        default: return true
        }
    }

    /// The `j`th view of a group wrapped in its own copy of the group's layout modifiers.
    private func eachView(_ node: RenderedNode, _ item: String, _ j: Int) -> String {
        var key = item
        for (i, m) in node.view.modifiers.enumerated() {
            guard case .other(let name, let args) = m, let kind = LayoutValues.modifierKind(name, args) else { continue }
            let wrapped = node.id + "#\(i)~\(j)"
            set(wrapped, kind, [key])
            key = wrapped
        }
        return key
    }

    /// The box of a SwiftUI view itself, with its content's boxes as children.
    func own(_ node: RenderedNode, _ children: [String], _ env: LayoutEnvironment) -> String {
        let v = node.view
        let kind: LayoutKind
        var declared = children
        if let layout = v.prop("layout"), v.kind == .library {
            set(node.id, layoutKind(node.id, layout), declared)
            return node.id
        }
        switch v.type {
        case "VStack", "LazyVStack":
            kind = .stack(.vertical, spacing: LayoutValues.number(v.prop("spacing")), alignment: LayoutValues.horizontal(v.prop("alignment")))
        case "HStack", "LazyHStack":
            kind = .stack(.horizontal, spacing: LayoutValues.number(v.prop("spacing")), alignment: LayoutValues.vertical(v.prop("alignment")))
        case "ZStack":
            kind = .zstack(v.prop("alignment").flatMap(LayoutValues.alignment) ?? .center)
        case "Form", "List", "Section":
            // Approximate: rows one under the other (docs/layout.md, Departures).
            kind = .stack(.vertical, spacing: 0, alignment: .center)
        case "Color", "Rectangle", "RoundedRectangle", "Circle", "Capsule", "Ellipse":
            kind = .shape
        case "Spacer":
            kind = .spacer(minLength: LayoutValues.number(v.prop("minLength")))
        case "Text":
            kind = .text(TextSpec(node.props["text"]?.string ?? "", font: env.font, lineLimit: env.lineLimit))
        case "GeometryReader":
            kind = .geometryReader
        case "ScrollView":
            let axes = LayoutValues.axes(v.prop("_0") ?? v.prop("axes"))
            kind = .scrollView(horizontal: axes.horizontal, vertical: axes.vertical)
            if children.count > 1 {
                let content = node.id + "$content"
                let axis: Axis = axes.horizontal && !axes.vertical ? .horizontal : .vertical
                set(content, .stack(axis, spacing: nil, alignment: .center), children)
                declared = [content]
            }
        case "Button":
            kind = .button
            if children.isEmpty, let title = node.props["title"]?.string {
                let label = node.id + "$label"
                set(label, .text(TextSpec(title, font: env.font, lineLimit: env.lineLimit)), [])
                declared = [label]
            }
        case "Divider": kind = .control(.divider)
        case "Toggle": kind = .control(.toggle)
        case "TextField": kind = .control(.textField)
        case "SecureField": kind = .control(.secureField)
        case "Slider": kind = .control(.slider)
        case "Stepper": kind = .control(.stepper)
        case "Picker": kind = .control(.picker)
        case "ProgressView":
            // `ProgressView(value:)` is a bar; `ProgressView()` without a value spins.
            kind = .control(v.prop("value") == nil ? .activityIndicator : .progressView)
        case "Image":
            // A resizable Image takes any proposal, as a shape does; otherwise a symbol's size.
            kind = v.modifiers.contains { $0.name == "resizable" } ? .shape : .control(.image)
        case "EmptyView": kind = .empty
        default:
            // Containers Canopy does not lay out on their own (NavigationStack, TabView, Group-like views) pass
            // their content through, centred.
            kind = .zstack(.center)
        }
        set(node.id, kind, declared)
        return node.id
    }

    /// The kind of a view laid out by a `Layout` value: SwiftUI's stack layouts as their stacks (`AnyLayout`
    /// unwrapped), a program's own through its `sizeThatFits` and `placeSubviews`.
    private func layoutKind(_ node: String, _ value: Value) -> LayoutKind {
        guard case .record(let typeID, let fields) = value.unboxed, let layouts else { return .zstack(.center) }
        switch layouts.typeName(typeID) {
        case "AnyLayout" where fields.count == 1: return layoutKind(node, fields[0])
        case "HStackLayout" where fields.count == 2:
            return .stack(.horizontal, spacing: LayoutValues.number(fields[1]), alignment: LayoutValues.vertical(fields[0]))
        case "VStackLayout" where fields.count == 2:
            return .stack(.vertical, spacing: LayoutValues.number(fields[1]), alignment: LayoutValues.horizontal(fields[0]))
        case "ZStackLayout" where fields.count == 1:
            return .zstack(LayoutValues.alignment(fields[0]) ?? .center)
        default:
            return .custom(layouts.id(for: node, layout: value))
        }
    }
}
