import CanopyCore

/// Readable one-line renderings of the daemon's messages for `watch`, `edit` and `history`.
enum Format {
    /// `value` as compact JSON, cut to `limit` characters.
    static func value(_ value: JSON, limit: Int = 80) -> String {
        let text = value.encoded()
        return text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    /// A trace event as compact JSON without its `depth`, indented two spaces per level of it: what a stage computed
    /// inside another (a reduce's `nextValue`, say) stands further right than that stage's own events.
    static func traceEvent(_ event: JSON, limit: Int = 120) -> String {
        guard var object = event.object else { return value(event, limit: limit) }
        let depth = Int(min(max(object["depth"]?.number ?? 0, 0), 40))
        object["depth"] = nil
        return String(repeating: "  ", count: depth) + value(.object(object), limit: limit)
    }

    /// Where an `insert`/`move` puts its node: `at 2`, `after n3`, `before n4`, or `at the end`.
    private static func position(_ op: JSON) -> String {
        if let index = op["index"]?.number { return "at \(Int(index))" }
        if let after = op["after"]?.string { return "after \(after)" }
        if let before = op["before"]?.string { return "before \(before)" }
        return "at the end"
    }

    static func op(_ op: JSON) -> String {
        let node = op["node"]?.string ?? "?"
        switch op["op"]?.string ?? "" {
        case "insert":
            let inserted = op["node"] ?? .null
            let count = nodeCount(inserted)
            let id = inserted["id"]?.string ?? "?"
            let type = inserted["type"]?.string ?? "?"
            let size = count == 1 ? "" : ", \(count) nodes"
            return "insert \(id) (\(type)\(size)) into \(op["parent"]?.string ?? "?") \(position(op))"
        case "remove":
            return "remove \(node)"
        case "move":
            return "move \(node) into \(op["parent"]?.string ?? "?") \(position(op))"
        case "setProps":
            return "setProps \(node) \(value(op["props"] ?? .null, limit: 60))"
        case "setModifiers":
            let count = op["modifiers"]?.array?.count ?? 0
            return "setModifiers \(node) (\(count) modifier\(count == 1 ? "" : "s"))"
        case "setPreference":
            return "setPreference \(node) \(op["key"]?.string ?? "?") = \(value(op["value"] ?? .null, limit: 60))"
        case "removePreference":
            return "removePreference \(node) \(op["key"]?.string ?? "?")"
        case "declareKey" where op["swift"]?.string != nil:
            let lines = (op["swift"]?.string ?? "").split(separator: "\n", omittingEmptySubsequences: false).count
            return "declareKey \(op["key"]?.string ?? "?") (Swift, \(lines) line\(lines == 1 ? "" : "s"))"
        case "declareKey":
            return "declareKey \(op["key"]?.string ?? "?") (\(op["reducer"]?.string ?? "?"), default "
                + "\(value(op["default"] ?? .null, limit: 30)))"
        default:
            return value(op)
        }
    }

    /// A reader change or a snapshot reader: `n1#2 Title = "Inbox"` or `n1#2 Title: not present`.
    static func reader(_ reader: JSON, was: JSON?? = nil) -> String {
        let name = reader["reader"]?.string ?? "?"
        let key = reader["key"]?.string ?? "?"
        var text: String
        if reader["present"]?.bool == false {
            text = "\(name) \(key): not present"
        } else {
            text = "\(name) \(key) = \(value(reader["value"] ?? .null))"
        }
        if let was {
            text += was.map { "  (was \(value($0, limit: 40)))" } ?? "  (was not present)"
        }
        return text
    }

    /// The nodes of a wire node and everything below it, attached subtrees included.
    static func nodeCount(_ node: JSON) -> Int {
        var count = 1
        for child in node["children"]?.array ?? [] { count += nodeCount(child) }
        for modifier in node["modifiers"]?.array ?? [] {
            if let attached = modifier["node"] { count += nodeCount(attached) }
        }
        return count
    }

    /// The client list of a snapshot or `clients` message: `s7 alice, s9 canopy-cli`.
    static func clients(_ list: JSON?) -> String {
        let names = (list?.array ?? []).map { client in
            let name = client["client"]?.string ?? ""
            return (client["session"]?.string ?? "?") + (name.isEmpty ? "" : " " + name)
        }
        return names.isEmpty ? "none" : names.joined(separator: ", ")
    }
}

extension Format {
    /// A number as a person writes it: `393`, `20.5`; `?` for what is not a number.
    static func number(_ j: JSON?) -> String {
        guard let d = j?.number else { return "?" }
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return String(d)
    }
}
