struct Catalog {
    var items: [String] = ["lamp", "desk", "chair"]

    func index(of name: String) -> Int? {
        return items.firstIndex(of: name)
    }

    func item(at i: Int) -> String? {
        return items.indices.contains(i) ? items[i] : nil
    }
}

func main() {
    let c = Catalog()
    print(c.index(of: "desk") as Any)
    print(c.index(of: "bed") as Any)
    print(c.item(at: 0) as Any)
    print(c.item(at: 5) as Any)
    print(c.item(at: -1) ?? "out of range")
    let i = c.index(of: "chair").flatMap { c.item(at: $0 - 1) }
    print(i as Any)
    print(c.index(of: "lamp").map { $0 + 1 } ?? 0)
}
