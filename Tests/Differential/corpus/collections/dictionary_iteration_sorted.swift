func main() {
    let stock = ["b": 2, "a": 5, "c": 0]
    for (key, value) in stock.sorted(by: { $0.key < $1.key }) {
        print(key, value)
    }
    for entry in stock.sorted(by: { $0.value > $1.value }) {
        print(entry.key, "->", entry.value)
    }
    let inStock = stock.filter { $0.value > 0 }.map { $0.key }.sorted()
    print(inStock)
    var copy = stock
    copy["d"] = 9
    print(stock.count, copy.count)
    let keys = Array(copy.keys).sorted(by: >)
    print(keys)
    print(stock.first(where: { $0.value == 5 })?.key as Any)
    print(stock.contains { $0.value == 0 })
    let inverted = Dictionary(uniqueKeysWithValues: stock.map { ($0.value, $0.key) })
    print(inverted.keys.sorted(), inverted[0]!)
}
