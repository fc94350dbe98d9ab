/// A value of the TOML subset `TOML.parse` reads.
public enum TOMLValue: Sendable, Equatable {
    case string(String)
    case integer(Int64)
    case float(Double)
    case boolean(Bool)
    case array([TOMLValue])
    case table(TOMLTable)

    /// "a string", "an integer", … (for messages).
    public var kind: String {
        switch self {
        case .string: return "a string"
        case .integer: return "an integer"
        case .float: return "a float"
        case .boolean: return "a boolean"
        case .array: return "an array"
        case .table: return "a table"
        }
    }
}

extension TOMLValue {
    /// The value written as TOML (tables inline, which `TOML.parse` does not read back).
    public var tomlText: String {
        switch self {
        case .string(let s): return basicStringLiteral(s)
        case .integer(let n): return "\(n)"
        case .float(let d):
            if d.isNaN { return "nan" }
            if d.isInfinite { return d < 0 ? "-inf" : "inf" }
            let text = "\(d)"
            return text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) ? text : text + ".0"
        case .boolean(let b): return b ? "true" : "false"
        case .array(let elements): return "[" + elements.map(\.tomlText).joined(separator: ", ") + "]"
        case .table(let table):
            let members = table.keys.map { displayKey($0) + " = " + table[$0]!.tomlText }
            return "{" + members.joined(separator: ", ") + "}"
        }
    }
}

/// A TOML table: keys to values, each with the line it was defined on (for a table, the line of its header).
public struct TOMLTable: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var value: TOMLValue
        public var line: Int
    }

    public fileprivate(set) var entries: [String: Entry] = [:]

    public init() {}

    public subscript(key: String) -> TOMLValue? { entries[key]?.value }

    /// The line `key` was defined on.
    public func line(of key: String) -> Int? { entries[key]?.line }

    /// The keys in the order of the lines they were defined on.
    public var keys: [String] {
        entries.sorted { ($0.value.line, $0.key) < ($1.value.line, $1.key) }.map(\.key)
    }

    /// Runs `body` on the table at `path` (which must exist and be tables all the way) and stores it back.
    fileprivate mutating func withTable(
        at path: ArraySlice<String>, _ body: (inout TOMLTable) throws(TOMLError) -> Void
    ) throws(TOMLError) {
        guard let first = path.first else { return try body(&self) }
        guard var entry = entries.removeValue(forKey: first), case .table(var table) = entry.value else {
            preconditionFailure("TOML: the parser walks only into tables it created")
        }
        defer {
            entry.value = .table(table)
            entries[first] = entry
        }
        try table.withTable(at: path.dropFirst(), body)
    }
}

/// A syntax or structure error in a TOML text, with its 1-based line.
public struct TOMLError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var message: String

    public init(line: Int, _ message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { "line \(line): \(message)" }
}

/// A strict reader of the TOML subset canopyd's configuration needs: comments, `[table]` and `[a.b]` headers,
/// `key = value` with bare or quoted keys, and values that are basic strings (escapes `\" \\ \b \t \n \f \r \uXXXX
/// \UXXXXXXXX`), literal strings, decimal integers (sign, `_` between digits), floats (fraction and/or exponent,
/// `inf`, `nan`), booleans, and arrays of these (over several lines, comments inside, trailing comma allowed).
///
/// Everything else is an error with its line rather than being skipped: dotted keys, inline tables, arrays of
/// tables, multi-line strings, dates and times, hexadecimal/octal/binary integers, duplicate keys, tables defined
/// twice, unterminated strings and arrays, and anything after a value on its line.
public enum TOML {
    public static func parse(_ text: String) throws(TOMLError) -> TOMLTable {
        var parser = TOMLParser(Array(text.utf8))
        return try parser.document()
    }
}

