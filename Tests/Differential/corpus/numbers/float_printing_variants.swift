func main() {
    let values: [Float] = [1, 0.1, 0.2, 0.3, 1.0 / 3.0, 2.0 / 3.0, 100, 1e7, 1e8, 16777216, 0.000001]
    for v in values {
        print(v)
    }
    print(Float(0.1) + Float(0.2) == Float(0.3))
    print(Float(1) / Float(7))
    print(Float(-0.0), -Float.infinity, Float.nan)
    print(Float.greatestFiniteMagnitude)
    print(Float(Double.pi))
    print("\(Float(5) / 4)")
}
