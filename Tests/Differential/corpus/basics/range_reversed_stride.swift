func main() {
    for i in (1...4).reversed() {
        print("countdown", i)
    }
    print(Array((0..<3).reversed()))
    print(Array(stride(from: 0, to: 10, by: 3)))
    print(Array(stride(from: 0, through: 9, by: 3)))
    print(Array(stride(from: 10, to: 0, by: -4)))
    print(Array(stride(from: 10, through: 0, by: -5)))
    for x in stride(from: 0.0, through: 1.0, by: 0.25) {
        print(x)
    }
    print(Array(stride(from: 1, to: 1, by: 1)))
    var steps = 0
    for _ in stride(from: 100, to: 0, by: -30) {
        steps += 1
    }
    print("steps", steps)
}
