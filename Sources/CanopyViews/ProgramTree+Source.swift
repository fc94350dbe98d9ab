import CanopyCore
import CanopyScript

/// The root view and the source: what a tree shows (`view`, `#Preview`, preview modifiers) and hot reload.
extension ProgramTree {
    /// The root view: what the first `#Preview` shows when `spec.view` is nil or names that view, else `spec.view`
    /// built with no arguments, else `ContentView()`; wrapped by the preview modifiers (`#Preview`'s traits, then
    /// `spec.previewModifiers`).
    func makeRoot() throws(ScriptFault) -> ViewValue {
        try inputs.body("") { () throws(ScriptFault) in try makeRootView() }
    }

    private func makeRootView() throws(ScriptFault) -> ViewValue {
        var content: ViewValue
        var modifiers = spec.previewModifiers
        if let (view, traits) = try previewRoot() {
            content = view
            modifiers = traits + modifiers
            spec.view = content.type
        } else if let name = spec.view {
            content = try instantiate(name)
        } else {
            content = try instantiate("ContentView")
            spec.view = "ContentView"
        }
        previewContexts = []
        for m in modifiers {
            content = try applyPreviewModifier(m, to: content)
        }
        return content
    }

    /// The names a client gave (`view`, `previewModifiers`) exist in `program`: else `bad_message`, before anything
    /// runs (ProgramRuntime.start).
    func checkNames(_ program: Program) throws(CanopyError) {
        if let name = spec.view, viewType(name, in: program) == nil {
            throw CanopyError(.badMessage, noView(name, in: program))
        }
        for name in spec.previewModifiers where previewModifierType(name, in: program) == nil {
            throw CanopyError(.badMessage, "the program has no PreviewModifier '\(name)'")
        }
    }

    /// The view struct of the program named `name`.
    func viewType(_ name: String, in program: Program) -> TypeInfo? {
        program.type(named: name).flatMap { $0.kind == .structure && $0.conforms(to: "View") ? $0 : nil }
    }

    /// What to say when a name is not one of the program's views: the name, and the views there are.
    func noView(_ name: String, in program: Program) -> String {
        let views = program.types.filter { $0.kind == .structure && $0.conforms(to: "View") && $0.location.line > 0 }
        return "the program has no view '\(name)'" + (views.isEmpty ? "" : "; its views: " + views.map(\.name).joined(separator: ", "))
    }

    func previewModifierType(_ name: String, in program: Program) -> TypeInfo? {
        program.types.first {
            $0.kind == .structure && $0.conforms(to: "PreviewModifier") && ($0.name == name || $0.name.hasSuffix("." + name))
        }
    }

    /// The first `#Preview`'s view and its traits, if the tree shows it. The spec keeps the view a `#Preview`
    /// resolved to, so a restart or a rollback (started again from the spec) finds it here too, traits included.
    /// With `spec.view` given, a preview that faults or shows another view is not the root.
    func previewRoot() throws(ScriptFault) -> (ViewValue, [String])? {
        guard let preview = program.previews.first else { return nil }
        let produced: ViewValue
        do {
            let value = try machine.call(value: .function(preview.function), [], site: preview.function.location)
            produced = try machine.asView(value, at: preview.function.location)
        } catch {
            guard spec.view != nil else { throw error }
            machine.reset()
            return nil
        }
        guard spec.view == nil || spec.view == produced.type else { return nil }
        return (produced, preview.modifiers)
    }

    /// `V()` for a view struct of the program.
    func instantiate(_ name: String) throws(ScriptFault) -> ViewValue {
        guard let info = viewType(name, in: program) else {
            throw ScriptFault(.runtime, noView(name, in: program), at: .unknown)
        }
        let record = try machine.construct(info)
        return try machine.asView(record, at: info.location)
    }

    /// `M().body(content:context:)` with the modifier's shared context, computed once per program and type.
    func applyPreviewModifier(_ name: String, to content: ViewValue) throws(ScriptFault) -> ViewValue {
        guard let info = previewModifierType(name, in: program) else {
            throw ScriptFault(.runtime, "the program has no PreviewModifier '\(name)'", at: .unknown)
        }
        let modifier = try machine.construct(info)
        let (context, reused) = try compiled.sharedContext(info.name) { () throws(ScriptFault) -> Value in
            try inputs.shared(seed: Self.seed(of: info.name)) { () throws(ScriptFault) -> Value in
                try makeSharedContext(info, modifier)
            }
        }
        previewContexts.append(PreviewContextUse(modifier: info.name, reused: reused))
        guard let body = info.methods["body(content:context:)"] else {
            throw ScriptFault(.runtime, "PreviewModifier '\(info.name)' needs body(content:context:)", at: info.location)
        }
        let produced = try machine.call(
            value: .function(BoundMethod(body, receiver: modifier)), [.view(content), context], site: body.location)
        return try machine.asView(produced, at: body.location)
    }

