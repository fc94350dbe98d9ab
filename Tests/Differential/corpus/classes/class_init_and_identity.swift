class Document {
    var title: String
    var pages: Int

    init(title: String, pages: Int = 1) {
        self.title = title
        self.pages = pages
    }
}

func main() {
    let a = Document(title: "Plan")
    let b = a
    let c = Document(title: "Plan")
    print(a === b, a === c, a !== c)
    b.pages = 10
    print(a.pages, c.pages)
    b.title += " v2"
    print(a.title)
    let docs = [a, c]
    print(docs.contains { $0 === b })
    print(docs.firstIndex { $0 === c }!)
    print(ObjectIdentifier(a) == ObjectIdentifier(b))
}
