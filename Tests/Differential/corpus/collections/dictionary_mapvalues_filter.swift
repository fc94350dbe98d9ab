func main() {
    let prices = ["tea": 3.0, "cake": 4.5, "water": 1.0]
    let discounted = prices.mapValues { $0 * 0.5 }
    for k in discounted.keys.sorted() {
        print(k, discounted[k]!)
    }
    let expensive = prices.filter { $0.value > 2 }
    print(expensive.keys.sorted())
    let labels = prices.mapValues { "$\($0)" }
    print(labels["cake"]!)
    let parsed = ["a": "1", "b": "x", "c": "3"].compactMapValues { Int($0) }
    print(parsed.keys.sorted(), parsed.values.sorted())
    let pairs = prices.map { "\($0.key.count)-\($0.value)" }.sorted()
    print(pairs)
    var total = 0.0
    prices.forEach { total += $0.value }
    print(total)
    let none = prices.filter { $0.key.hasPrefix("z") }
    print(none.isEmpty)
}
