func trimmed(_ s: String) -> String {
    let start = s.drop(while: { $0.isWhitespace })
    return String(String(start.reversed()).drop(while: { $0.isWhitespace }).reversed())
}

func main() {
    let title = "Canopy Script 2026"
    print(title.prefix(while: { $0 != " " }))
    print(title.drop(while: { $0 != " " }))
    print(title.prefix(while: { $0.isLetter }).count)
    print(title.drop(while: { $0.isLetter || $0 == " " }))
    print(title.prefix { $0 == "x" }.isEmpty, title.drop { _ in true }.isEmpty)
    print("[\(trimmed("  padded \t "))]", "[\(trimmed(""))]")
    print("a1b22c333".split(whereSeparator: { $0.isNumber }))
    print("one, two;three  four".split(whereSeparator: { $0 == "," || $0 == ";" || $0 == " " }))
    print(",a,,b,".split(omittingEmptySubsequences: false, whereSeparator: { $0 == "," }))
    print("a,b,c,d".split(maxSplits: 2, whereSeparator: { $0 == "," }))
    print(",,a,,b".split(maxSplits: 1, omittingEmptySubsequences: false, whereSeparator: { $0 == "," }))
    print("x y".split(maxSplits: 0, whereSeparator: { $0 == " " }), "".split(whereSeparator: { $0 == " " }))
    print("path/to/file".split { $0 == "/" }.count)
    print(title.last(where: { $0.isLetter })!, title.last(where: { $0 == "?" }) as Any)
    print(title.last { $0.isNumber } ?? "-")
    var s = "Mississippi"
    s.removeAll(where: { $0 == "s" })
    print(s)
    s.removeAll { "aeiou".contains($0) }
    print(s, s.count)
    let word = "héllo"
    print(word.utf8.count, word.utf16.count, word.count)
    print(Array(word.utf8))
    print(word.utf8.map { Int($0) }.reduce(0, +))
    print("😀".utf16.count, "😀".utf8.count, Array("é😀".utf16))
    print("abc".utf8.first as Any, "".utf8.first as Any, "abc".utf8.contains(98))
    var total = 0
    for b in "AZ".utf8 {
        total += Int(b)
    }
    print(total)
}
