import Foundation

let posix = Locale(identifier: "en_US_POSIX")
let doubles: [Double] = [
    0, -0.0, 1, -1, 0.5, 2.5, -2.5, 0.125, 0.135, 2.675, 1.005, 0.07, 1234567.891, -1234567.891, 1e20, 1e-7, -1e-7,
    0.0000125, 123.456789, 0.1 + 0.2, 1e300, 3.14159265358979, 1234.5, 99999.9999, 123456789.123456789, 1e16,
    .nan, .infinity, -.infinity,
]
let ints = [0, 7, -7, 1234, 1234567, Int.max, Int.min]

func main() {
    for d in doubles {
        print(
            d.formatted(.number.locale(posix)),
            d.formatted(.number.precision(.fractionLength(2)).locale(posix)),
            d.formatted(.number.locale(posix).precision(.fractionLength(0))),
            d.formatted(.percent.locale(posix)),
            d.formatted(.percent.precision(.fractionLength(15)).locale(posix)),
            d.formatted(.number.grouping(.never).locale(posix)),
            d.formatted(.number.grouping(.automatic).locale(posix)),
            d.formatted(.percent.locale(posix).grouping(.never)),
            separator: " | ")
    }
    for i in ints {
        print(
            i.formatted(.number.locale(posix)),
            i.formatted(.number.precision(.fractionLength(2)).locale(posix)),
            i.formatted(.percent.locale(posix)),
            i.formatted(.percent.precision(.fractionLength(1)).locale(posix)),
            i.formatted(.number.grouping(.never).locale(posix)),
            separator: " | ")
    }
    let total = 1234.5
    print("Total: \(total.formatted(.number.precision(.fractionLength(2)).locale(posix)))")
}
