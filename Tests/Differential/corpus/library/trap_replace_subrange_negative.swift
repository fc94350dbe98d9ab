func main() {
    var a = [1, 2, 3]
    let start = a.count - 4
    a.replaceSubrange(1..<2, with: [5])
    print(a)
    a.replaceSubrange(start..<1, with: [9])
    print("unreachable", a)
}
