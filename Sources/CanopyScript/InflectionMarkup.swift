// The `^[text](key: value, …)` syntax of Apple's Markdown extension. Anything that does not form a whole span
// (no matching `]`, no `(` right after it, no closing `)`, an attribute list that does not parse, an argument inside
// the attribute list) is ordinary text and stays as written; scanning resumes after its `^`, so spans inside it
// still count.

/// Parses units into markup nodes.
struct MarkupParser {
    let units: [MarkupUnit]

    /// The nodes of the whole source.
    func parse() -> [MarkupNode] {
        nodes(in: 0..<units.count)
    }

    private func nodes(in range: Range<Int>) -> [MarkupNode] {
        var result: [MarkupNode] = []
        var text = ""
        var index = range.lowerBound
        while index < range.upperBound {
            switch units[index] {
            case .argument(let argument):
                if !text.isEmpty { result.append(.text(text)) }
                text = ""
                result.append(.argument(argument))
                index += 1
            case .char(let character):
                if character == "^", let span = span(at: index, end: range.upperBound) {
                    if !text.isEmpty { result.append(.text(text)) }
                    text = ""
                    result.append(.span(nodes(in: index + 2..<span.close), span.attributes))
                    index = span.next
                } else {
                    text.append(character)
                    index += 1
                }
            }
        }
        if !text.isEmpty { result.append(.text(text)) }
        return result
    }

    /// The span whose `^` is at `start`: the index of its `]`, its attributes, the index after its `)`.
    private func span(at start: Int, end: Int) -> (close: Int, attributes: [String: AttributeValue], next: Int)? {
        guard start + 1 < end, units[start + 1] == .char("[") else { return nil }
        var depth = 0
        var index = start + 1
        var close: Int?
        while index < end, close == nil {
            if case .char(let character) = units[index] {
                if character == "[" {
                    depth += 1
                } else if character == "]" {
                    depth -= 1
                    if depth == 0 { close = index }
                }
            }
            index += 1
        }
        guard let close, close + 1 < end, units[close + 1] == .char("(") else { return nil }
        // The attribute list runs to the first `)` outside quotes.
        var list = ""
        var quote: Character?
        index = close + 2
        while index < end {
            guard case .char(let character) = units[index] else { return nil }
            if quote == nil && character == ")" { break }
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            }
            list.append(character)
            index += 1
        }
        guard index < end, let attributes = AttributeListParser.parse(list) else { return nil }
        return (close, attributes, index + 1)
    }
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
