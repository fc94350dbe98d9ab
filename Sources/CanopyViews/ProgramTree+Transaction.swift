import CanopyCore
import CanopyScript

/// Transactions (PROGRAMS.md §6): a handler runs, the bodies that read what changed run again, their output becomes
/// ops, the engine re-reduces, the readers that fired run their closures, and so on for at most 16 rounds — one
/// version in all, or nothing at all on a fault.
extension ProgramTree {
    static let maxRounds = 16

    /// What the rounds of one transaction add up to.
    struct Outcome {
        var ops: [Op] = []
        var fired: Set<String> = []
        var summary = TraceSummary()
        var warnings: [String] = []
    }

    /// Builds the tree: the root view, every body, the engine's first evaluation; a new tree (no cells) then runs
    /// its readers' closures with their first values, as SwiftUI does when views appear. `state` is this program's
    /// own (a restart, a rollback): objects that do not fit it are `bad_message`.
    func create(state: ProgramState, version: Int, trace: Bool) throws(CanopyError) -> (Tree, ProgramTransaction) {
        try checkNames(program)
        try beginRestoring(state, strict: true)
        begin(trace: trace)
        defer { clearRestoring() }
        var tree: Tree
        var outcome = Outcome()
        let published: (cells: [StateCell], objects: JSONObject)
        do {
            // The bodies run again as they ran when their inputs were recorded (a restore, a rollback).
            inputs.replaying = true
            defer { inputs.replaying = false }
            globalBoxes = [:]
            geometryReaders = [:]
            geometryWatches = [:]
            awaitingPreference = [:]
            try script { () throws(ScriptFault) in try createGlobals() }
            let rootView = try script { () throws(ScriptFault) in try makeRoot() }
            let node = try script { () throws(ScriptFault) in
                try render(rootView, id: rootView.explicitID ?? rootView.type, environment: [:], local: [:], owner: nil, reuse: [:])
            }
            rootNode = node
            root = node.instance
            dirty = []
            // Geometry readers ran before anything was laid out: lay out and run them again until they settle.
            var discarded: [Op] = []
            try script { () throws(ScriptFault) in try settleLayout(&discarded, warnings: &outcome.warnings) }
            _ = layout.takeChangedNodes()
            // A restart does not run `onGeometryChange` actions again for the values they saw before it.
            if !state.cells.isEmpty { pendingOnChange = [] }
            inputs.replaying = false
            try endRestoring()
            tree = try Tree(
                keys: compiled.keys, root: node.fullNode, limits: limits, version: version,
                compiler: ScriptKeyCompiler())
            // Views made from a preference's value run now that the engine has reduced it.
            syncPreferenceValues(tree.readers)
            if state.cells.isEmpty {
                for r in tree.readers where r.present { outcome.fired.insert(r.reader) }
                try script { () throws(ScriptFault) in try perform(tree.readers.filter(\.present)) }
                try runRounds(&tree, &outcome, trace: trace)
            } else if !dirty.isEmpty {
                try runRounds(&tree, &outcome, trace: trace)
            }
            published = try publish()
        } catch {
            machine.reset()
            throw error
        }
        return (tree, finish(tree, outcome, published))
    }

    /// Runs `body` (a handler) as one transaction on `tree`.
    func transaction(
        tree: inout Tree, trace: Bool, _ body: () throws(CanopyError) -> Void
    ) throws(CanopyError) -> ProgramTransaction {
        begin(trace: trace)
        var outcome = Outcome()
        let published: (cells: [StateCell], objects: JSONObject)
        do {
            try body()
            try runRounds(&tree, &outcome, trace: trace)
            published = try publish()
        } catch {
            machine.reset()
            try rollBack(&tree)
            throw error
        }
        tree.advanceVersion()
        return finish(tree, outcome, published)
    }

    func begin(trace: Bool) {
        inputs.begin()
        log = TransactionLog()
        log.tracing = trace
        machine.fuel = limits.fuel
        dirty = []
        pendingOnChange = []
        objectWrites.forget()
    }

