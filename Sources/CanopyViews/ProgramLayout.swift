import CanopyCore
import CanopyLayout
import CanopyScript

/// A program tree's layout (LAYOUT.md): its rendered nodes as the nodes of a `LayoutTree` — each view's own box
/// and one box per layout modifier around it (ProgramLayout+Nodes) — the frames clients see, and the answers to
/// programs' geometry questions. Declared incrementally: after bodies ran, only the output of the instances whose
/// body ran is declared again (and their owners' when what they add to their container changed); the layout tree
/// keeps the caches of nodes whose kind and children did not change.
final class ProgramLayout {
    let tree: LayoutTree
    /// The boxes of each rendered node: its outermost (its frame on the wire), its layout modifiers', the coordinate
    /// spaces and anchors it declares.
    private(set) var boxes: [String: NodeBoxes] = [:]
    /// The nodes each box is the wire frame or a modifier box of.
    private var nodesByBox: [String: [String]] = [:]
    /// The names (JSON) of the coordinate spaces each box is, by box: `.coordinateSpace(name:)` names the box of
    /// the view with the modifiers inside it.
    private var spaceNames: [String: [String]] = [:]
    /// The box an `anchorPreference` measures, by node and modifier index (`node#3`).
    private(set) var anchorBoxes: [String: String] = [:]
    /// A name's JSON, as `GeometrySpace.named` holds it.
    var encode: (Value) -> String = { _ in "" }
    /// Instances whose body ran since their output was last declared.
    private var stale: [ViewInstance] = []
    /// The root node last declared, what it declared itself, and every key declared.
    private weak var declaredRoot: RenderedNode?
    private var rootRecord = WalkRecord()
    private var allKeys: Set<String> = []
    /// What the walk under way declares, and what this build declared, touched and may remove.
    var record = WalkRecord()
    private var declaredNow: Set<String> = []
    private var touched: Set<String> = []
    private var removals: Set<String> = []
    /// The layout changed without a frame changing (a rebuild, a new canvas, whose safe area a view's insets read):
    /// geometry questions are checked anyway.
    private(set) var rebuiltGeometry = false
    private var canvasChanged = false
    var canvasSpec: CanvasSpec
    /// Walks everything and keeps nothing on the instances: a layout from scratch, to check the incremental one.
    private var fresh = false
    /// Frames of the last run, by node, as the wire shows them, and their modifier boxes.
    private(set) var frames: [String: [Double]] = [:]
    private var modifierFramesByNode: [String: [FrameTable.ModifierFrame]] = [:]
    private(set) var changedNodes: Set<String> = []
    /// Scroll offsets of a restored spec, given to their ScrollViews as they are declared.
    private var restoringScroll: [String: LayoutPoint] = [:]
    /// What SwiftUI would log about the values the program handed the layout ("Invalid frame dimension…"): the
    /// value is ignored, as there, and the diff carries the message.
    private(set) var warnings: [String] = []

    /// Runs the program's `Layout`s (nil: a custom layout lays out as a ZStack; only for a tree without a machine).
    private(set) var layouts: ScriptLayoutHost?

    init(canvas: CanvasSpec, layouts: ScriptLayoutHost? = nil) {
        canvasSpec = canvas
        tree = LayoutTree(canvas: ProgramLayout.canvas(canvas))
        self.layouts = layouts
        tree.customHost = layouts
    }

    static func canvas(_ c: CanvasSpec) -> LayoutTree.Canvas {
        LayoutTree.Canvas(
            width: c.width, height: c.height,
            safeArea: EdgeInsets(
                top: c.safeArea.top, leading: c.safeArea.leading, bottom: c.safeArea.bottom, trailing: c.safeArea.trailing),
            scale: c.scale)
    }

    func setCanvas(_ c: CanvasSpec) {
        if c != canvasSpec { canvasChanged = true }
        canvasSpec = c
        tree.canvas = ProgramLayout.canvas(c)
    }

    func restoreScroll(_ offsets: [String: [Double]]) {
        for (node, xy) in offsets where xy.count == 2 { restoringScroll[node] = LayoutPoint(x: xy[0], y: xy[1]) }
    }

