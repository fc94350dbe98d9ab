func main() {
    let a: Int8 = 127
    print(a &+ 1)
    print(Int8.min &- 1)
    print(a &* 2)
    let b: UInt8 = 255
    print(b &+ 1)
    print(UInt8(0) &- 1)
    print(b &* b)
    print(UInt8(200) &+ UInt8(100))
    print(Int8(-128) &* -1)
    print(a.addingReportingOverflow(1))
    print(b.multipliedReportingOverflow(by: 2))
    print(Int8(truncatingIfNeeded: 200))
    print(UInt8(truncatingIfNeeded: 256 + 7))
    print(Int16(a) + 1)
    print(UInt8(b >> 1), b << 1)
    print(Int8(-1) >> 1, UInt8(0b1000_0001).nonzeroBitCount)
}
