/// Runs program trees (PROGRAMS.md): compiles Swift sources, owns their view instances and `@State` cells, and turns
/// events and source changes into transactions on a `Tree`. CanopyViews implements it; the daemon plugs it into the
/// protocol machine, as it plugs in a `KeyCompiler` for Swift keys.
public protocol ProgramRuntime: Sendable {
    /// Compiles `spec.source`, instantiates its root view and runs the creation transaction: the tree at `version`
    /// and the program that drives it from now on. `state` restores cells (by node and name: a snapshot's cells) and
    /// the objects they refer to; views whose cells are not given start from their initial values. Nothing is created
    /// on error (`compile_error` with `diagnostics`, `runtime_error`, `too_expensive`, `bad_message` for an unknown
    /// view or objects that do not fit the program, `too_deep`/`too_large` for a state beyond the limits).
    /// `recorded` restores the inputs bodies ran with (a snapshot's `bodyInputs`); `inputs` gives every transaction
    /// of the tree, the creation included, its time and seed.
    func start(
        _ spec: ProgramSpec, state: ProgramState, recorded: [RecordedInputs], inputs: any ProgramInputSource,
        version: Int, limits: Limits, trace: Bool
    ) throws(CanopyError) -> ProgramStart
}

extension ProgramRuntime {
    /// A start with no recorded inputs and deterministic ones from `SteppedInputs` (tests and tools).
    public func start(_ spec: ProgramSpec, state: ProgramState, version: Int, limits: Limits, trace: Bool)
        throws(CanopyError) -> ProgramStart
    {
        try start(
            spec, state: state, recorded: [], inputs: SteppedInputs(), version: version, limits: limits, trace: trace)
    }
}

/// What a program tree is made from: its source, the root view and the preview modifiers applied to it.
public struct ProgramSpec: Sendable, Equatable {
    public var source: String
    /// The root view's type name; `nil` = the view `#Preview` shows, else `ContentView`.
    public var view: String?
    /// Preview modifier type names as written in the source (`PreviewModifierDemo.SampleData`).
    public var previewModifiers: [String]
    /// The canvas it is laid out in; nil: `CanvasSpec.standard`.
    public var canvas: CanvasSpec?
    /// Where each ScrollView is scrolled to, by node: `[x, y]` (set by `scroll` events).
    public var scrollOffsets: [String: [Double]] = [:]

    public init(source: String, view: String? = nil, previewModifiers: [String] = [], canvas: CanvasSpec? = nil) {
        self.source = source
        self.view = view
        self.previewModifiers = previewModifiers
        self.canvas = canvas
    }

    /// `{"view","source","previewModifiers","canvas"}`, as snapshots carry it (`previewModifiers` only when not
    /// empty, `canvas` only when given).
    public var json: JSON {
        var o: JSONObject = ["source": .string(source)]
        if let view { o["view"] = .string(view) }
        if !previewModifiers.isEmpty { o["previewModifiers"] = .array(previewModifiers.map { .string($0) }) }
        if let canvas { o["canvas"] = canvas.json }
        if !scrollOffsets.isEmpty {
            o["scroll"] = .object(
                JSONObject(uniqueMembers: scrollOffsets.sorted { $0.key < $1.key }.map { ($0.key, .array($0.value.map { .double($0) })) }))
        }
        return .object(o)
    }

    public init(json: JSON) throws(CanopyError) {
        guard let o = json.object, let source = o["source"]?.string else {
            throw CanopyError(.badMessage, "a program needs its \"source\" as a string")
        }
        var view: String?
        if let v = o["view"], !v.isNull {
            guard let s = v.string else { throw CanopyError(.badMessage, "\"view\" must be a string") }
            view = s
        }
        var modifiers: [String] = []
        if let m = o["previewModifiers"], !m.isNull {
            guard let list = m.array, list.allSatisfy({ $0.string != nil }) else {
                throw CanopyError(.badMessage, "\"previewModifiers\" must be an array of type names")
            }
            modifiers = list.map { $0.string! }
        }
        var canvas: CanvasSpec?
        if let c = o["canvas"], !c.isNull { canvas = try CanvasSpec(json: c) }
        self.init(source: source, view: view, previewModifiers: modifiers, canvas: canvas)
        let scroll = o["scroll"]?.object ?? JSONObject()
        for node in scroll.keys {
            guard let xy = scroll[node]?.array?.compactMap({ $0.number }), xy.count == 2 else {
                throw CanopyError(.badMessage, "\"scroll\" maps ScrollView nodes to [x, y]")
            }
            scrollOffsets[node] = xy
        }
    }
}

