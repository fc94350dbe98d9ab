import Testing

@testable import CanopyScript

/// `NumberFormatter` and the numbers' `formatted()`: each expectation is what swiftc 6.3.1 (swift-corelibs-foundation
/// on Linux) printed for the same code with `Locale(identifier: "en_US_POSIX")` set explicitly.
@Suite struct NumberFormatTests {
    func output(_ body: String) throws -> String {
        let s = try Script.compile("func main() {\n\(body)\n}")
        let (out, fault) = s.run(inputs: nil)
        if let fault { throw fault }
        return out
    }

    func fault(_ body: String) throws -> String? {
        try Script.compile("func main() {\n\(body)\n}").run(inputs: nil).fault?.message
    }

    func diagnostics(_ body: String) -> [String] {
        do {
            _ = try Script.compile("func main() {\n\(body)\n}")
            return []
        } catch {
            return error.diagnostics.map(\.message)
        }
    }

    /// A formatter of `style` with `setup` applied, formatting each of `values` (Swift literals) on one line.
    func formatted(_ style: String, _ setup: String = "", _ values: [String]) throws -> String {
        let list = values.map { "f.string(from: NSNumber(value: \($0)))!" }.joined(separator: ", ")
        return try output("let f = NumberFormatter(); f.numberStyle = .\(style); \(setup)\nprint(\(list), separator: \" | \")")
    }

