func main() {
    let numbers = [5, 12, 7, 3, 20, 8]
    let small = numbers.filter { $0 < 10 }
    let large = numbers.filter { $0 >= 10 }
    print(small, large)
    let chunks = stride(from: 0, to: numbers.count, by: 4).map {
        Array(numbers[$0..<min($0 + 4, numbers.count)])
    }
    print(chunks)
    let parts = [1, 0, 2, 3, 0, 4].split(separator: 0)
    print(parts.map { Array($0) })
    let words = ["a", "", "b", "c", ""].split(separator: "")
    print(words.map { $0.count })
    let sorted = numbers.sorted()
    let median = sorted[sorted.count / 2]
    print(median)
    print(numbers.split(whereSeparator: { $0 > 10 }).map { Array($0) })
}