    /// A shared context's seed: from the modifier's name (FNV-1a), the same for every tree and daemon.
    static func seed(of name: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in name.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }

    private func makeSharedContext(_ info: TypeInfo, _ modifier: Value) throws(ScriptFault) -> Value {
        if let make = info.staticMethods["makeSharedContext()"] {
            return try machine.call(value: .function(make), [], site: make.location)
        }
        if let make = info.methods["makeSharedContext()"] {
            return try machine.call(value: .function(BoundMethod(make, receiver: modifier)), [], site: make.location)
        }
        return .null
    }

    /// Hot reload: the new source's tree, keeping the cells of views that still exist (by node and name; a cell
    /// whose value no longer fits its property's type starts over) and the objects they refer to, read with the new
    /// classes (one that no longer fits starts over the cells that refer to it). A source that does not compile
    /// changes nothing.
    func setSource(_ source: String, tree: inout Tree, trace: Bool) throws(CanopyError) -> ProgramTransaction {
        let next = try ViewRuntime.compile(source)
        try checkNames(next.program)
        let old = state
        let saved = (compiled, spec, root, rootNode, nodes, instances, previewContexts, globalBoxes, objectIDs)
        let oldRoot = tree.root
        func restore() {
            (compiled, spec, root, rootNode, nodes, instances, previewContexts, globalBoxes, objectIDs) = saved
            machine.program = compiled.program
        }
        compiled = next
        spec.source = source
        machine.program = next.program
        nodes = [:]
        instances = [:]
        begin(trace: trace)
        var outcome = Outcome()
        var now = ProgramState()
        do throws(CanopyError) {
            try beginRestoring(old, strict: false)
            defer { clearRestoring() }
            globalBoxes = [:]
            try script { () throws(ScriptFault) in try createGlobals() }
            let rootView = try script { () throws(ScriptFault) in try makeRoot() }
            let node = try script { () throws(ScriptFault) in
                try render(rootView, id: rootView.explicitID ?? rootView.type, environment: [:], local: [:], owner: nil, reuse: [:])
            }
            guard node.id == oldRoot.id else {
                throw CanopyError(
                    .badMessage,
                    "the new source shows '\(node.id)' at the root where the tree has '\(oldRoot.id)'; create a new tree for it")
            }
            rootNode = node
            root = node.instance
            dirty = []
            try endRestoring()
            var ops: [Op] = next.keys.filter { k in !tree.keys.contains { $0.key == k.key && $0.reducer.swiftSource == source } }
                .map { .declareKey($0) }
            NodeDiff.tree(old: oldRoot, new: node.fullNode, into: &ops)
            let changes = try apply(ops, &tree, &outcome, trace: trace)
            try script { () throws(ScriptFault) in try perform(changes) }
            try runRounds(&tree, &outcome, trace: trace)
            now = try encodeState(cellValues, limited: true)
        } catch {
            machine.reset()
            inputs.rollBack()
            restore()
            var rebuilt = tree
            if log.applied {
                // Ops of the new source were applied: the tree goes back to the old program's rendering.
                rebuilt = (try? create(state: old, version: tree.version, trace: false).0) ?? tree
                restore()
            }
            tree = rebuilt
            throw error
        }
        // Inputs of bodies the new source does not show are not needed any more.
        inputs.prune { node in node.isEmpty || instances[node] != nil }
        tree.advanceVersion()
        // Cells that kept their node and name are not new: report only those whose value changed; objects likewise.
        let before = Dictionary(old.cells.map { (Self.cellKey($0.node, $0.name), $0.value) }, uniquingKeysWith: { a, _ in a })
        let nowKeys = Set(now.cells.map { Self.cellKey($0.node, $0.name) })
        let cells = now.cells.filter { before[Self.cellKey($0.node, $0.name)] != $0.value }
            + old.cells.filter { !nowKeys.contains(Self.cellKey($0.node, $0.name)) }.map {
                StateCell(node: $0.node, name: $0.name, value: .null, dropped: true)
            }
        let stored = Dictionary(old.objects.members.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        let objects = JSONObject(uniqueMembers: now.objects.members.filter { stored[$0.key] != $0.value })
        return finish(tree, outcome, (cells, objects))
    }
}