    @Test func stylesShowSwiftcsDefaults() throws {
        let values = ["0.0", "-0.0", "2.5", "0.125", "1234567.891", "-1234567.891", "Double.nan", "-Double.infinity", "-7"]
        #expect(try formatted("none", "", values) == "0 | -0 | 2 | 0 | 1234568 | -1234568 | NaN | -+∞ | -7\n")
        #expect(
            try formatted("decimal", "", values)
                == "0 | -0 | 2.5 | 0.125 | 1,234,567.891 | -1,234,567.891 | NaN | -+∞ | -7\n")
        #expect(
            try formatted("percent", "", values)
                == "0% | -0% | 250% | 12% | 123,456,789% | -123,456,789% | NaN% | -+∞% | -700%\n")
        #expect(
            try formatted("currency", "", values)
                == "$\u{00A0}0.00 | -$\u{00A0}0.00 | $\u{00A0}2.50 | $\u{00A0}0.12 | $\u{00A0}1,234,567.89 | -$\u{00A0}1,234,567.89 | $\u{00A0}NaN | -$\u{00A0}+∞ | -$\u{00A0}7.00\n")
        #expect(
            try formatted("scientific", "", values)
                == "0E+000 | -0E+000 | 2E+000 | 1E-001 | 1E+006 | -1E+006 | NaN | -+∞ | -7E+000\n")
    }

    @Test func doublesRoundFromTheirShortestDigits() throws {
        // 2.675 is 2.67499999999999982… in binary; ICU rounds its shortest digits "2.675", half to even.
        #expect(try formatted("decimal", "f.maximumFractionDigits = 2", ["2.675", "1.005", "0.125", "0.135"]) == "2.68 | 1 | 0.12 | 0.14\n")
        #expect(try formatted("decimal", "f.maximumFractionDigits = 2; f.roundingMode = .halfUp", ["1.005", "0.125"]) == "1.01 | 0.13\n")
        // A percent of a Double is multiplied as a Double first: 1.005 * 100 is 100.49999999999999.
        #expect(try formatted("percent", "f.maximumFractionDigits = 15", ["1.005", "0.07"]) == "100.49999999999999% | 7.000000000000001%\n")
    }

    @Test func roundingModes() throws {
        let values = ["-0.001", "0.125", "2.675", "-2.675", "9.9996"]
        let expected = [
            "ceiling": "-0 | 0.13 | 2.68 | -2.67 | 10",
            "floor": "-0.01 | 0.12 | 2.67 | -2.68 | 9.99",
            "down": "-0 | 0.12 | 2.67 | -2.67 | 9.99",
            "up": "-0.01 | 0.13 | 2.68 | -2.68 | 10",
            "halfEven": "-0 | 0.12 | 2.68 | -2.68 | 10",
            "halfDown": "-0 | 0.12 | 2.67 | -2.67 | 10",
            "halfUp": "-0 | 0.13 | 2.68 | -2.68 | 10",
        ]
        for (mode, line) in expected {
            #expect(try formatted("decimal", "f.maximumFractionDigits = 2; f.roundingMode = .\(mode)", values) == line + "\n")
        }
    }

    @Test func maximumFractionDigitsIsIgnoredOnceAMinimumIsSet() throws {
        // corelibs passes the maximum to ICU only when the minimum is 0: the decimal pattern's 3 stays.
        #expect(try formatted("decimal", "f.minimumFractionDigits = 1; f.maximumFractionDigits = 1", ["0.125", "5"]) == "0.125 | 5.0\n")
        #expect(try formatted("decimal", "f.minimumFractionDigits = 5", ["0.125", "123.456789"]) == "0.12500 | 123.456789\n")
        // The decimal pattern's maximum is 6, though `maximumFractionDigits` reads 3.
        #expect(try formatted("decimal", "f.minimumFractionDigits = 1", ["1.23456789"]) == "1.234568\n")
        #expect(try formatted("currency", "f.maximumFractionDigits = 0", ["2.5"]) == "$\u{00A0}2.50\n")
        #expect(try formatted("currency", "f.minimumFractionDigits = 0", ["2.5", "3"]) == "$\u{00A0}2.5 | $\u{00A0}3\n")
        #expect(try formatted("none", "f.minimumFractionDigits = 2", ["2.675", "5"]) == "2.68 | 5.00\n")
        #expect(
            try output("let f = NumberFormatter(); f.numberStyle = .currency; f.minimumFractionDigits = 3; print(f.minimumFractionDigits, f.maximumFractionDigits)")
                == "3 2\n")
    }

    @Test func integerDigitsGroupingAndSeparators() throws {
        #expect(try formatted("decimal", "f.minimumIntegerDigits = 3", ["0.07", "-5", "1234567"]) == "000.07 | -005 | 1,234,567\n")
        #expect(try formatted("decimal", "f.minimumIntegerDigits = 0", ["0.07", "0"]) == ".07 | 0\n")
        #expect(try formatted("none", "f.maximumIntegerDigits = 2", ["1234567.891", "-42"]) == "68 | -42\n")
        #expect(try formatted("none", "", ["1e300"]) == "0\n")  // 42 integer digits at most: the low ones
        #expect(try formatted("decimal", "f.usesGroupingSeparator = false", ["1234567.891"]) == "1234567.891\n")
        #expect(try formatted("none", "f.usesGroupingSeparator = true", ["1234567"]) == "1234567\n")
        #expect(try formatted("decimal", "f.groupingSeparator = \"_\"; f.decimalSeparator = \",\"", ["1234567.891"]) == "1_234_567,891\n")
    }

    @Test func scientific() throws {
        #expect(try formatted("scientific", "f.maximumFractionDigits = 3", ["1234567.891", "-0.001", "9.9999"]) == "1.235E+006 | -1.000E-003 | 1.000E+001\n")
        // The pattern's six fraction digits stay the minimum unless the maximum lowers them.
        #expect(try formatted("scientific", "f.maximumFractionDigits = 10", ["2.5"]) == "2.500000E+000\n")
        #expect(try formatted("scientific", "f.minimumFractionDigits = 2", ["2.5", "1234567.891"]) == "2.50E+000 | 1.234568E+006\n")
    }

    @Test func stringForTakesNumbersAndBools() throws {
        #expect(
            try output("let f = NumberFormatter(); f.numberStyle = .decimal; print(f.string(for: 3.14159) ?? \"nil\", f.string(for: 42) ?? \"nil\", f.string(for: \"x\") ?? \"nil\", f.string(for: true) ?? \"nil\")")
                == "3.142 42 nil 1\n")
        #expect(try output("print(NSNumber(value: 2.75).intValue, NSNumber(value: -2.75).intValue, NSNumber(value: 7).doubleValue)") == "2 -2 7.0\n")
    }

    @Test func formattedNumbers() throws {
        let posix = "Locale(identifier: \"en_US_POSIX\")"
        #expect(try output("print(1234567.891.formatted(), 3.14159265358979.formatted(), (-0.0).formatted(), Double.infinity.formatted())") == "1234567.891 3.141593 -0 INF\n")
        #expect(try output("print(1234567.formatted(), Int.min.formatted(.number))") == "1234567 -9223372036854775808\n")
        #expect(try output("print(2.675.formatted(.number.precision(.fractionLength(2))), 99999.9999.formatted(.number.precision(.fractionLength(2)).locale(\(posix))))") == "2.68 100000.00\n")
        // A Double's percent is its digits moved two places, exactly; an Int is a percent already.
        #expect(try output("print(1.005.formatted(.percent), 0.07.formatted(.percent.precision(.fractionLength(15))), 7.formatted(.percent))") == "100.5% 7.000000000000000% 7%\n")
        #expect(try output("print(1234567.formatted(.number.grouping(.never)), 1234567.formatted(.number.grouping(.automatic)))") == "1234567 1234567\n")
        #expect(try output("print((-Double.nan).formatted(), (-Double.nan).formatted(.percent))") == "-NaN -NaN%\n")
    }

    @Test func whatIsOutsideIsRefused() throws {
        #expect(diagnostics("let f = NumberFormatter(); f.numberStyle = .spellOut").isEmpty == false)
        #expect(diagnostics("print(5.formatted(.number.notation(.scientific)))").isEmpty == false)
        #expect(diagnostics("print(5.0.formatted(.currency(code: \"USD\")))").isEmpty == false)
        #expect(diagnostics("let f = NumberFormatter(); f.currencyCode = \"EUR\"").isEmpty == false)
        #expect(try fault("let f = NumberFormatter(); print(f.number(from: \"1\") as Any)")?.contains("number(from:)") == true)
        #expect(try fault("let f = NumberFormatter(); f.locale = Locale(identifier: \"de_DE\")")?.contains("de_DE") == true)
        // swiftc prints Int.min for an Int percent beyond Int's range: refused, not copied.
        #expect(try fault("let f = NumberFormatter(); f.numberStyle = .percent; print(f.string(from: NSNumber(value: 92233720368547759))!)")?.contains("beyond Int's range") == true)
        #expect(try fault("let f = NumberFormatter(); f.minimumFractionDigits = -1; print(f.string(from: NSNumber(value: 1))!)")?.contains("negative") == true)
    }
}
