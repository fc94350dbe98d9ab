func main() {
    let numbers = Array(1...20)
    let result = numbers
        .filter { $0 % 3 == 0 }
        .map { $0 * $0 }
        .prefix(3)
    print(Array(result))
    let firstBig = numbers.lazy.map { $0 * 10 }.first { $0 > 55 }
    print(firstBig as Any)
    let words = ["swift", "is", "a", "fine", "language"]
    let summary = words
        .filter { $0.count > 1 }
        .map { $0.uppercased() }
        .sorted { $0.count < $1.count }
        .joined(separator: " ")
    print(summary)
    let total = words.map(\.count).reduce(0, +)
    print(total)
    print(numbers.reversed().prefix(2).map { $0 })
}
