func group<T, K: Hashable & Comparable>(_ items: [T], by key: (T) -> K) -> [(K, [T])] {
    var dict: [K: [T]] = [:]
    for item in items {
        dict[key(item), default: []].append(item)
    }
    return dict.keys.sorted().map { ($0, dict[$0]!) }
}

func mapPairs<T, U>(_ items: [T], _ f: (T, T) -> U) -> [U] {
    guard items.count > 1 else { return [] }
    return (1..<items.count).map { f(items[$0 - 1], items[$0]) }
}

func main() {
    let words = ["apple", "bob", "cat", "avocado", "bee"]
    for (k, v) in group(words, by: { $0.first! }) {
        print(k, v)
    }
    for (k, v) in group(words, by: \.count) {
        print(k, v)
    }
    print(mapPairs([1, 4, 9, 16], -))
    print(mapPairs(["a", "b", "c"]) { $0 + $1 })
    print(mapPairs([1], +))
}
