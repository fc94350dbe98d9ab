protocol Container {
    associatedtype Item
    var items: [Item] { get set }
    mutating func add(_ item: Item)
    func item(at i: Int) -> Item?
}

extension Container {
    mutating func add(_ item: Item) { items.append(item) }
    func item(at i: Int) -> Item? { items.indices.contains(i) ? items[i] : nil }
    var count: Int { items.count }
}

struct IntBag: Container {
    var items: [Int] = []
}

struct Shelf: Container {
    typealias Item = String
    var items: [String] = ["a"]
    mutating func add(_ item: String) { items.insert(item, at: 0) }
}

func main() {
    var bag = IntBag()
    bag.add(3)
    bag.add(4)
    print(bag.items, bag.count, bag.item(at: 1) as Any, bag.item(at: 5) as Any)
    var shelf = Shelf()
    shelf.add("b")
    shelf.add("c")
    print(shelf.items, shelf.count)
    print(shelf.item(at: 0)!)
}
