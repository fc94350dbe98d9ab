func largest<T: Comparable>(_ items: [T]) -> T? {
    guard var best = items.first else { return nil }
    for item in items where item > best {
        best = item
    }
    return best
}

func countMatches<T: Equatable>(_ items: [T], _ target: T) -> Int {
    items.filter { $0 == target }.count
}

func pairUp<A, B>(_ a: A, _ b: B) -> (A, B) {
    (a, b)
}

func clamp<T: Comparable>(_ v: T, _ lo: T, _ hi: T) -> T {
    min(max(v, lo), hi)
}

func main() {
    print(largest([3, 9, 2]) as Any)
    print(largest(["pear", "apple"]) as Any)
    print(largest([Double]()) as Any)
    print(countMatches([1, 2, 1, 1], 1))
    print(countMatches(["a", "b"], "c"))
    print(pairUp(1, "one"))
    print(clamp(15, 0, 10), clamp(2.5, 0.0, 1.0), clamp("m", "a", "k"))
}
