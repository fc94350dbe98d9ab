func allEqual<C: Collection>(_ c: C) -> Bool where C.Element: Equatable {
    guard let first = c.first else { return true }
    return c.allSatisfy { $0 == first }
}

func total<S: Sequence>(_ s: S) -> Int where S.Element == Int {
    s.reduce(0, +)
}

func commonElements<A: Sequence, B: Sequence>(_ a: A, _ b: B) -> [A.Element]
    where A.Element: Hashable, A.Element == B.Element {
    let set = Set(b)
    return a.filter { set.contains($0) }
}

func describeAll<T>(_ items: [T]) -> String where T: CustomStringConvertible {
    items.map { $0.description }.joined(separator: "/")
}

func main() {
    print(allEqual([1, 1, 1]), allEqual([1, 2]), allEqual([String]()))
    print(allEqual("aaa"))
    print(total([1, 2, 3]), total(1...10))
    print(commonElements([1, 2, 3, 4], [4, 2, 9]))
    print(commonElements("hello", "world"))
    print(describeAll([1, 2]), describeAll([true]))
}
