import CanopyCore
import CanopyScript

/// Bodies into nodes (PROGRAMS.md §3): structural ids, props, modifiers, instances of the program's views.
extension ProgramTree {
    /// Runs the body of `inst` and renders what it produced; instances it shows are reused by id from `reuse`.
    func runBody(_ inst: ViewInstance) throws(ScriptFault) {
        try inputs.body(inst.id) { () throws(ScriptFault) in try runBodyCode(inst) }
    }

    private func runBodyCode(_ inst: ViewInstance) throws(ScriptFault) {
        let info = program.types[inst.typeID]
        let callee: Value
        let location: SourceLocation?
        if let content = inst.content {
            // A GeometryReader: its closure with a proxy of its node.
            callee = content
            location = machine.sourceLocation(of: content)
        } else {
            guard let getter = info.methods["body"] else {
                throw ScriptFault(.runtime, "view '\(info.name)' has no body", at: info.location)
            }
            callee = .function(BoundMethod(getter, receiver: injectStorage(inst)))
            location = getter.location
        }
        for box in inst.reads { box.readers.remove(inst.id) }
        inst.reads = []
        inst.geometryReads = []
        let saved = current
        current = inst
        defer { current = saved }
        if log.tracing {
            var step: JSONObject = [
                "e": "body", "node": .string(inst.id), "view": .string(inst.content == nil ? info.name : inst.contentKind),
                "because": .array(inst.because.map { .string($0) }),
            ]
            if inst.because == ["geometry"] {
                step["e"] = "geometry"
                step["because"] = "frame"
            }
            log.step(step, at: location)
        }
        inst.isDirty = false
        inst.because = []
        let arguments: [Value] = inst.content == nil ? [] : [inst.argument]
        let produced = try machine.call(value: callee, arguments, site: location ?? machine.site)
        let reuse = inst.children
        inst.children = Dictionary(minimumCapacity: reuse.count)
        var out: [RenderedNode] = []
        for (i, v) in machine.views(in: produced).enumerated() {
            out.append(try render(v, id: childID(inst.id, v, position: "\(i)"), environment: inst.environment, local: [:], owner: inst, reuse: reuse))
        }
        // After rendering: `forget` only removes entries still pointing at old nodes, so ids that survive are
        // overwritten in place instead of removed and inserted again (a 1,000-field form re-renders 1,000 ids).
        forget(inst.output)
        inst.output = out
        for (id, old) in reuse where inst.children[id] !== old { drop(old) }
        layout.rendered(inst)
        if inst.geometryReads.isEmpty { geometryReaders[inst.id] = nil } else { geometryReaders[inst.id] = inst }
    }

    /// The id of a child view: its parent's id, its position (or element id, or explicit id) and its type.
    func childID(_ parent: String, _ v: ViewValue, position: String) -> String {
        if let explicit = v.explicitID { return "\(parent)/#\(explicit):\(v.type)" }
        return "\(parent)/\(position):\(v.type)"
    }

    /// Renders one view at `id`, seeing `environment`.
    func render(
        _ v: ViewValue, id: String, environment: [String: Value], local: [String: Value], owner: ViewInstance?,
        reuse: [String: ViewInstance]
    ) throws(ScriptFault) -> RenderedNode {
        var env = environment
        var localEnv = local
        // Modifiers are innermost first; the innermost `.environment` of a key is the one the view sees, as in SwiftUI.
        for m in v.modifiers.reversed() {
            if case .environment(let k, let value) = m {
                env[k] = value
                localEnv[k] = value
            }
        }
        var modifiers: [Modifier] = []
        var attached: [RenderedNode] = []
        var origin: [Int]?
        for (i, m) in v.modifiers.enumerated() {
            let made = try modifierJSON(
                m, owner: id, index: i, engineIndex: modifiers.count, environment: env, local: localEnv, instance: owner,
                reuse: reuse, attached: &attached)
            if made.count != 1, origin == nil { origin = Array(0..<modifiers.count) }
            modifiers += made
            origin? += Array(repeating: i, count: made.count)
        }
        if v.kind == .custom || (v.kind == .library && v.type == "GeometryReader") {
            let inst = v.kind == .custom
                ? try instance(for: v, id: id, environment: env, local: localEnv, owner: owner, reuse: reuse)
                : try readerInstance(for: v, id: id, environment: env, local: localEnv, owner: owner, reuse: reuse)
            let node = RenderedNode(
                id: id, view: v, type: v.type, props: v.kind == .custom ? customProps(v.record) : [:],
                modifiers: modifiers, children: [], instance: inst)
            node.attached = attached
            node.modifierOrigin = origin
            nodes[id] = node
            return node
        }
        var children: [RenderedNode] = []
        // An element of a ForEach may make several views (`Text(item.name); Divider()`), which `[id]:Type` tells
        // apart unless two are of one type (`Text(a); Text(b)`): those are told apart by their place in the
        // element, `[id]-0:Text`, `[id]-1:Text`.
        var sameType: [String: Int] = [:]
        if v.kind == .forEach {
            for (i, c) in v.children.enumerated() where i < v.childKeys.count {
                sameType["\(v.childKeys[i]):\(c.type)", default: 0] += 1
            }
        }
        var elementStart: [String: Int] = [:]
        for (i, c) in v.children.enumerated() {
            let position: String
            switch v.kind {
            case .conditional: position = "\(v.branch)-\(i)"
            case .forEach:
                let key = i < v.childKeys.count ? v.childKeys[i] : String(i)
                let start = elementStart[key] ?? i
                elementStart[key] = start
                position = sameType["\(key):\(c.type)", default: 1] > 1 ? "[\(key)]-\(i - start)" : "[\(key)]"
            default: position = "\(i)"
            }
            children.append(try render(c, id: childID(id, c, position: position), environment: env, local: localEnv, owner: owner, reuse: reuse))
        }
        let node = RenderedNode(
            id: id, view: v, type: v.type, props: try libraryProps(v), modifiers: modifiers, children: children,
            instance: nil)
        node.attached = attached
        node.modifierOrigin = origin
        nodes[id] = node
        return node
    }

