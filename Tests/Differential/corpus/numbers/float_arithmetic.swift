func main() {
    let third = Float(1) / 3
    print(third)
    print(Float(2) / 3)
    print(Float(0.1) + Float(0.2))
    print(Float(0.1))
    print(Double(Float(0.1)))
    let f: Float = 1.1
    print(f * f)
    print(Float(16777217))
    print(Float(1e10))
    print(Float.pi)
    print(Float(3))
    print(Float(1) / 0)
    let values: [Float] = [0.5, 0.25, 1e-3]
    print(values)
    print(values.reduce(0, +))
    print(Float(7) / 2 == 3.5)
    print(Float("2.5")! * 2)
}
