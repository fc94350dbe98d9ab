// The one definition of valid JSON for Canopy: a strict RFC 8259 parser in pure Swift (no Foundation). It parses
// every incoming WebSocket message (the protocol runner hands it the bytes), stored snapshots and
// diffs, configuration, example files and the CLI's input, so all of them accept and reject the same documents.
//
// Beyond the grammar it rejects duplicate keys, keys containing U+0000, lone surrogates (escaped or encoded),
// invalid UTF-8 anywhere, integers that do not fit 64 bits, numbers that overflow a double and nesting deeper than
// a limit. Integers (no fraction, no exponent) become `.int`; other numbers become `.double`.
//
// The parser works on a byte buffer with an explicit stack of open containers (no recursion, so the depth limit
// and not the thread's stack bounds the input), and builds strings from byte ranges in one go.

public enum JSONParser {
    /// Parses one JSON document. Every failure is `CanopyError(.badJSON, …)` naming the problem and its byte offset.
    public static func parse(_ text: String, maxDepth: Int = 512) throws(CanopyError) -> JSON {
        var text = text
        // A Swift string is always valid UTF-8, so its strings need no second validation.
        let result = text.withUTF8 { run($0, maxDepth: maxDepth, trustedUTF8: true) }
        return try result.get()
    }

    /// Parses one JSON document from UTF-8 bytes. Every failure is `CanopyError(.badJSON, …)`.
    public static func parse(bytes: some Collection<UInt8>, maxDepth: Int = 512) throws(CanopyError) -> JSON {
        if let result = bytes.withContiguousStorageIfAvailable({ run($0, maxDepth: maxDepth, trustedUTF8: false) }) {
            return try result.get()
        }
        let copy = Array(bytes)
        return try copy.withUnsafeBufferPointer { run($0, maxDepth: maxDepth, trustedUTF8: false) }.get()
    }

    static func run(
        _ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, trustedUTF8: Bool
    ) -> Result<JSON, CanopyError> {
        Result { () throws(CanopyError) -> JSON in
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                throw CanopyError(.badJSON, "empty input")
            }
            var parser = JSONByteParser(base: base, count: bytes.count, maxDepth: maxDepth, trustedUTF8: trustedUTF8)
            return try parser.parseDocument()
        }
    }
}

/// An open array or object while parsing.
private struct JSONFrame {
    var isObject: Bool
    var items: [JSON] = []
    /// Members of a small object; the object's own lookup finds duplicates.
    var object = JSONObject()
    /// Members of an object that grew past `JSONByteParser.bigObject` members, with a set to find duplicates.
    var bigMembers: [(key: String, value: JSON)] = []
    var seenKeys: Set<String> = []
    var isBig = false
    /// The key whose value is being parsed, and the offset of its opening quote.
    var key = ""
    var keyOffset = 0

    init(isObject: Bool) { self.isObject = isObject }
}

private struct JSONByteParser {
    let base: UnsafePointer<UInt8>
    let end: Int
    let maxDepth: Int
    /// The input is known to be valid UTF-8 (it came from a `String`).
    let trustedUTF8: Bool
    var pos = 0
    /// Reused buffer for decoding strings with escapes.
    var scratch: [UInt8] = []

    /// Objects with more members than this switch from linear duplicate checks to a hash set.
    static let bigObject = 16

    init(base: UnsafePointer<UInt8>, count: Int, maxDepth: Int, trustedUTF8: Bool) {
        self.base = base
        self.end = count
        self.maxDepth = max(0, maxDepth)
        self.trustedUTF8 = trustedUTF8
    }

    // MARK: Errors

    func fail(_ message: String) -> CanopyError {
        CanopyError(.badJSON, message)
    }

    static func describe(_ byte: UInt8) -> String {
        if byte > 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + hex2(byte)
    }

    static func hex2(_ byte: UInt8) -> String {
        let s = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "0" + s : s
    }

    /// The error for the byte at `pos` (or the end of input) where `expected` should have been.
    /// Inside a number (`words: false`) a letter is shown as one byte: `1.e5` is a missing digit, not a word `e5`.
    func unexpected(_ expected: String, words: Bool = true) -> CanopyError {
        if pos >= end { return fail("unexpected end of input at offset \(pos), expected \(expected)") }
        let what = words ? describeToken() : Self.describe(base[pos])
        return fail("unexpected \(what) at offset \(pos), expected \(expected)")
    }