    func takeWarnings() -> [String] {
        defer { warnings = [] }
        return warnings
    }

    // MARK: Building

    /// An instance's body ran: its output is declared again at the next build.
    func rendered(_ inst: ViewInstance) {
        guard !inst.layoutStale else { return }
        inst.layoutStale = true
        stale.append(inst)
    }

    /// An instance went away: the boxes it declared go at the next build (unless declared again).
    func dropped(_ inst: ViewInstance) {
        removals.formUnion(inst.layoutKeys)
        for node in inst.layoutNodes { clearBoxes(node) }
        inst.layoutKeys = []
        inst.layoutNodes = []
        inst.layoutStale = true
    }

    /// Declares to the layout tree what changed below `root` since the last build: the output of each instance whose
    /// body ran, deepest first, and its owner's when what it adds to its container changed; everything when the root
    /// node is new (a creation, a rollback, a hot reload).
    func build(_ root: RenderedNode, encode: @escaping (Value) -> String) {
        self.encode = encode
        declaredNow = []
        let full = declaredRoot !== root
        var rootStale = full
        if full { stale = [] }
        while !stale.isEmpty {
            var best = 0
            for i in stale.indices where stale[i].depth > stale[best].depth { best = i }
            let inst = stale.remove(at: best)
            guard inst.layoutStale, let env = inst.layoutEnv else { continue }
            let before = inst.layoutItems
            _ = walk(inst, env)
            if inst.layoutItems != before {
                if let owner = inst.owner { rendered(owner) } else { rootStale = true }
            }
        }
        if rootStale { declareRoot(root) }
        if full {
            for key in allKeys where !declaredNow.contains(key) { removals.insert(key) }
        }
        for key in removals where !declaredNow.contains(key) {
            tree.remove(key)
            layouts?.forget(key)
            allKeys.remove(key)
        }
        rebuiltGeometry = !declaredNow.isEmpty || !removals.isEmpty || canvasChanged
        canvasChanged = false
        removals = []
    }

    /// The root node's own boxes (and, through it, everything stale below).
    private func declareRoot(_ root: RenderedNode) {
        let saved = record
        record = WalkRecord()
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
        finish(record, replacing: &rootRecord)
        record = saved
        declaredRoot = root
    }

    /// What an instance's output adds to its container: walked again when its body ran or its environment changed,
    /// else what the last walk found.
    func walk(_ inst: ViewInstance, _ env: LayoutEnvironment) -> [String] {
        if fresh { return inst.output.flatMap { self.items($0, env) } }
        if !inst.layoutStale, inst.layoutEnv == env { return inst.layoutItems }
        let saved = record
        record = WalkRecord()
        let items = inst.output.flatMap { self.items($0, env) }
        var previous = WalkRecord(keys: inst.layoutKeys, nodes: inst.layoutNodes)
        finish(record, replacing: &previous)
        inst.layoutKeys = previous.keys
        inst.layoutNodes = previous.nodes
        record = saved
        inst.layoutItems = items
        inst.layoutEnv = env
        inst.layoutStale = false
        return items
    }

    /// Replaces a walk's record: keys it no longer declares may go, nodes it no longer shows lose their boxes.
    private func finish(_ new: WalkRecord, replacing old: inout WalkRecord) {
        if !old.keys.isEmpty {
            let keys = Set(new.keys)
            for k in old.keys where !keys.contains(k) { removals.insert(k) }
        }
        if !old.nodes.isEmpty {
            let nodes = Set(new.nodes)
            for n in old.nodes where !nodes.contains(n) { clearBoxes(n) }
        }
        old = new
    }

    func set(_ key: String, _ kind: LayoutKind, _ children: [String]) {
        record.keys.append(key)
        declaredNow.insert(key)
        allKeys.insert(key)
        let (valid, problems) = LayoutKind.validated(kind)
        for p in problems where !warnings.contains(p) { warnings.append(p) }
        tree.set(key, kind: valid, children: children)
        if let offset = restoringScroll.removeValue(forKey: key) { tree.setScrollOffset(key, offset) }
    }

