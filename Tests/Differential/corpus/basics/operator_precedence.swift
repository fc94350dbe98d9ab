func main() {
    print(1 + 2 * 3 - 4 / 2)
    print(10 - 2 - 3)
    print(2 * 3 % 4)
    print(1 << 2 + 1)
    print((1 << 2) + 1)
    print(5 & 3 + 1)
    print(5 | 2 * 2)
    print(-2 * -3)
    print(true || false && false)
    print(1 + 2 == 3 && 4 > 2)
    print(3 > 2 ? 1 : 0 + 10)
    let x: Int? = nil
    print(x ?? 0 + 5)
    print((x ?? 0) + 5)
    print(-5 % 3, -(5 % 3))
    print(2.0 * 3 + 1)
}
