// Foundation's automatic grammar agreement for English, as `AttributedString(localized:)` applies it to a string
// literal, so that `Text` shows the agreed characters. What Foundation does, with sources, is in docs/inflection.md.
//
// Pipeline: segments -> units (characters and atomic arguments) -> markup nodes (text, arguments, attribute spans)
// -> pieces with agreement applied span by span, innermost first -> characters.

/// English grammar agreement markup (`^[…](inflect: true)`, `^[…](agreeWithArgument: n)`) applied to a literal.
package enum Inflection {
    /// The characters `AttributedString(localized:)` shows for `segments`: markup removed, agreement applied.
    /// Arguments are numbered 1… in the order they appear, including one written as an attribute's value.
    package static func render(_ segments: [LocalizedSegment]) -> String {
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
