protocol Renderable {
    func render() -> String
}

struct Text: Renderable {
    let s: String
    func render() -> String { s }
}

struct Bold<Content: Renderable>: Renderable {
    let content: Content
    func render() -> String { "**" + content.render() + "**" }
}

struct Stack: Renderable {
    let children: [Renderable]
    func render() -> String { children.map { $0.render() }.joined(separator: "\n") }
}

extension Renderable {
    func bold() -> Bold<Self> { Bold(content: self) }
}

func main() {
    let t = Text(s: "hi")
    print(t.render())
    print(t.bold().render())
    print(t.bold().bold().render())
    let s = Stack(children: [t, Text(s: "there").bold()])
    print(s.render())
    print(type(of: t.bold()))
}
