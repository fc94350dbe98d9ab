func keep<S: Sequence>(_ s: S, _ f: (S.Element) -> Bool) -> [S.Element] {
    s.filter(f)
}

func evens<C: Collection>(_ c: C) -> Int where C.Element == Int {
    c.filter { $0 % 2 == 0 }.count
}

func main() {
    print(keep("hello") { $0 != "l" })
    print(keep(Set([3])) { $0 > 1 })
    print(keep([1, 2, 3]) { $0 > 1 })
    print(keep(1...5) { $0 > 3 })
    print(evens([1, 2, 4]), evens(Set([2])))
    print("hello".filter { $0 != "l" })
}
