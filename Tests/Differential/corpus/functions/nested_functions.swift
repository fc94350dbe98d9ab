func formatList(_ items: [String]) -> String {
    func bullet(_ s: String) -> String {
        "• " + s
    }
    var count = 0
    func numbered(_ s: String) -> String {
        count += 1
        return "\(count). \(s)"
    }
    let a = items.map(bullet)
    let b = items.map(numbered)
    return (a + b).joined(separator: " | ") + " (\(count))"
}

func makeFactorial() -> (Int) -> Int {
    func fact(_ n: Int) -> Int {
        n <= 1 ? 1 : n * fact(n - 1)
    }
    return fact
}

func main() {
    print(formatList(["x", "y"]))
    print(formatList([]))
    let f = makeFactorial()
    print(f(5), f(10))
}
