func main() {
    let samples: [Double] = [0, 1, -1, 10, 100, 1000000, 10000000, 1e15, 1e16, 1e17, 0.001, 0.0001, 0.00001, 123.456, -99.5]
    for s in samples {
        print(s)
    }
    print(Double(Int.max) == 9.223372036854776e18)
    print(1 / 8.0, 1 / 16.0, 1 / 1024.0)
    print(2.0 * 1e-320)
    print(1.7976931348623157e308 * 10)
    print(Double(Int32.min))
}
