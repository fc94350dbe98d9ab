import CanopyCore
import CanopyLayout
import CanopyScript

/// Events (PROGRAMS.md §6): what each kind of view accepts and which closure or binding it runs.
extension ProgramTree {
    static let events: [String: Set<String>] = [
        "Button": ["tap"],
        "TextField": ["setText", "focus", "commit"],
        "SecureField": ["setText", "commit"],
        "Toggle": ["setValue"],
        "Slider": ["setValue", "focus"],
        "Stepper": ["increment", "decrement", "focus"],
    ]

    func handle(_ event: ProgramEvent, tree: inout Tree, trace: Bool) throws(CanopyError) -> ProgramTransaction {
        if event.event == "post" {
            guard let name = event.name else { throw CanopyError(.badEvent, "a post event needs the notification's \"name\"") }
            return try transaction(tree: &tree, trace: trace) { () throws(CanopyError) in
                let actions = receivers(of: name)
                log.step(
                    ["e": "action", "event": "post", "name": .string(name)],
                    at: actions.first.flatMap(machine.sourceLocation(of:)))
                try script { () throws(ScriptFault) in
                    for a in actions { _ = try call(a, [.string(name)]) }
                }
            }
        }
        if event.event == "resize" { return try resize(event, tree: &tree, trace: trace) }
        guard let id = event.node else { throw CanopyError(.badEvent, "a \(event.event) event needs the \"node\" it happens on") }
        guard let node = nodes[id] else { throw CanopyError(.noSuchNode, "no node \"\(id)\" in this program tree") }
        if event.event == "scroll" { return try scroll(event, node, tree: &tree, trace: trace) }
        guard let accepted = Self.events[node.type], accepted.contains(event.event) else {
            let has = Self.events[node.type].map { "; a \(node.type) has " + $0.sorted().joined(separator: ", ") }
                ?? " (it has no events)"
            throw CanopyError(.badEvent, "a \(node.type) does not take \(event.event)\(has)")
        }
        let value = try checkedValue(event, node)
        return try transaction(tree: &tree, trace: trace) { () throws(CanopyError) in
            log.step(["e": "action", "node": .string(id), "event": .string(event.event)], at: actionLocation(event.event, node))
            try script { () throws(ScriptFault) in try dispatch(event.event, value, node) }
        }
    }

    /// `resize`: the tree gets a new canvas (LAYOUT.md §2) and is laid out again, as one transaction.
    func resize(_ event: ProgramEvent, tree: inout Tree, trace: Bool) throws(CanopyError) -> ProgramTransaction {
        let canvas: CanvasSpec
        do { canvas = try CanvasSpec(json: event.value ?? .null) } catch {
            throw CanopyError(.badEvent, "resize: \(error.message)")
        }
        let before = spec.canvas
        do {
            return try transaction(tree: &tree, trace: trace) { () throws(CanopyError) in
                log.step(["e": "action", "event": "resize", "canvas": canvas.json])
                spec.canvas = canvas
                layout.setCanvas(canvas)
                log.canvas = canvas
                layoutPending = true
            }
        } catch {
            spec.canvas = before
            layout.setCanvas(before ?? .standard)
            throw error
        }
    }

    /// `scroll` on a ScrollView: its content moves to the offset (clamped to the content), as one transaction.
    func scroll(_ event: ProgramEvent, _ node: RenderedNode, tree: inout Tree, trace: Bool) throws(CanopyError)
        -> ProgramTransaction
    {
        guard node.type == "ScrollView" else {
            throw CanopyError(.badEvent, "a \(node.type) does not take scroll; a ScrollView does")
        }
        guard let o = event.value?.object, let x = o["x"]?.number ?? (o["x"] == nil ? 0 : nil),
            let y = o["y"]?.number ?? (o["y"] == nil ? 0 : nil), x.isFinite, y.isFinite, abs(x) <= CanvasSpec.maxSide * 100,
            abs(y) <= CanvasSpec.maxSide * 100
        else { throw CanopyError(.typeMismatch, "scroll on a ScrollView takes {\"x\":number,\"y\":number}, got \((event.value ?? .null).encoded())") }
        let before = spec.scrollOffsets[node.id]
        do {
            return try transaction(tree: &tree, trace: trace) { () throws(CanopyError) in
                log.step(["e": "action", "node": .string(node.id), "event": "scroll"])
                layout.tree.setScrollOffset(node.id, LayoutPoint(x: x, y: y))
                layoutPending = true
                log.scrolled.append(node.id)
            }
        } catch {
            spec.scrollOffsets[node.id] = before
            let xy = before ?? [0, 0]
            layout.tree.setScrollOffset(node.id, LayoutPoint(x: xy[0], y: xy[1]))
            throw error
        }
    }

    /// The event's value in Swift, checked before anything runs (`type_mismatch`).
    func checkedValue(_ event: ProgramEvent, _ node: RenderedNode) throws(CanopyError) -> Value {
        let v = event.value ?? .null
        func mismatch(_ want: String) -> CanopyError {
            CanopyError(.typeMismatch, "\(event.event) on a \(node.type) takes \(want), got \(v.typeName)")
        }
        switch event.event {
        case "setText":
            guard let s = v.string else { throw mismatch("a string") }
            return .string(s)
        case "focus":
            guard let b = v.bool else { throw mismatch("a bool") }
            return .bool(b)
        case "setValue" where node.type == "Toggle":
            guard let b = v.bool else { throw mismatch("a bool") }
            return .bool(b)
        case "setValue":
            guard let d = v.number else { throw mismatch("a number") }
            return .double(d)
        default:
            return .null
        }
    }

