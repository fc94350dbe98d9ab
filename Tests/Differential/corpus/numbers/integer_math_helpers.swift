func isPrime(_ n: Int) -> Bool {
    if n < 2 { return false }
    var d = 2
    while d * d <= n {
        if n % d == 0 { return false }
        d += 1
    }
    return true
}

func digits(_ n: Int) -> [Int] {
    String(abs(n)).compactMap { $0.wholeNumberValue }
}

func main() {
    print((1...20).filter(isPrime))
    print(digits(90210), digits(-7))
    print(digits(12345).reduce(0, +))
    print(Int.max.description.count)
    print(1 << 62, (1 << 62) / 1_000_000)
    print((-8) / 3, (-8) % 3, 8 / -3)
    let (q, r) = 100.quotientAndRemainder(dividingBy: 7)
    print(q, r)
    print(abs(Int.min + 1))
    print(Int.max.multipliedReportingOverflow(by: 2).overflow)
}
