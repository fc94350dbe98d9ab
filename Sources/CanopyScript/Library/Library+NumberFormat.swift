/// The native under `NumberFormatter` and the numbers' `formatted()` in `FoundationPrelude`: a number laid out as
/// ICU lays it out for swift-corelibs-foundation in `en_US_POSIX` (docs/programs.md, "Foundation values").
///
/// ICU formats a `Double` from its shortest round-trip decimal digits (what `description` prints), not from its
/// exact binary value, so `2.675` rounds to two digits as `2.68` (half-even on the digits `2675`) and `1.005` as
/// `1.00`. An `Int` is formatted from its exact digits. Every rounding mode works on those decimal digits.
extension Library {
    func registerNumberFormat() {
        // __numberFormat(value, settings, symbols): settings are [scale, minimumIntegerDigits,
        // maximumIntegerDigits, minimumFractionDigits, maximumFractionDigits, groupingSize, roundingMode,
        // scientific, signedNaN]; symbols are [groupingSeparator, decimalSeparator, prefix, suffix, infinity].
        function("__numberFormat(_:_:_:)") { m, args throws(ScriptFault) in
            let s = try m.array(args[1]).map { v throws(ScriptFault) in try m.int(v) }
            let t = try m.array(args[2]).map { v throws(ScriptFault) in try m.string(v) }
            let layout = NumberLayout(
                scale: s[0], minimumInteger: s[1], maximumInteger: s[2], minimumFraction: s[3], maximumFraction: s[4],
                groupingSize: s[5], rounding: s[6], scientific: s[7] != 0, signedNaN: s[8] != 0,
                groupingSeparator: t[0], decimalSeparator: t[1], prefix: t[2], suffix: t[3], infinity: t[4])
            return .string(try m.formatNumber(args[0], layout))
        }
        // A value an `NSNumber` may hold: an Int, a Double or a Bool (as 1 or 0, as `NSNumber(value: true)` is).
        function("__numberValue(_:)") { m, args throws(ScriptFault) in
            switch args[0].unboxed {
            case .int, .double: return args[0].unboxed
            case .bool(let b): return .int(b ? 1 : 0)
            default: throw m.fault("NSNumber(value:) takes an Int, a Double or a Bool in Canopy's Swift subset")
            }
        }
        // Whether `string(for:)` formats the value (a number or a Bool) or answers nil.
        function("__numberIsNumber(_:)") { _, args throws(ScriptFault) in
            switch args[0].unboxed {
            case .int, .double, .bool: return .bool(true)
            default: return .bool(false)
            }
        }
        function("__numberInt(_:)") { m, args throws(ScriptFault) in
            switch args[0].unboxed {
            case .int(let i): return .int(i)
            case .double(let d):
                guard let i = Int(exactly: d.rounded(.towardZero)) else {
                    throw m.fault("NSNumber.intValue of \(d) is not part of Canopy's Swift subset")
                }
                return .int(i)
            default: throw m.fault("argument must be a number")
            }
        }
        function("__numberDouble(_:)") { m, args throws(ScriptFault) in .double(try m.double(args[0])) }
    }
}

/// How one number is laid out: the ICU settings swift-corelibs-foundation ends up with.
struct NumberLayout {
    /// 0: none; 1: times 100 as `CFNumberFormatter` does it (a `Double` multiplied as a `Double`, an `Int` through
    /// a `Double` back to an `Int`); 2: times 100 exactly, on the decimal digits (`FormatStyle`'s percent).
    var scale: Int
    var minimumInteger: Int
    var maximumInteger: Int
    var minimumFraction: Int
    var maximumFraction: Int
    /// 0 for no grouping.
    var groupingSize: Int
    /// `NumberFormatter.RoundingMode`'s raw value: ceiling, floor, down, up, halfEven, halfDown, halfUp.
    var rounding: Int
    var scientific: Bool
    /// Whether a NaN with its sign bit set prints `-NaN` (`FormatStyle`) or `NaN` (`NumberFormatter`).
    var signedNaN: Bool
    var groupingSeparator: String
    var decimalSeparator: String
    var prefix: String
    var suffix: String
    var infinity: String
}

/// A non-negative decimal number: `digits` (no leading or trailing zeros; empty for zero) with the decimal point
/// after the first `point` of them (`point` may be negative or beyond the digits).
struct DecimalDigits {
    var digits: [UInt8]
    var point: Int

    init(digits: [UInt8], point: Int) {
        var d = digits
        var p = point
        while let first = d.first, first == 0 {
            d.removeFirst()
            p -= 1
        }
        while let last = d.last, last == 0 { d.removeLast() }
        self.digits = d
        self.point = d.isEmpty ? 0 : p
    }

    init(_ magnitude: UInt) {
        self.init(digits: String(magnitude).utf8.map { $0 - 48 }, point: String(magnitude).utf8.count)
    }

