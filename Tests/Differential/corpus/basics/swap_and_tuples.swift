func main() {
    var a = 1
    var b = 2
    (a, b) = (b, a)
    print(a, b)
    swap(&a, &b)
    print(a, b)
    var x = 10, y = 20, z = 30
    (x, y, z) = (z, x, y)
    print(x, y, z)
    let (q, r) = (17 / 5, 17 % 5)
    print(q, r)
    let point = (3, 4)
    let (px, _) = point
    print(px)
    print(point.0 * point.1)
    var fib = (0, 1)
    for _ in 0..<10 {
        fib = (fib.1, fib.0 + fib.1)
    }
    print(fib)
}
