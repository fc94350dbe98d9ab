func main() {
    let a = 17
    let b = 5
    print(a + b)
    print(a - b)
    print(a * b)
    print(a / b)
    print(a % b)
    print(-a)
    print(b - a)
    print(a * -b)
    print(2 + 3 * 4)
    print((2 + 3) * 4)
    print(100 / 7 / 2)
    print(100 / (7 / 2))
    print(1 - 2 - 3)
    print(abs(-42))
    print(min(3, 9), max(3, 9))
    print(min(4, 2, 8), max(4, 2, 8))
}
