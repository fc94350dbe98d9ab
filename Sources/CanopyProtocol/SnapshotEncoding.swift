import CanopyCore

/// A tree as a snapshot stores it: `{"keys":[…],"root":{…},"acks":[[client,seq,version],…]}`, and for a program
/// tree also `"program":{ProgramSpec}`, `"state":[StateCell…]`, when the cells refer to class instances
/// `"objects":{"ID":{"class","fields"}…}` (docs/programs.md, "Objects in state"), `"bodyInputs":[RecordedInputs…]`
/// and the last transaction's `"inputs"`. `acks` (optional) are the batch identities that
/// must outlive the log the snapshot compacts (see `AckIndex`). A Swift key is stored as its source
/// (`{"key","swift"}`) and compiled again when the snapshot is read; a program tree is started again from its spec
/// and cells (its `keys` and `root` are kept for readers of the store, not read back).
public enum SnapshotEncoding {
    public static func encode(_ tree: Tree, acks: [AckRecord], program: StoredProgram? = nil) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "{")]
        writeKeysAndRoot(of: tree, into: &out)
        var rest = JSONObject()
        if let program {
            rest["program"] = program.spec.json
            rest["state"] = .array(program.cells.map(\.json))
            if !program.state.objects.isEmpty { rest["objects"] = .object(program.state.objects) }
            if !program.bodyInputs.isEmpty { rest["bodyInputs"] = .array(program.bodyInputs.map(\.json)) }
            if let inputs = program.inputs { rest["inputs"] = inputs.json }
        }
        if !acks.isEmpty {
            rest["acks"] = .array(acks.map { [.string($0.client), .string($0.seq), .int(Int64($0.version))] })
        }
        appendMembers(rest, into: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// `"keys":[…],"root":{…}` — the root straight from the tree's storage, with no `Node` or `JSON` copy of a 1M-node
    /// tree in between. Shared by the store's snapshots and the subscribers' snapshot bodies.
    static func writeKeysAndRoot(of tree: Tree, into out: inout [UInt8], frames: FrameTable? = nil) {
        out.reserveCapacity(out.count + 64 * tree.nodeCount + 256)
        out += #""keys":"#.utf8
        JSON.array(tree.keys.map(\.json)).write(into: &out)
        out += #","root":"#.utf8
        tree.writeRootJSON(into: &out, frames: frames)
    }

    /// `,` and the members of `o` (nothing when it is empty), to continue an object being written.
    static func appendMembers(_ o: JSONObject, into out: inout [UInt8]) {
        guard !o.isEmpty else { return }
        var members: [UInt8] = []
        JSON.object(o).write(into: &members)
        out.append(UInt8(ascii: ","))
        out += members[1..<(members.count - 1)]
    }

    /// The tree (at `version`) and the acks of a snapshot's bytes; `compiler` compiles its Swift keys.
    public static func decode(
        _ bytes: [UInt8], version: Int, limits: Limits, compiler: (any KeyCompiler)? = nil
    ) throws(CanopyError) -> (Tree, [AckRecord]) {
        let snapshot = try parse(bytes)
        return (try tree(of: snapshot, version: version, limits: limits, compiler: compiler), try acks(of: snapshot))
    }

    /// A snapshot's bytes as JSON.
    public static func parse(_ bytes: [UInt8]) throws(CanopyError) -> JSON {
        try JSONParser.parse(bytes: bytes, maxDepth: 4096)
    }

    /// The tree of a parsed snapshot (at `version`).
    public static func tree(of snapshot: JSON, version: Int, limits: Limits, compiler: (any KeyCompiler)? = nil)
        throws(CanopyError) -> Tree
    {
        let keys = try (snapshot["keys"]?.array ?? []).map { j throws(CanopyError) in try KeyDeclaration(json: j) }
        guard version >= 0 else { throw CanopyError(.badMessage, "negative version") }
        // Straight from the parsed root: no `Node` of a 1M-node tree in between.
        return try Tree(
            keys: keys, rootJSON: snapshot["root"] ?? .null, limits: limits, version: version, compiler: compiler)
    }

    /// The program of a parsed snapshot; nil for a tree of data.
    public static func program(of snapshot: JSON) throws(CanopyError) -> StoredProgram? {
        guard let spec = snapshot["program"], !spec.isNull else { return nil }
        let cells = try (snapshot["state"]?.array ?? []).map { j throws(CanopyError) in try StateCell(json: j) }
        let objects = try ProgramState.objects(in: snapshot["objects"])
        let recorded = try (snapshot["bodyInputs"]?.array ?? []).map { j throws(CanopyError) in
            try RecordedInputs(json: j)
        }
        let inputs = try snapshot["inputs"].map { j throws(CanopyError) in try ProgramInputs(json: j) }
        return StoredProgram(
            spec: try ProgramSpec(json: spec), state: ProgramState(cells: cells, objects: objects), bodyInputs: recorded,
            inputs: inputs)
    }

    /// The acks of a parsed snapshot.
    public static func acks(of snapshot: JSON) throws(CanopyError) -> [AckRecord] {
        var acks: [AckRecord] = []
        for a in snapshot["acks"]?.array ?? [] {
            guard let t = a.array, t.count == 3, let client = t[0].string, let seq = t[1].string,
                case .int(let v) = t[2]
            else { throw CanopyError(.badMessage, "malformed acks entry \(a.encoded())") }
            acks.append(AckRecord(client: client, seq: seq, version: Int(v)))
        }
        return acks
    }
}
