struct Cart {
    var items: [String] = []
    var discount = 0

    var count: Int { items.count }
    var isEmpty: Bool { count == 0 }

    mutating func add(_ item: String) {
        items.append(item)
        if count > 2 { discount = 10 }
    }

    func label() -> String {
        isEmpty ? "empty" : "\(count) items, \(discount)% off"
    }

    func contains(_ item: String) -> Bool {
        items.contains(item)
    }

    mutating func add(all: [String]) {
        for item in all { add(item) }
    }
}

func main() {
    var c = Cart()
    print(c.label())
    c.add("a")
    print(c.label(), c.contains("a"), c.contains("b"))
    c.add(all: ["b", "c"])
    print(c.label())
}
