func main() {
    let csv = "apple,banana,,cherry"
    let parts = csv.split(separator: ",")
    print(parts)
    print(parts.count)
    let all = csv.split(separator: ",", omittingEmptySubsequences: false)
    print(all, all.count)
    let sentence = "  the quick  brown fox "
    let words = sentence.split(separator: " ")
    print(words)
    print(words.map { String($0) }.map { $0.count })
    print("a-b-c".split(separator: "-", maxSplits: 1))
    print("".split(separator: ","))
    let lines = "first\nsecond\nthird"
    for (i, line) in lines.split(separator: "\n").enumerated() {
        print(i, line)
    }
    print("key=value".split(separator: "=").last!)
    print("a1b2c3".split(whereSeparator: { $0.isNumber }))
}
