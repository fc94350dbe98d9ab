func main() {
    for n in [0, 1, 7, 8, 255, 1024, -1, Int.max, Int.min] {
        print(n, n.nonzeroBitCount, n.leadingZeroBitCount, n.trailingZeroBitCount)
    }
    print(Int.bitWidth, 5.bitWidth)
    var x = 42
    x.negate()
    print(x)
    x.negate()
    print(x)
    var d = 2.5
    d.negate()
    print(d)
    print(3.distance(to: 10), 10.distance(to: 3), 10.advanced(by: -4), (-5).advanced(by: 5))
    print(1.5.distance(to: 4.0), 2.0.advanced(by: 0.25))
    print(Int.max.addingReportingOverflow(1))
    print(Int.min.subtractingReportingOverflow(1))
    print(Int.max.multipliedReportingOverflow(by: 2), 6.multipliedReportingOverflow(by: 7))
    let divisors = [0, -1, 3]
    print(10.dividedReportingOverflow(by: divisors[0]), Int.min.dividedReportingOverflow(by: divisors[1]))
    print(10.remainderReportingOverflow(dividingBy: divisors[2]), 10.remainderReportingOverflow(dividingBy: divisors[0]))
    print(Int.min.remainderReportingOverflow(dividingBy: divisors[1]))
    let r = 100.addingReportingOverflow(23)
    print(r.partialValue, r.overflow)
    let (value, overflowed) = Int.max.multipliedReportingOverflow(by: 3)
    print(value, overflowed)
    print(true.description, false.description, (3 > 2).description.count)
    let flags = [true, false].map { $0.description }
    print(flags)
}