/// One `@State` cell of a view instance: `{"node","name","value"}`, or `"dropped":true` in a diff when its view
/// went away.
public struct StateCell: Sendable, Equatable {
    public var node: String
    public var name: String
    public var value: JSON
    public var dropped: Bool

    public init(node: String, name: String, value: JSON, dropped: Bool = false) {
        self.node = node
        self.name = name
        self.value = value
        self.dropped = dropped
    }

    public var json: JSON {
        var o: JSONObject = ["node": .string(node), "name": .string(name)]
        if dropped { o["dropped"] = true } else { o["value"] = value }
        return .object(o)
    }

    public init(json: JSON) throws(CanopyError) {
        guard let o = json.object, let node = o["node"]?.string, let name = o["name"]?.string else {
            throw CanopyError(.badMessage, "a state cell needs \"node\" and \"name\" strings")
        }
        self.init(node: node, name: name, value: o["value"] ?? .null, dropped: o["dropped"]?.bool ?? false)
    }
}

/// An event from a client (PROGRAMS.md §6): `tap`, `setText`, `focus`, `commit`, `setValue`, `increment`,
/// `decrement`, `scroll` on a node, `post` of a notification name or `resize` of the canvas (LAYOUT.md §2) to the
/// whole tree.
public struct ProgramEvent: Sendable, Equatable {
    public var node: String?
    public var event: String
    public var value: JSON?
    /// The notification name of a `post`.
    public var name: String?

    public init(node: String?, event: String, value: JSON? = nil, name: String? = nil) {
        self.node = node
        self.event = event
        self.value = value
        self.name = name
    }

    /// From an `event` message's fields (`node`, `event`, `value`, `name`).
    public init(message o: JSONObject) throws(CanopyError) {
        guard let event = o["event"]?.string else { throw CanopyError(.badEvent, "event: missing \"event\" (a string)") }
        var node: String?
        if let n = o["node"], !n.isNull {
            guard let s = n.string else { throw CanopyError(.badEvent, "event: \"node\" must be a string") }
            node = s
        }
        var name: String?
        if let n = o["name"], !n.isNull {
            guard let s = n.string else { throw CanopyError(.badEvent, "event: \"name\" must be a string") }
            name = s
        }
        if event == "post" {
            guard name != nil else { throw CanopyError(.badEvent, "a post event needs the notification's \"name\"") }
        } else if event == "resize" {
            guard o["value"] != nil else { throw CanopyError(.badEvent, "a resize event needs the new canvas as its \"value\"") }
        } else if node == nil {
            throw CanopyError(.badEvent, "a \(event) event needs the \"node\" it happens on")
        }
        self.init(node: node, event: event, value: o["value"], name: name)
    }

    /// `{"node","event"}` (and `name` of a post), as a diff shows what caused it.
    public var json: JSON {
        var o: JSONObject = ["event": .string(event)]
        if let node { o["node"] = .string(node) }
        if let name { o["name"] = .string(name) }
        return .object(o)
    }
}

/// Whether a preview modifier's shared context was computed for this tree or reused from an earlier one.
public struct PreviewContextUse: Sendable, Equatable {
    public var modifier: String
    public var reused: Bool

    public init(modifier: String, reused: Bool) {
        self.modifier = modifier
        self.reused = reused
    }

    public var json: JSON { ["modifier": .string(modifier), "reused": .bool(reused)] }
}

