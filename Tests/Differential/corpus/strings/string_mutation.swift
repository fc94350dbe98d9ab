func main() {
    var s = "Hello"
    s.append("!")
    print(s)
    s.append(contentsOf: " Bye")
    print(s)
    s.insert("?", at: s.startIndex)
    print(s)
    let removed = s.removeFirst()
    print(removed, s)
    let last = s.removeLast()
    print(last, s)
    s.removeAll(where: { $0 == "l" })
    print(s)
    var t = "abc"
    t.insert(contentsOf: "XY", at: t.index(after: t.startIndex))
    print(t)
    t.remove(at: t.startIndex)
    print(t)
    var u = "temp"
    u.removeAll()
    print(u.isEmpty, "[\(u)]")
}
