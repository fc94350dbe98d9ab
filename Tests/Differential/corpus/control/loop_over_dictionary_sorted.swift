func main() {
    let stock = ["pear": 4, "apple": 0, "fig": 12, "kiwi": 7]
    for (name, count) in stock.sorted(by: { $0.key < $1.key }) {
        if count == 0 {
            print(name, "sold out")
            continue
        }
        print(name, count)
    }
    var restock: [String] = []
    for key in stock.keys.sorted() where stock[key]! < 5 {
        restock.append(key)
    }
    print(restock)
    var running = 0
    for value in stock.values.sorted() {
        running += value
        if running > 10 { break }
    }
    print(running)
}
