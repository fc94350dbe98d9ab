func main() {
    let cs: [Character] = ["a", "Z", "5", "٣", "½", "é", " ", "\n", "ß", "ǅ", "😀", "Ⅻ", "$", "+", "_"]
    for c in cs {
        print(c.isLetter, c.isNumber, c.isWholeNumber, c.wholeNumberValue as Any, c.isUppercase, c.isLowercase, c.isCased, c.isASCII, c.isHexDigit, c.hexDigitValue as Any)
        print(c.uppercased(), c.lowercased(), String(c), c.isWhitespace, c.isNewline, c.isPunctuation, c.isSymbol, c.isMathSymbol, c.isCurrencySymbol)
    }
    print(Character("a") < Character("b"), Character("a") == "a", Character("é") > "e", Character("Z") < "a")
    print(Character("e\u{301}") == Character("é"), String(Character("x")) + "y")
    let digits = "a1b22c".filter { $0.isNumber }.compactMap { $0.wholeNumberValue }
    print(digits, digits.reduce(0, +))
}
