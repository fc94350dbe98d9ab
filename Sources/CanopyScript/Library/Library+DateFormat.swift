/// Unicode date patterns (`DateFormatter.dateFormat`, and the patterns `Date.FormatStyle` and the formatter's styles
/// stand for) as Foundation formats them in en_US_POSIX at UTC. Letters outside the list fault, naming the letter.
extension Machine {
    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]
    static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// `t` (seconds since the reference date) as Foundation's formatters show it: rounded to the millisecond.
    func formatDate(_ t: Double, pattern: String) throws(ScriptFault) -> String {
        let ms = ((t + GregorianUTC.referenceOffset) * 1000).rounded()
        let seconds = (ms / 1000).rounded(.down)
        guard let g = GregorianUTC(since1970: seconds) else { _ = try gregorian(.nan); return "" }
        return try fields(g, pattern: pattern, milliseconds: Int(ms - seconds * 1000))
    }

    /// The pattern's fields of `g`, whose second has `milliseconds` more.
    func fields(_ g: GregorianUTC, pattern: String, milliseconds: Int) throws(ScriptFault) -> String {
        var out = ""
        let chars = Array(pattern)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "'" {
                // Quoted text; '' is a quote.
                if i + 1 < chars.count && chars[i + 1] == "'" {
                    out.append("'")
                    i += 2
                    continue
                }
                i += 1
                while i < chars.count {
                    if chars[i] == "'" {
                        if i + 1 < chars.count && chars[i + 1] == "'" {
                            out.append("'")
                            i += 2
                            continue
                        }
                        break
                    }
                    out.append(chars[i])
                    i += 1
                }
                i += 1
                continue
            }
            guard c.isASCII && c.isLetter else {
                out.append(c)
                i += 1
                continue
            }
            var n = 1
            while i + n < chars.count && chars[i + n] == c { n += 1 }
            out += try field(c, n, g, milliseconds)
            i += n
        }
        return out
    }

    /// One pattern field: letter `c` repeated `n` times.
    private func field(_ c: Character, _ n: Int, _ g: GregorianUTC, _ milliseconds: Int) throws(ScriptFault) -> String {
        func padded(_ v: Int, _ width: Int) -> String {
            let s = String(v)
            return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
        }
        func text(_ full: String) -> String {
            switch n {
            case 4: return full
            case 5: return String(full.prefix(1))
            default: return String(full.prefix(3))
            }
        }
        switch c {
        case "G": return n == 4 ? "Anno Domini" : n == 5 ? "A" : "AD"
        case "y": return n == 2 ? padded(g.year % 100, 2) : padded(g.year, n)
        case "M", "L": return n <= 2 ? padded(g.month, n) : text(Self.monthNames[g.month - 1])
        case "d": return padded(g.day, n)
        case "D": return padded(g.dayOfYear, n)
        case "E":
            let name = Self.weekdayNames[g.weekday - 1]
            return n == 6 ? String(name.prefix(2)) : n <= 3 ? String(name.prefix(3)) : text(name)
        case "Q" where n <= 2: return padded((g.month - 1) / 3 + 1, n)
        case "Q" where n == 3: return "Q\((g.month - 1) / 3 + 1)"
        case "Q" where n == 4: return ["1st", "2nd", "3rd", "4th"][(g.month - 1) / 3] + " quarter"
        case "a": return g.hour < 12 ? "AM" : "PM"
        case "h": return padded(g.hour % 12 == 0 ? 12 : g.hour % 12, n)
        case "H": return padded(g.hour, n)
        case "K": return padded(g.hour % 12, n)
        case "k": return padded(g.hour == 0 ? 24 : g.hour, n)
        case "m": return padded(g.minute, n)
        case "s": return padded(g.second, n)
        case "S":
            // The fraction of the second in milliseconds, cut or padded to `n` digits.
            let digits = padded(milliseconds, 3)
            return n <= 3 ? String(digits.prefix(n)) : digits + String(repeating: "0", count: n - 3)
        case "Z": return n == 4 ? "GMT" : n == 5 ? "Z" : "+0000"
        case "X": return "Z"
        case "x": return n == 1 ? "+00" : n == 2 || n == 4 ? "+0000" : "+00:00"
        case "z" where n <= 3, "O": return "GMT"
        case "z": return "Greenwich Mean Time"
        default:
            throw fault("the date format letter '\(c)' (\(String(repeating: c, count: n))) is not part of Canopy's Swift subset")
        }
    }
}
