func main() {
    let flags = 0b1010
    let mask = 0b0110
    print(flags & mask)
    print(flags | mask)
    print(flags ^ mask)
    print(~flags)
    print(1 << 10)
    print(1024 >> 3)
    print(-16 >> 2)
    print(-1 >> 10)
    print(0xFF, 0o17, 0b11)
    print(1_000_000)
    var options = 0
    options |= 1 << 2
    options |= 1 << 0
    print(options)
    options &= ~(1 << 2)
    print(options)
    options ^= 0b11
    print(options)
    print(255.nonzeroBitCount, (8).trailingZeroBitCount)
    print(UInt8(0b1111_0000) >> 4, UInt8(1) << 7)
}
