import CanopyInflection
import Testing

@Suite struct EnglishFormsTests {
    /// (singular, plural) pairs, each checked with 1, 2 and 0 through the markup.
    static let nouns: [(String, String)] = [
        ("error", "errors"), ("bus", "buses"), ("box", "boxes"), ("buzz", "buzzes"), ("church", "churches"),
        ("dish", "dishes"), ("city", "cities"), ("day", "days"), ("potato", "potatoes"), ("photo", "photos"),
        ("person", "people"), ("child", "children"), ("man", "men"), ("woman", "women"), ("mouse", "mice"),
        ("foot", "feet"), ("tooth", "teeth"), ("goose", "geese"), ("leaf", "leaves"), ("knife", "knives"),
        ("wolf", "wolves"), ("life", "lives"), ("shelf", "shelves"), ("sheep", "sheep"), ("fish", "fish"),
        ("series", "series"), ("species", "species"), ("quiz", "quizzes"),
    ]

    @Test(arguments: nouns)
    func nounTakesTheNumber(singular: String, plural: String) {
        #expect(Inflection.render(span(1, singular)) == "1 \(singular)")
        #expect(Inflection.render(span(2, singular)) == "2 \(plural)")
        #expect(Inflection.render(span(0, singular)) == "0 \(plural)")
    }

    @Test(arguments: [("is", "are"), ("was", "were"), ("has", "have"), ("does", "do"), ("isn't", "aren't")])
    func verbTakesTheNumber(singular: String, plural: String) {
        let written = "^[\(singular)](agreeWithArgument: 1) "
        #expect(Inflection.render([.literal(written), .argument(text: "1", number: 1)]) == "\(singular) 1")
        #expect(Inflection.render([.literal(written), .argument(text: "7", number: 7)]) == "\(plural) 7")
    }

    private func span(_ count: Int, _ noun: String) -> [LocalizedSegment] {
        [.literal("^["), .argument(text: String(count), number: Double(count)), .literal(" \(noun)](inflect: true)")]
    }
}
