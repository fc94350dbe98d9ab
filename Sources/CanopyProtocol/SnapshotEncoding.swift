import CanopyCore

/// A tree as a snapshot stores it: `{"keys":[…],"root":{…},"acks":[[client,seq,version],…]}`. `acks` (optional) are
/// the batch identities that must outlive the log the snapshot compacts (see `AckIndex`). A Swift key is stored
/// as its source (`{"key","swift"}`) and compiled again when the snapshot is read.
public enum SnapshotEncoding {
    public static func encode(_ tree: Tree, acks: [AckRecord]) -> [UInt8] {
        var o: JSONObject = ["keys": .array(tree.keys.map(\.json)), "root": tree.root.json]
        if !acks.isEmpty {
            o["acks"] = .array(acks.map { [.string($0.client), .string($0.seq), .int(Int64($0.version))] })
        }
        var out: [UInt8] = []
        JSON.object(o).write(into: &out)
        return out
    }

    /// The tree (at `version`) and the acks of a snapshot's bytes; `compiler` compiles its Swift keys.
    public static func decode(
        _ bytes: [UInt8], version: Int, limits: Limits, compiler: (any KeyCompiler)? = nil
    ) throws(CanopyError) -> (Tree, [AckRecord]) {
        let snapshot = try JSONParser.parse(bytes: bytes, maxDepth: 4096)
        let keys = try (snapshot["keys"]?.array ?? []).map { j throws(CanopyError) in try KeyDeclaration(json: j) }
        let root = try Node(json: snapshot["root"] ?? .null)
        guard version >= 0 else { throw CanopyError(.badMessage, "negative version") }
        let tree = try Tree(keys: keys, root: root, limits: limits, version: version, compiler: compiler)
        var acks: [AckRecord] = []
        for a in snapshot["acks"]?.array ?? [] {
            guard let t = a.array, t.count == 3, let client = t[0].string, let seq = t[1].string,
                case .int(let v) = t[2]
            else { throw CanopyError(.badMessage, "malformed acks entry \(a.encoded())") }
            acks.append(AckRecord(client: client, seq: seq, version: Int(v)))
        }
        return (tree, acks)
    }
}
