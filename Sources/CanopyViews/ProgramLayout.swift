import CanopyCore
import CanopyLayout
import CanopyScript

/// A program tree's layout (LAYOUT.md): its rendered nodes as the nodes of a `LayoutTree` — each view's own box
/// and one box per layout modifier around it — the frames clients see, and the answers to programs' geometry
/// questions. Rebuilt from the rendered tree after bodies ran; the layout tree keeps the caches of nodes whose kind
/// and children did not change.
final class ProgramLayout {
    let tree: LayoutTree
    /// Each node's outermost box (its frame on the wire), and the boxes of its layout modifiers by modifier index.
    private(set) var outer: [String: String] = [:]
    private(set) var modifierBoxes: [String: [(Int, String)]] = [:]
    /// The box a `.coordinateSpace(name:)` names, by the JSON of its name.
    private(set) var spaces: [String: String] = [:]
    /// The box an `anchorPreference` measures, by node and modifier index (`node#3`).
    private(set) var anchorBoxes: [String: String] = [:]
    /// A name's JSON, as `GeometrySpace.named` holds it.
    private var encode: (Value) -> String = { _ in "" }
    /// Layout keys declared by the last build; a key not declared again is removed.
    private var declared: Set<String> = []
    private var declaring: Set<String> = []
    /// The layout changed without a frame changing (a rebuild): geometry questions are checked anyway.
    private(set) var rebuiltGeometry = false
    var canvasSpec: CanvasSpec
    /// Frames of the last run, by node, as the wire shows them.
    private(set) var frames: [String: [Double]] = [:]
    private(set) var changedNodes: Set<String> = []

    init(canvas: CanvasSpec) {
        canvasSpec = canvas
        tree = LayoutTree(canvas: ProgramLayout.canvas(canvas))
    }

    static func canvas(_ c: CanvasSpec) -> LayoutTree.Canvas {
        LayoutTree.Canvas(
            width: c.width, height: c.height,
            safeArea: EdgeInsets(top: c.safeArea.top, leading: c.safeArea.leading, bottom: c.safeArea.bottom, trailing: c.safeArea.trailing),
            scale: c.scale)
    }

    func setCanvas(_ c: CanvasSpec) {
        canvasSpec = c
        tree.canvas = ProgramLayout.canvas(c)
    }

    // MARK: Building

    /// Declares every rendered node below `root` to the layout tree.
    func build(_ root: RenderedNode, encode: @escaping (Value) -> String) {
        self.encode = encode
        declaring = []
        outer = [:]
        modifierBoxes = [:]
        spaces = [:]
        anchorBoxes = [:]
        let items = self.items(root, LayoutEnvironment())
        let rootKey: String?
        if items.count == 1 {
            rootKey = items[0]
        } else {
            // Several views at the top (a body of two views) stand in an implicit VStack, as in a window.
            set("$root", .stack(.vertical, spacing: nil, alignment: .center), items)
            rootKey = "$root"
        }
        tree.setRoot(rootKey)
        for key in declared where !declaring.contains(key) { tree.remove(key) }
        rebuiltGeometry = declared != declaring
        declared = declaring
    }

    private func set(_ key: String, _ kind: LayoutKind, _ children: [String]) {
        declaring.insert(key)
        let (valid, problems) = LayoutKind.validated(kind)
        for p in problems where !warnings.contains(p) { warnings.append(p) }
        tree.set(key, kind: valid, children: children)
        if let offset = restoringScroll.removeValue(forKey: key) { tree.setScrollOffset(key, offset) }
    }

    /// Scroll offsets of a restored spec, given to their ScrollViews as they are declared.
    private var restoringScroll: [String: LayoutPoint] = [:]

    func restoreScroll(_ offsets: [String: [Double]]) {
        for (node, xy) in offsets where xy.count == 2 { restoringScroll[node] = LayoutPoint(x: xy[0], y: xy[1]) }
    }

    /// What SwiftUI would log about the values the program handed the layout ("Invalid frame dimension…"): the
    /// value is ignored, as there, and the diff carries the message.
    private(set) var warnings: [String] = []

