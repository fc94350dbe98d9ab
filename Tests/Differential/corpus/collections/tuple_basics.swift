func minMax(_ values: [Int]) -> (min: Int, max: Int)? {
    guard var lo = values.first else { return nil }
    var hi = lo
    for v in values {
        lo = min(lo, v)
        hi = max(hi, v)
    }
    return (lo, hi)
}

func main() {
    if let r = minMax([3, 7, -2, 9]) {
        print(r.min, r.max)
        print(r.0, r.1)
        print(r)
    }
    print(minMax([]) as Any)
    let (lo, hi) = minMax([5])!
    print(lo, hi)
    var pair = (name: "x", count: 1)
    pair.count += 1
    pair.name = "y"
    print(pair)
    let copy = pair
    pair.count = 99
    print(copy.count, pair.count)
    print((1, 2) == (1, 2), (1, "b") < (1, "c"))
}
