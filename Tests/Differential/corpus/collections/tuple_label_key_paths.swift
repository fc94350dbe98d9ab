func divide(_ a: Int, by b: Int) -> (quotient: Int, remainder: Int) {
    (a / b, a % b)
}

func main() {
    let parts = [divide(7, by: 2), divide(9, by: 4)]
    print(parts.map(\.remainder), parts.map(\.quotient))
    let scores = [("ann", 72), ("bo", 95)]
    let named = scores.map { (name: $0.0, score: $0.1) }
    print(named.filter { $0.score > 80 }.map(\.name))
    print(named.map { $0.name })
}
