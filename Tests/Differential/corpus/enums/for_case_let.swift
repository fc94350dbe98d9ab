enum Entry {
    case file(name: String, size: Int)
    case folder(name: String, children: Int)
    case link(String)
}

func main() {
    let entries: [Entry] = [
        .file(name: "a.txt", size: 120),
        .folder(name: "src", children: 4),
        .file(name: "b.png", size: 3000),
        .link("docs"),
        .file(name: "c.md", size: 50),
    ]
    for case let .file(name, size) in entries {
        print("file", name, size)
    }
    for case .folder(let name, let n) in entries where n > 0 {
        print("folder", name, n)
    }
    for case let .file(name, size) in entries where size > 100 {
        print("big", name)
    }
    var total = 0
    for case .file(_, let size) in entries {
        total += size
    }
    print("total", total)
    for case .link(let target) in entries {
        print("link ->", target)
    }
}
