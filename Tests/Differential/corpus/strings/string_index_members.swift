func middle(_ s: String) -> Character? {
    guard !s.isEmpty else { return nil }
    let i: String.Index = s.index(s.startIndex, offsetBy: s.count / 2)
    return s[i]
}

func positions(of c: Character, in s: String) -> [Int] {
    var out: [Int] = []
    for i in s.indices where s[i] == c {
        out.append(s.distance(from: s.startIndex, to: i))
    }
    return out
}

func main() {
    let s = "naïve café, déjà vu"
    print(s[s.startIndex], s[s.index(before: s.endIndex)])
    print(s.startIndex < s.endIndex, s.startIndex == s.startIndex, s.endIndex > s.startIndex)
    print(s.distance(from: s.startIndex, to: s.endIndex), s.count)
    let third = s.index(s.startIndex, offsetBy: 2)
    print(s[third], s[s.index(after: third)], s[s.index(before: third)])
    print(s.index(third, offsetBy: -2) == s.startIndex)
    print(s.index(s.startIndex, offsetBy: 5, limitedBy: s.endIndex).map { s[$0] } as Any)
    print(s.index(s.startIndex, offsetBy: 50, limitedBy: s.endIndex) == nil)
    print(s.index(s.endIndex, offsetBy: -3, limitedBy: s.startIndex).map { s[$0] } as Any)
    print(s.index(third, offsetBy: 4, limitedBy: s.startIndex).map { s[$0] } as Any)
    if let comma = s.firstIndex(of: ",") {
        print(s[..<comma], "|", s[comma...], "|", s[...comma])
        print(s.prefix(upTo: comma), s.prefix(through: comma), s.suffix(from: s.index(comma, offsetBy: 2)))
        print(s[s.startIndex..<comma].count, s[third...comma])
    }
    print(s.lastIndex(of: "é").map { s.distance(from: s.startIndex, to: $0) } as Any)
    print(s.firstIndex(of: "z") == nil, s.lastIndex(of: "q") == nil)
    print(s.firstIndex(where: { $0 == " " }).map { s.distance(from: s.startIndex, to: $0) } as Any)
    print(s.lastIndex(where: { $0.isWhitespace }).map { s[$0...] } as Any)
    print(middle("abcde") as Any, middle("") as Any)
    print(positions(of: "a", in: "banana"))
    print(s.indices.count, "".indices.count, "".startIndex == "".endIndex)
    var t = "hello"
    let removed = t.remove(at: t.startIndex)
    print(removed, t)
    t.insert("J", at: t.startIndex)
    print(t)
    t.insert(contentsOf: "ly", at: t.endIndex)
    print(t)
    t.removeSubrange(t.index(t.startIndex, offsetBy: 1)..<t.index(t.startIndex, offsetBy: 3))
    print(t)
    t.replaceSubrange(t.startIndex...t.index(after: t.startIndex), with: "Ye")
    print(t)
    let e = "e\u{301}x"
    print(e.count, e[e.startIndex], e[e.index(after: e.startIndex)])
    var walk = s.startIndex
    var letters = ""
    while walk < s.endIndex {
        if s[walk].isLetter { letters.append(s[walk]) }
        walk = s.index(after: walk)
    }
    print(letters)
    let word = String(s[s.startIndex..<third]) + "!"
    print(word)
}