    /// The byte at `pos`, or the whole word when it starts one (`NaN`, `Infinity`, `undefined` read better whole).
    func describeToken() -> String {
        let c = base[pos]
        if c == UInt8(ascii: "'") { return "single quote (strings and keys take double quotes)" }
        guard Self.isLetter(c) else { return Self.describe(c) }
        var stop = pos
        while stop < end && stop - pos < 32 && (Self.isLetter(base[stop]) || Self.isDigit(base[stop])) { stop += 1 }
        return "word \"" + String(decoding: UnsafeBufferPointer(start: base + pos, count: stop - pos), as: UTF8.self) + "\""
    }

    static func isLetter(_ c: UInt8) -> Bool { (c | 0x20) &- UInt8(ascii: "a") < 26 }

    // MARK: Structure

    @inline(__always)
    mutating func skipWhitespace() {
        while pos < end {
            let c = base[pos]
            if c > 0x20 { return }
            guard c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 else { return }
            pos += 1
        }
    }

    mutating func parseDocument() throws(CanopyError) -> JSON {
        skipWhitespace()
        if pos == end { throw fail("empty input") }
        var frames: [JSONFrame] = []
        parsing: while true {
            // Here a value starts at `pos` (whitespace skipped).
            var value: JSON
            guard pos < end else { throw unexpected("a value") }
            switch base[pos] {
            case UInt8(ascii: "{"):
                if frames.count >= maxDepth { throw CanopyError(.badJSON, "nesting deeper than \(maxDepth) at offset \(pos)", hitLimit: true) }
                pos += 1
                skipWhitespace()
                if pos < end && base[pos] == UInt8(ascii: "}") {
                    pos += 1
                    value = .object(JSONObject())
                } else {
                    var frame = JSONFrame(isObject: true)
                    try readKey(into: &frame)
                    frames.append(frame)
                    continue parsing
                }
            case UInt8(ascii: "["):
                if frames.count >= maxDepth { throw CanopyError(.badJSON, "nesting deeper than \(maxDepth) at offset \(pos)", hitLimit: true) }
                pos += 1
                skipWhitespace()
                if pos < end && base[pos] == UInt8(ascii: "]") {
                    pos += 1
                    value = .array([])
                } else {
                    frames.append(JSONFrame(isObject: false))
                    continue parsing
                }
            case UInt8(ascii: "\""):
                value = .string(try parseString(isKey: false))
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = try parseNumber()
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                value = .null
            default:
                throw unexpected("a value")
            }

            // A value is complete: add it to the innermost container, closing containers as far as they end here.
            while true {
                guard !frames.isEmpty else {
                    skipWhitespace()
                    if pos != end {
                        throw fail("unexpected \(Self.describe(base[pos])) after the top-level value at offset \(pos)")
                    }
                    return value
                }
                let top = frames.count - 1
                try add(value, to: &frames[top])
                skipWhitespace()
                let isObject = frames[top].isObject
                guard pos < end else { throw unexpected(isObject ? "',' or '}'" : "',' or ']'") }
                let c = base[pos]
                if c == UInt8(ascii: ",") {
                    pos += 1
                    skipWhitespace()
                    if isObject { try readKey(into: &frames[top]) }
                    continue parsing
                }
                if c == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    pos += 1
                    value = Self.close(frames.removeLast())
                    continue
                }
                throw unexpected(isObject ? "',' or '}'" : "',' or ']'")
            }
        }
    }

    /// Reads `"key"` and `:` (with whitespace around the colon) into the frame.
    mutating func readKey(into frame: inout JSONFrame) throws(CanopyError) {
        guard pos < end && base[pos] == UInt8(ascii: "\"") else { throw unexpected("a string key") }
        frame.keyOffset = pos
        frame.key = try parseString(isKey: true)
        skipWhitespace()
        guard pos < end && base[pos] == UInt8(ascii: ":") else { throw unexpected("':'") }
        pos += 1
        skipWhitespace()
    }

    func add(_ value: JSON, to frame: inout JSONFrame) throws(CanopyError) {
        guard frame.isObject else {
            frame.items.append(value)
            return
        }
        let key = frame.key
        if !frame.isBig {
            let before = frame.object.count
            frame.object[key] = value
            if frame.object.count == before { throw duplicateKey(key, at: frame.keyOffset) }
            if before + 1 > Self.bigObject {
                frame.bigMembers = frame.object.members
                frame.seenKeys = Set(minimumCapacity: 2 * Self.bigObject)
                for m in frame.bigMembers { frame.seenKeys.insert(m.key) }
                frame.object = JSONObject()
                frame.isBig = true
            }
        } else {
            if !frame.seenKeys.insert(key).inserted { throw duplicateKey(key, at: frame.keyOffset) }
            frame.bigMembers.append((key: key, value: value))
        }
    }

    func duplicateKey(_ key: String, at offset: Int) -> CanopyError {
        fail("duplicate key \(JSON.string(key).encoded()) at offset \(offset)")
    }

    static func close(_ frame: JSONFrame) -> JSON {
        if !frame.isObject { return .array(frame.items) }
        if !frame.isBig { return .object(frame.object) }
        // Keys were checked for duplicates while parsing.
        return .object(JSONObject(uniqueMembers: frame.bigMembers))
    }

    mutating func expectLiteral(_ literal: StaticString) throws(CanopyError) {
        let n = literal.utf8CodeUnitCount
        let start = pos
        let matches = literal.withUTF8Buffer { lit -> Bool in
            guard end - start >= n else { return false }
            for i in 0..<n where base[start + i] != lit[i] { return false }
            return true
        }
        guard matches else { throw fail("invalid literal at offset \(start), expected \(literal)") }
        pos += n
    }

    // MARK: Numbers

    @inline(__always)
    static func isDigit(_ c: UInt8) -> Bool { c &- UInt8(ascii: "0") < 10 }

    mutating func parseNumber() throws(CanopyError) -> JSON {
        let start = pos
        let negative = base[pos] == UInt8(ascii: "-")
        if negative { pos += 1 }
        guard pos < end && Self.isDigit(base[pos]) else { throw unexpected("a digit") }
        var magnitude: UInt64 = 0
        var overflow = false
        if base[pos] == UInt8(ascii: "0") {
            pos += 1
            if pos < end && Self.isDigit(base[pos]) { throw fail("leading zero in number at offset \(start)") }
        } else {
            while pos < end {
                let d = base[pos] &- UInt8(ascii: "0")
                guard d < 10 else { break }
                let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(UInt64(d))
                if o1 || o2 { overflow = true } else { magnitude = sum }
                pos += 1
            }
        }
        var isInteger = true
        if pos < end && base[pos] == UInt8(ascii: ".") {
            isInteger = false
            pos += 1
            guard pos < end && Self.isDigit(base[pos]) else { throw unexpected("a digit after '.'", words: false) }
            while pos < end && Self.isDigit(base[pos]) { pos += 1 }
        }
        if pos < end && (base[pos] == UInt8(ascii: "e") || base[pos] == UInt8(ascii: "E")) {
            isInteger = false
            pos += 1
            if pos < end && (base[pos] == UInt8(ascii: "+") || base[pos] == UInt8(ascii: "-")) { pos += 1 }
            guard pos < end && Self.isDigit(base[pos]) else { throw unexpected("a digit in the exponent", words: false) }
            while pos < end && Self.isDigit(base[pos]) { pos += 1 }
        }
        if isInteger {
            if !overflow {
                if !negative && magnitude <= UInt64(Int64.max) { return .int(Int64(magnitude)) }
                if negative && magnitude <= Int64.min.magnitude {
                    return .int(Int64(truncatingIfNeeded: 0 &- magnitude))
                }
            }
            throw fail("integer out of 64-bit range at offset \(start)")
        }
        let d = toDouble(from: start, negative: negative)
        guard let d, d.isFinite else { throw fail("number out of range at offset \(start)") }
        return .double(d)
    }

    private static let powersOf10: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Converts the already validated number in `start..<pos` to the nearest double. Numbers with at most 15-16
    /// significant digits and a small exponent are computed exactly in one IEEE operation (Clinger's fast path);
    /// the rest go through the standard library's correctly rounded conversion.
    func toDouble(from start: Int, negative: Bool) -> Double? {
        var p = negative ? start + 1 : start
        var mantissa: UInt64 = 0
        var significant = 0
        var exponent = 0
        var exact = true
        while p < pos, Self.isDigit(base[p]) {
            if significant < 19 {
                mantissa = mantissa * 10 + UInt64(base[p] &- UInt8(ascii: "0"))
                if mantissa != 0 { significant += 1 }
            } else {
                exact = false
            }
            p += 1
        }
        if p < pos && base[p] == UInt8(ascii: ".") {
            p += 1
            while p < pos, Self.isDigit(base[p]) {
                if significant < 19 {
                    mantissa = mantissa * 10 + UInt64(base[p] &- UInt8(ascii: "0"))
                    if mantissa != 0 { significant += 1 }
                    exponent -= 1
                } else {
                    exact = false
                }
                p += 1
            }
        }
        if p < pos {  // 'e' or 'E'
            p += 1
            var expNegative = false
            if base[p] == UInt8(ascii: "+") || base[p] == UInt8(ascii: "-") {
                expNegative = base[p] == UInt8(ascii: "-")
                p += 1
            }
            var e = 0
            while p < pos {
                e = min(e * 10 + Int(base[p] &- UInt8(ascii: "0")), 1_000_000)
                p += 1
            }
            exponent += expNegative ? -e : e
        }
        if exact && mantissa <= 1 << 53 && exponent >= -22 && exponent <= 22 {
            var d = Double(mantissa)
            if exponent >= 0 { d *= Self.powersOf10[exponent] } else { d /= Self.powersOf10[-exponent] }
            return negative ? -d : d
        }
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: pos - start), as: UTF8.self)
        return Double(text)
    }

    // MARK: Strings

    /// Parses the string whose opening quote is at `pos`; leaves `pos` after the closing quote.
    mutating func parseString(isKey: Bool) throws(CanopyError) -> String {
        let open = pos
        pos += 1
        let start = pos
        var nonASCII = false
        while true {
            // Eight bytes at a time while none is a quote, a backslash or a control character.
            while end - pos >= 8 {
                let w = UnsafeRawPointer(base + pos).loadUnaligned(as: UInt64.self)
                let ones: UInt64 = 0x0101_0101_0101_0101
                let highs: UInt64 = 0x8080_8080_8080_8080
                let q = w ^ 0x2222_2222_2222_2222
                let b = w ^ 0x5C5C_5C5C_5C5C_5C5C
                let special = ((q &- ones) & ~q) | ((b &- ones) & ~b) | ((w &- ones &* 0x20) & ~w)
                if special & highs != 0 { break }
                if w & highs != 0 { nonASCII = true }
                pos += 8
            }
            guard pos < end else { throw fail("unterminated string starting at offset \(open)") }
            let c = base[pos]
            if c == UInt8(ascii: "\"") { break }
            if c == UInt8(ascii: "\\") {
                return try parseEscapedString(open: open, start: start, nonASCII: nonASCII, isKey: isKey)
            }
            if c < 0x20 { throw controlCharacter(c) }
            if c >= 0x80 { nonASCII = true }
            pos += 1
        }
        if nonASCII { try validateUTF8(from: start, to: pos) }
        let string = String(decoding: UnsafeBufferPointer(start: base + start, count: pos - start), as: UTF8.self)
        pos += 1
        return string
    }

    func controlCharacter(_ c: UInt8) -> CanopyError {
        fail("unescaped control character 0x\(Self.hex2(c)) in string at offset \(pos)")
    }

    /// The slow path from the first backslash at `pos`: decodes into `scratch`.
    mutating func parseEscapedString(open: Int, start: Int, nonASCII: Bool, isKey: Bool) throws(CanopyError) -> String {
        var nonASCII = nonASCII
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(start: base + start, count: pos - start))
        var runStart = pos
        while true {
            guard pos < end else { throw fail("unterminated string starting at offset \(open)") }
            let c = base[pos]
            if c == UInt8(ascii: "\"") { break }
            if c != UInt8(ascii: "\\") {
                if c < 0x20 { throw controlCharacter(c) }
                if c >= 0x80 { nonASCII = true }
                pos += 1
                continue
            }
            scratch.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: pos - runStart))
            let escape = pos
            pos += 1
            guard pos < end else { throw fail("unterminated string starting at offset \(open)") }
            switch base[pos] {
            case UInt8(ascii: "\""): scratch.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): scratch.append(UInt8(ascii: "\\"))
            case UInt8(ascii: "/"): scratch.append(UInt8(ascii: "/"))
            case UInt8(ascii: "b"): scratch.append(0x08)
            case UInt8(ascii: "f"): scratch.append(0x0C)
            case UInt8(ascii: "n"): scratch.append(0x0A)
            case UInt8(ascii: "r"): scratch.append(0x0D)
            case UInt8(ascii: "t"): scratch.append(0x09)
            case UInt8(ascii: "u"):
                pos += 1
                var scalar = try readHex4(escape: escape)
                if scalar >= 0xD800 && scalar <= 0xDBFF {
                    guard end - pos >= 2 && base[pos] == UInt8(ascii: "\\") && base[pos + 1] == UInt8(ascii: "u") else {
                        throw fail("unpaired high surrogate \\u\(Self.hex4(scalar)) at offset \(escape)")
                    }
                    pos += 2
                    let low = try readHex4(escape: pos - 2)
                    guard low >= 0xDC00 && low <= 0xDFFF else {
                        throw fail("unpaired high surrogate \\u\(Self.hex4(scalar)) at offset \(escape)")
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
                    throw fail("unpaired low surrogate \\u\(Self.hex4(scalar)) at offset \(escape)")
                }
                if isKey && scalar == 0 { throw fail("key contains U+0000 at offset \(escape)") }
                appendUTF8(scalar)
                runStart = pos
                continue
            default:
                throw fail("invalid escape \\\(Self.describeEscape(base[pos])) at offset \(escape)")
            }
            pos += 1
            runStart = pos
        }
        scratch.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: pos - runStart))
        if nonASCII { try validateUTF8(from: start, to: pos) }
        pos += 1
        return String(decoding: scratch, as: UTF8.self)
    }

    static func describeEscape(_ c: UInt8) -> String {
        c > 0x20 && c < 0x7F ? String(Character(Unicode.Scalar(c))) : "<byte 0x\(hex2(c))>"
    }

    static func hex4(_ v: UInt32) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - s.utf8.count)) + s
    }

    /// Reads four hex digits at `pos` (the `\u` started at `escape`).
    mutating func readHex4(escape: Int) throws(CanopyError) -> UInt32 {
        guard end - pos >= 4 else { throw fail("truncated \\u escape at offset \(escape)") }
        var v: UInt32 = 0
        for i in 0..<4 {
            let c = base[pos + i]
            let d: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - UInt8(ascii: "A") + 10
            default: throw fail("invalid \\u escape at offset \(escape)")
            }
            v = v << 4 | UInt32(d)
        }
        pos += 4
        return v
    }

    mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// Strict UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF, no truncated sequences.
    /// Invalid bytes are an error, never replaced by U+FFFD, so distinct byte strings stay distinct strings.
    func validateUTF8(from start: Int, to stop: Int) throws(CanopyError) {
        if trustedUTF8 { return }
        var i = start
        while i < stop {
            let b0 = base[i]
            if b0 < 0x80 {
                i += 1
                continue
            }
            // The allowed range of the second byte narrows for E0, ED, F0 and F4 (RFC 3629, section 4).
            var length = 0
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch b0 {
            case 0x80...0xBF: throw invalidUTF8(at: i, length: 1, "stray continuation byte")
            case 0xC0, 0xC1: throw invalidUTF8(at: i, length: 2, "overlong encoding")
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            case 0xF5...0xF7: throw invalidUTF8(at: i, length: 4, "code point above U+10FFFF")
            default: throw invalidUTF8(at: i, length: 1, "byte that never occurs in UTF-8")
            }
            for k in 1..<length where i + k >= stop || base[i + k] & 0xC0 != 0x80 {
                throw invalidUTF8(at: i, length: k + 1, "truncated sequence")
            }
            let b1 = base[i + 1]
            if b1 < low { throw invalidUTF8(at: i, length: length, "overlong encoding") }
            if b1 > high {
                throw invalidUTF8(
                    at: i, length: length, b0 == 0xED ? "UTF-16 surrogate encoded in UTF-8" : "code point above U+10FFFF")
            }
            i += length
        }
    }

    /// "invalid UTF-8 at offset N: what (the bytes)", showing up to `length` bytes from `offset` within the input.
    func invalidUTF8(at offset: Int, length: Int, _ what: String) -> CanopyError {
        let shown = (offset..<min(offset + length, end)).map { "0x" + Self.hex2(base[$0]) }
        return fail("invalid UTF-8 at offset \(offset): \(what) (\(shown.joined(separator: " ")))")
    }
}