    /// Records a node's boxes, replacing what an earlier walk recorded.
    func setBoxes(_ node: String, _ b: NodeBoxes) {
        record.nodes.append(node)
        touched.insert(node)
        clearBoxes(node)
        boxes[node] = b
        for box in b.allBoxes { nodesByBox[box, default: []].append(node) }
        for (name, box) in b.spaces { spaceNames[box, default: []].append(name) }
        for (anchor, box) in b.anchors { anchorBoxes[anchor] = box }
    }

    private func clearBoxes(_ node: String) {
        guard let old = boxes.removeValue(forKey: node) else { return }
        touched.insert(node)
        for box in old.allBoxes {
            nodesByBox[box]?.removeAll { $0 == node }
            if nodesByBox[box]?.isEmpty == true { nodesByBox[box] = nil }
        }
        for (name, box) in old.spaces {
            guard let i = spaceNames[box]?.firstIndex(of: name) else { continue }
            spaceNames[box]?.remove(at: i)
            if spaceNames[box]?.isEmpty == true { spaceNames[box] = nil }
        }
        for (anchor, _) in old.anchors { anchorBoxes[anchor] = nil }
    }

    /// The frames a layout from scratch of the same rendered tree gives (what the incremental one must equal).
    func framesFromScratch(_ root: RenderedNode, scroll: [String: [Double]]) throws(ScriptFault) -> FrameTable {
        let other = ProgramLayout(canvas: canvasSpec, layouts: layouts)
        other.fresh = true
        other.restoreScroll(scroll)
        other.build(root, encode: encode)
        _ = try other.run(trace: nil)
        return other.table()
    }

    // MARK: Running

