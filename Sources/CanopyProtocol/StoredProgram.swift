import CanopyCore

/// What a program tree's snapshot adds to the tree: the program's spec, every `@State` cell at that version and the
/// objects the cells refer to, the inputs its bodies ran with and those of its last transaction.
public struct StoredProgram: Sendable, Equatable {
    public var spec: ProgramSpec
    public var state: ProgramState
    /// The inputs of the bodies that read the time or drew random values, by node: a restart runs them again so.
    public var bodyInputs: [RecordedInputs]
    /// The last transaction's inputs (for the record: what ran is in the cells and `bodyInputs`).
    public var inputs: ProgramInputs?

    public var cells: [StateCell] { state.cells }

    public init(
        spec: ProgramSpec, state: ProgramState, bodyInputs: [RecordedInputs] = [], inputs: ProgramInputs? = nil
    ) {
        self.spec = spec
        self.state = state
        self.bodyInputs = bodyInputs
        self.inputs = inputs
    }

    public init(
        spec: ProgramSpec, cells: [StateCell], bodyInputs: [RecordedInputs] = [], inputs: ProgramInputs? = nil
    ) {
        self.init(spec: spec, state: ProgramState(cells: cells), bodyInputs: bodyInputs, inputs: inputs)
    }

    /// The spec, state and inputs of a running program, as of now.
    init(_ program: any ProgramInstance) {
        self.init(
            spec: program.spec, state: program.state, bodyInputs: program.recordedInputs,
            inputs: program.transactionInputs)
    }

    /// Folds a logged diff of a later version in: its `state` entries set (or, `dropped`, remove) cells, its
    /// `objects` entries add or replace objects by id, its `bodyInputs` set (or remove) recorded inputs, a
    /// `source` (a `setSource` diff) replaces the spec's source, and a `canvas` (a `resize`) the spec's canvas.
    mutating func fold(diff: JSON) throws(CanopyError) {
        if let inputs = diff["inputs"] { self.inputs = try ProgramInputs(json: inputs) }
        for entry in diff["bodyInputs"]?.array ?? [] {
            let r = try RecordedInputs(json: entry)
            bodyInputs.removeAll { $0.node == r.node }
            if !r.dropped { bodyInputs.append(r) }
        }
        if let source = diff["source"] {
            guard let text = source.string else {
                throw CanopyError(.badMessage, "a diff's \"source\" is a string")
            }
            spec.source = text
        }
        if let canvas = diff["canvas"] { spec.canvas = try CanvasSpec(json: canvas) }
        for entry in diff["scroll"]?.array ?? [] {
            guard let node = entry["node"]?.string else { throw CanopyError(.badMessage, "a diff's scroll entry needs a \"node\"") }
            if let xy = entry["offset"]?.array?.compactMap(\.number), xy.count == 2 { spec.scrollOffsets[node] = xy } else {
                spec.scrollOffsets[node] = nil
            }
        }
        for entry in diff["state"]?.array ?? [] {
            let cell = try StateCell(json: entry)
            let i = state.cells.firstIndex { $0.node == cell.node && $0.name == cell.name }
            switch (i, cell.dropped) {
            case (let i?, true): state.cells.remove(at: i)
            case (let i?, false): state.cells[i] = cell
            case (nil, false): state.cells.append(cell)
            case (nil, true): break
            }
        }
        state.objects.merge(try ProgramState.objects(in: diff["objects"]))
    }
}
