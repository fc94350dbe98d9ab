func main() {
    let r = 0..<4
    print(r)
    print(r.lowerBound, r.upperBound)
    print(r.count)
    print(r.contains(4), r.contains(3))
    let empty = 3..<3
    print(empty.isEmpty, empty.count)
    var names: [String] = []
    let source = ["a", "b", "c", "d", "e"]
    for i in 1..<source.count - 1 {
        names.append(source[i])
    }
    print(names)
    print(Array(0..<5).map { $0 * $0 })
    print((0..<10).filter { $0 % 3 == 0 })
    let size = 3
    print(Array(0..<size))
    print((5..<8).first!, (5..<8).last!)
}