    /// The instance of a view struct at `id`: the one already there (given its new properties), or a new one whose
    /// body runs at once.
    func instance(
        for v: ViewValue, id: String, environment: [String: Value], local: [String: Value], owner: ViewInstance?,
        reuse: [String: ViewInstance]
    ) throws(ScriptFault) -> ViewInstance {
        guard case .record(let t, _) = v.record else {
            throw ScriptFault(.runtime, "\(v.type) is not a view struct", at: v.location)
        }
        if let old = reuse[id], old.typeID == t {
            owner?.children[id] = old
            old.localEnvironment = local
            if !sameProperties(old.record, v.record, t) {
                old.record = v.record
                markDirty(old, because: "properties")
            }
            setEnvironment(old, environment)
            return old
        }
        let depth = (owner?.depth ?? -1) + 1
        // A view that shows itself would recurse natively until the stack overflows; a tree that deep is too deep.
        guard depth <= limits.maxDepth else {
            throw ScriptFault(.runtime, "views nest more than \(limits.maxDepth) deep (does \(v.type) show itself?)", at: v.location)
        }
        let inst = ViewInstance(id: id, typeID: t, record: v.record, depth: depth, owner: owner)
        inst.localEnvironment = local
        inst.environment = environment
        owner?.children[id] = inst
        instances[id] = inst
        try createCells(inst)
        try runBody(inst)
        return inst
    }

    /// The instance of a `GeometryReader` at `id`: its body is its content closure, run with a proxy of its node.
    func readerInstance(
        for v: ViewValue, id: String, environment: [String: Value], local: [String: Value], owner: ViewInstance?,
        reuse: [String: ViewInstance]
    ) throws(ScriptFault) -> ViewInstance {
        guard let content = v.handler("content"), let proxy = program.type(named: "GeometryProxy") else {
            throw ScriptFault(.runtime, "GeometryReader needs a content closure", at: v.location)
        }
        if let old = reusedClosureInstance(id, content, environment: environment, local: local, owner: owner, reuse: reuse) {
            return old
        }
        let inst = try newClosureInstance(
            id, typeID: proxy.id, content, environment: environment, local: local, owner: owner, at: v.location)
        inst.argument = .record(proxy.id, [.string(id)])
        try runBody(inst)
        return inst
    }

    /// The instance of a closure view (a GeometryReader's, a preference value's) already at `id`, given its new
    /// closure and environment; nil when there is none.
    func reusedClosureInstance(
        _ id: String, _ content: Value, environment: [String: Value], local: [String: Value], owner: ViewInstance?,
        reuse: [String: ViewInstance]
    ) -> ViewInstance? {
        guard let old = reuse[id], old.content != nil else { return nil }
        owner?.children[id] = old
        old.localEnvironment = local
        if !old.content!.sameInput(as: content) {
            old.content = content
            markDirty(old, because: "properties")
        }
        setEnvironment(old, environment)
        return old
    }

