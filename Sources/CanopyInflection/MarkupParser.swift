// The `^[text](key: value, …)` syntax of Apple's Markdown extension. Anything that does not form a whole span
// (no matching `]`, no `(` right after it, no closing `)`, an attribute list that does not parse, such as one with an
// argument anywhere but as a whole value) is ordinary text and stays as written; scanning resumes after its `^`, so
// spans inside it still count.

/// One unit of the source: a literal character, or an argument, which is atomic (its text is never markup).
enum MarkupUnit: Equatable {
    case char(Character)
    case argument(Int)
}

/// A parsed literal: text, arguments (by index) and `^[…](…)` spans with their attributes.
indirect enum MarkupNode: Equatable {
    case text(String)
    case argument(Int)
    case span([MarkupNode], [String: AttributeValue])
}

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
        // The attribute list runs to the first `)` outside quotes; the arguments in it are for its parser to judge.
        var quote: Character?
        index = close + 2
        while index < end {
            if case .char(let character) = units[index] {
                if quote == nil && character == ")" { break }
                if let open = quote {
                    if character == open { quote = nil }
                } else if character == "'" || character == "\"" {
                    quote = character
                }
            }
            index += 1
        }
        guard index < end, let attributes = AttributeListParser.parse(units[(close + 2)..<index]) else { return nil }
        return (close, attributes, index + 1)
    }
}