private struct TOMLParser {
    let bytes: [UInt8]
    var i = 0
    var line = 1
    var root = TOMLTable()
    /// The table that key/value lines go to.
    var current: [String] = []
    /// Tables defined by a header (defining one twice is an error; implicit parents may be defined later).
    var defined: Set<[String]> = []

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        // A byte order mark is allowed at the start.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
    }

    var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

    func byte(at offset: Int) -> UInt8? { i + offset < bytes.count ? bytes[i + offset] : nil }

    func fail(_ message: String) -> TOMLError { TOMLError(line: line, message) }

    /// What is at the current position, for messages.
    var found: String {
        guard let b = peek else { return "end of file" }
        if b == 0x0A || b == 0x0D { return "end of line" }
        if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        if b == 0x20 { return "a space" }
        if b == 0x09 { return "a tab" }
        if b < 0x80 { return "control character U+\(hex(UInt32(b), width: 4))" }
        var end = i + 1
        while end < bytes.count && bytes[end] & 0xC0 == 0x80 { end += 1 }
        return "'\(String(decoding: bytes[i..<end], as: UTF8.self))'"
    }

    // MARK: Document

    mutating func document() throws(TOMLError) -> TOMLTable {
        while true {
            skipSpaces()
            guard let b = peek else { break }
            switch b {
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                try newline()
                continue
            case UInt8(ascii: "#"):
                try comment()
                continue
            case UInt8(ascii: "["):
                try header()
            default:
                try keyValue()
            }
            try endOfLine(after: b == UInt8(ascii: "[") ? "the table header" : "the value")
        }
        return root
    }

    /// After a header or a key/value pair: spaces, an optional comment, then the end of the line or of the file.
    mutating func endOfLine(after what: String) throws(TOMLError) {
        skipSpaces()
        if peek == UInt8(ascii: "#") { try comment() }
        guard let b = peek else { return }
        guard b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r") else {
            throw fail("unexpected \(found) after \(what) (one key = value or [table] per line; comments start with #)")
        }
        try newline()
    }

    mutating func skipSpaces() {
        while let b = peek, b == 0x20 || b == 0x09 { i += 1 }
    }

    /// Consumes `\n` or `\r\n`.
    mutating func newline() throws(TOMLError) {
        if peek == UInt8(ascii: "\r") {
            guard byte(at: 1) == UInt8(ascii: "\n") else {
                throw fail("a carriage return must be followed by a line feed")
            }
            i += 1
        }
        i += 1
        line += 1
    }

    /// Consumes `#…` up to (not including) the end of the line.
    mutating func comment() throws(TOMLError) {
        i += 1
        while let b = peek, b != 0x0A {
            if b == 0x0D && byte(at: 1) == 0x0A { break }
            if isControl(b) { throw fail("\(found) in a comment") }
            i += 1
        }
    }

    /// Skips spaces, line ends and comments (inside arrays).
    mutating func skipBlank() throws(TOMLError) {
        while true {
            skipSpaces()
            guard let b = peek else { return }
            if b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r") {
                try newline()
            } else if b == UInt8(ascii: "#") {
                try comment()
            } else {
                return
            }
        }
    }

    // MARK: Tables and keys

    mutating func header() throws(TOMLError) {
        let headerLine = line
        i += 1
        if peek == UInt8(ascii: "[") {
            throw fail("arrays of tables ([[...]]) are not supported")
        }
        var path: [String] = []
        while true {
            skipSpaces()
            path.append(try key(in: "a table name"))
            skipSpaces()
            if peek == UInt8(ascii: ".") {
                i += 1
                continue
            }
            guard peek == UInt8(ascii: "]") else {
                throw fail("expected '.' or ']' in the table header, found \(found)")
            }
            i += 1
            break
        }
        let name = path.map(displayKey).joined(separator: ".")
        if defined.contains(path) { throw fail("table [\(name)] is defined twice") }
        // Walk down, creating the tables that do not exist yet.
        for depth in path.indices {
            let parent = path[..<depth]
            let component = path[depth]
            try root.withTable(at: parent) { (table: inout TOMLTable) throws(TOMLError) in
                if let existing = table.entries[component] {
                    guard case .table = existing.value else {
                        let taken = path[...depth].map(displayKey).joined(separator: ".")
                        let what = "\(existing.value.kind) (line \(existing.line))"
                        throw TOMLError(line: headerLine, "cannot define table [\(name)]: \(taken) is already \(what)")
                    }
                } else {
                    table.entries[component] = TOMLTable.Entry(value: .table(TOMLTable()), line: headerLine)
                }
            }
        }
        defined.insert(path)
        current = path
    }

    mutating func keyValue() throws(TOMLError) {
        let keyLine = line
        let name = try key(in: "a key")
        skipSpaces()
        if peek == UInt8(ascii: ".") {
            throw fail(
                "dotted keys are not supported: put \(displayKey(name)).… under a [\(displayKey(name))] table header")
        }
        guard peek == UInt8(ascii: "=") else {
            throw fail("expected '=' after the key \(displayKey(name)), found \(found)")
        }
        i += 1
        skipSpaces()
        let value = try value()
        let table = current
        try root.withTable(at: table[...]) { (t: inout TOMLTable) throws(TOMLError) in
            if let existing = t.entries[name] {
                let full = (table + [name]).map(displayKey).joined(separator: ".")
                throw TOMLError(line: keyLine, "duplicate key \(full) (first defined on line \(existing.line))")
            }
            t.entries[name] = TOMLTable.Entry(value: value, line: keyLine)
        }
    }

    /// A bare key (`A-Za-z0-9_-`) or a quoted one (basic or literal string).
    mutating func key(in what: String) throws(TOMLError) -> String {
        guard let b = peek else { throw fail("expected \(what), found end of file") }
        if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
            if byte(at: 1) == b && byte(at: 2) == b { throw fail("a key cannot be a multi-line string") }
            return b == UInt8(ascii: "\"") ? try basicString() : try literalString()
        }
        let start = i
        while let c = peek, isBareKeyByte(c) { i += 1 }
        guard i > start else { throw fail("expected \(what), found \(found)") }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }

    // MARK: Values

    mutating func value() throws(TOMLError) -> TOMLValue {
        guard let b = peek else { throw fail("expected a value, found end of file") }
        switch b {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            if byte(at: 1) == b && byte(at: 2) == b { throw fail("multi-line strings are not supported") }
            return .string(b == UInt8(ascii: "\"") ? try basicString() : try literalString())
        case UInt8(ascii: "["):
            return try array()
        case UInt8(ascii: "{"):
            throw fail("inline tables ({...}) are not supported: use a [table] header")
        case UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "#"):
            throw fail("expected a value, found \(found)")
        default:
            return try scalar()
        }
    }

    mutating func array() throws(TOMLError) -> TOMLValue {
        let openLine = line
        i += 1
        var elements: [TOMLValue] = []
        while true {
            try skipBlank()
            guard let b = peek else { throw TOMLError(line: openLine, "unterminated array (no closing ])") }
            if b == UInt8(ascii: "]") {
                i += 1
                return .array(elements)
            }
            if b == UInt8(ascii: ",") { throw fail("expected a value or ']' in the array, found ','") }
            elements.append(try value())
            try skipBlank()
            guard let next = peek else { throw TOMLError(line: openLine, "unterminated array (no closing ])") }
            if next == UInt8(ascii: ",") {
                i += 1
            } else if next != UInt8(ascii: "]") {
                let opened = line == openLine ? "" : " (the array opened on line \(openLine))"
                throw fail("expected ',' or ']' in the array, found \(found)\(opened)")
            }
        }
    }

    /// `"…"` on one line, with escapes.
    mutating func basicString() throws(TOMLError) -> String {
        i += 1
        var out: [UInt8] = []
        while true {
            guard let b = peek, b != 0x0A, b != 0x0D else { throw fail("unterminated string (missing closing \")") }
            switch b {
            case UInt8(ascii: "\""):
                i += 1
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                i += 1
                try escape(into: &out)
            default:
                if isControl(b) { throw fail("\(found) in a string must be written as an escape") }
                out.append(b)
                i += 1
            }
        }
    }

    mutating func escape(into out: inout [UInt8]) throws(TOMLError) {
        guard let e = peek else { throw fail("unterminated string (missing closing \")") }
        i += 1
        switch e {
        case UInt8(ascii: "\""): out.append(0x22)
        case UInt8(ascii: "\\"): out.append(0x5C)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            let width = e == UInt8(ascii: "u") ? 4 : 8
            var code: UInt32 = 0
            for _ in 0..<width {
                guard let h = peek, let d = hexDigit(h) else {
                    throw fail("\\\(Character(Unicode.Scalar(e))) needs \(width) hexadecimal digits")
                }
                code = code << 4 | d
                i += 1
            }
            guard let scalar = Unicode.Scalar(code) else {
                throw fail("\\\(Character(Unicode.Scalar(e)))\(hex(code, width: width)) is not a Unicode scalar value")
            }
            out.append(contentsOf: String(Character(scalar)).utf8)
        default:
            i -= 1
            throw fail(
                "invalid escape \\\(found.trimmingQuotes) (valid: \\\" \\\\ \\b \\t \\n \\f \\r \\uXXXX \\UXXXXXXXX)")
        }
    }

    /// `'…'` on one line, no escapes.
    mutating func literalString() throws(TOMLError) -> String {
        i += 1
        let start = i
        while true {
            guard let b = peek, b != 0x0A, b != 0x0D else { throw fail("unterminated string (missing closing ')") }
            if b == UInt8(ascii: "'") { break }
            if isControl(b) { throw fail("\(found) in a literal string") }
            i += 1
        }
        defer { i += 1 }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }

    /// A boolean or a number: the run of characters up to the next delimiter, then checked as a whole.
    mutating func scalar() throws(TOMLError) -> TOMLValue {
        let start = i
        while let b = peek, isScalarByte(b) { i += 1 }
        guard i > start else { throw fail("expected a value, found \(found)") }
        let token = Array(bytes[start..<i])
        let text = String(decoding: token, as: UTF8.self)
        switch text {
        case "true": return .boolean(true)
        case "false": return .boolean(false)
        case "inf", "+inf": return .float(.infinity)
        case "-inf": return .float(-.infinity)
        case "nan", "+nan", "-nan": return .float(.nan)
        default: break
        }
        guard let first = token.first, isDigit(first) || first == UInt8(ascii: "+") || first == UInt8(ascii: "-") else {
            throw TOMLError(
                line: line, "invalid value \(text) (strings need quotes; booleans are true and false, in lower case)")
        }
        if token.count >= 5 && isDigit(token[0]) && token[4] == UInt8(ascii: "-") || token.contains(UInt8(ascii: ":")) {
            throw fail("dates and times are not supported (\(text))")
        }
        return try number(token, text)
    }

    func number(_ t: [UInt8], _ text: String) throws(TOMLError) -> TOMLValue {
        var p = 0
        if t[p] == UInt8(ascii: "+") || t[p] == UInt8(ascii: "-") { p += 1 }
        let intStart = p
        if p + 1 < t.count && t[p] == UInt8(ascii: "0")
            && [UInt8(ascii: "x"), UInt8(ascii: "o"), UInt8(ascii: "b")].contains(t[p + 1])
        {
            throw fail("hexadecimal, octal and binary integers are not supported (\(text))")
        }
        guard digitRun(t, &p) else { throw fail("invalid number \(text)") }
        if t[intStart] == UInt8(ascii: "0") && p - intStart > 1 {
            throw fail("leading zeros are not allowed (\(text))")
        }
        var isFloat = false
        if p < t.count && t[p] == UInt8(ascii: ".") {
            p += 1
            guard digitRun(t, &p) else { throw fail("invalid number \(text) (a '.' needs digits on both sides)") }
            isFloat = true
        }
        if p < t.count && (t[p] == UInt8(ascii: "e") || t[p] == UInt8(ascii: "E")) {
            p += 1
            if p < t.count && (t[p] == UInt8(ascii: "+") || t[p] == UInt8(ascii: "-")) { p += 1 }
            guard digitRun(t, &p) else { throw fail("invalid number \(text) (an exponent needs digits)") }
            isFloat = true
        }
        guard p == t.count else { throw fail("invalid number \(text)") }
        let plain = String(decoding: t.filter { $0 != UInt8(ascii: "_") }, as: UTF8.self)
        if isFloat {
            guard let d = Double(plain), d.isFinite else { throw fail("float \(text) is out of range") }
            return .float(d)
        }
        guard let n = Int64(plain) else { throw fail("integer \(text) does not fit in 64 bits") }
        return .integer(n)
    }

    /// Digits with single underscores between them; false if there is none or an underscore is misplaced.
    func digitRun(_ t: [UInt8], _ p: inout Int) -> Bool {
        guard p < t.count, isDigit(t[p]) else { return false }
        p += 1
        while p < t.count {
            if isDigit(t[p]) {
                p += 1
            } else if t[p] == UInt8(ascii: "_") {
                guard p + 1 < t.count, isDigit(t[p + 1]) else { return false }
                p += 2
            } else {
                break
            }
        }
        return true
    }
}