    /// Runs Swift code, turning its fault into the protocol's error.
    func script<T>(_ body: () throws(ScriptFault) -> T) throws(CanopyError) -> T {
        do { return try body() } catch { throw error.canopyError }
    }

    /// Rounds until nothing changes: bodies, ops, engine, readers' closures, `onChange` closures.
    func runRounds(_ tree: inout Tree, _ outcome: inout Outcome, trace: Bool) throws(CanopyError) {
        var round = 0
        while !dirty.isEmpty || !pendingOnChange.isEmpty || layoutPending {
            round += 1
            var ops: [Op] = []
            try script { () throws(ScriptFault) in
                try processDirty(&ops)
                if !ops.isEmpty || layoutPending { try settleLayout(&ops, warnings: &outcome.warnings) }
            }
            layoutPending = false
            let changes = try apply(ops, &tree, &outcome, trace: trace)
            if !awaitingPreference.isEmpty { syncPreferenceValues(tree.readers) }
            if round >= Self.maxRounds {
                if !dirty.isEmpty || !pendingOnChange.isEmpty || !changes.isEmpty {
                    outcome.warnings.append(
                        "stopped after \(Self.maxRounds) rounds: state kept changing (an onPreferenceChange or onChange "
                            + "closure changes what it observes)")
                    pendingOnChange = []
                    var last: [Op] = []
                    try script { () throws(ScriptFault) in try processDirty(&last) }
                    _ = try apply(last, &tree, &outcome, trace: trace)
                }
                return
            }
            try script { () throws(ScriptFault) in
                try perform(changes)
                try runOnChange()
            }
        }
    }

    /// Applies one round's ops as part of the transaction's version; the readers that fired.
    func apply(_ ops: [Op], _ tree: inout Tree, _ outcome: inout Outcome, trace: Bool) throws(CanopyError) -> [ReaderValue] {
        guard !ops.isEmpty else { return [] }
        log.applied = true
        let diff = try tree.apply(ops, trace: trace, advancing: false)
        outcome.ops += diff.ops
        for c in diff.changes { outcome.fired.insert(c.reader) }
        outcome.summary.evaluated += diff.summary.evaluated
        outcome.summary.cached += diff.summary.cached
        outcome.summary.skipped += diff.summary.skipped
        outcome.summary.reduces += diff.summary.reduces
        if let t = diff.trace { log.trace += t.events }
        return diff.changes
    }

    /// Re-runs dirty bodies, ancestors first, and diffs what they produce.
    func processDirty(_ ops: inout [Op]) throws(ScriptFault) {
        while !dirty.isEmpty {
            var best = 0
            for i in dirty.indices where dirty[i].depth < dirty[best].depth { best = i }
            let inst = dirty.remove(at: best)
            guard inst.isDirty, instances[inst.id] === inst else { continue }
            log.applied = true
            let old = inst.output
            try runBody(inst)
            NodeDiff.children(parent: inst.id, old: old, new: inst.output, into: &ops)
            collectOnChange(old: old, new: inst.output)
        }
    }

    /// Runs the `onPreferenceChange` closures of the readers that fired, in tree order.
    func perform(_ changes: [ReaderValue]) throws(ScriptFault) {
        syncPreferenceValues(changes)
        for c in changes {
            guard let node = nodes[c.node], let hash = c.reader.lastIndex(of: "#"),
                let treeIndex = Int(c.reader[c.reader.index(after: hash)...]),
                case let index = node.viewModifierIndex(treeIndex), index >= 0, index < node.view.modifiers.count,
                case .onPreferenceChange(let key, let action) = node.view.modifiers[index]
            else { continue }
            log.step(["e": "perform", "reader": .string(c.reader), "node": .string(c.node)], at: machine.sourceLocation(of: action))
            let scriptKey = compiled.keysByName[keyName(key)]
            let value = c.value.map { scriptKey?.decodeValue($0) ?? .null } ?? scriptKey?.defaultScriptValue ?? .null
            _ = try machine.call(value: action, [value], site: machine.site)
        }
    }

