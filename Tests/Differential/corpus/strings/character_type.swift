func classify(_ c: Character) -> String {
    if c.isNumber { return "digit" }
    if c.isLetter { return c.isUppercase ? "upper" : "lower" }
    if c.isWhitespace { return "space" }
    if c.isPunctuation { return "punct" }
    return "other"
}

func main() {
    for c in "aB3 !$" {
        print(c, classify(c))
    }
    let c: Character = "x"
    let s: String = String(c)
    print(s + s)
    print(Character("a") < Character("b"))
    print(String(repeating: c, count: 3))
    print(c.isASCII, Character("ü").isASCII)
    print(Character("5").wholeNumberValue! * 2)
    print(Character("A").asciiValue! + 1)
    print(Character("\u{41}"))
    print(Character("😀").unicodeScalars.count)
}
