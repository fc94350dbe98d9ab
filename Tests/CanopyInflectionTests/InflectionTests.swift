import CanopyInflection
import Testing

@Suite struct InflectionTests {
    @Test func countedNounTakesTheNumberOfItsCount() {
        #expect(render("There ^[\(0) error](inflect: true)") == "There 0 errors")
        #expect(render("There ^[\(1) error](inflect: true)") == "There 1 error")
        #expect(render("There ^[\(2) error](inflect: true)") == "There 2 errors")
        #expect(render("You have ^[\(1) \("apple")](inflect: true).") == "You have 1 apple.")
        #expect(render("You have ^[\(2) \("apple")](inflect: true).") == "You have 2 apples.")
    }

    @Test func verbsInTheSpanAgreeWithItsNumber() {
        #expect(render("There ^[is \(0) error](inflect: true).") == "There are 0 errors.")
        #expect(render("There ^[is \(1) error](inflect: true).") == "There is 1 error.")
        #expect(render("There ^[is \(2) error](inflect: true).") == "There are 2 errors.")
        #expect(render("^[\(1) file was](inflect: true) deleted") == "1 file was deleted")
        #expect(render("^[\(3) file was](inflect: true) deleted") == "3 files were deleted")
        #expect(render("^[\(2) user has](inflect: true) joined") == "2 users have joined")
        #expect(render("^[\(2) test doesn't](inflect: true) pass") == "2 tests don't pass")
        #expect(render("^[\(1) tests don’t](inflect: true) pass") == "1 tests doesn’t pass")
        #expect(render("^[\(2) file that is](inflect: true) open") == "2 files that are open")
        #expect(render("^[This \(2) item](inflect: true)") == "These 2 items")
        // Before the number only "be" agrees: there the counted phrase is its subject.
        #expect(render("^[You have \(1) message](inflect: true)") == "You have 1 message")
        #expect(render("^[It has \(2) part](inflect: true)") == "It has 2 parts")
        #expect(render("^[There was \(2) hit](inflect: true)") == "There were 2 hits")
    }

    @Test func agreeWithArgumentTakesTheNumberOfTheArgument() {
        #expect(render("There ^[is](agreeWithArgument: 1) ^[\(1) error](inflect: true)") == "There is 1 error")
        #expect(render("There ^[is](agreeWithArgument: 1) ^[\(2) error](inflect: true)") == "There are 2 errors")
        #expect(render("There ^[is](agreeWithArgument: 1) \(0) ^[error](agreeWithArgument: 1)") == "There are 0 errors")
        let ready: (Int) -> String = { count in
            render("^[This](agreeWithArgument: 1) ^[\(count) item](inflect: true) ^[is](agreeWithArgument: 1) ready")
        }
        #expect(ready(1) == "This 1 item is ready")
        #expect(ready(3) == "These 3 items are ready")
        // Arguments are numbered in order from 1; a string argument counts too.
        #expect(render("\("Disk") has \(1) ^[file](agreeWithArgument: 2)") == "Disk has 1 file")
        #expect(render("\("Disk") has \(4) ^[file](agreeWithArgument: 2)") == "Disk has 4 files")
        #expect(render("^[is](agreeWithArgument: 1) \(5)") == "are 5")
    }

    @Test func agreeWithArgumentThatCannotAgreeKeepsTheText() {
        #expect(render("^[is](agreeWithArgument: 2) \(5)") == "is 5")
        #expect(render("^[is](agreeWithArgument: 0) \(5)") == "is 5")
        #expect(render("\("cat") ^[is](agreeWithArgument: 1) here") == "cat is here")
    }

    @Test func zeroAndNonIntegersArePlural() {
        #expect(render("^[\(0) child](inflect: true)") == "0 children")
        #expect(render("^[\(1.5) mile](inflect: true)") == "1.5 miles")
        #expect(render("^[\(1.0) mile](inflect: true)") == "1.0 miles")
        #expect(render("^[\(-1) degree](inflect: true)") == "-1 degree")
        #expect(render("^[\(-2) degree](inflect: true)") == "-2 degrees")
    }

    @Test func theNounIsTheHeadOfThePhraseAfterTheNumber() {
        #expect(render("^[\(2) red apple](inflect: true)") == "2 red apples")
        #expect(render("^[\(2) cup of coffee](inflect: true)") == "2 cups of coffee")
        #expect(render("^[\(3) e-mail](inflect: true)") == "3 e-mails")
        #expect(render("^[\(2) \("green apple")](inflect: true)") == "2 green apples")
        #expect(render("^[\(2) apple](inflect: true), please") == "2 apples, please")
    }

    @Test func aLiteralIntegerInTheSpanCounts() {
        #expect(render("^[2 apple](inflect: true)") == "2 apples")
        #expect(render("^[1 apple](inflect: true)") == "1 apple")
    }

    @Test func severalSpansInOneString() {
        #expect(
            render("^[\(1) file](inflect: true) and ^[\(3) folder](inflect: true) ^[were](agreeWithArgument: 2) moved")
                == "1 file and 3 folders were moved")
        #expect(render("^[\(2) man](inflect: true), ^[\(1) woman](inflect: true)") == "2 men, 1 woman")
    }

    @Test func markupMaySpanSegments() {
        let segments: [LocalizedSegment] = [
            .literal("There ^["), .literal("is "), .argument(text: "2", number: 2), .literal(" error]("),
            .literal("inflect: true)"), .literal("."),
        ]
        #expect(Inflection.render(segments) == "There are 2 errors.")
    }

    @Test func capitalizationIsKept() {
        #expect(render("^[Is \(2) Error](inflect: true)") == "Are 2 Errors")
        #expect(render("^[IS \(2) ERROR](inflect: true)") == "ARE 2 ERRORS")
        #expect(render("^[\(2) URL](inflect: true)") == "2 URLs")
        #expect(render("^[\(2) Person](inflect: true)") == "2 People")
    }

    @Test func irregularPluralsWrittenInTheSourceTurnSingular() {
        #expect(render("^[\(1) people](inflect: true)") == "1 person")
        #expect(render("^[\(2) people](inflect: true)") == "2 people")
        #expect(render("There ^[are](agreeWithArgument: 1) \(1) item") == "There is 1 item")
    }

    @Test func nestedSpans() {
        #expect(render("^[\(2) ^[apple](foo: 1)](inflect: true)") == "2 apples")
        #expect(render("^[^[\(2) box](inflect: true) is](agreeWithArgument: 1) full") == "2 boxes are full")
    }

    @Test func spansWithoutAgreementKeepTheirText() {
        #expect(render("^[apple](inflect: true)") == "apple")
        #expect(render("^[\(2) apple](inflect: false)") == "2 apple")
        #expect(render("^[hello](foo: 'bar')") == "hello")
        #expect(render("^[hello]()") == "hello")
        #expect(render("^[busy](agreeWithConcept: 1)") == "busy")
        #expect(render("^[\(2) apple](morphology: { partOfSpeech: 'noun' }, inflect: true)") == "2 apples")
    }

    @Test func inflectionAlternativeIsUsedOnlyWithoutANumberToAgreeWith() {
        #expect(render("^[\(2) file](inflect: true, inflectionAlternative: 'some files')") == "2 files")
        #expect(render("It ^[is](inflect: true, inflectionAlternative: 'may be') done") == "It may be done")
        #expect(render("^[Welcome](inflect: true, inflectionAlternative: 'Hi')") == "Welcome")
    }
}
