func main() {
    let small: Int8 = -5
    let byte: UInt8 = 250
    let wide = Int(small) * Int(byte)
    print(wide)
    let u: UInt = 10
    print(u - 3, u * 2, u / 4, u % 4)
    let i32: Int32 = 1 << 30
    print(i32, Int64(i32) * 4)
    let i16 = Int16(byte) + 10
    print(i16)
    print(UInt8(clamping: 300), Int8(clamping: -1000))
    print(Int8(clamping: 42))
    let mask: UInt32 = 0xFFFF_0000
    print(mask >> 16, mask & 0xFF00_0000)
    print(UInt64.max, Int64.min)
    print(type(of: small + 1), type(of: u + 1))
    print(Int(byte) - 256, Int(UInt16.max) + 1)
}
