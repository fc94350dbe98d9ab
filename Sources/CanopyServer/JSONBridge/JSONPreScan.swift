import CanopyCore

/// One pass over a message's bytes for what json-c accepts even in strict mode and the protocol must reject:
/// `NaN`/`Infinity` and other bare words, single quotes, raw control characters in strings, integers beyond 64
/// bits, keys containing `\u0000` (json-c truncates them). It also counts the keys of every object, in document order, so that duplicate keys —
/// which json-c silently collapses to the last one — show up as an object with fewer members than keys written.
/// Grammar errors are left to json-c.
struct JSONPreScan {
    /// Per object, in order of its `{`: the number of keys written and the offset of the `{`.
    var objects: [(keys: Int, offset: Int)] = []

    init(_ b: UnsafeBufferPointer<UInt8>) throws(CanopyError) {
        // Per open container: is it an object, and is the next string in it a key?
        var stack: [(object: Int, expectKey: Bool)] = []  // object: index into `objects`, -1 for arrays
        var i = 0
        let n = b.count
        while i < n {
            let c = b[i]
            switch c {
            case UInt8(ascii: "\""):
                let start = i
                var hasNUL = false
                i += 1
                while i < n && b[i] != UInt8(ascii: "\"") {
                    if b[i] < 0x20 {
                        throw CanopyError(.badJSON, "unescaped control character in a string (at offset \(i))")
                    }
                    if b[i] == UInt8(ascii: "\\") {
                        if i + 5 < n && b[i + 1] == UInt8(ascii: "u") && b[i + 2] == UInt8(ascii: "0")
                            && b[i + 3] == UInt8(ascii: "0") && b[i + 4] == UInt8(ascii: "0")
                            && b[i + 5] == UInt8(ascii: "0")
                        {
                            hasNUL = true
                        }
                        i += 1
                    }
                    i += 1
                }
                if let top = stack.last, top.object >= 0, top.expectKey {
                    if hasNUL {
                        throw CanopyError(.badJSON, "an object key contains \\u0000 (at offset \(start))")
                    }
                    objects[top.object].keys += 1
                    stack[stack.count - 1].expectKey = false
                }
            case UInt8(ascii: "{"):
                stack.append((objects.count, true))
                objects.append((0, i))
            case UInt8(ascii: "["):
                stack.append((-1, false))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = stack.popLast()
            case UInt8(ascii: ","):
                if let top = stack.last, top.object >= 0 { stack[stack.count - 1].expectKey = true }
            case UInt8(ascii: "'"):
                throw CanopyError(.badJSON, "single quotes are not JSON (at offset \(i))")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let start = i
                var integral = true
                i += 1
                while i < n {
                    let d = b[i]
                    if d == UInt8(ascii: ".") || d == UInt8(ascii: "e") || d == UInt8(ascii: "E") {
                        integral = false
                    } else if !(d >= UInt8(ascii: "0") && d <= UInt8(ascii: "9")) && d != UInt8(ascii: "+")
                        && d != UInt8(ascii: "-")
                    {
                        break
                    }
                    i += 1
                }
                if i < n && JSONPreScan.isLetter(b[i]) {
                    throw CanopyError(.badJSON, "not a number: \(JSONPreScan.word(b, from: start)) (at offset \(start))")
                }
                if integral && !JSONPreScan.fitsInt64(b, start..<i) {
                    throw CanopyError(.badJSON, "integer out of 64-bit range (at offset \(start))")
                }
                continue
            default:
                if JSONPreScan.isLetter(c) {
                    let w = JSONPreScan.word(b, from: i)
                    guard w == "true" || w == "false" || w == "null" else {
                        throw CanopyError(.badJSON, "unexpected word \"\(w)\" (at offset \(i))")
                    }
                    i += w.utf8.count
                    continue
                }
            }
            i += 1
        }
    }

    private static func isLetter(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
    }

    private static func word(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> String {
        var end = start
        while end < b.count && end - start < 32
            && (isLetter(b[end]) || b[end] == UInt8(ascii: "-") || (b[end] >= 0x30 && b[end] <= 0x39))
        {
            end += 1
        }
        return String(decoding: UnsafeBufferPointer(rebasing: b[start..<end]), as: UTF8.self)
    }

    /// Whether the integer token in `range` (optional minus, digits) lies within Int64.
    private static func fitsInt64(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        var i = range.lowerBound
        let negative = b[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        // Accumulate as a negative number so Int64.min fits.
        var value: Int64 = 0
        while i < range.upperBound {
            let d = Int64(b[i] &- UInt8(ascii: "0"))
            guard d >= 0 && d <= 9 else { return true }  // malformed: json-c reports it
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.subtractingReportingOverflow(d)
            if o1 || o2 { return false }
            value = s
            i += 1
        }
        return negative || value != Int64.min
    }
}
