struct LineItem {
    let name: String
    let cost: Int
}

func main() {
    let items = [LineItem(name: "a", cost: 5), LineItem(name: "b", cost: 12), LineItem(name: "c", cost: 3)]
    let total = items.reduce(0) { $0 + $1.cost }
    print(total)
    print([1, 2, 3, 4].reduce(0, +))
    print([1, 2, 3, 4].reduce(1, *))
    print([3, 9, 2].reduce(Int.min, max))
    let sentence = ["a", "b", "c"].reduce("") { acc, s in acc.isEmpty ? s : acc + "," + s }
    print(sentence)
    let longest = items.reduce(items[0]) { $1.cost > $0.cost ? $1 : $0 }
    print(longest.name)
    let running = [1, 2, 3, 4].reduce([Int]()) { acc, x in acc + [(acc.last ?? 0) + x] }
    print(running)
    print([Int]().reduce(42, +))
    print([0.5, 0.25].reduce(0, +))
}
