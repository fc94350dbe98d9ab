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
        return Node(id: id, type: type, props: props, modifiers: modifiers, children: kids.map(\.fullNode))
    }
}
