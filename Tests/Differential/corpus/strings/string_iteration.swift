func countVowels(_ s: String) -> Int {
    var n = 0
    for c in s.lowercased() {
        switch c {
        case "a", "e", "i", "o", "u":
            n += 1
        default:
            break
        }
    }
    return n
}

func main() {
    print(countVowels("Programming Language"))
    for (i, c) in "abc".enumerated() {
        print(i, c)
    }
    let digits = "a1b22c333".filter { $0.isNumber }
    print(digits, digits.count)
    print("hello".map { String($0).uppercased() }.joined(separator: "."))
    let sum = "12345".compactMap { $0.wholeNumberValue }.reduce(0, +)
    print(sum)
    print("mississippi".filter { $0 == "s" }.count)
    print(Set("hello").count)
    print(Array("hello").sorted())
}
