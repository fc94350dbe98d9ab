struct Text {
    let content: String
    init(_ content: String) { self.content = content }
    static func + (lhs: Text, rhs: Text) -> Text {
        return Text(lhs.content + rhs.content)
    }
}

func main() {
    let a = "Hello"
    let b = "World"
    print(a + ", " + b + "!")
    var s = ""
    for i in 1...3 {
        s = s + String(i)
    }
    print(s)
    let t = Text("Bold ") + Text("and ") + Text("plain")
    print(t.content)
    let parts = [Text("x"), Text("y"), Text("z")]
    print(parts.reduce(Text(""), +).content)
    print("a" + String(repeating: "-", count: 3) + "b")
    let c: Character = "!"
    print(a + String(c))
    print(s + "\(s.count)")
}
