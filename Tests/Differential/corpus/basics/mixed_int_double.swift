func average(_ values: [Int]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sum = values.reduce(0, +)
    return Double(sum) / Double(values.count)
}

func main() {
    let count = 7
    let width = 2.5
    print(Double(count) * width)
    print(Int(Double(count) * width))
    print(average([1, 2, 3, 4]))
    print(average([1, 2]))
    print(average([]))
    let half = Double(count) / 2
    print(half)
    print(count / 2)
    let literal = 3 + 0.5
    print(literal)
    let scale: Double = 2
    print(scale)
    print(Double(count) == 7.0)
    print(Int(7.99), Int(-7.99))
    let percent = Int(Double(3) / Double(8) * 100)
    print("\(percent)%")
}
