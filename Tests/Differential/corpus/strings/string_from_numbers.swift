func formatScore(_ value: Double) -> String {
    let tenths = Int(value * 10)
    return "\(tenths / 10).\(tenths % 10)"
}

func pad(_ n: Int, width: Int) -> String {
    let s = String(n)
    return String(repeating: "0", count: max(0, width - s.count)) + s
}

func main() {
    print(formatScore(3.14159))
    print(formatScore(10))
    print(pad(7, width: 3))
    print(pad(1234, width: 3))
    print(pad(42, width: 5))
    print(String(1.0 / 3.0))
    print(String(100))
    print(String(Float(2.5)))
    print("\(1e6)")
    print("\(123456.0)")
    print(String(Int8(-5)))
    print("\(UInt(7))")
}
