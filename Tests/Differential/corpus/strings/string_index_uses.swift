struct Cursor {
    var text: String
    var at: String.Index

    init(_ text: String) {
        self.text = text
        at = text.startIndex
    }

    mutating func next() -> Character? {
        guard at < text.endIndex else { return nil }
        let c = text[at]
        at = text.index(after: at)
        return c
    }
}

func isBefore<T: Comparable>(_ a: T, _ b: T) -> Bool { a < b }

func main() {
    let s = "tic\r\ntac"
    print(s.count, s.indices.count)
    var back = ""
    for i in s.indices.reversed() where s[i] != "\r\n" { back.append(s[i]) }
    print(back)
    print(s.indices.contains(s.startIndex), s.indices.first == s.startIndex, s.indices.last == s.index(before: s.endIndex))
    let both = max(s.startIndex, s.endIndex) == s.endIndex && min(s.startIndex, s.endIndex) == s.startIndex
    print(both, isBefore(s.startIndex, s.endIndex), isBefore(s.endIndex, s.startIndex))
    var seen: [String.Index: Int] = [:]
    for i in s.indices { seen[i, default: 0] += 1 }
    seen[s.startIndex, default: 0] += 1
    print(seen.values.sorted())
    print(Set(s.indices).count)
    let r = s.startIndex..<s.index(s.startIndex, offsetBy: 3)
    print(s[r], s[r].count)
    var cursor = Cursor("héy")
    while let c = cursor.next() { print(c, terminator: ".") }
    print()
    var t = "abc"
    let i = t.startIndex
    t = t + ""
    print(t[i])
    let empty = ""
    print(empty.startIndex == empty.endIndex, empty.firstIndex(of: "a") == nil, empty.indices.isEmpty)
    print(empty.index(empty.startIndex, offsetBy: 0) == empty.endIndex)
    let decomposed = "cafe\u{301}!"
    print(decomposed.firstIndex(of: "é").map { decomposed.distance(from: decomposed.startIndex, to: $0) } as Any)
    var word = "swift"
    let removed = word.remove(at: word.index(before: word.endIndex))
    word.insert(contentsOf: "FT", at: word.endIndex)
    print(removed, word)
    if let dot = "file.tar.gz".lastIndex(of: ".") {
        let name = "file.tar.gz"
        print(name[..<dot], name[name.index(after: dot)...])
    }
}
