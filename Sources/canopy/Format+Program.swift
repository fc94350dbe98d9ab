import CanopyCore

/// Renderings of what program trees add to snapshots, diffs and errors (PROGRAMS.md §7).
extension Format {
    /// A diff's cause: `setText on n1`, `post UIApplication.didBecomeActiveNotification`.
    static func event(_ event: JSON) -> String {
        var text = event["event"]?.string ?? "?"
        if let node = event["node"]?.string { text += " on \(node)" }
        if let name = event["name"]?.string { text += " \(name)" }
        return text
    }

    /// A state cell: `n1 username = "bob"`, with `(was "")` when the previous value is known; `n1 username dropped`.
    static func cell(_ cell: JSON, was: JSON? = nil) -> String {
        let name = "\(cell["node"]?.string ?? "?") \(cell["name"]?.string ?? "?")"
        if cell["dropped"]?.bool == true { return name + " dropped" }
        return "\(name) = \(value(cell["value"] ?? .null))" + (was.map { "  (was \(value($0, limit: 40)))" } ?? "")
    }

    /// A diff warning: its text, or its JSON when it is not a string.
    static func warning(_ warning: JSON) -> String {
        warning.string ?? warning["message"]?.string ?? value(warning)
    }

    /// A snapshot's program: `program SignupForm (42 lines of Swift); preview contexts: SampleData (computed)`.
    static func program(_ program: JSON, _ snapshot: JSON) -> String {
        let source = program["source"]?.string ?? ""
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false).count
        var text = "program \(program["view"]?.string ?? "?") (\(lines) line\(lines == 1 ? "" : "s") of Swift)"
        let contexts = (snapshot["previewContexts"]?.array ?? []).map {
            "\($0["modifier"]?.string ?? "?") (\($0["reused"]?.bool == true ? "reused" : "computed"))"
        }
        if !contexts.isEmpty { text += "; preview contexts: " + contexts.joined(separator: ", ") }
        return text
    }

    /// An `error` or `rejected` message: `code: message (op N)`, then for a Swift fault where it happened (when the
    /// message does not already say) and its call stack, innermost first, one frame a line.
    static func rejection(_ message: JSON) -> [String] {
        let code = message["code"]?.string ?? "error"
        let text = message["message"]?.string ?? "(no message)"
        var first = "\(code): \(text)"
        if let op = message["op"]?.number { first += " (op \(Int(op)))" }
        var lines = [first]
        if let line = message["line"]?.number, let column = message["column"]?.number {
            let place = "\(Int(line)):\(Int(column))"
            if !text.contains(place) { lines.append("  at \(place)") }
        }
        for frame in message["stack"]?.array ?? [] { lines.append("  in " + (frame.string ?? value(frame))) }
        return lines
    }
}
