func divide(_ a: Int, by b: Int) -> (quotient: Int, remainder: Int) {
    (a / b, a % b)
}

func bounds(_ values: [Double]) -> (lower: Double, upper: Double, span: Double) {
    let lo = values.min() ?? 0
    let hi = values.max() ?? 0
    return (lower: lo, upper: hi, span: hi - lo)
}

func main() {
    let r = divide(17, by: 5)
    print(r.quotient, r.remainder)
    print(r)
    print(r.0, r.1)
    let (q, rem) = divide(-17, by: 5)
    print(q, rem)
    let b = bounds([2.5, -1, 8])
    print(b.lower, b.upper, b.span)
    print(b)
    let parts = [10, 11, 12].map { divide($0, by: 4) }
    print(parts.map(\.remainder))
    print(parts.map { $0.quotient * 4 + $0.remainder })
    let t: (Int, Int) = divide(9, by: 2)
    print(t)
}
