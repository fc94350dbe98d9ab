func main() {
    let a = [10, 20, 30, 40, 50]
    print(a[..<2])
    print(a[...2])
    print(a[2...])
    print(a[1..<3])
    print(a[1...3])
    print(Array(a[3...]))
    let head = a[..<2]
    print(head.count, head.first!, head.last!)
    let tail = a[2...]
    print(tail.startIndex, tail[2])
    print(a[a.count...])
    print(a[..<0].isEmpty)
    let r = ..<5
    print(r.contains(4), r.contains(5))
    let from = 3...
    print(from.contains(1000), from.contains(2))
    let s = "swift"
    print(s.prefix(3), s.dropFirst(2))
}