    /// A new closure view's instance at `id`, registered under its owner (its body not run yet).
    func newClosureInstance(
        _ id: String, typeID: TypeID, _ content: Value, environment: [String: Value], local: [String: Value],
        owner: ViewInstance?, at location: SourceLocation
    ) throws(ScriptFault) -> ViewInstance {
        let depth = (owner?.depth ?? -1) + 1
        guard depth <= limits.maxDepth else {
            throw ScriptFault(.runtime, "views nest more than \(limits.maxDepth) deep", at: location)
        }
        let inst = ViewInstance(id: id, typeID: typeID, record: .null, depth: depth, owner: owner)
        inst.content = content
        inst.localEnvironment = local
        inst.environment = environment
        owner?.children[id] = inst
        instances[id] = inst
        return inst
    }

    /// Whether a view's new properties are those it has (storage of wrapped properties is the instance's).
    func sameProperties(_ a: Value, _ b: Value, _ t: TypeID) -> Bool {
        guard case .record(_, let x) = a, case .record(_, let y) = b, x.count == y.count else { return false }
        let fields = program.types[t].fields
        for i in x.indices where i < fields.count {
            if fields[i].wrapper == "State" || fields[i].wrapper == "Environment" { continue }
            if !x[i].sameInput(as: y[i]) { return false }
        }
        return true
    }

    /// Gives an instance a new environment; its environment values and the instances below it follow.
    func setEnvironment(_ inst: ViewInstance, _ env: [String: Value]) {
        guard !sameEnvironment(inst.environment, env) else { return }
        inst.environment = env
        for (key, box) in inst.environmentBoxes {
            write(box, env[key] ?? environmentDefault(key))
        }
        for child in inst.children.values {
            setEnvironment(child, env.merging(child.localEnvironment) { $1 })
        }
    }

    func sameEnvironment(_ a: [String: Value], _ b: [String: Value]) -> Bool {
        a.count == b.count && a.allSatisfy { b[$0.key] == $0.value }
    }

    /// Creates the `@State` cells of a new instance: restored values first, else the initial values its struct holds.
    func createCells(_ inst: ViewInstance) throws(ScriptFault) {
        guard case .record(_, let fields) = inst.record else { return }
        let info = program.types[inst.typeID]
        for (i, f) in info.fields.enumerated() where f.wrapper == "State" {
            let value = restoredValue(inst.id, f.name, as: f.type) ?? (i < fields.count ? fields[i] : .null)
            let box = StateBox(.state(node: inst.id, name: f.name), value)
            inst.cells.append((f.name, box))
            log.created.append((inst.id, f.name, box))
        }
    }

    /// The struct with its wrapped properties given their storage: cells, environment boxes.
    func injectStorage(_ inst: ViewInstance) -> Value {
        guard case .record(let t, var fields) = inst.record else { return inst.record }
        let info = program.types[t]
        for (i, f) in info.fields.enumerated() where i < fields.count {
            switch f.wrapper {
            case "State":
                if let box = inst.cell(f.name) { fields[i] = .cell(box) }
            case "Environment":
                let key = f.environmentKey ?? f.name
                let box: StateBox
                if let b = inst.environmentBoxes[key] { box = b } else {
                    box = StateBox(.environment(node: inst.id, key: key), inst.environment[key] ?? environmentDefault(key))
                    inst.environmentBoxes[key] = box
                }
                fields[i] = .cell(box)
            default: break
            }
        }
        return .record(t, fields)
    }

    /// An environment value no ancestor set: the `defaultValue` of its key, through the program's
    /// `EnvironmentValues` property.
    func environmentDefault(_ key: String) -> Value {
        if let env = program.type(named: "EnvironmentValues"), let getter = env.methods[key] {
            let empty = Value.record(env.id, [])
            if let v = try? machine.call(value: .function(BoundMethod(getter, receiver: empty)), [], site: getter.location) {
                return v
            }
        }
        switch key {
        case "colorScheme": return .string("light")
        case "isEnabled": return .bool(true)
        default: return .null
        }
    }

    /// Drops an instance that went away, with the instances below it: its cells are reported dropped.
    func drop(_ inst: ViewInstance) {
        for child in inst.children.values { drop(child) }
        for c in inst.cells { log.dropped.append((inst.id, c.name, c.box)) }
        inputs.drop(inst.id)
        for box in inst.reads { box.readers.remove(inst.id) }
        if instances[inst.id] === inst { instances[inst.id] = nil }
        if geometryReaders[inst.id] === inst { geometryReaders[inst.id] = nil }
        if awaitingPreference[inst.id] === inst { awaitingPreference[inst.id] = nil }
        layout.dropped(inst)
        forget(inst.output)
        inst.isDirty = false
    }

    /// Removes rendered nodes from the event index.
    func forget(_ list: [RenderedNode]) {
        for n in list {
            if nodes[n.id] === n { nodes[n.id] = nil }
            forget(n.children)
            forget(n.attached)
        }
    }
}
