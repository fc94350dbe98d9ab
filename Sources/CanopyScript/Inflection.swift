// Foundation's automatic grammar agreement for English, as `AttributedString(localized:)` applies it to a string
// literal, so that `Text` shows the agreed characters. What Foundation does, with sources, is in docs/inflection.md.
//
// Pipeline: segments -> units (characters and atomic arguments) -> markup nodes (text, arguments, attribute spans)
// -> pieces with agreement applied span by span, innermost first -> characters.

/// One piece of a localized string literal: literal text (which may contain the markup) or an interpolated argument.
public enum LocalizedSegment: Sendable, Equatable {
    case literal(String)
    case argument(text: String, number: Double?)
}

/// English grammar agreement markup (`^[…](inflect: true)`, `^[…](agreeWithArgument: n)`) applied to a literal.
public enum Inflection {
    /// The characters `AttributedString(localized:)` shows for `segments`: markup removed, agreement applied.
    public static func render(_ segments: [LocalizedSegment]) -> String {
        var units: [MarkupUnit] = []
        var arguments: [InflectionArgument] = []
        for segment in segments {
            switch segment {
            case .literal(let text):
                units.append(contentsOf: text.map(MarkupUnit.char))
            case .argument(let text, let number):
                units.append(.argument(arguments.count))
                arguments.append(InflectionArgument(text: text, number: number))
            }
        }
        let nodes = MarkupParser(units: units).parse()
        let agreement = Agreement(arguments: arguments)
        return agreement.text(of: agreement.pieces(nodes))
    }
}

/// An interpolated argument: what it shows and, when numeric, the value it was formatted from.
struct InflectionArgument: Equatable {
    let text: String
    let number: Double?
}

/// One unit of the source: a literal character, or an argument, which is atomic (its text is never markup).
enum MarkupUnit: Equatable {
    case char(Character)
    case argument(Int)
}

/// The value of one markup attribute; objects and arrays (`morphology: {…}`) are kept only as `.other`.
enum AttributeValue: Equatable {
    case bool(Bool)
    case number(Double)
    case string(String)
    case other
}

/// A parsed literal: text, arguments (by index) and `^[…](…)` spans with their attributes.
indirect enum MarkupNode: Equatable {
    case text(String)
    case argument(Int)
    case span([MarkupNode], [String: AttributeValue])
}

/// Output of a span: text or a still-atomic argument, so enclosing spans can find the number.
enum Piece: Equatable {
    case text(String)
    case argument(Int)
}
