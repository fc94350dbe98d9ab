import Foundation

let values: [Double] = [0, -0.0, -0.001, 2.5, -2.5, 0.125, 1.005, 2.675, 1234567.891, 0.07, 123.456789123, 1e-7, 9.9996]
let ints = [0, 5, -42, 1234567]

func make(_ style: NumberFormatter.Style, _ configure: (NumberFormatter) -> Void) -> NumberFormatter {
    let f = NumberFormatter()
    f.locale = Locale(identifier: "en_US_POSIX")
    f.numberStyle = style
    configure(f)
    return f
}

func show(_ name: String, _ f: NumberFormatter) {
    print("== \(name): \(f.minimumIntegerDigits) \(f.maximumIntegerDigits) \(f.minimumFractionDigits) \(f.maximumFractionDigits) \(f.usesGroupingSeparator)")
    print(values.map { f.string(from: NSNumber(value: $0)) ?? "nil" }.joined(separator: " | "))
    print(ints.map { f.string(from: NSNumber(value: $0)) ?? "nil" }.joined(separator: " | "))
}

func main() {
    show("decimal min 2", make(.decimal) { $0.minimumFractionDigits = 2 })
    show("decimal min 5", make(.decimal) { $0.minimumFractionDigits = 5 })
    show("decimal max 1", make(.decimal) { $0.maximumFractionDigits = 1 })
    show("decimal max 5", make(.decimal) { $0.maximumFractionDigits = 5 })
    show("decimal min 1 max 1", make(.decimal) { $0.minimumFractionDigits = 1; $0.maximumFractionDigits = 1 })
    show("decimal max 1 min 1", make(.decimal) { $0.maximumFractionDigits = 1; $0.minimumFractionDigits = 1 })
    show("decimal min 0 max 1", make(.decimal) { $0.minimumFractionDigits = 0; $0.maximumFractionDigits = 1 })
    show("decimal min 2 max 1", make(.decimal) { $0.minimumFractionDigits = 2; $0.maximumFractionDigits = 1 })
    show("decimal min 2 max 4", make(.decimal) { $0.minimumFractionDigits = 2; $0.maximumFractionDigits = 4 })
    show("none min 2", make(.none) { $0.minimumFractionDigits = 2 })
    show("none max 2", make(.none) { $0.maximumFractionDigits = 2 })
    show("none min integer 3", make(.none) { $0.minimumIntegerDigits = 3 })
    show("none grouping", make(.none) { $0.usesGroupingSeparator = true })
    show("none max integer 2", make(.none) { $0.maximumIntegerDigits = 2 })
    show("decimal no grouping", make(.decimal) { $0.usesGroupingSeparator = false })
    show("decimal separators", make(.decimal) { $0.groupingSeparator = "_"; $0.decimalSeparator = "," })
    show("decimal min integer 3", make(.decimal) { $0.minimumIntegerDigits = 3 })
    show("decimal min integer 0", make(.decimal) { $0.minimumIntegerDigits = 0 })
    show("decimal min integer 5 max integer 2", make(.decimal) { $0.minimumIntegerDigits = 5; $0.maximumIntegerDigits = 2 })
    show("digits then style", make(.none) { $0.maximumFractionDigits = 2; $0.numberStyle = .decimal })
    show("currency after min 1", make(.none) { $0.minimumFractionDigits = 1; $0.numberStyle = .currency })
    show("percent max 2", make(.percent) { $0.maximumFractionDigits = 2 })
    show("percent max 15", make(.percent) { $0.maximumFractionDigits = 15 })
    show("percent min 1", make(.percent) { $0.minimumFractionDigits = 1 })
    show("currency min 0", make(.currency) { $0.minimumFractionDigits = 0 })
    show("currency max 0", make(.currency) { $0.maximumFractionDigits = 0 })
    show("currency min 3", make(.currency) { $0.minimumFractionDigits = 3 })
    show("scientific max 3", make(.scientific) { $0.maximumFractionDigits = 3 })
    show("scientific max 10", make(.scientific) { $0.maximumFractionDigits = 10 })
    show("scientific min 2", make(.scientific) { $0.minimumFractionDigits = 2 })
    let modes: [NumberFormatter.RoundingMode] = [.ceiling, .floor, .down, .up, .halfEven, .halfDown, .halfUp]
    for mode in modes {
        show("rounding \(mode.rawValue)", make(.decimal) { $0.maximumFractionDigits = 2; $0.roundingMode = mode })
    }
    show("scientific up", make(.scientific) { $0.maximumFractionDigits = 1; $0.roundingMode = .up })
    show("none floor", make(.none) { $0.roundingMode = .floor })
}
