/// A program tree's state as it is stored and restored: every cell, and the class instances the cells' values refer
/// to (docs/programs.md, "Objects in state").
public struct ProgramState: Sendable, Equatable {
    /// Every cell, in tree order of their views.
    public var cells: [StateCell]
    /// `{"ID":{"class":"Node","fields":{…}}}`: every object the cells reach, by id; a value holding one says
    /// `{"$object":ID}`. Empty when no cell holds an object.
    public var objects: JSONObject

    public init(cells: [StateCell] = [], objects: JSONObject = [:]) {
        self.cells = cells
        self.objects = objects
    }

    /// Reads the `"objects"` member of a snapshot or diff: absent or `null` is no objects; anything but a JSON object
    /// is `bad_message`.
    public static func objects(in json: JSON?) throws(CanopyError) -> JSONObject {
        guard let json, !json.isNull else { return [:] }
        guard let o = json.object else {
            throw CanopyError(.badMessage, "\"objects\" must be an object of objects by id, not \(json.typeName)")
        }
        return o
    }
}

extension ProgramRuntime {
    /// Starts a program from cells that refer to no objects (`start(_:state:…)`).
    public func start(_ spec: ProgramSpec, cells: [StateCell], version: Int, limits: Limits, trace: Bool)
        throws(CanopyError) -> ProgramStart
    {
        try start(spec, state: ProgramState(cells: cells), version: version, limits: limits, trace: trace)
    }

    /// Starts a program from cells that refer to no objects, with recorded and new inputs (`start(_:state:…)`).
    public func start(
        _ spec: ProgramSpec, cells: [StateCell], recorded: [RecordedInputs], inputs: any ProgramInputSource,
        version: Int, limits: Limits, trace: Bool
    ) throws(CanopyError) -> ProgramStart {
        try start(
            spec, state: ProgramState(cells: cells), recorded: recorded, inputs: inputs, version: version,
            limits: limits, trace: trace)
    }
}

extension ProgramInstance {
    /// Every cell (`state.cells`).
    public var cells: [StateCell] { state.cells }
}
