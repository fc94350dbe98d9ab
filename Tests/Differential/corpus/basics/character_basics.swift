func main() {
    let c: Character = "a"
    print(c)
    print(c.isLetter, c.isNumber, c.isUppercase)
    let d: Character = "7"
    print(d.isNumber, d.wholeNumberValue!)
    print(Character("Z").isUppercase)
    print(c.asciiValue!)
    print(Character(UnicodeScalar(66)))
    print(String(c) + String(d))
    print(c < "b", c == "a")
    let word = "Hello"
    var upper = 0
    for ch in word where ch.isUppercase {
        upper += 1
    }
    print("uppercase", upper)
    print(Array(word))
    print(" ".first!.isWhitespace)
    print(Character("é").isLetter)
}
