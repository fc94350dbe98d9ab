// A compact JSON encoder in pure Swift (no Foundation).
//
// Output is RFC 8259 JSON without insignificant whitespace; object members are written in stored order.
// Strings escape `"`, `\` and the C0 controls (short forms where they exist, `\u00XX` otherwise) plus U+2028 and
// U+2029 (so the output is also safe to embed in JavaScript source); everything else is written as raw UTF-8.

extension JSON {
    /// The value as compact JSON text.
    public func encoded() -> String {
        var out: [UInt8] = []
        out.reserveCapacity(JSONWriter.initialCapacity(for: self))
        JSONWriter.write(self, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the value as compact JSON text (UTF-8) to `out`.
    public func write(into out: inout [UInt8]) {
        JSONWriter.write(self, into: &out)
    }
}

extension JSONObject {
    /// The object as compact JSON text.
    public func encoded() -> String {
        JSON.object(self).encoded()
    }
}

enum JSONWriter {
    /// A cheap first guess of the output size, so small values need one allocation and big ones few.
    static func initialCapacity(for value: JSON) -> Int {
        switch value {
        case .null, .bool, .int, .double: return 24
        case .string(let s): return s.utf8.count + 8
        case .array(let a): return 16 + a.count * 16
        case .object(let o): return 16 + o.count * 32
        }
    }

    static func write(_ value: JSON, into out: inout [UInt8]) {
        switch value {
        case .null:
            appendLiteral("null", into: &out)
        case .bool(let b):
            appendLiteral(b ? "true" : "false", into: &out)
        case .int(let i):
            writeInt(i, into: &out)
        case .double(let d):
            writeDouble(d, into: &out)
        case .string(let s):
            writeString(s, into: &out)
        case .array(let a):
            out.append(UInt8(ascii: "["))
            var first = true
            for element in a {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                write(element, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let o):
            out.append(UInt8(ascii: "{"))
            var first = true
            for m in o.members {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                writeString(m.key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(m.value, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    @inline(__always)
    static func appendLiteral(_ literal: StaticString, into out: inout [UInt8]) {
        literal.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// Writes an integer exactly, in decimal.
    static func writeInt(_ value: Int64, into out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        writeDecimal(value.magnitude, into: &out)
    }

    static func writeDecimal(_ value: UInt64, into out: inout [UInt8]) {
        if value < 10 {
            out.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
            return
        }
        var digits = 1
        var probe = value
        while probe >= 10 {
            probe /= 10
            digits += 1
        }
        let start = out.count
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
        out.withUnsafeMutableBufferPointer { buffer in
            var v = value
            var i = start + digits - 1
            while v >= 10 {
                let (q, r) = v.quotientAndRemainder(dividingBy: 10)
                buffer[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: r)
                v = q
                i -= 1
            }
            buffer[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v)
        }
    }

    /// 2^53: below this magnitude every integer is a double, so an integral double prints as that integer.
    static let exactIntegerLimit: Double = 9_007_199_254_740_992

    /// Integral doubles below 2^53 print as integers (`3.0` → `3`); others use Swift's shortest round-trip form,
    /// which is valid JSON (`0.1`, `1e+300`, `5e-324`). Non-finite values cannot occur in JSON and print as `null`.
    static func writeDouble(_ d: Double, into out: inout [UInt8]) {
        guard d.isFinite else {
            appendLiteral("null", into: &out)
            return
        }
        if d.magnitude < exactIntegerLimit {
            let truncated = Int64(d)  // In range, so this cannot trap.
            if Double(truncated) == d {
                writeInt(truncated, into: &out)
                return
            }
        }
        out.append(contentsOf: d.description.utf8)
    }

    /// Whether a byte can be copied into a JSON string as is. Besides `"`, `\` and controls, 0xE2 is held back
    /// because it leads U+2028 and U+2029 (E2 80 A8 / E2 80 A9); the slow path copies other 0xE2 sequences.
    @inline(__always)
    static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") && byte != 0xE2
    }

    static func writeString(_ string: String, into out: inout [UInt8]) {
        var s = string
        s.withUTF8 { bytes in
            out.append(UInt8(ascii: "\""))
            var plainEnd = 0
            while plainEnd < bytes.count, isPlain(bytes[plainEnd]) { plainEnd += 1 }
            if plainEnd == bytes.count {
                out.append(contentsOf: bytes)
            } else {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<plainEnd]))
                writeEscaped(bytes, from: plainEnd, into: &out)
            }
            out.append(UInt8(ascii: "\""))
        }
    }

    @inline(__always)
    static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "a") &+ (nibble &- 10)
    }

    /// The slow path: copies `bytes[start...]`, escaping as needed, in runs between the bytes that need care.
    static func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, into out: inout [UInt8]) {
        var runStart = start
        var i = start
        let n = bytes.count
        out.reserveCapacity(out.count + (n - start) + 16)
        while i < n {
            let b = bytes[i]
            if isPlain(b) {
                i += 1
                continue
            }
            if b == 0xE2, i + 2 < n, bytes[i + 1] == 0x80, bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9 {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
                appendLiteral(bytes[i + 2] == 0xA8 ? "\\u2028" : "\\u2029", into: &out)
                i += 3
                runStart = i
                continue
            }
            if b == 0xE2 {  // Some other character in U+2000..U+2FFF: copied with its run.
                i += 1
                continue
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
            switch b {
            case UInt8(ascii: "\""): appendLiteral("\\\"", into: &out)
            case UInt8(ascii: "\\"): appendLiteral("\\\\", into: &out)
            case 0x0A: appendLiteral("\\n", into: &out)
            case 0x09: appendLiteral("\\t", into: &out)
            case 0x0D: appendLiteral("\\r", into: &out)
            case 0x08: appendLiteral("\\b", into: &out)
            case 0x0C: appendLiteral("\\f", into: &out)
            default:
                appendLiteral("\\u00", into: &out)
                out.append(hexDigit(b >> 4))
                out.append(hexDigit(b & 0x0F))
            }
            i += 1
            runStart = i
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<n]))
    }
}