    func takeWarnings() -> [String] {
        defer { warnings = [] }
        return warnings
    }

    /// What a rendered node adds to its container's children: its outermost box, or, for a group, an `if` or a
    /// `ForEach` without modifiers of their own, its children's.
    private func items(_ node: RenderedNode, _ inherited: LayoutEnvironment) -> [String] {
        var env = inherited
        env.absorb(node.view.modifiers)
        var inner: [String]
        let kids = node.instance?.output ?? node.children
        switch node.view.kind {
        case .group, .conditional, .forEach:
            inner = kids.flatMap { items($0, env) }
            if node.view.modifiers.isEmpty || inner.isEmpty {
                if inner.count == 1 { outer[node.id] = inner[0] }
                return inner
            }
        case .custom:
            inner = kids.flatMap { items($0, env) }
            if node.view.modifiers.isEmpty {
                if inner.count == 1 { outer[node.id] = inner[0] }
                return inner
            }
        case .library:
            inner = [own(node, kids, env)]
        }
        var key: String
        if inner.count == 1 {
            key = inner[0]
        } else {
            key = node.id + "$group"
            set(key, .stack(.vertical, spacing: nil, alignment: .center), inner)
        }
        var attachedIndex = 0
        for (i, m) in node.view.modifiers.enumerated() {
            let wrapped = node.id + "#\(i)"
            switch m {
            case .attached(let kind, _, let args):
                guard attachedIndex < node.attached.count else { continue }
                let secondary = items(node.attached[attachedIndex], inherited)
                attachedIndex += 1
                let alignment = args.first { $0.0 == "alignment" }.flatMap { LayoutValues.alignment($0.1) } ?? .center
                let second: String
                if secondary.count == 1 { second = secondary[0] } else {
                    second = wrapped + "$content"
                    set(second, .zstack(alignment), secondary)
                }
                set(wrapped, kind == "overlay" ? .overlay(alignment) : .background(alignment), [key, second])
            case .preferenceValue(let overlay, _, let alignmentValue, _):
                guard attachedIndex < node.attached.count else { continue }
                let secondary = items(node.attached[attachedIndex], inherited)
                attachedIndex += 1
                let alignment = alignmentValue.flatMap { LayoutValues.alignment($0) } ?? .center
                let second: String
                if secondary.count == 1 { second = secondary[0] } else {
                    second = wrapped + "$content"
                    set(second, .zstack(alignment), secondary)
                }
                set(wrapped, overlay ? .overlay(alignment) : .background(alignment), [key, second])
            case .anchorPreference:
                anchorBoxes[wrapped] = key
                continue
            case .other(let name, let args):
                if name == "coordinateSpace", let space = LayoutValues.spaceName(args) {
                    spaces[encode(space)] = key
                    continue
                }
                guard let kind = LayoutValues.modifierKind(name, args) else { continue }
                set(wrapped, kind, [key])
            default:
                continue
            }
            modifierBoxes[node.id, default: []].append((i, wrapped))
            key = wrapped
        }
        outer[node.id] = key
        return [key]
    }

