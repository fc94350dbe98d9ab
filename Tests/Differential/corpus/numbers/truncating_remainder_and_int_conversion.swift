func main() {
    print(7.5.truncatingRemainder(dividingBy: 2))
    print((-7.5).truncatingRemainder(dividingBy: 2))
    print(7.5.remainder(dividingBy: 2))
    print((-7.5).remainder(dividingBy: 2))
    print(10.0.truncatingRemainder(dividingBy: 0.3))
    print(Int(7.9), Int(-7.9), Int(0.999), Int(-0.5))
    print(Int(1e10))
    print(Int(Double(Int32.max) + 0.5))
    let seconds = 3725.8
    let whole = Int(seconds)
    print(whole / 3600, (whole % 3600) / 60, whole % 60)
    let angle = 370.0
    print(angle.truncatingRemainder(dividingBy: 360))
    print(Int(Float(2.99)))
    print(UInt8(3.7))
}
