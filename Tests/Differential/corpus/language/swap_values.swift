func main() {
    var a = 1, b = 2
    swap(&a, &b)
    var xs = ["x", "y", "z"]
    xs.swapAt(0, 2)
    var p = (1, "one"), q = (2, "two")
    swap(&p, &q)
    print(a, b, xs, p, q)
}
