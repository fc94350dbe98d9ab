protocol View {
    func render(indent: Int) -> [String]
}

struct Text: View {
    let s: String
    init(_ s: String) { self.s = s }
    func render(indent: Int) -> [String] { [String(repeating: " ", count: indent) + s] }
}

struct Card<Content: View>: View {
    let title: String
    let content: Content

    init(title: String, content: () -> Content) {
        self.title = title
        self.content = content()
    }

    func render(indent: Int) -> [String] {
        [String(repeating: " ", count: indent) + "Card(\(title))"] + content.render(indent: indent + 2)
    }
}

func main() {
    let card = Card(title: "Outer") {
        Card(title: "Inner") {
            Text("hello")
        }
    }
    for line in card.render(indent: 0) {
        print(line)
    }
    print(type(of: card))
    print(Card(title: "x") { Text("y") }.content.s)
}
