/// The value of one markup attribute; objects and arrays (`morphology: {…}`) are kept only as `.other`.
enum AttributeValue: Equatable {
    case bool(Bool)
    case number(Double)
    case string(String)
    /// An interpolated argument written as the whole value (`agreeWithArgument: \(count)`), by index.
    case argument(Int)
    case other
}

/// Parses `key: value, key: value` (JSON5-like: bare or quoted keys; true/false, numbers, quoted strings, objects).
/// A value may also be one interpolated argument on its own; an argument anywhere else makes the list malformed.
struct AttributeListParser {
    private let units: [MarkupUnit]
    private var index = 0

    /// The attributes of `list`, or nil when it is not a well-formed list.
    static func parse(_ list: ArraySlice<MarkupUnit>) -> [String: AttributeValue]? {
        var parser = AttributeListParser(units: Array(list))
        return parser.list()
    }

    private init(units: [MarkupUnit]) {
        self.units = units
    }

    /// The character at the current index; nil at the end and at an argument.
    private var character: Character? {
        guard index < units.count, case .char(let character) = units[index] else { return nil }
        return character
    }

    private mutating func list() -> [String: AttributeValue]? {
        var attributes: [String: AttributeValue] = [:]
        skipSpace()
        if index == units.count { return attributes }
        while true {
            skipSpace()
            guard let key = key() else { return nil }
            skipSpace()
            guard take(":") else { return nil }
            skipSpace()
            guard let value = value() else { return nil }
            attributes[key] = value
            skipSpace()
            if index == units.count { return attributes }
            guard take(",") else { return nil }
        }
    }

    private mutating func key() -> String? {
        if let quoted = quoted() { return quoted }
        let name = word { $0.isLetter || $0.isNumber || $0 == "_" }
        return name.isEmpty || name.first!.isNumber ? nil : name
    }

    private mutating func value() -> AttributeValue? {
        if index < units.count, case .argument(let argument) = units[index] {
            index += 1
            return .argument(argument)
        }
        if let quoted = quoted() { return .string(quoted) }
        if character == "{" || character == "[" {
            return balanced() ? .other : nil
        }
        let token = word { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "+" }
        switch token {
        case "true": return .bool(true)
        case "false": return .bool(false)
        default: return Double(token).map(AttributeValue.number)
        }
    }

    /// A `'…'` or `"…"` string of characters (no escapes), or nil without consuming anything.
    private mutating func quoted() -> String? {
        guard let open = character, open == "'" || open == "\"" else { return nil }
        var text = ""
        var end = index + 1
        while end < units.count {
            guard case .char(let character) = units[end] else { return nil }
            if character == open {
                index = end + 1
                return text
            }
            text.append(character)
            end += 1
        }
        return nil
    }

    /// Skips a `{…}` or `[…]` value with nested brackets and quoted strings; false when it does not close.
    private mutating func balanced() -> Bool {
        var depth = 0
        while index < units.count {
            guard let character else { return false }
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
        var text = ""
        while let character, accepts(character) {
            text.append(character)
            index += 1
        }
        return text
    }

    private mutating func take(_ expected: Character) -> Bool {
        guard character == expected else { return false }
        index += 1
        return true
    }

    private mutating func skipSpace() {
        while let character, character.isWhitespace { index += 1 }
    }
}
