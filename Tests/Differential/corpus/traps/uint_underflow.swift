func remaining(_ total: UInt, used: UInt) -> UInt {
    return total - used
}

func main() {
    print(remaining(10, used: 3))
    print(remaining(5, used: 5))
    print("now underflow")
    print(remaining(2, used: 3))
}
