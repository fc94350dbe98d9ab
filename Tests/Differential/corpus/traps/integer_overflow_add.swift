func total(_ values: [Int]) -> Int {
    var sum = 0
    for v in values {
        sum += v
        print("running", sum)
    }
    return sum
}

func main() {
    print(total([1, 2, 3]))
    print(total([Int.max - 5, 3, 3]))
    print("unreachable")
}
