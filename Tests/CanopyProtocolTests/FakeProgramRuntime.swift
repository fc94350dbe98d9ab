import CanopyCore

/// A stand-in for CanopyViews: a "program" is `counter` (optionally `counter step N`) or `blank`; anything else is a
/// `compile_error` with one diagnostic. A counter's root (`root`, reading sum key K) has a Text `label` showing the
/// `@State` cell `count` of `root` and writing it to K, and a Button `button`. Events: `tap` on `button` adds the
/// step, `setValue` (an integer) sets the count, `fault` raises a `runtime_error`, `loop` adds a warning, `post`
/// of `reset` sets the count to 0. `blank` has no children and no cell. `inspect` of `root` shows the view and its
/// cells; of `label` or `button`, a Text's and a Button's nothing; of anything else, `no_such_node`.
struct FakeProgramRuntime: ProgramRuntime {
    static let diagnostics: JSON = [["line": 1, "column": 1, "message": "expected a view"]]
    static let faultDetails: JSONObject = [
        "line": 7, "column": 9, "stack": [["function": "body", "line": 7]],
    ]
    static let key: JSON = ["key": "K", "reducer": "sum", "default": 0]

    static func integer(_ cell: StateCell) -> Int64? { integer(cell.value) }

    static func integer(_ value: JSON) -> Int64? {
        if case .int(let i) = value { return i }
        return nil
    }

    func start(
        _ spec: ProgramSpec, state: ProgramState, recorded: [RecordedInputs], inputs: any ProgramInputSource,
        version: Int, limits: Limits, trace: Bool
    ) throws(CanopyError) -> ProgramStart {
        let cells = state.cells
        let shape = try FakeProgram.Shape(source: spec.source)
        var resolved = spec
        resolved.view = spec.view ?? "ContentView"
        let count = cells.first { $0.node == "root" && $0.name == "count" }.flatMap(Self.integer) ?? 0
        let program = FakeProgram(spec: resolved, shape: shape, count: count)
        let tree = try Tree(
            keys: [try KeyDeclaration(json: Self.key)], root: program.root(), limits: limits,
            version: version)
        let created = shape.hasCell ? [StateCell(node: "root", name: "count", value: .int(count))] : []
        let diff = Diff(ops: [], changes: tree.readers, trace: nil, summary: TraceSummary())
        return ProgramStart(
            tree: tree, program: program,
            transaction: ProgramTransaction(diff: diff, state: created, warnings: []))
    }
}

final class FakeProgram: ProgramInstance, @unchecked Sendable {  // confined to the machine's thread
    struct Shape: Equatable {
        var hasCell: Bool
        var step: Int64

        init(source: String) throws(CanopyError) {
            let words = source.split(separator: " ")
            switch words.first {
            case "blank" where words.count == 1: self = Shape(hasCell: false, step: 0)
            case "counter" where words.count == 1: self = Shape(hasCell: true, step: 1)
            case "counter" where words.count == 3 && words[1] == "step" && Int64(words[2]) != nil:
                self = Shape(hasCell: true, step: Int64(words[2])!)
            default:
                throw CanopyError(
                    .compileError, "the source does not compile",
                    details: ["diagnostics": FakeProgramRuntime.diagnostics])
            }
        }

        private init(hasCell: Bool, step: Int64) {
            self.hasCell = hasCell
            self.step = step
        }
    }

    private(set) var spec: ProgramSpec
    private var shape: Shape
    private var count: Int64

    init(spec: ProgramSpec, shape: Shape, count: Int64) {
        self.spec = spec
        self.shape = shape
        self.count = count
    }

    var state: ProgramState {
        ProgramState(cells: shape.hasCell ? [StateCell(node: "root", name: "count", value: .int(count))] : [])
    }

    var previewContexts: [PreviewContextUse] {
        spec.previewModifiers.map { PreviewContextUse(modifier: $0, reused: false) }
    }

    func root() -> Node {
        Node(id: "root", type: "VStack", modifiers: [Self.reader], children: children())
    }

    private static let reader = Modifier.onPreferenceChange(key: "K")

