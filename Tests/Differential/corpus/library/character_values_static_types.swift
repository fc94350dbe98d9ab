struct Token {
    var text: String
    var firstDigit: Int? { text.first?.wholeNumberValue }
}

func digitValue(_ c: Character) -> Int? {
    c.wholeNumberValue
}

func main() {
    for c in "a1" {
        print(c.wholeNumberValue, c.asciiValue)
        let v = c.hexDigitValue
        print(v)
    }
    print(Token(text: "7x").firstDigit, Token(text: "x").firstDigit)
    print(digitValue("4"), digitValue("q"))
    let chars = Array("b2")
    print(chars[1].wholeNumberValue, chars.map(\.isLetter))
    let s = "hello"
    print(s.utf8.count > 3, s.utf8.reversed().first!)
    let parts = "a-b".split(whereSeparator: { $0 == "-" })
    print(parts.map { $0.uppercased() }, parts.count)
    print(s.prefix(while: { $0 != "l" }) + "!", s.drop(while: { $0 != "l" }).count)
    print([1, 2, 3].prefix(upTo: 1) + [9])
    print(Int.max.multipliedReportingOverflow(by: 2).overflow, (5).addingReportingOverflow(1).partialValue)
}
