func main() {
    let values: [Double] = [0.1, 0.2, 0.3, 1.1, 2.675, 3.0, 1e-7, 5e-324]
    for v in values {
        print(v)
    }
    print(0.1 * 3)
    print(1.1 * 1.1)
    print(1e300 * 1e10)
    print(Double.greatestFiniteMagnitude)
    print(Double.leastNonzeroMagnitude)
    print(Double(Int.max))
    print(9007199254740993.0)
    print(Double(1 << 53))
    print(4.35 * 100)
    print(-1.5)
    print([1.0, 2.5, -0.0])
    print("interp \(2.0) and \(0.1 + 0.2)")
}
