import CanopyCore

/// What a program tree's snapshot adds to the tree: the program's spec and every `@State` cell at that version.
public struct StoredProgram: Sendable, Equatable {
    public var spec: ProgramSpec
    public var cells: [StateCell]

    public init(spec: ProgramSpec, cells: [StateCell]) {
        self.spec = spec
        self.cells = cells
    }

    /// The spec and cells of a running program, as of now.
    init(_ program: any ProgramInstance) { self.init(spec: program.spec, cells: program.cells) }

    /// Folds a logged diff of a later version in: its `state` entries set (or, `dropped`, remove) cells, and a
    /// `source` (a `setSource` diff) replaces the spec's source.
    mutating func fold(diff: JSON) throws(CanopyError) {
        if let source = diff["source"] {
            guard let text = source.string else {
                throw CanopyError(.badMessage, "a diff's \"source\" is a string")
            }
            spec.source = text
        }
        for entry in diff["state"]?.array ?? [] {
            let cell = try StateCell(json: entry)
            let i = cells.firstIndex { $0.node == cell.node && $0.name == cell.name }
            switch (i, cell.dropped) {
            case (let i?, true): cells.remove(at: i)
            case (let i?, false): cells[i] = cell
            case (nil, false): cells.append(cell)
            case (nil, true): break
            }
        }
    }
}
