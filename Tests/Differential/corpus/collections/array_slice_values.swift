func total(_ s: ArraySlice<Int>) -> Int { s.reduce(0, +) }

func main() {
    let a = [5, 6, 7, 8, 9]
    let tail = a[1...]
    print(tail, tail.count, tail.first ?? 0, tail.last ?? 0)
    print(total(tail), total(a.dropFirst(2)), total(a.prefix(2)))
    for (i, x) in tail.enumerated() { print(i, x) }
    print(Array(tail), Array(a.dropLast()).count)
    print(tail.map { $0 * 2 }, tail.filter { $0 > 6 }, tail.sorted(by: >))
    print(a.suffix(2).contains(9), a.prefix(3).min() ?? 0, a.dropFirst().isEmpty)
    var b = Array(a[..<2])
    b.append(1)
    print(b)
    print(a.prefix(3).reduce(0, +), a[2..<4].max() ?? -1)
}