    /// Queues the `onChange` closures whose observed value differs between two renderings of a body.
    func collectOnChange(old: [RenderedNode], new: [RenderedNode]) {
        // Indexed on the first onChange found: most bodies have none, and a large one would hash every id for nothing.
        var before: [String: RenderedNode]?
        func index(_ list: [RenderedNode]) {
            for n in list {
                before![n.id] = n
                index(n.children)
                index(n.attached)
            }
        }
        func earlier(_ id: String) -> RenderedNode? {
            if before == nil {
                before = [:]
                index(old)
            }
            return before![id]
        }
        func visit(_ list: [RenderedNode]) {
            for n in list {
                for (i, m) in n.view.modifiers.enumerated() {
                    guard case .onChange(let value, let action, let initial) = m else { continue }
                    if let o = earlier(n.id), i < o.view.modifiers.count,
                        case .onChange(let previous, _, _) = o.view.modifiers[i]
                    {
                        if previous != value { pendingOnChange.append((n.id, action, previous, value)) }
                    } else if initial {
                        pendingOnChange.append((n.id, action, value, value))
                    }
                }
                visit(n.children)
                visit(n.attached)
            }
        }
        visit(new)
    }

    func runOnChange() throws(ScriptFault) {
        let queued = pendingOnChange
        pendingOnChange = []
        for (node, action, old, new) in queued {
            log.step(["e": "onChange", "node": .string(node)], at: machine.sourceLocation(of: action))
            let arity = machine.arity(of: action)
            let args: [Value] = arity == 0 ? [] : arity == 1 ? [new] : [old, new]
            _ = try machine.call(value: action, args, site: machine.site)
        }
    }

    /// Puts everything back as it was before the transaction: cell values and the properties of objects, then — if
    /// bodies ran or ops were applied — the instances and the tree, rebuilt from those cells (the program is
    /// deterministic).
    func rollBack(_ tree: inout Tree) throws(CanopyError) {
        inputs.rollBack()
        for (box, v) in log.undo.reversed() { box.value = v }
        objectWrites.undo()
        for inst in dirty { inst.isDirty = false }
        dirty = []
        guard log.applied || !log.created.isEmpty || !log.dropped.isEmpty else { return }
        let created = Set(log.created.map { ObjectIdentifier($0.box) })
        var values = cellValues.filter { c in
            !log.created.contains { $0.node == c.node && $0.name == c.name }
        }
        for d in log.dropped where !created.contains(ObjectIdentifier(d.box)) {
            values.append((d.node, d.name, d.box.value))
        }
        let state = try encodeState(values, limited: false)
        instances = [:]
        nodes = [:]
        let (rebuilt, _) = try create(state: state, version: tree.version, trace: false)
        tree = rebuilt
    }

    /// The transaction's outcome as the protocol reports it, with what it stores (`publish`).
    func finish(_ tree: Tree, _ outcome: Outcome, _ published: (cells: [StateCell], objects: JSONObject))
        -> ProgramTransaction
    {
        let changes = outcome.fired.isEmpty ? [] : tree.readers.filter { outcome.fired.contains($0.reader) }
        let trace: Trace? = log.tracing ? Trace(events: log.trace, summary: outcome.summary) : nil
        let frames = layout.takeChangedNodes().sorted().compactMap { layout.change($0) }
        var scroll: [(node: String, offset: [Double]?)] = []
        for node in log.scrolled {
            let p = layout.tree.scrollOffset(of: node)
            spec.scrollOffsets[node] = [p.x, p.y]
            scroll.append((node, [p.x, p.y]))
        }
        return ProgramTransaction(
            diff: Diff(ops: outcome.ops, changes: changes, trace: trace, summary: outcome.summary),
            state: published.cells, objects: published.objects, warnings: outcome.warnings,
            inputs: inputs.transaction, bodyInputs: inputs.changes, frames: frames, canvas: log.canvas,
            scroll: scroll)
    }
}
