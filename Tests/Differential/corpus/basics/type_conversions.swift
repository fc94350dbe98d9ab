func main() {
    let i = 42
    print(String(i), String(describing: i))
    print(Double(i), Float(i))
    print(Int(3.99), Int(-3.99))
    print(Int8(100), UInt8(200))
    print(Int(UInt8(255)) + 1)
    print(Int(exactly: Int64(7)) as Any, UInt(exactly: -1) as Any)
    print(Int8(exactly: 300) as Any)
    print(UInt(5) + 3)
    print(Double("3.25")!, Int("12")! + 1)
    print(Int(" 5") as Any)
    print(String(3.0), String(-0.5))
    print(Int(true ? 1 : 0))
    print(Int8(truncatingIfNeeded: 300))
    print(UInt8(truncatingIfNeeded: -1))
    print(Double(Float(0.1)))
}
