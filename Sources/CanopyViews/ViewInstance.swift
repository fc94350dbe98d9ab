import CanopyCore
import CanopyScript

/// One instance of a view struct of the program: the node it shows as, its `@State` cells, the environment it sees,
/// and what its `body` produced last (PROGRAMS.md §3–§4).
final class ViewInstance {
    let id: String
    let typeID: TypeID
    /// The struct as the enclosing body last built it (its `@State` properties hold initial values only).
    var record: Value
    /// `@State` cells by property name.
    var cells: [(name: String, box: StateBox)] = []
    /// `@Environment` values by key, as boxes the body reads.
    var environmentBoxes: [String: StateBox] = [:]
    /// The environment it sees: its enclosing instance's, plus the `.environment` modifiers on the way (`local`).
    var environment: [String: Value] = [:]
    var localEnvironment: [String: Value] = [:]
    let depth: Int
    weak var owner: ViewInstance?
    /// Its body's top-level views, rendered.
    var output: [RenderedNode] = []
    /// Instances inside its output (attached subtrees included), by node id.
    var children: [String: ViewInstance] = [:]
    /// Cells its last body run read.
    var reads: [StateBox] = []
    var isDirty = false
    var because: [String] = []
    /// A `GeometryReader`'s or a `…PreferenceValue`'s content closure: its body is this closure called with
    /// `argument` (a proxy of the reader's node; the key's value).
    var content: Value?
    var argument: Value = .null
    /// A preference-value overlay's closure has not run yet: the engine has not reduced its key.
    var awaitingValue = false
    /// What made the closure: `GeometryReader` or `PreferenceValue` (for traces).
    var contentKind = "GeometryReader"
    /// Geometry its last body run asked the layout for, with the answers it got (ProgramTree+Geometry).
    var geometryReads: [GeometryRead] = []
    /// Its output as the layout last declared it (ProgramLayout): stale after its body ran; what it adds to its
    /// container, with the environment it was walked in; the layout keys and rendered nodes its walk declared.
    var layoutStale = true
    var layoutItems: [String] = []
    var layoutEnv: LayoutEnvironment?
    var layoutKeys: [String] = []
    var layoutNodes: [String] = []

    init(id: String, typeID: TypeID, record: Value, depth: Int, owner: ViewInstance?) {
        self.id = id
        self.typeID = typeID
        self.record = record
        self.depth = depth
        self.owner = owner
    }

    func cell(_ name: String) -> StateBox? { cells.first { $0.name == name }?.box }
}

/// A node a body produced: its node (children of a view struct's node belong to that view's instance), the view
/// value it came from (handlers, bindings), and its `onChange` observations.
final class RenderedNode {
    let id: String
    let view: ViewValue
    var type: String
    var props: JSONObject
    var modifiers: [Modifier]
    var children: [RenderedNode]
    /// The instance of a view struct's node.
    let instance: ViewInstance?
    /// The roots of its attached subtrees (background, overlay), for events inside them.
    var attached: [RenderedNode] = []
    /// The view modifier each of `modifiers` comes from, when one made several (`overlayPreferenceValue` is a
    /// reader and an overlay); nil when they match one to one.
    var modifierOrigin: [Int]?

    /// The index in `view.modifiers` of the engine's modifier `index`.
    func viewModifierIndex(_ index: Int) -> Int {
        guard let modifierOrigin else { return index }
        return index < modifierOrigin.count ? modifierOrigin[index] : -1
    }

    init(
        id: String, view: ViewValue, type: String, props: JSONObject, modifiers: [Modifier], children: [RenderedNode],
        instance: ViewInstance?
    ) {
        self.id = id
        self.view = view
        self.type = type
        self.props = props
        self.modifiers = modifiers
        self.children = children
        self.instance = instance
    }

    /// The whole subtree as a node: a view struct's node gets its instance's output as children.
    var fullNode: Node {
        let kids = instance.map { $0.output } ?? children
        var mods = modifiers
        if !attached.isEmpty {
            // Attached subtrees as they are now: a closure inside one (a GeometryReader) may have run again.
            var k = 0
            for i in mods.indices where k < attached.count {
                switch mods[i] {
                case .background:
                    mods[i] = .background(attached[k].fullNode)
                    k += 1
                case .overlay:
                    mods[i] = .overlay(attached[k].fullNode)
                    k += 1
                default: continue
                }
            }
        }
        return Node(id: id, type: type, props: props, modifiers: mods, children: kids.map(\.fullNode))
    }
}