    /// The box of a SwiftUI view itself, with its content's boxes as children.
    private func own(_ node: RenderedNode, _ kids: [RenderedNode], _ env: LayoutEnvironment) -> String {
        let v = node.view
        let children = kids.flatMap { items($0, env) }
        let kind: LayoutKind
        var declared = children
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
        case "ProgressView": kind = .control(.progressView)
        case "EmptyView": kind = .empty
        default:
            // Containers Canopy does not lay out on their own (NavigationStack, TabView, Group-like views) pass
            // their content through, centred.
            kind = .zstack(.center)
        }
        set(node.id, kind, declared)
        return node.id
    }

    // MARK: Running

    /// Lays out; the nodes whose wire frame changed are in `changedNodes`. `trace` gets a `layout` step per node
    /// laid out again.
    func run(trace: ((JSONObject) -> Void)?) throws(ScriptFault) -> [String] {
        let changed: [String]
        do { changed = try tree.layout() } catch let error as LayoutError {
            throw ScriptFault(.runtime, error.message, at: .unknown)
        } catch {
            throw ScriptFault(.runtime, "layout: \(error)", at: .unknown)
        }
        if let trace {
            for step in tree.laidOut {
                let p = step.proposal
                trace([
                    "e": "layout", "node": .string(step.key),
                    "proposal": [p.width.map { JSON.double($0) } ?? .null, p.height.map { JSON.double($0) } ?? .null],
                    "size": [.double(step.size.width), .double(step.size.height)],
                ])
            }
        }
        refreshFrames()
        return changed
    }

    /// Recomputes the wire frames and notes which changed.
    private func refreshFrames() {
        var next: [String: [Double]] = [:]
        next.reserveCapacity(outer.count)
        for (node, key) in outer {
            guard let r = tree.frame(of: key) else { continue }
            next[node] = [r.x, r.y, r.width, r.height]
        }
        for (node, f) in next where frames[node] != f { changedNodes.insert(node) }
        frames = next
    }

    func takeChangedNodes() -> Set<String> {
        defer { changedNodes = [] }
        return changedNodes
    }

    /// `"modifierFrames"` of a node: each layout modifier's own box.
    func modifierFrames(of node: String) -> [(Int, [Double])] {
        (modifierBoxes[node] ?? []).compactMap { (i, key) in
            tree.frame(of: key).map { (i, [$0.x, $0.y, $0.width, $0.height]) }
        }
    }

    /// The frames as a snapshot shows them.
    func table() -> FrameTable {
        var mods: [String: [FrameTable.ModifierFrame]] = [:]
        for node in modifierBoxes.keys {
            let m = modifierFrames(of: node)
            if !m.isEmpty { mods[node] = m.map { FrameTable.ModifierFrame(modifier: $0.0, frame: $0.1) } }
        }
        return FrameTable(frames: frames, modifierFrames: mods, canvas: canvasSpec, textModel: TextModel.version)
    }

    // MARK: Geometry

    /// A view's own box in a coordinate space (a name no view declares is the canvas, as in SwiftUI).
    /// Unrounded, as a GeometryProxy reports it (the drawn frames on the wire are rounded to the pixel grid).
    func frame(of node: String, in space: GeometrySpace) -> GeometryRect {
        guard let r = tree.unroundedFrame(of: node) else { return GeometryRect() }
        switch space {
        case .global: return GeometryRect(x: r.x, y: r.y, width: r.width, height: r.height)
        case .local: return GeometryRect(x: 0, y: 0, width: r.width, height: r.height)
        case .named(let name):
            guard let key = spaces[name], let s = tree.unroundedFrame(of: key) else {
                return GeometryRect(x: r.x, y: r.y, width: r.width, height: r.height)
            }
            return GeometryRect(x: r.x - s.x, y: r.y - s.y, width: r.width, height: r.height)
        }
    }

    /// The safe area a view's box overlaps (leading in x, top in y, trailing in width, bottom in height).
    func safeAreaInsets(of node: String) -> GeometryRect {
        guard let r = tree.unroundedFrame(of: node) else { return GeometryRect() }
        let c = canvasSpec
        return GeometryRect(
            x: max(0, c.safeArea.leading - r.x), y: max(0, c.safeArea.top - r.y),
            width: max(0, r.x + r.width - (c.width - c.safeArea.trailing)),
            height: max(0, r.y + r.height - (c.height - c.safeArea.bottom)))
    }
}

/// What a view passes down that changes how text below it is measured.
struct LayoutEnvironment {
    var font = FontSpec.body
    var lineLimit: Int?

    /// The innermost `.font` and `.lineLimit` of a view win, as in SwiftUI.
    mutating func absorb(_ modifiers: [ViewModifier]) {
        var fontSet = false
        var limitSet = false
        for m in modifiers {
            guard case .other(let name, let args) = m else { continue }
            if name == "font", !fontSet, let f = LayoutValues.font(args.first?.1) {
                font = f
                fontSet = true
            } else if name == "lineLimit", !limitSet {
                lineLimit = LayoutValues.number(args.first?.1).map { Int($0) }
                limitSet = true
            }
        }
    }
}
