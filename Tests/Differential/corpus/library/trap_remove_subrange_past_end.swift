func main() {
    var a = [1, 2, 3]
    a.removeSubrange(1..<3)
    print(a)
    a.removeSubrange(0..<2)
    print("unreachable", a)
}