    /// Lays out; the nodes whose wire frame changed are in `changedNodes`. `trace` gets a `layout` step per box
    /// sized again.
    func run(trace: ((JSONObject) -> Void)?) throws(ScriptFault) -> [String] {
        let changed: [String]
        do { changed = try tree.layout() } catch let error as LayoutError {
            throw ScriptFault(.runtime, error.message, at: .unknown)
        } catch let fault as ScriptFault {
            throw fault  // a program's Layout faulted or ran out of fuel
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
        refreshFrames(changed)
        return changed
    }

    /// Recomputes the wire frames (and modifier boxes) of the nodes whose boxes moved or were declared again, and
    /// notes which changed.
    private func refreshFrames(_ changed: [String]) {
        var nodes = touched
        touched = []
        for key in changed { nodes.formUnion(nodesByBox[key] ?? []) }
        for node in nodes {
            let now = boxes[node]?.outer.flatMap { tree.frame(of: $0) }.map { [$0.x, $0.y, $0.width, $0.height] }
            let mods = modifierFrames(of: node)
            guard frames[node] != now || modifierFramesByNode[node] ?? [] != mods else { continue }
            frames[node] = now
            modifierFramesByNode[node] = mods.isEmpty ? nil : mods
            if now != nil { changedNodes.insert(node) } else { changedNodes.remove(node) }
        }
    }

    func takeChangedNodes() -> Set<String> {
        defer { changedNodes = [] }
        return changedNodes
    }

    /// `"modifierFrames"` of a node: each layout modifier's own box.
    func modifierFrames(of node: String) -> [FrameTable.ModifierFrame] {
        (boxes[node]?.modifiers ?? []).compactMap { (i, key) in
            tree.frame(of: key).map { FrameTable.ModifierFrame(modifier: i, frame: [$0.x, $0.y, $0.width, $0.height]) }
        }
    }

    /// The frames as a snapshot shows them.
    func table() -> FrameTable {
        FrameTable(
            frames: frames, modifierFrames: modifierFramesByNode, canvas: canvasSpec, textModel: TextModel.version)
    }

    /// A changed node's entry in a diff's `frames`.
    func change(_ node: String) -> FrameChange? {
        frames[node].map { FrameChange(node: node, frame: $0, modifierFrames: modifierFramesByNode[node] ?? []) }
    }

    // MARK: Geometry

    /// A view's own box in a coordinate space, as a GeometryProxy reports it: unrounded (the drawn frames on the wire
    /// are rounded to the pixel grid), through the offsets and effects around it, the bounding box of its corners
    /// (SwiftUI's ViewTransform). A named space is the nearest view around the box that declares the name; a name
    /// no view around it declares is the canvas, as in SwiftUI.
    func frame(of node: String, in space: GeometrySpace) -> GeometryRect {
        guard let size = tree.size(of: node) else { return GeometryRect() }
        let bounds = LayoutRect(origin: .zero, size: size)
        let r: LayoutRect?
        switch space {
        case .local: return GeometryRect(x: 0, y: 0, width: size.width, height: size.height)
        case .global: r = tree.convert(bounds, from: node, to: nil)
        case .named(let name):
            let box = spaceNames.isEmpty ? nil : tree.nearest(from: node) { self.spaceNames[$0]?.contains(name) == true }
            r = tree.convert(bounds, from: node, to: box)
        }
        return r.map { GeometryRect(x: $0.x, y: $0.y, width: $0.width, height: $0.height) } ?? GeometryRect()
    }

    /// The safe-area insets of a view's box (leading in x, top in y, trailing in width, bottom in height): per edge,
    /// how far the canvas's edge is when the box reaches the safe area's edge (docs/layout.md).
    func safeAreaInsets(of node: String) -> GeometryRect {
        guard let i = tree.safeAreaInsets(of: node) else { return GeometryRect() }
        return GeometryRect(x: i.leading, y: i.top, width: i.trailing, height: i.bottom)
    }

    /// A rect (or point) in canvas coordinates, an anchor, in the coordinates of a view's box.
    func resolve(_ rect: GeometryRect, in node: String, point: Bool) -> GeometryRect {
        if point {
            let p = tree.convertFromCanvas(LayoutPoint(x: rect.x, y: rect.y), to: node) ?? LayoutPoint(x: rect.x, y: rect.y)
            return GeometryRect(x: p.x, y: p.y, width: 0, height: 0)
        }
        let r =
            tree.convertFromCanvas(LayoutRect(x: rect.x, y: rect.y, width: rect.width, height: rect.height), to: node)
        return r.map { GeometryRect(x: $0.x, y: $0.y, width: $0.width, height: $0.height) } ?? rect
    }

    /// A unit point of a view's box in canvas coordinates (an `Anchor<CGPoint>` made), as a zero-size rect.
    func point(of node: String, unit x: Double, _ y: Double) -> GeometryRect {
        guard let size = tree.size(of: node),
            let p = tree.convert(LayoutPoint(x: x * size.width, y: y * size.height), from: node, to: nil)
        else { return GeometryRect() }
        return GeometryRect(x: p.x, y: p.y, width: 0, height: 0)
    }

    /// The answer to a geometry question now.
    func answer(_ question: GeometryQuestion, of node: String) -> GeometryRect {
        switch question {
        case .frame(let space): return frame(of: node, in: space)
        case .insets: return safeAreaInsets(of: node)
        case .point(let x, let y): return point(of: node, unit: x, y)
        case .resolve(let rect, let isPoint): return resolve(rect, in: node, point: isPoint)
        }
    }
}

/// What a view passes down that changes how text below it is measured.
struct LayoutEnvironment: Equatable {
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

/// The boxes one rendered node declared: its outermost (its wire frame), its layout modifiers' by modifier index,
/// the coordinate spaces it names (name's JSON, box) and the boxes its anchors measure (`node#i`, box).
struct NodeBoxes {
    var outer: String?
    var modifiers: [(Int, String)] = []
    var spaces: [(String, String)] = []
    var anchors: [(String, String)] = []

    /// The boxes whose move moves one of its frames.
    var allBoxes: [String] {
        var out = modifiers.map(\.1)
        if let outer, !out.contains(outer) { out.append(outer) }
        return out
    }
}

/// What one walk of an instance's output declared: layout keys and rendered nodes.
struct WalkRecord {
    var keys: [String] = []
    var nodes: [String] = []
}
