func toByte(_ n: Int) -> UInt8 {
    return UInt8(n)
}

func main() {
    print(toByte(0))
    print(toByte(255))
    print("converting 256")
    print(toByte(256))
}
