import Foundation

let doubles: [Double] = [
    0, -0.0, 1, -1, 0.5, 1.5, 2.5, -2.5, 0.125, 0.135, 2.675, 1.005, 1234567.891, -1234567.891, 1e20, 1e-7,
    123.456789, 0.1 + 0.2, 9007199254740992, 1e300, 5e-324, 99999.9999, -0.001, .nan, .infinity, -.infinity,
]
let ints = [0, 7, -7, 1234, 1234567, -987654321, Int.max, Int.min]

func formatter(_ style: NumberFormatter.Style) -> NumberFormatter {
    let f = NumberFormatter()
    f.locale = Locale(identifier: "en_US_POSIX")
    f.numberStyle = style
    return f
}

func main() {
    let styles: [NumberFormatter.Style] = [.none, .decimal, .percent, .currency, .scientific]
    for style in styles {
        let f = formatter(style)
        print("== \(style.rawValue): \(f.minimumIntegerDigits) \(f.maximumIntegerDigits) \(f.minimumFractionDigits) \(f.maximumFractionDigits) \(f.usesGroupingSeparator)")
        print(doubles.map { f.string(from: NSNumber(value: $0)) ?? "nil" }.joined(separator: " | "))
        if style != .percent {
            print(ints.map { f.string(from: NSNumber(value: $0)) ?? "nil" }.joined(separator: " | "))
        }
    }
    let p = formatter(.percent)
    print([0, 7, -7, 1234, 1234567, -987654321].map { p.string(from: NSNumber(value: $0)) ?? "nil" })
    let d = formatter(.decimal)
    print(d.string(for: 3.14159) ?? "nil", d.string(for: 42) ?? "nil", d.string(for: "x") ?? "nil", d.string(for: true) ?? "nil")
    print(d.string(from: NSNumber(value: false)) ?? "nil", NSNumber(value: 2.75).intValue, NSNumber(value: -2.75).intValue, NSNumber(value: 7).doubleValue)
    let none = formatter(.none)
    print(none.string(for: 2.5) ?? "nil", none.string(for: 3.5) ?? "nil", none.string(for: -1e-9) ?? "nil")
}