    /// The shortest digits that give back `d` (finite, not negative), as Swift's `description` writes them.
    init(shortest d: Double) {
        let text = d.description
        var mantissa = Substring(text)
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            exponent = Int(text[text.index(after: e)...]) ?? 0
        }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        let whole = parts[0]
        let fraction = parts.count > 1 ? parts[1] : ""
        self.init(digits: (whole + fraction).utf8.map { $0 - 48 }, point: whole.utf8.count + exponent)
    }

    /// Rounded to `fraction` digits after the point, by `NumberFormatter.RoundingMode`'s raw `mode`, for a value
    /// that is `negative` or not.
    func rounded(fraction: Int, mode: Int, negative: Bool) -> DecimalDigits {
        var keep = point + fraction
        guard keep < digits.count else { return self }
        var d = digits
        var p = point
        if keep < 0 {
            d = [UInt8](repeating: 0, count: -keep) + d
            p -= keep
            keep = 0
        }
        let dropped = d[keep...]
        let first = dropped.first ?? 0
        let restNonZero = dropped.dropFirst().contains { $0 != 0 }
        let nonZero = first != 0 || restNonZero
        let aboveHalf = first > 5 || (first == 5 && restNonZero)
        let exactlyHalf = first == 5 && !restNonZero
        var kept = Array(d[..<keep])
        let lastOdd = (kept.last ?? 0) % 2 == 1
        let up: Bool
        switch mode {
        case 0: up = nonZero && !negative
        case 1: up = nonZero && negative
        case 2: up = false
        case 3: up = nonZero
        case 5: up = aboveHalf
        case 6: up = aboveHalf || exactlyHalf
        default: up = aboveHalf || (exactlyHalf && lastOdd)
        }
        if up {
            var i = kept.count - 1
            while i >= 0 && kept[i] == 9 {
                kept[i] = 0
                i -= 1
            }
            if i >= 0 {
                kept[i] += 1
            } else {
                kept.insert(1, at: 0)
                p += 1
            }
        }
        return DecimalDigits(digits: kept, point: p)
    }

    /// The digits before the point (without leading zeros; empty for less than 1) and after it (without trailing
    /// zeros).
    var parts: (whole: [UInt8], fraction: [UInt8]) {
        if digits.isEmpty { return ([], []) }
        if point <= 0 { return ([], [UInt8](repeating: 0, count: -point) + digits) }
        if point >= digits.count { return (digits + [UInt8](repeating: 0, count: point - digits.count), []) }
        return (Array(digits[..<point]), Array(digits[point...]))
    }
}

extension Machine {
    func formatNumber(_ value: Value, _ layout: NumberLayout) throws(ScriptFault) -> String {
        let negative: Bool
        var number: DecimalDigits
        switch value.unboxed {
        case .int(let i):
            var v = i
            if layout.scale == 1 {
                // CFNumberFormatter multiplies an integer by its multiplier as a Double and converts back.
                let product = Double(i) * 100
                guard product >= -9.223_372_036_854_775_808e18 && product < 9.223_372_036_854_775_808e18 else {
                    throw fault("a percent of \(i) is beyond Int's range: swiftc's NumberFormatter prints a wrong value there, not part of Canopy's Swift subset")
                }
                v = Int(product)
            }
            negative = v < 0
            number = DecimalDigits(v.magnitude)
        case .double(var d):
            if layout.scale == 1 { d *= 100 }
            if d.isNaN {
                let sign = layout.signedNaN && d.sign == .minus ? "-" : ""
                return sign + layout.prefix + "NaN" + layout.suffix
            }
            negative = d.sign == .minus
            if d.isInfinite { return (negative ? "-" : "") + layout.prefix + layout.infinity + layout.suffix }
            number = DecimalDigits(shortest: abs(d))
        default:
            throw fault("argument must be a number")
        }
        if layout.scale == 2 && !number.digits.isEmpty { number.point += 2 }
        try chargeLibrary(number.digits.count + max(0, number.point) + layout.minimumFraction)
        let body = layout.scientific ? scientific(number, negative, layout) : plain(number, negative, layout)
        return (negative ? "-" : "") + layout.prefix + body + layout.suffix
    }

    private func text(_ digits: some Sequence<UInt8>) -> String {
        String(decoding: digits.map { $0 + 48 }, as: UTF8.self)
    }

    private func fractionText(_ fraction: [UInt8], _ layout: NumberLayout) -> String {
        var f = fraction
        while let last = f.last, last == 0 { f.removeLast() }
        if f.count < layout.minimumFraction { f += [UInt8](repeating: 0, count: layout.minimumFraction - f.count) }
        return f.isEmpty ? "" : layout.decimalSeparator + text(f)
    }

    private func plain(_ number: DecimalDigits, _ negative: Bool, _ layout: NumberLayout) -> String {
        let rounded = number.rounded(fraction: layout.maximumFraction, mode: layout.rounding, negative: negative)
        var (whole, fraction) = rounded.parts
        if whole.count > layout.maximumInteger { whole = Array(whole.suffix(max(0, layout.maximumInteger))) }
        while let first = whole.first, first == 0 { whole.removeFirst() }
        if whole.count < layout.minimumInteger {
            whole = [UInt8](repeating: 0, count: layout.minimumInteger - whole.count) + whole
        }
        var integer = ""
        for (i, digit) in whole.enumerated() {
            let left = whole.count - i
            if i > 0 && layout.groupingSize > 0 && left % layout.groupingSize == 0 { integer += layout.groupingSeparator }
            integer += String(digit)
        }
        let fractionPart = fractionText(fraction, layout)
        if integer.isEmpty && fractionPart.isEmpty { return "0" }
        return integer + fractionPart
    }

    private func scientific(_ number: DecimalDigits, _ negative: Bool, _ layout: NumberLayout) -> String {
        var exponent = 0
        var mantissa = number
        if !number.digits.isEmpty {
            exponent = number.point - 1
            mantissa = DecimalDigits(digits: number.digits, point: 1)
                .rounded(fraction: layout.maximumFraction, mode: layout.rounding, negative: negative)
            if mantissa.point > 1 {
                exponent += 1
                mantissa = DecimalDigits(digits: mantissa.digits, point: 1)
            }
        }
        let (whole, fraction) = mantissa.parts
        let e = String(exponent.magnitude)
        return text(whole.isEmpty ? [0] : whole) + fractionText(fraction, layout) + "E" + (exponent < 0 ? "-" : "+")
            + String(repeating: "0", count: max(0, 3 - e.count)) + e
    }
}
