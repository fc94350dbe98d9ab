func classify(_ c: Character) -> String {
    if c.isLetter { return c.isUppercase ? "upper" : (c.isLowercase ? "lower" : "letter") }
    if c.isNumber { return "number" }
    if c.isWhitespace { return c.isNewline ? "newline" : "space" }
    if c.isPunctuation { return "punct" }
    if c.isSymbol { return "symbol" }
    return "other"
}

func main() {
    let sample = "Aé z9½٣\t\n!?-+$€✓中😀"
    for c in sample {
        print(classify(c), c.isASCII, c.isCased, c.isHexDigit, c.isWholeNumber, c.isMathSymbol, c.isCurrencySymbol)
    }
    print(sample.filter { $0.isLetter })
    print(sample.filter { $0.isNumber }.count)
    print("Hello World".filter { $0.isUppercase })
    print("x1y22z333".compactMap { $0.wholeNumberValue })
    print("x1y22z333".compactMap { $0.wholeNumberValue }.reduce(0, +))
    let digits: [Character] = ["7", "a", "F", "٣", "½", "g"]
    for d in digits {
        print(d, d.wholeNumberValue as Any, d.hexDigitValue as Any, d.asciiValue as Any)
    }
    print(digits.map { $0.wholeNumberValue })
    print(digits.map { $0.hexDigitValue ?? -1 })
    let first = "swift".first!
    print(first.asciiValue!, first.isLowercase, first.uppercased())
    print("A".first!.asciiValue.map { Int($0) + 1 } ?? 0)
    var counts = [0, 0, 0]
    for c in "Canopy 2026, ready!" {
        if c.isLetter {
            counts[0] += 1
        } else if c.isNumber {
            counts[1] += 1
        } else if c.isPunctuation || c.isWhitespace {
            counts[2] += 1
        }
    }
    print(counts)
    print("camelCaseName".contains { $0.isUppercase }, "snake_case".allSatisfy { $0.isLowercase || $0 == "_" })
    if let w = "abc5".last?.wholeNumberValue {
        print("last digit", w)
    }
    print("Ünïcödé".map { $0.isASCII })
}
