/// The value of one markup attribute; objects and arrays (`morphology: {…}`) are kept only as `.other`.
enum AttributeValue: Equatable {
    case bool(Bool)
    case number(Double)
    case string(String)
    case other
}

/// Parses `key: value, key: value` (JSON5-like: bare or quoted keys; true/false, numbers, quoted strings, objects).
struct AttributeListParser {
    private var characters: [Character]
    private var index = 0

    /// The attributes of `list`, or nil when it is not a well-formed list.
    static func parse(_ list: String) -> [String: AttributeValue]? {
        var parser = AttributeListParser(characters: Array(list))
        return parser.list()
    }

    private init(characters: [Character]) {
        self.characters = characters
    }

    private mutating func list() -> [String: AttributeValue]? {
        var attributes: [String: AttributeValue] = [:]
        skipSpace()
        if index == characters.count { return attributes }
        while true {
            skipSpace()
            guard let key = key() else { return nil }
            skipSpace()
            guard take(":") else { return nil }
            skipSpace()
            guard let value = value() else { return nil }
            attributes[key] = value
            skipSpace()
            if index == characters.count { return attributes }
            guard take(",") else { return nil }
        }
    }

    private mutating func key() -> String? {
        if let quoted = quoted() { return quoted }
        let name = word { $0.isLetter || $0.isNumber || $0 == "_" }
        return name.isEmpty || name.first!.isNumber ? nil : name
    }

    private mutating func value() -> AttributeValue? {
        if let quoted = quoted() { return .string(quoted) }
        if index < characters.count, characters[index] == "{" || characters[index] == "[" {
            return balanced() ? .other : nil
        }
        let token = word { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "+" }
        switch token {
        case "true": return .bool(true)
        case "false": return .bool(false)
        default: return Double(token).map(AttributeValue.number)
        }
    }

    /// A `'…'` or `"…"` string (no escapes), or nil without consuming anything.
    private mutating func quoted() -> String? {
        guard index < characters.count, characters[index] == "'" || characters[index] == "\"" else { return nil }
        let open = characters[index]
        guard let close = characters[(index + 1)...].firstIndex(of: open) else { return nil }
        let text = String(characters[(index + 1)..<close])
        index = close + 1
        return text
    }

    /// Skips a `{…}` or `[…]` value with nested brackets and quoted strings; false when it does not close.
    private mutating func balanced() -> Bool {
        var depth = 0
        while index < characters.count {
            let character = characters[index]
            if character == "'" || character == "\"" {
                guard quoted() != nil else { return false }
                continue
            }
            if character == "{" || character == "[" { depth += 1 }
            if character == "}" || character == "]" { depth -= 1 }
            index += 1
            if depth == 0 { return true }
        }
        return false
    }

    private mutating func word(_ accepts: (Character) -> Bool) -> String {
        let start = index
        while index < characters.count, accepts(characters[index]) { index += 1 }
        return String(characters[start..<index])
    }

    private mutating func take(_ character: Character) -> Bool {
        guard index < characters.count, characters[index] == character else { return false }
        index += 1
        return true
    }

    private mutating func skipSpace() {
        while index < characters.count, characters[index].isWhitespace { index += 1 }
    }
}
