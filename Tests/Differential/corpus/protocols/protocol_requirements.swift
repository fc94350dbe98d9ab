protocol Describable {
    var title: String { get }
    var detail: String { get }
    func summary() -> String
}

struct Book: Describable {
    let title: String
    let pages: Int
    var detail: String { "\(pages) pages" }
    func summary() -> String { "\(title) (\(detail))" }
}

struct Movie: Describable {
    var title: String
    var minutes: Int
    var detail: String { "\(minutes) min" }
    func summary() -> String { "🎬 \(title), \(detail)" }
}

func printAll(_ items: [Describable]) {
    for item in items {
        print(item.summary())
    }
}

func main() {
    let items: [Describable] = [Book(title: "Dune", pages: 412), Movie(title: "Alien", minutes: 117)]
    printAll(items)
    print(items.map(\.title))
    print(items.map { $0.detail })
}