// MARK: - Byte classes

private func isControl(_ b: UInt8) -> Bool { (b < 0x20 && b != 0x09) || b == 0x7F }

private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

private func isBareKeyByte(_ b: UInt8) -> Bool {
    isDigit(b) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
        || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z"))
        || b == UInt8(ascii: "_") || b == UInt8(ascii: "-")
}

/// Characters a boolean, number or (rejected) date can contain.
private func isScalarByte(_ b: UInt8) -> Bool {
    isBareKeyByte(b) || b == UInt8(ascii: "+") || b == UInt8(ascii: ".") || b == UInt8(ascii: ":")
}

private func hexDigit(_ b: UInt8) -> UInt32? {
    switch b {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(b - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(b - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(b - UInt8(ascii: "A") + 10)
    default: return nil
    }
}

private func hex(_ value: UInt32, width: Int) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

/// A key as written in messages: bare if it can be, else quoted.
func displayKey(_ key: String) -> String {
    if !key.isEmpty && key.utf8.allSatisfy(isBareKeyByte) { return key }
    return basicStringLiteral(key)
}

/// `text` as a TOML basic string.
private func basicStringLiteral(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\u{8}": out += "\\b"
        case "\t": out += "\\t"
        case "\n": out += "\\n"
        case "\u{C}": out += "\\f"
        case "\r": out += "\\r"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += "\\u" + hex(scalar.value, width: 4)
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

extension String {
    /// `'x'` → `x` (for `found` in escape messages).
    fileprivate var trimmingQuotes: String {
        hasPrefix("'") && hasSuffix("'") && count >= 2 ? String(dropFirst().dropLast()) : self
    }
}
