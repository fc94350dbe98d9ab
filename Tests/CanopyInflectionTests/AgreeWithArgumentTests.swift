import CanopyInflection
import Testing

/// `agreeWithArgument` spans: a literal index (1-based) and an interpolated argument written as the value.
@Suite struct AgreeWithArgumentTests {
    /// The seed's status line, exactly as its program writes it.
    private func status(_ errorCount: Int) -> String {
        render("^[There is](agreeWithArgument: \(errorCount)) ^[\(errorCount) error](inflect: true)")
    }

    @Test func theSeedStatusLineAgreesWithItsCount() {
        #expect(status(0) == "There are 0 errors")
        #expect(status(1) == "There is 1 error")
        #expect(status(2) == "There are 2 errors")
        #expect(status(3) == "There are 3 errors")
        #expect(status(12) == "There are 12 errors")
    }

    @Test(arguments: [("is", "are"), ("was", "were"), ("has", "have"), ("this", "these"), ("isn't", "aren't")])
    func anInterpolatedValueIsTheNumberToAgreeWith(singular: String, plural: String) {
        for written in [singular, plural] {
            #expect(agreeing(written, with: 1) == singular)
            #expect(agreeing(written, with: 2) == plural)
            #expect(agreeing(written, with: 0) == plural)
            #expect(agreeing(written, with: 1.5, shown: "1.5") == plural)
        }
    }

    @Test(arguments: [("is", "are"), ("was", "were"), ("has", "have"), ("this", "these")])
    func aLiteralValueIsTheIndexOfAnArgument(singular: String, plural: String) {
        let first = "^[\(singular)](agreeWithArgument: 1) "
        #expect(Inflection.render([.literal(first), .argument(text: "1", number: 1)]) == "\(singular) 1")
        #expect(Inflection.render([.literal(first), .argument(text: "3", number: 3)]) == "\(plural) 3")
        // Index 2 is the second argument, whatever the first one is.
        let second = " ^[\(singular)](agreeWithArgument: 2) "
        let seven: LocalizedSegment = .argument(text: "7", number: 7)
        let one: LocalizedSegment = .argument(text: "1", number: 1)
        #expect(Inflection.render([seven, .literal(second), one]) == "7 \(singular) 1")
        #expect(Inflection.render([one, .literal(second), seven]) == "1 \(plural) 7")
    }

    /// `^[words](agreeWithArgument: \(count))`, the words written as literal text.
    private func agreeing(_ words: String, with count: Double, shown: String? = nil) -> String {
        let text = shown ?? String(Int(count))
        return Inflection.render([
            .literal("^[\(words)](agreeWithArgument: "), .argument(text: text, number: count), .literal(")"),
        ])
    }

    @Test func realisticSentences() {
        let files: (Int) -> String = { count in
            render("^[\(count) file](inflect: true) ^[was](agreeWithArgument: \(count)) deleted")
        }
        #expect(files(1) == "1 file was deleted")
        #expect(files(4) == "4 files were deleted")
        let users: (Int) -> String = { n in
            render("^[This](agreeWithArgument: \(n)) ^[\(n) user](inflect: true) ^[has](agreeWithArgument: \(n)) left")
        }
        #expect(users(1) == "This 1 user has left")
        #expect(users(5) == "These 5 users have left")
        #expect(render("There ^[are](agreeWithArgument: 1) ^[\(1) error](inflect: true)") == "There is 1 error")
        #expect(render("There ^[is](agreeWithArgument: 1) ^[\(3) error](inflect: true)") == "There are 3 errors")
    }

    @Test func aNounAgreesWithAnInterpolatedValue() {
        #expect(render("\(1) ^[error](agreeWithArgument: \(1))") == "1 error")
        #expect(render("\(2) ^[error](agreeWithArgument: \(2))") == "2 errors")
    }

    /// The argument in the attribute list is numbered like any other; the numbers after it count it.
    @Test func anArgumentInTheAttributeListKeepsItsNumber() {
        // Arguments: 1 is the attribute's value (5), 2 is the shown count.
        #expect(render("^[is](agreeWithArgument: \(5)) \(1) ^[item](agreeWithArgument: 2)") == "are 1 item")
        #expect(render("^[is](agreeWithArgument: \(1)) \(5) ^[item](agreeWithArgument: 2)") == "is 5 items")
        #expect(render("^[is](agreeWithArgument: \(1)) \(5) ^[item](agreeWithArgument: 1)") == "is 5 item")
    }

    @Test func theInterpolatedValueIsNotShown() {
        #expect(render("[^[is](agreeWithArgument: \(42))]") == "[are]")
        #expect(render("^[There is](agreeWithArgument: \(2))") == "There are")
    }

    @Test func anInterpolatedValueThatIsNotANumberKeepsTheText() {
        #expect(render("^[is](agreeWithArgument: \("2")) here") == "is here")
        #expect(render("^[is](agreeWithArgument: \("many")) here") == "is here")
    }

    @Test func anInterpolatedValueWithOtherAttributes() {
        #expect(render("^[is](agreeWithArgument: \(2), note: 'x') ok") == "are ok")
        #expect(render("^[is](note: \"x\", agreeWithArgument: \(2)) ok") == "are ok")
    }
}
