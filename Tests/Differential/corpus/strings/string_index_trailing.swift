func main() {
    let s = "abc123 xyz"
    print(s.prefix { $0.isLetter }, s.prefix(while: { $0 != " " }), s.prefix(4), s.suffix(3))
    if let i = s.firstIndex(where: { $0.isNumber }), let j = s.lastIndex { $0.isNumber } {
        print(s[i...j], s.distance(from: i, to: j))
    }
    print(s.firstIndex { $0 == " " }.map { s[$0...] } as Any)
    var t = s
    t.removeAll { $0.isNumber }
    t.insert("!", at: t.endIndex)
    print(t, t.dropFirst(2), t.dropLast())
    var letters = Array("dcba")
    letters.insert("e", at: 0)
    letters.remove(at: 1)
    print(String(letters), letters.firstIndex(of: "b") as Any)
}
