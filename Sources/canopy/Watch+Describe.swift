import CanopyCore

extension Canopy.Watch {
    /// Prints `message` as `watch` and `history` show it.
    static func describe(_ message: JSON, values: inout TreeValues, trace: Bool) {
        for line in lines(message, values: &values, trace: trace) { emit(line) }
    }

    /// The readable lines of a daemon message: a snapshot's summary, a diff's cause, ops, state and reader changes.
    /// `values` carries the reader and state values from one message to the next (for `(was …)`).
    static func lines(_ message: JSON, values: inout TreeValues, trace: Bool) -> [String] {
        var out: [String] = []
        switch message["type"]?.string ?? "" {
        case "snapshot":
            values.reset(message)
            let keys = (message["keys"]?.array ?? []).map {
                "\($0["key"]?.string ?? "?") (\($0["swift"] != nil ? "Swift" : $0["reducer"]?.string ?? "?"))"
            }
            let nodes = Format.nodeCount(message["root"] ?? .null)
            out.append(
                "\(message["tree"]?.string ?? "?") at version \(Int(message["version"]?.number ?? 0)): \(nodes) "
                    + "nodes; keys: \(keys.isEmpty ? "none" : keys.joined(separator: ", "))")
            if let program = message["program"] { out.append("  " + Format.program(program, message)) }
            for cell in message["state"]?.array ?? [] { out.append("  state " + Format.cell(cell)) }
            for reader in message["readers"]?.array ?? [] { out.append("  " + Format.reader(reader)) }
            out.append("clients: \(Format.clients(message["clients"]))")
        case "diff":
            let seq = message["seq"].map { $0.isNull ? "" : " seq \(Format.value($0, limit: 20))" } ?? ""
            out.append("v\(Int(message["version"]?.number ?? 0)) by \(message["author"]?.string ?? "?")\(seq)")
            if let event = message["event"], !event.isNull { out.append("  event " + Format.event(event)) }
            for cell in message["state"]?.array ?? [] {
                let was = values.recordCell(cell)
                out.append("  state " + Format.cell(cell, was: was))
            }
            for op in message["ops"]?.array ?? [] { out.append("  " + Format.op(op)) }
            for change in message["changes"]?.array ?? [] {
                let was = values.record(change)
                out.append("  → " + Format.reader(change, was: was))
            }
            for warning in message["warnings"]?.array ?? [] { out.append("  warning: " + Format.warning(warning)) }
            if trace, let events = message["trace"]?["events"]?.array {
                for event in events { out.append("    · " + Format.traceEvent(event)) }
            }
        case "clients":
            out.append("clients: \(Format.clients(message["clients"]))")
        case "subscribed":
            out.append("up to date at version \(Int(message["version"]?.number ?? 0))")
        case "deleted":
            out.append("\(message["tree"]?.string ?? "?") was deleted")
        default:
            out.append(jsonLine(message))
        }
        return out
    }
}
