func main() {
    let d = 1.0 / 3.0
    let f = Float(1.0) / Float(3.0)
    print(d)
    print(f)
    print(Double(f))
    print(Float(d))
    print(Float(d) == f)
    var sumF: Float = 0
    var sumD: Double = 0
    for _ in 0..<10 {
        sumF += 0.1
        sumD += 0.1
    }
    print(sumF, sumD)
    print(sumF == 1.0, sumD == 1.0)
    let big: Float = 123456789
    print(big)
    print(Int(big))
    print(Float(Int.max))
    print("\(Float(2.75)) \(Double(2.75))")
}
