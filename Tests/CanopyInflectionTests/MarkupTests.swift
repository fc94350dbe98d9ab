import CanopyInflection
import Testing

/// Text that is not a whole `^[…](…)` span shows as written.
@Suite struct MarkupTests {
    @Test(arguments: [
        "Plain text", "2^3 = 8", "a ^ b", "x[0] and [link]", "[text](inflect: true)", "^[unclosed",
        "^[text] (inflect: true)", "^[text](inflect: true", "^[text](: true)", "^[text](inflect true)",
        "^[text](inflect: maybe)", "^[text](inflect: 'open)", "^[text](a: 1,)", "^[text](morphology: {x: 1)",
        "^", "^[", "]()", "",
    ])
    func malformedOrNoMarkupPassesThrough(text: String) {
        #expect(Inflection.render([.literal(text)]) == text)
    }

    @Test func textAroundAMalformedSpanKeepsLaterSpans() {
        let segments: [LocalizedSegment] = [
            .literal("^[oops "), .argument(text: "2", number: 2), .literal(" ^[is](agreeWithArgument: 1) ok"),
        ]
        #expect(Inflection.render(segments) == "^[oops 2 are ok")
    }

    @Test func argumentTextIsNeverMarkup() {
        let segments: [LocalizedSegment] = [.literal("Say "), .argument(text: "^[x](inflect: true)", number: nil)]
        #expect(Inflection.render(segments) == "Say ^[x](inflect: true)")
    }

    @Test func anArgumentAsAWholeAttributeValueIsMarkup() {
        let segments: [LocalizedSegment] = [
            .literal("^[is](agreeWithArgument: "), .argument(text: "1", number: 1), .literal(")"),
        ]
        #expect(Inflection.render(segments) == "is")
        // Not an attribute Canopy acts on: the markup goes, the text stays.
        #expect(render("^[\(2) apple](inflect: \("true"))") == "2 apple")
    }

    @Test func anArgumentAnywhereElseInTheAttributeListIsNotMarkup() {
        #expect(render("^[is](agreeWithArgument: \(1)0)") == "^[is](agreeWithArgument: 10)")
        #expect(render("^[is](agreeWithArgument: -\(1))") == "^[is](agreeWithArgument: -1)")
        #expect(render("^[is](\("inflect"): true)") == "^[is](inflect: true)")
        #expect(render("^[is](note: '\("x")')") == "^[is](note: 'x')")
        #expect(render("^[is](note: {a: \(1)})") == "^[is](note: {a: 1})")
        #expect(render("^[is](agreeWithArgument: \(1) \(2))") == "^[is](agreeWithArgument: 1 2)")
    }

    @Test func quotedValuesMayHoldDelimiters() {
        #expect(Inflection.render([.literal("^[x](note: 'a), b', other: \"c\")!")]) == "x!")
    }

    @Test func segmentsWithoutMarkupAreJoined() {
        let segments: [LocalizedSegment] = [
            .literal("Total: "), .argument(text: "3", number: 3), .literal(" of "), .argument(text: "5", number: 5),
        ]
        #expect(Inflection.render(segments) == "Total: 3 of 5")
    }
}
