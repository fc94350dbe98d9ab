func roundTo(_ value: Double, places: Int) -> Double {
    var factor = 1.0
    for _ in 0..<places { factor *= 10 }
    return (value * factor).rounded() / factor
}

func main() {
    print(roundTo(3.14159, places: 2))
    print(roundTo(2.675, places: 2))
    print(roundTo(1.005, places: 2))
    print(roundTo(-1.55, places: 1))
    print(roundTo(1234.5678, places: 0))
    print(Int(19.99.rounded()))
    print(Int((0.5 + 0.49).rounded(.down)))
    let percent = 0.4567
    print("\(Int((percent * 100).rounded()))%")
    print((10.0 / 3.0).rounded(.up))
}
