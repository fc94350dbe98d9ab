/// A subtree written straight from the store as wire JSON, byte for byte what `node(s).json` writes, without
/// building the `Node` and `JSON` values in between: the snapshot of a 1M-node tree is written without a million
/// `Node`s and five million `JSON`s (issue 16).
extension NodeStore {
    func writeJSON(of s: Slot, into out: inout [UInt8], frames: FrameTable? = nil) {
        let i = Int(s)
        JSONWriter.appendLiteral(#"{"id":"#, into: &out)
        JSONWriter.writeString(ids[i], into: &out)
        JSONWriter.appendLiteral(#","type":"#, into: &out)
        JSONWriter.writeString(type(of: s), into: &out)
        JSONWriter.appendLiteral(#","props":"#, into: &out)
        JSONWriter.write(.object(props[i]), into: &out)
        frames?.write(node: ids[i], into: &out)
        JSONWriter.appendLiteral(#","modifiers":["#, into: &out)
        var first = true
        for m in modifiers[i] {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            switch m {
            case .background(let a):
                JSONWriter.appendLiteral(#"{"kind":"background","node":"#, into: &out)
                writeJSON(of: a, into: &out, frames: frames)
                out.append(UInt8(ascii: "}"))
            case .overlay(let a):
                JSONWriter.appendLiteral(#"{"kind":"overlay","node":"#, into: &out)
                writeJSON(of: a, into: &out, frames: frames)
                out.append(UInt8(ascii: "}"))
            default:
                JSONWriter.write(modifier(m).json, into: &out)
            }
        }
        JSONWriter.appendLiteral(#"],"children":["#, into: &out)
        first = true
        for c in children[i] {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            writeJSON(of: c, into: &out, frames: frames)
        }
        JSONWriter.appendLiteral("]}", into: &out)
    }
}

extension Tree {
    /// The root subtree as wire JSON (what `root.json` encodes), written straight from the tree's storage; with
    /// `frames`, each node laid out carries its `frame` (a program tree's snapshot for clients).
    public func writeRootJSON(into out: inout [UInt8], frames: FrameTable? = nil) {
        store.writeJSON(of: store.root, into: &out, frames: frames)
    }
}
