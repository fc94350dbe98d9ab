func main() {
    let word = "Café"
    for scalar in word.unicodeScalars {
        print(scalar, scalar.value)
    }
    print(word.unicodeScalars.count)
    let decomposed = "Cafe\u{301}"
    print(decomposed.count, decomposed.unicodeScalars.count)
    print(decomposed == word)
    print(Array("hi".unicodeScalars.map { $0.value }))
    let code = "A".unicodeScalars.first!.value
    print(code)
    print(Character(Unicode.Scalar(code + 2)!))
    let shifted = String("abc".unicodeScalars.map { Character(Unicode.Scalar($0.value + 1)!) })
    print(shifted)
    print("Z".unicodeScalars.first!.properties.isUppercase)
    print("é".utf8.map { $0 })
}
