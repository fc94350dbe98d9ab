import CanopyCore

/// The part of a `snapshot` message that is the same for every subscriber at one version: the tree (keys, root,
/// reader values), a program tree's source, cells and preview contexts, and with `trace` the trace of a full
/// evaluation. It is encoded once per version (and trace flag) off the service thread and shared by every subscriber
/// that asks meanwhile; each message puts its own head in front (type, tree, version, about, clients, rid).
public struct SnapshotJob: Sendable {
    public let tree: Tree
    /// `program`, `state` and `previewContexts` of a program tree, taken on the service thread; empty for data.
    public let program: JSONObject
    /// A program tree's frames, written on its nodes.
    public let frames: FrameTable?
    public let trace: Bool
    /// Filled with `encode()`'s bytes, then made ready on the service thread.
    public let tail: SharedTail

    /// The body as JSON object members without the opening brace, ending with the closing one, so that it follows a
    /// head that ends with a comma: `"keys":[…],"root":{…},"readers":[…],…}`.
    public func encode() -> [UInt8] {
        var out: [UInt8] = []
        SnapshotEncoding.writeKeysAndRoot(of: tree, into: &out, frames: frames)
        out += #","readers":"#.utf8
        JSON.array(tree.readers.map(\.json)).write(into: &out)
        var rest = program
        if let frames { rest.merge(frames.members) }
        if trace, let t = tree.evaluateFromScratch(trace: true).trace { rest["trace"] = t.json }
        SnapshotEncoding.appendMembers(rest, into: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }
}

/// A channel's encoded (or encoding) snapshot bodies, one per trace flag, valid for the version and epoch they were
/// made at: a rollback reuses version numbers, so the epoch is part of what a body is of.
struct SnapshotBodies {
    private var bodies: [Bool: (version: Int, epoch: Int, tail: SharedTail)] = [:]

    /// The body for `trace` at `version`/`epoch`, if one was made (it may still be encoding).
    func body(trace: Bool, version: Int, epoch: Int) -> SharedTail? {
        guard let b = bodies[trace], b.version == version, b.epoch == epoch else { return nil }
        return b.tail
    }

    /// Remembers `tail` as the body at `version`/`epoch`, replacing an older one (whose bytes then go once no queued
    /// message holds them).
    mutating func remember(_ tail: SharedTail, trace: Bool, version: Int, epoch: Int) {
        bodies[trace] = (version, epoch, tail)
    }
}