    private func children() -> [Node] {
        guard shape.hasCell else { return [] }
        return [
            Node(
                id: "label", type: "Text", props: ["text": .string("\(count)")],
                modifiers: [.preference(key: "K", value: .int(count))]),
            Node(id: "button", type: "Button", props: ["title": .string("+\(shape.step)")]),
        ]
    }

    func handle(_ event: ProgramEvent, tree: inout Tree, trace: Bool) throws(CanopyError)
        -> ProgramTransaction
    {
        var next = count
        var warnings: [String] = []
        if event.event == "post" {
            if event.name == "reset" { next = 0 }
        } else {
            guard shape.hasCell, let node = event.node, ["root", "label", "button"].contains(node) else {
                throw CanopyError(.noSuchNode, "no node \"\(event.node ?? "")\"")
            }
            guard node == "button" else {
                throw CanopyError(.badEvent, "a \(node) has no \(event.event) event")
            }
            switch event.event {
            case "tap": next += shape.step
            case "setValue":
                guard let v = event.value.flatMap(FakeProgramRuntime.integer) else {
                    throw CanopyError(.typeMismatch, "setValue takes an Int")
                }
                next = v
            case "fault":
                throw CanopyError(
                    .runtimeError, "index out of range", details: FakeProgramRuntime.faultDetails)
            case "loop": warnings.append("stopped after 16 rounds")
            default: throw CanopyError(.badEvent, "a Button has no \(event.event) event")
            }
        }
        return try transact(shape, next, tree: &tree, trace: trace, warnings: warnings)
    }

    func inspect(node: String) throws(CanopyError) -> JSONObject {
        let nodes = shape.hasCell ? ["root", "label", "button"] : ["root"]
        guard nodes.contains(node) else { throw CanopyError(.noSuchNode, "no node \"\(node)\"") }
        var out: JSONObject = ["cells": [], "bindings": [], "environment": []]
        if node == "root" {
            out["view"] = .string(spec.view ?? "ContentView")
            out["cells"] = .array(cells.map { ["name": .string($0.name), "value": $0.value] })
        }
        return out
    }

    func setSource(_ source: String, tree: inout Tree, trace: Bool) throws(CanopyError)
        -> ProgramTransaction
    {
        let shape = try Shape(source: source)
        let transaction = try transact(
            shape, shape.hasCell && self.shape.hasCell ? count : 0, tree: &tree, trace: trace)
        spec.source = source
        return transaction
    }

    /// Moves to `shape` with `count`: the ops from the old output to the new, one version, the cells that changed.
    private func transact(
        _ shape: Shape, _ count: Int64, tree: inout Tree, trace: Bool, warnings: [String] = []
    )
        throws(CanopyError) -> ProgramTransaction
    {
        let before = cells
        let (oldShape, oldCount) = (self.shape, self.count)
        (self.shape, self.count) = (shape, count)
        var ops: [Op] = []
        if oldShape.hasCell && !shape.hasCell {
            ops = [.remove(node: "label"), .remove(node: "button")]
        } else if !oldShape.hasCell && shape.hasCell {
            ops = children().map { .insert(parent: "root", node: $0, position: .end) }
        } else if shape.hasCell {
            let (label, button) = (children()[0], children()[1])
            if count != oldCount {
                ops += [
                    .setProps(node: "label", props: label.props),
                    .setModifiers(node: "label", modifiers: label.modifiers),
                ]
            }
            if shape.step != oldShape.step { ops.append(.setProps(node: "button", props: button.props)) }
        }
        let diff: Diff
        do { diff = try tree.apply(ops, trace: trace) } catch {
            (self.shape, self.count) = (oldShape, oldCount)
            throw error
        }
        return ProgramTransaction(
            diff: diff, state: Self.changes(from: before, to: cells), warnings: warnings)
    }

    private static func changes(from old: [StateCell], to new: [StateCell]) -> [StateCell] {
        var out = new.filter { !old.contains($0) }
        for cell in old where !new.contains(where: { $0.node == cell.node && $0.name == cell.name }) {
            out.append(StateCell(node: cell.node, name: cell.name, value: .null, dropped: true))
        }
        return out
    }
}
