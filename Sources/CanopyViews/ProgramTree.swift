import CanopyCore
import CanopyLayout
import CanopyScript

/// A running program tree (PROGRAMS.md): the view instances of one root view, their cells, and the transactions that
/// turn events and source changes into one version of its `Tree` each. Confined to the thread that owns the tree.
final class ProgramTree: ProgramInstance, ViewHost, @unchecked Sendable {  // confined to its tree's thread
    var compiled: CompiledProgram
    var program: Program { compiled.program }
    var spec: ProgramSpec
    let limits: Limits
    let machine: Machine
    var previewContexts: [PreviewContextUse] = []
    var root: ViewInstance?
    /// The tree's root node (the root view, or what the preview modifiers made of it).
    var rootNode: RenderedNode?
    /// Every rendered node by id, for events.
    var nodes: [String: RenderedNode] = [:]
    /// Every view instance by node id.
    var instances: [String: ViewInstance] = [:]
    /// The instance whose body is running: reads are recorded against it.
    var current: ViewInstance?
    /// Cells to restore by `cellKey`, consumed as instances appear.
    var restoring: [String: JSON] = [:]
    /// The objects of the state being restored, which the restored cells refer to.
    var restoringObjects: ObjectGraphDecoder?
    /// The state being restored is this program's own: a reference that does not resolve is an error.
    var restoringStrict = false
    /// The first cell whose references did not resolve in a strict restore.
    var restoreProblem: String?
    /// The ids of the objects the stored state holds (ProgramTree+State).
    var objectIDs = ObjectIDs()
    /// The objects the running transaction assigned properties of.
    let objectWrites = ObjectWrites()
    /// The cells of the program's top-level `var`s, by index (node "" in `cells`).
    var globalBoxes: [Int: StateBox] = [:]
    var log = TransactionLog()
    var dirty: [ViewInstance] = []
    /// `onChange` closures due: node, closure, old and new value.
    var pendingOnChange: [(String, Value, Value, Value)] = []
    /// Set while an inspector reads the tree: Swift code it runs (a `Binding(get:)` closure) cannot change a cell.
    var readOnly = false
    /// The time and random draws of its code, and the inputs its bodies ran with.
    let inputs: TreeInputs
    /// Its layout in its canvas (LAYOUT.md).
    let layout: ProgramLayout
    /// The `onGeometryChange` modifiers shown, by `node#index`, with the value their action last saw.
    var geometryWatches: [String: GeometryWatch] = [:]
    /// The instances whose last body run asked geometry questions (checked after every layout).
    var geometryReaders: [String: ViewInstance] = [:]
    /// The engine's last value of every reader, by reader id (nil inside: absent), for preference-value overlays
    /// made later.
    var lastReaders: [String: JSON?] = [:]
    /// Preference-value overlays made since the engine last reduced: their closures wait for the key's value.
    var awaitingPreference: [String: ViewInstance] = [:]
    /// The canvas or a scroll offset changed: the next round lays the tree out even if no body ran.
    var layoutPending = false

    init(
        compiled: CompiledProgram, spec: ProgramSpec, limits: Limits, inputs source: any ProgramInputSource,
        recorded: [RecordedInputs]
    ) {
        self.compiled = compiled
        self.spec = spec
        self.limits = limits
        inputs = TreeInputs(source: source, recorded: recorded)
        machine = Machine(fuel: limits.fuel)
        layout = ProgramLayout(canvas: spec.canvas ?? .standard, layouts: ScriptLayoutHost(machine: machine))
        layout.restoreScroll(spec.scrollOffsets)
        machine.program = compiled.program
        machine.host = self
        machine.inputs = inputs
        machine.objectWrites = objectWrites
        machine.geometry = self
        machine.layoutHost = layout.layouts
    }

    /// A cell's identity across renders, restarts and sources: its view's node and its property's name.
    static func cellKey(_ node: String, _ name: String) -> String { node + "\u{0}" + name }

    // MARK: ViewHost

    func read(_ box: StateBox) -> Value {
        if let current, !box.readers.contains(current.id) {
            box.readers.insert(current.id)
            current.reads.append(box)
        }
        return box.value
    }

    func globalBox(_ index: Int, name: String, initial: () throws(ScriptFault) -> Value) throws(ScriptFault) -> StateBox {
        if let box = globalBoxes[index] { return box }
        let value: Value
        if let restored = restoredValue("", name, as: program.globalVariables[index].type) {
            value = restored
        } else {
            value = try initial()
        }
        let box = StateBox(.global(name: name), value)
        globalBoxes[index] = box
        log.created.append(("", name, box))
        return box
    }

    /// Makes every top-level `var`'s cell while stored values are being restored.
    func createGlobals() throws(ScriptFault) {
        for i in program.globalVariables.indices { _ = try machine.globalBox(i, at: .unknown) }
    }

    func write(_ box: StateBox, _ value: Value) {
        if readOnly || box.value == value { return }
        log.noteWrite(box)
        box.value = value
        if log.tracing, let (node, name) = box.cell {
            log.step(["e": "state", "node": .string(node), "name": .string(name), "value": program.encode(value)])
        }
        box.generation += 1
        for reader in box.readers {
            guard let inst = instances[reader] else { continue }
            markDirty(inst, because: box.label)
        }
    }

    func markDirty(_ inst: ViewInstance, because: String) {
        if !inst.because.contains(because) { inst.because.append(because) }
        guard !inst.isDirty else { return }
        inst.isDirty = true
        dirty.append(inst)
    }

    // MARK: ProgramInstance

    var recordedInputs: [RecordedInputs] { inputs.all }
    var frameTable: FrameTable? { layout.table() }
    var transactionInputs: ProgramInputs { inputs.transaction }
}

/// What a transaction changed, to report it (`state`) or undo it (a fault).
struct TransactionLog {
    /// First value of every cell written, to undo.
    var undo: [(StateBox, Value)] = []
    var written: Set<ObjectIdentifier> = []
    /// Cells created and dropped with their views.
    var created: [(node: String, name: String, box: StateBox)] = []
    var dropped: [(node: String, name: String, box: StateBox)] = []
    var trace: [TraceEvent] = []
    var tracing = false
    /// Bodies ran or ops were applied: undoing needs a rebuild, not just the cells' old values.
    var applied = false
    /// A `resize`'s canvas and a `scroll`'s offsets, reported in the diff.
    var canvas: CanvasSpec?
    /// ScrollViews a `scroll` moved: their offsets, clamped by the layout, are reported when it ends.
    var scrolled: [String] = []

    mutating func noteWrite(_ box: StateBox) {
        if written.insert(ObjectIdentifier(box)).inserted { undo.append((box, box.value)) }
    }

    mutating func step(_ fields: JSONObject) {
        if tracing { trace.append(TraceEvent(.program(fields), depth: 0)) }
    }

    /// A step with the place in the program source of the code it ran: `line` and `column`, 1-based, when known.
    mutating func step(_ fields: JSONObject, at location: SourceLocation?) {
        guard tracing else { return }
        var o = fields
        if let location, location.line > 0 {
            o["line"] = .int(Int64(location.line))
            o["column"] = .int(Int64(location.column))
        }
        trace.append(TraceEvent(.program(o), depth: 0))
    }
}