/// The outcome of one transaction: the engine's diff over all its rounds (ops in order, the readers that fired with
/// their final values, the trace with the program's steps), the cells created, changed or dropped, the objects they
/// refer to that are new or changed, warnings (a loop stopped after 16 rounds), the transaction's inputs, and the
/// bodies' recorded inputs it changed.
public struct ProgramTransaction: Sendable {
    public var diff: Diff
    public var state: [StateCell]
    /// Entries of the state's object table (`ProgramState.objects`) this transaction adds or replaces.
    public var objects: JSONObject
    public var warnings: [String]
    /// The time and seed the transaction ran with (a diff's `inputs`).
    public var inputs: ProgramInputs
    /// Inputs of bodies that ran and read the time or drew, and of views that went away (a diff's `bodyInputs`).
    public var bodyInputs: [RecordedInputs]
    /// Nodes whose frame changed, with their new frame (a diff's `frames`), in tree order.
    public var frames: [FrameChange]
    /// The canvas a `resize` gave the tree (a diff's `canvas`).
    public var canvas: CanvasSpec?
    /// ScrollViews scrolled (`[x, y]`, clamped to their content) or gone (nil): a diff's `scroll`.
    public var scroll: [(node: String, offset: [Double]?)] = []

    public init(
        diff: Diff, state: [StateCell], objects: JSONObject = [:], warnings: [String],
        inputs: ProgramInputs = ProgramInputs(time: 0, seed: 0), bodyInputs: [RecordedInputs] = [],
        frames: [FrameChange] = [], canvas: CanvasSpec? = nil,
        scroll: [(node: String, offset: [Double]?)] = []
    ) {
        self.frames = frames
        self.canvas = canvas
        self.scroll = scroll
        self.diff = diff
        self.state = state
        self.objects = objects
        self.warnings = warnings
        self.inputs = inputs
        self.bodyInputs = bodyInputs
    }
}

/// A running program tree. Confined to the thread that owns its `Tree` (the protocol machine's).
public protocol ProgramInstance: AnyObject, Sendable {
    /// The source, the root view (resolved) and the preview modifiers.
    var spec: ProgramSpec { get }
    /// Every cell, in tree order of their views, and the objects they refer to.
    var state: ProgramState { get }
    /// The inputs each body that read the time or drew random values last ran with, by node.
    var recordedInputs: [RecordedInputs] { get }
    /// The inputs of the last transaction (the creation's at first).
    var transactionInputs: ProgramInputs { get }
    var previewContexts: [PreviewContextUse] { get }
    /// The frames of its nodes as last laid out, for a snapshot; nil for a program without layout.
    var frameTable: FrameTable? { get }
    /// Runs `event` as one transaction on `tree`, which gains exactly one version. On error nothing changed: not the
    /// tree, not the cells (`bad_event`, `no_such_node`, `type_mismatch`, `runtime_error`, `too_expensive`).
    func handle(_ event: ProgramEvent, tree: inout Tree, trace: Bool) throws(CanopyError) -> ProgramTransaction
    /// Replaces the source (hot reload) as one transaction: views that still exist keep their cells. A source that
    /// does not compile is `compile_error` and changes nothing.
    func setSource(_ source: String, tree: inout Tree, trace: Bool) throws(CanopyError) -> ProgramTransaction
    /// What the node `node` holds and sees, for an inspector, without changing anything: `view` (the view struct's
    /// name, only for an instance of one), `cells` (`[{"name","value"}]`, its `@State`), `bindings` (`[{"name",
    /// "value", "cell":{"node","name"}, "path"}]`, or `"computed":true`, or `"constant":true`) and `environment`
    /// (`[{"key","value","from"}]`, `from` absent for a default). `no_such_node` for an unknown node;
    /// `runtime_error` or `too_expensive` when a computed binding's getter faults.
    func inspect(node: String) throws(CanopyError) -> JSONObject
}

extension ProgramInstance {
    /// A program that never reads the time or draws (a test's stand-in) records nothing.
    public var recordedInputs: [RecordedInputs] { [] }
    public var transactionInputs: ProgramInputs { ProgramInputs(time: 0, seed: 0) }
    public var frameTable: FrameTable? { nil }
}

/// A program tree as `ProgramRuntime.start` made it.
public struct ProgramStart: Sendable {
    public var tree: Tree
    public var program: any ProgramInstance
    /// The creation transaction: the cells it created and, for a new tree, what its readers' closures changed (its
    /// ops are already applied to `tree`).
    public var transaction: ProgramTransaction

    public init(tree: Tree, program: any ProgramInstance, transaction: ProgramTransaction) {
        self.tree = tree
        self.program = program
        self.transaction = transaction
    }
}
