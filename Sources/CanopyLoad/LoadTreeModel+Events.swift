import CanopyCore

extension LoadTreeModel {
    /// A program tree from its snapshot: its text fields (`TextField`, `SecureField`) take `setText` events. A
    /// field's text cycles through `""`, one to five letters and back, so a validated field's messages come and go.
    static func program(snapshot: JSON) throws(LoadError) -> LoadTreeModel {
        guard let id = snapshot["tree"]?.string, let root = snapshot["root"] else {
            throw LoadError(.load, "the daemon's snapshot has no tree or root")
        }
        guard snapshot["program"] != nil else {
            throw LoadError(.load, "tree \(id) is not a program tree: events need one (leave out --events)")
        }
        let model = LoadTreeModel(id: id, key: scratchKey, insertPrefix: "")
        var stack: [(node: JSON, parent: Int32)] = [(root, -1)]
        while let (node, parent) = stack.popLast() {
            let handle = model.addNode(node["id"]?.string ?? "", parent: parent)
            if let type = node["type"]?.string, type == "TextField" || type == "SecureField" {
                model.fields.append(handle)
            }
            for child in (node["children"]?.array ?? []).reversed() { stack.append((child, handle)) }
        }
        guard !model.fields.isEmpty else {
            throw LoadError(.load, "program tree \(id) has no TextField or SecureField to send setText to")
        }
        model.texts = Array(repeating: "", count: model.fields.count)
        model.finishBuilding()
        return model
    }

    /// `createTree` of a program tree from `source`.
    static func programCreation(id: String, source: String, view: String?) -> JSON {
        var o: JSONObject = ["type": "createTree", "tree": .string(id), "source": .string(source)]
        if let view { o["view"] = .string(view) }
        return .object(o)
    }

    /// Appends one `setText` event on a random text field to `out`. Events never conflict (each is applied as it
    /// comes), so nothing is locked and there is nothing to accept or undo.
    func writeEvent(seq: Int64, random: inout SplitMix64, into out: inout [UInt8]) {
        let f = Int(random.next() % UInt64(fields.count))
        let letter = Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8(random.next() % 26)))
        texts[f] = texts[f].count >= 5 ? "" : texts[f] + String(letter)
        out.append(contentsOf: #"{"type":"event","tree":"#.utf8)
        out.append(contentsOf: idLiteral.utf8)
        out.append(contentsOf: #","seq":"#.utf8)
        out.append(contentsOf: String(seq).utf8)
        out.append(contentsOf: #","node":"#.utf8)
        out.append(contentsOf: names[Int(fields[f])].utf8)
        out.append(contentsOf: #","event":"setText","value":"#.utf8)
        out.append(contentsOf: JSON.string(texts[f]).encoded().utf8)
        out.append(UInt8(ascii: "}"))
    }
}
