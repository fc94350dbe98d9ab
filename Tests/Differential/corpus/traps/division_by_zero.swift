func average(_ values: [Int]) -> Int {
    let sum = values.reduce(0, +)
    return sum / values.count
}

func main() {
    print(average([2, 4, 6]))
    print(average([7]))
    print("averaging an empty list")
    print(average([]))
}
