func uniqueSorted<T: Hashable & Comparable>(_ items: [T]) -> [T] {
    Array(Set(items)).sorted()
}

func histogram<T: Hashable & Comparable>(_ items: [T]) -> [(T, Int)] {
    var counts: [T: Int] = [:]
    for i in items { counts[i, default: 0] += 1 }
    return counts.keys.sorted().map { ($0, counts[$0]!) }
}

func describe<T>(_ value: T) -> String where T: CustomStringConvertible, T: Equatable {
    "<\(value.description)>"
}

func main() {
    print(uniqueSorted([3, 1, 3, 2, 1]))
    print(uniqueSorted(["b", "a", "b"]))
    for (k, v) in histogram(["x", "y", "x", "z", "x"]) {
        print(k, v)
    }
    print(histogram([2, 2, 1]).map { "\($0.0):\($0.1)" })
    print(describe(42), describe(true))
}
