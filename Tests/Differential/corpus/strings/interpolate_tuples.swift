func stats(_ values: [Int]) -> (min: Int, max: Int, sum: Int) {
    return (values.min()!, values.max()!, values.reduce(0, +))
}

func main() {
    let plain = (1, "two", 3.0)
    print(plain)
    print("plain \(plain)")
    let labelled = (width: 10, height: 20)
    print(labelled)
    print("labelled \(labelled)")
    let s = stats([4, 9, 1])
    print(s)
    print(s.min, s.max, s.sum)
    let mixed = (name: "x", 5)
    print(mixed)
    let nested = (1, (2, 3))
    print(nested)
    let optTuple: (Int, Int)? = (7, 8)
    print(optTuple as Any)
    print((true, [1, 2], "s"))
}