    func dispatch(_ event: String, _ value: Value, _ node: RenderedNode) throws(ScriptFault) {
        let v = node.view
        switch event {
        case "tap":
            if let action = v.handler("action") { _ = try call(action, []) }
        case "setText":
            try setBinding(v.prop("text"), value)
        case "focus":
            if let h = v.handler("onEditingChanged") { _ = try call(h, [value]) }
        case "commit":
            if let h = v.handler("onCommit") { _ = try call(h, []) }
            try submit(node.id)
        case "setValue" where node.type == "Toggle":
            try setBinding(v.prop("isOn"), value)
        case "setValue":
            try setBinding(v.prop("value"), try sliderValue(v, value))
        case "increment", "decrement":
            let up = event == "increment"
            if let h = v.handler(up ? "onIncrement" : "onDecrement") {
                _ = try call(h, [])
            } else if v.handler("onIncrement") == nil && v.handler("onDecrement") == nil {
                try step(v, up: up)
            }
        default:
            break
        }
    }

    /// Where the code an event runs is written, for its trace step: the handler closure it calls first, else (a
    /// binding's setter, an event without a handler) the place the control was constructed.
    func actionLocation(_ event: String, _ node: RenderedNode) -> SourceLocation? {
        let v = node.view
        let handler: Value?
        switch event {
        case "tap": handler = v.handler("action")
        case "focus": handler = v.handler("onEditingChanged")
        case "commit": handler = v.handler("onCommit") ?? submitActions(node.id).first
        case "increment": handler = v.handler("onIncrement")
        case "decrement": handler = v.handler("onDecrement")
        default: handler = nil
        }
        if let location = handler.flatMap(machine.sourceLocation(of:)) { return location }
        return v.location.line > 0 ? v.location : nil
    }

    func call(_ f: Value, _ args: [Value]) throws(ScriptFault) -> Value {
        let arity = machine.arity(of: f)
        return try machine.call(value: f, arity == 0 ? [] : args, site: machine.site)
    }

    func setBinding(_ b: Value?, _ value: Value) throws(ScriptFault) {
        guard let b else { return }
        try machine.assign(binding: b, value)
    }

    /// A slider's new value: clamped to its bounds, rounded to its step, an `Int` if its value is one.
    func sliderValue(_ v: ViewValue, _ value: Value) throws(ScriptFault) -> Value {
        guard var d = value.number else { return value }
        if let bounds = v.prop("in") { d = clamp(d, bounds) }
        if let step = v.prop("step")?.number, step > 0 {
            let lower = v.prop("in").flatMap(lowerBound) ?? 0
            d = lower + ((d - lower) / step).rounded() * step
            if let bounds = v.prop("in") { d = clamp(d, bounds) }
        }
        if let current = v.prop("value"), case .int = try machine.unwrapProperty(current, at: machine.site) {
            return .int(Int(d.rounded()))
        }
        return .double(d)
    }

    /// A stepper's value binding ± its step, within its bounds.
    func step(_ v: ViewValue, up: Bool) throws(ScriptFault) {
        guard let binding = v.prop("value") else { return }
        let current = try machine.unwrapProperty(binding, at: machine.site)
        let stepValue = v.prop("step")?.number ?? 1
        guard let now = current.number else { return }
        var next = now + (up ? stepValue : -stepValue)
        if let bounds = v.prop("in") {
            let lo = lowerBound(bounds) ?? -.infinity
            let hi = upperBound(bounds) ?? .infinity
            if next > hi || next < lo { return }  // at a bound: the event changes nothing
            next = min(max(next, lo), hi)
        }
        if case .int = current { try setBinding(binding, .int(Int(next))) } else { try setBinding(binding, .double(next)) }
    }

    func clamp(_ d: Double, _ bounds: Value) -> Double {
        min(max(d, lowerBound(bounds) ?? -.infinity), upperBound(bounds) ?? .infinity)
    }

    func lowerBound(_ r: Value) -> Double? {
        switch r {
        case .range(let lo, _, _): return Double(lo)
        case .doubleRange(let lo, _, _): return lo
        default: return nil
        }
    }

    /// The largest value in a range (integer ranges are stored half-open).
    func upperBound(_ r: Value) -> Double? {
        switch r {
        case .range(_, let hi, _): return Double(hi - 1)
        case .doubleRange(_, let hi, _): return hi
        default: return nil
        }
    }

    /// Runs the `onSubmit` closures on the field and its ancestors' nodes, innermost first.
    func submit(_ id: String) throws(ScriptFault) {
        for action in submitActions(id) { _ = try call(action, []) }
    }

    /// The `onSubmit` closures on the field and its ancestors' nodes, innermost first.
    func submitActions(_ id: String) -> [Value] {
        var actions: [Value] = []
        var path = id
        while true {
            if let node = nodes[path] {
                for m in node.view.modifiers {
                    if case .action("onSubmit", let action) = m { actions.append(action) }
                }
            }
            guard let slash = path.lastIndex(of: "/") else { return actions }
            path = String(path[..<slash])
        }
    }

    /// The closures a posted notification runs: every `onReceive` for its name, in tree order.
    func receivers(of name: String) -> [Value] {
        var actions: [Value] = []
        func visit(_ n: RenderedNode) {
            for m in n.view.modifiers {
                if case .onReceive(let n2, let action) = m, n2 == name || n2.hasSuffix("." + name) || name.hasSuffix("." + n2) {
                    actions.append(action)
                }
            }
            for a in n.attached { visit(a) }
            for c in n.instance?.output ?? n.children { visit(c) }
        }
        if let rootNode { visit(rootNode) }
        return actions
    }
}
