import CanopyCore

/// Program trees (PROGRAMS.md §7): created from Swift source, changed by events and source changes, each one
/// transaction that the sequencer runs like an edit batch.
extension ProtocolMachine {
    /// `{"type":"event","tree","seq","node","event","value"}` (or `"event":"post","name"`): needs `editor`.
    mutating func event(_ s: SessionID, _ o: JSONObject, rid: JSON?, now: Double) throws(CanopyError)
        -> [ProtocolAction]
    {
        let id = try existingTree(s, o, .editor, "send events to this tree")
        let seq = try self.seq(o)
        try requireProgram(id, "event")
        return sequence(ReplyTo(session: s, rid: rid), id, seq: seq, .event(o), now: now)
    }

    /// `{"type":"setSource","tree","seq","source"}`: hot reload, with the role `createTree` needs (`admin`).
    mutating func setSource(_ s: SessionID, _ o: JSONObject, rid: JSON?, now: Double)
        throws(CanopyError)
        -> [ProtocolAction]
    {
        let id = try existingTree(s, o, .admin, "replace a program's source")
        let seq = try self.seq(o)
        try requireProgram(id, "setSource")
        guard let source = o["source"]?.string else {
            throw CanopyError(.badMessage, "setSource: missing \"source\" (a string)")
        }
        return sequence(ReplyTo(session: s, rid: rid), id, seq: seq, .source(source), now: now)
    }

    /// `{"type":"inspect","tree","node"}`: what a program tree's node holds and sees (its view struct, cells,
    /// bindings, environment), answered with `inspected`. A read, like `probe`: needs `viewer`, changes nothing.
    mutating func inspect(_ s: SessionID, _ o: JSONObject, rid: JSON?) throws(CanopyError) -> [ProtocolAction] {
        let id = try existingTree(s, o, .viewer, "read this tree")
        guard let node = o["node"]?.string else { throw CanopyError(.badMessage, "inspect: \"node\" must be a string") }
        guard let program = channels[id]!.program else {
            throw CanopyError(.badMessage, "inspect: \"\(id)\" is not a program tree")
        }
        var reply: JSONObject = [
            "type": "inspected", "tree": .string(id), "version": .int(Int64(channels[id]!.tree.version)),
            "node": .string(node),
        ]
        reply.merge(try program.inspect(node: node))
        return [send(s, .object(reply), rid: rid)]
    }

    private func requireProgram(_ id: String, _ type: String) throws(CanopyError) {
        guard channels[id]!.program == nil else { return }
        throw CanopyError(
            .badMessage, "\(type): tree \"\(id)\" is not a program tree (change it with edit)")
    }

    /// Runs an event as one transaction: the diff says which (`"event":{node,event[,name]}`).
    mutating func runEvent(_ o: JSONObject, on id: String) throws(CanopyError) -> AppliedBatch {
        let event = try ProgramEvent(message: o)
        let program = channels[id]!.program!
        let trace = channels[id]!.wantsTrace
        let transaction = try program.handle(event, tree: &channels[id]!.tree, trace: trace)
        return Self.applied(transaction, cause: ["event": event.json])
    }

    /// Replaces the source as one transaction: the diff carries the new source (`"source":"…"`), which both tells
    /// clients what happened and lets a restore fold it into the stored spec.
    mutating func runSetSource(_ source: String, on id: String) throws(CanopyError) -> AppliedBatch {
        let program = channels[id]!.program!
        let trace = channels[id]!.wantsTrace
        let transaction = try program.setSource(source, tree: &channels[id]!.tree, trace: trace)
        return Self.applied(transaction, cause: ["source": .string(source)])
    }

    /// A transaction's diff fields: its cause, `ops`, `changes`, and `state`/`objects`/`warnings` when not empty.
    private static func applied(_ t: ProgramTransaction, cause: JSONObject) -> AppliedBatch {
        var fields = cause
        fields["inputs"] = t.inputs.json
        if !t.bodyInputs.isEmpty { fields["bodyInputs"] = .array(t.bodyInputs.map(\.json)) }
        fields["ops"] = .array(t.diff.ops.map(\.json))
        fields["changes"] = .array(t.diff.changes.map(\.json))
        if !t.state.isEmpty { fields["state"] = .array(t.state.map(\.json)) }
        if !t.objects.isEmpty { fields["objects"] = .object(t.objects) }
        if !t.warnings.isEmpty { fields["warnings"] = .array(t.warnings.map { .string($0) }) }
        if !t.frames.isEmpty {
            fields["frames"] = .array(t.frames.map(\.json))
        }
        if let canvas = t.canvas { fields["canvas"] = canvas.json }
        if !t.scroll.isEmpty {
            fields["scroll"] = .array(
                t.scroll.map { ["node": .string($0.node), "offset": $0.offset.map { .array($0.map { .double($0) }) } ?? .null] })
        }
        return AppliedBatch(fields: fields, trace: t.diff.trace, opCount: t.diff.ops.count)
    }

    /// The spec of a `createTree` with `source` (`keys` or `root` next to it is `bad_message`); nil without one.
    static func programSpec(_ o: JSONObject) throws(CanopyError) -> ProgramSpec? {
        guard let source = o["source"] else { return nil }
        guard o["keys"] == nil && o["root"] == nil else {
            throw CanopyError(
                .badMessage, "createTree: a program tree's \"source\" makes its keys and root")
        }
        guard source.string != nil else {
            throw CanopyError(.badMessage, "createTree: \"source\" must be a string")
        }
        return try ProgramSpec(json: .object(o))
    }

    /// Starts a program at `version` with `state`: the tree and the instance that drives it.
    mutating func startProgram(_ spec: ProgramSpec, state: ProgramState, version: Int) throws(CanopyError)
        -> (Tree, any ProgramInstance)
    {
        let start = try Self.launch(spec, state: state, recorded: [], version: version, configuration: configuration)
        count(previewContextsOf: start.program)
        return (start.tree, start.program)
    }

    /// Counts the preview contexts a started program computed and reused (`/metrics`).
    mutating func count(previewContextsOf program: any ProgramInstance) {
        for use in program.previewContexts {
            if use.reused { counters.previewContextsReused += 1 } else { counters.previewContextsComputed += 1 }
        }
    }

    /// Starts a program with the configured runtime; callable off the service thread (a restore in the background).
    static func launch(
        _ spec: ProgramSpec, state: ProgramState, recorded: [RecordedInputs], version: Int,
        configuration: HubConfiguration
    ) throws(CanopyError) -> ProgramStart {
        guard let programs = configuration.programs else {
            throw CanopyError(
                .badMessage, "this daemon runs no program trees (no program runtime is configured)")
        }
        return try programs.start(
            spec, state: state, recorded: recorded, inputs: configuration.programInputs, version: version,
            limits: configuration.limits, trace: false)
    }

    /// A program tree as of `version`: the stored spec, state (cells and objects) and bodies' inputs, with the logged
    /// diffs after them folded in, then started once (the program is deterministic, so that is the tree its clients
    /// saw). Counts nothing: the caller
    /// does, on the service thread.
    static func restartProgram(
        _ stored: StoredProgram, diffs: some Sequence<JSON>, version: Int, configuration: HubConfiguration
    ) throws(CanopyError) -> ProgramStart {
        var program = stored
        for diff in diffs { try program.fold(diff: diff) }
        return try launch(
            program.spec, state: program.state, recorded: program.bodyInputs, version: version,
            configuration: configuration)
    }
}
