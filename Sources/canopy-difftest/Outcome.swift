import CanopyScript

/// What one run of a program showed: its printed lines and how it ended. swiftc's side comes from expected.json
/// (scripts/difftest.py), CanopyScript's from `Script.run`.
struct Outcome: Equatable {
    var lines: [String]
    var newlineAtEnd: Bool
    /// nil: it finished. Otherwise the trap's kind (`index`, `nil`, `overflow`, `division by zero`, `fatalError`,
    /// `precondition`, `assertion`, `out of fuel`, or the standard library's message) and its full message.
    var trapKind: String?
    var trapMessage: String?

    init(lines: [String], newlineAtEnd: Bool, trapKind: String?, trapMessage: String?) {
        self.lines = lines
        self.newlineAtEnd = newlineAtEnd
        self.trapKind = trapKind
        self.trapMessage = trapMessage
    }

    /// Splits printed text as scripts/difftest.py does.
    init(output: String, trapKind: String?, trapMessage: String?) {
        var body = Substring(output)
        if body.hasSuffix("\n") { body = body.dropLast() }
        lines = output.isEmpty ? [] : body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        newlineAtEnd = output.isEmpty || output.hasSuffix("\n")
        self.trapKind = trapKind
        self.trapMessage = trapMessage
    }

    /// The lines as compared and shown in diffs: the printed lines, then a marker for a missing final newline and
    /// one for the trap (by kind only: the message differs in file names and lines).
    var comparable: [String] {
        var out = lines
        if !newlineAtEnd { out.append("⟨no newline at end⟩") }
        if let trapKind { out.append("⟨trap: \(trapKind)⟩") }
        return out
    }
}

/// The kind of a standard library fault message, as scripts/difftest.py's trap_category.
func trapCategory(_ message: String) -> String {
    if message.contains("out of range") || message.contains("out of bounds") { return "index" }
    if message.hasPrefix("Unexpectedly found nil") { return "nil" }
    if message.hasPrefix("Division by zero") { return "division by zero" }
    if message.contains("overflow") { return "overflow" }
    return message
}

/// The kind of a CanopyScript fault, in swiftc's terms.
func trapKind(of fault: ScriptFault) -> String {
    switch fault.kind {
    case .outOfFuel: return "out of fuel"
    case .runtime, .nilChain: break
    }
    let m = fault.message
    if m.hasPrefix("Unexpectedly found nil") { return "nil" }
    if m.hasPrefix("Precondition failed") { return "precondition" }
    if m.hasPrefix("Assertion failed") { return "assertion" }
    if m.hasPrefix("Fatal error") || m == "fatalError()" || m == "preconditionFailure()" || m == "assertionFailure()" {
        return "fatalError"
    }
    return trapCategory(m)
}

enum Verdict: String, Codable {
    case pass, rejected, mismatch
}

/// The first lines where `expected` and `actual` differ, unified-diff style, with `context` lines before.
func unifiedDiff(expected: [String], actual: [String], context: Int = 2, shown: Int = 4) -> [String] {
    var first = 0
    while first < expected.count, first < actual.count, expected[first] == actual[first] { first += 1 }
    let from = max(0, first - context)
    var out = ["--- swiftc", "+++ CanopyScript", "@@ line \(first + 1) @@"]
    for i in from..<first { out.append("  " + expected[i]) }
    for line in expected[first..<min(expected.count, first + shown)] { out.append("- " + line) }
    if expected.count > first + shown { out.append("- … \(expected.count - first - shown) more") }
    for line in actual[first..<min(actual.count, first + shown)] { out.append("+ " + line) }
    if actual.count > first + shown { out.append("+ … \(actual.count - first - shown) more") }
    return out
}

/// Why two outcomes differ, in one line.
func mismatchReason(expected: Outcome, actual: Outcome) -> String {
    let a = expected.comparable, b = actual.comparable
    var first = 0
    while first < a.count, first < b.count, a[first] == b[first] { first += 1 }
    switch (expected.trapKind, actual.trapKind) {
    case (nil, let k?) where first >= expected.lines.count:
        return "CanopyScript trapped (\(k): \(actual.trapMessage ?? "")) where swiftc did not"
    case (let k?, nil) where first >= actual.lines.count:
        return "swiftc trapped (\(k)) where CanopyScript finished"
    case (let k?, let l?) where expected.lines == actual.lines && k != l:
        return "trap differs: swiftc \(k), CanopyScript \(l) (\(actual.trapMessage ?? ""))"
    default:
        if first < expected.lines.count || first < actual.lines.count {
            var reason = "output differs at line \(first + 1)"
            if let k = actual.trapKind { reason += "; CanopyScript trapped (\(k): \(actual.trapMessage ?? ""))" }
            return reason
        }
        return "differs at the end of the output"
    }
}
