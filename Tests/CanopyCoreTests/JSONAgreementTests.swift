import CanopyCore
import Testing

/// `JSONParser` is the one definition of valid JSON for messages, snapshots, diffs, examples and the CLI: every case
/// goes through each of its entry points — raw message bytes (the daemon's), a byte array (the store's) and, when the
/// bytes are valid UTF-8, a `String` — and all results must be identical.
@Suite struct JSONAgreementTests {
    enum Expected: Sendable, CustomStringConvertible {
        case value(JSON)
        /// `bad_json` whose message contains this fragment.
        case badJSON(String)

        var description: String {
            switch self {
            case .value(let v): return "value \(v.encoded())"
            case .badJSON(let m): return "bad_json containing \(m.debugDescription)"
            }
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let bytes: [UInt8]
        let expected: Expected
        var testDescription: String {
            String(decoding: bytes, as: UTF8.self).debugDescription + " " + bytes.map { String($0, radix: 16) }.joined(separator: " ")
        }

        init(_ text: String, _ expected: Expected) {
            bytes = Array(text.utf8)
            self.expected = expected
        }

        init(bytes: [UInt8], _ expected: Expected) {
            self.bytes = bytes
            self.expected = expected
        }
    }

    static let q: UInt8 = 0x22  // '"'

    static let cases: [Case] = [
        // Numbers: RFC 8259's grammar exactly.
        Case("0", .value(.int(0))),
        Case("-0", .value(.int(0))),
        Case("[1.5,-0.25,0.0]", .value([.double(1.5), .double(-0.25), .double(0)])),
        Case("[1e5,1E+2,1e-2,2.5e1]", .value([.double(1e5), .double(100), .double(0.01), .double(25)])),
        Case("1e-400", .value(.double(0))),
        Case("[9223372036854775807,-9223372036854775808]", .value([.int(Int64.max), .int(Int64.min)])),
        Case("00", .badJSON("leading zero in number at offset 0")),
        Case("-01", .badJSON("leading zero in number at offset 0")),
        Case("01.5", .badJSON("leading zero in number at offset 0")),
        Case("[00]", .badJSON("leading zero in number at offset 1")),
        Case(#"{"a":-01}"#, .badJSON("leading zero in number at offset 5")),
        Case("1.", .badJSON("unexpected end of input at offset 2, expected a digit after '.'")),
        Case("0.", .badJSON("unexpected end of input at offset 2, expected a digit after '.'")),
        Case("[1.]", .badJSON("unexpected ']' at offset 3, expected a digit after '.'")),
        Case("1.e5", .badJSON("unexpected 'e' at offset 2, expected a digit after '.'")),
        Case(".5", .badJSON("unexpected '.' at offset 0, expected a value")),
        Case("+1", .badJSON("unexpected '+' at offset 0, expected a value")),
        Case("1e", .badJSON("unexpected end of input at offset 2, expected a digit in the exponent")),
        Case("1e+", .badJSON("unexpected end of input at offset 3, expected a digit in the exponent")),
        Case("-", .badJSON("unexpected end of input at offset 1, expected a digit")),
        Case("--1", .badJSON("unexpected '-' at offset 1, expected a digit")),
        Case("1.5.5", .badJSON("unexpected '.' after the top-level value at offset 3")),
        Case("0x10", .badJSON("unexpected 'x' after the top-level value at offset 1")),
        Case("[NaN]", .badJSON("unexpected word \"NaN\" at offset 1, expected a value")),
        Case("[Infinity]", .badJSON("unexpected word \"Infinity\" at offset 1, expected a value")),
        Case("[-Infinity]", .badJSON("unexpected word \"Infinity\" at offset 2, expected a digit")),
        Case("[1e999]", .badJSON("number out of range at offset 1")),
        Case("[9223372036854775808]", .badJSON("integer out of 64-bit range at offset 1")),
        Case("[-9223372036854775809]", .badJSON("integer out of 64-bit range at offset 1")),
        // UTF-8: valid multi-byte characters pass; anything invalid is an error at its offset, never U+FFFD.
        Case("[\"é日本😀\"]", .value(["é日本😀"])),
        Case(bytes: [q, 0xF4, 0x8F, 0xBF, 0xBF, q], .value(.string("\u{10FFFF}"))),
        Case(bytes: [q, 0xED, 0xA0, 0x80, q], .badJSON("invalid UTF-8 at offset 1: UTF-16 surrogate encoded in UTF-8")),
        Case(bytes: [q, 0xC0, 0xAF, q], .badJSON("invalid UTF-8 at offset 1: overlong encoding")),
        Case(bytes: [q, 0xE0, 0x80, 0xAF, q], .badJSON("invalid UTF-8 at offset 1: overlong encoding")),
        Case(bytes: [q, 0xF4, 0x90, 0x80, 0x80, q], .badJSON("invalid UTF-8 at offset 1: code point above U+10FFFF")),
        Case(bytes: [q, 0x61, 0xE2, 0x82, q], .badJSON("invalid UTF-8 at offset 2: truncated sequence")),
        Case(bytes: [q, 0xF0, 0x9F, 0x98], .badJSON("unterminated string starting at offset 0")),
        Case(bytes: [q, 0x80, q], .badJSON("invalid UTF-8 at offset 1: stray continuation byte")),
        Case(bytes: [q, 0xFF, q], .badJSON("invalid UTF-8 at offset 1: byte that never occurs in UTF-8")),
        Case(bytes: Array(#"{"id":""#.utf8) + [0xC3, 0x28] + Array("\"}".utf8), .badJSON("invalid UTF-8 at offset 7")),
        Case(bytes: [0x7B, q, 0xED, 0xB0, 0x80, q, 0x3A, 0x31, 0x7D], .badJSON("invalid UTF-8 at offset 2")),
        Case(bytes: [q, 0x5C, 0x6E, 0xC0, 0x80, q], .badJSON("invalid UTF-8 at offset 3: overlong encoding")),
        Case(bytes: [0xC3, 0xA9], .badJSON("unexpected byte 0xC3 at offset 0, expected a value")),
        Case(bytes: [0x5B, 0x31, 0x2C, 0xFF, 0x5D], .badJSON("unexpected byte 0xFF at offset 3, expected a value")),
        // Escapes: a pair of surrogates is one character; a lone surrogate is no Unicode scalar value.
        Case(#""\u00e9\ud83d\ude00\u0041""#, .value("é😀A")),
        Case(#"["a\u0000b"]"#, .value(["a\u{0}b"])),
        Case(#""\ud800""#, .badJSON("unpaired high surrogate \\uD800 at offset 1")),
        Case(#""\udc00""#, .badJSON("unpaired low surrogate \\uDC00 at offset 1")),
        Case(#""\ud800x""#, .badJSON("unpaired high surrogate \\uD800 at offset 1")),
        Case(#""\ud800\u0041""#, .badJSON("unpaired high surrogate \\uD800 at offset 1")),
        Case(#""\udbff\udbff""#, .badJSON("unpaired high surrogate \\uDBFF at offset 1")),
        Case(#""\ude00\ud83d""#, .badJSON("unpaired low surrogate \\uDE00 at offset 1")),
        Case(#"{"\ud800":1}"#, .badJSON("unpaired high surrogate \\uD800 at offset 2")),
        Case(#"{"a\u0000b":1}"#, .badJSON("key contains U+0000 at offset 3")),
        Case(#"["\x"]"#, .badJSON("invalid escape \\x at offset 2")),
        Case(#"["\u12G4"]"#, .badJSON("invalid \\u escape at offset 2")),
        // Words, quotes, structure.
        Case(" [true,false,null] ", .value([true, false, .null])),
        Case("tru", .badJSON("invalid literal at offset 0, expected true")),
        Case("nulll", .badJSON("unexpected 'l' after the top-level value at offset 4")),
        Case("{'a':1}", .badJSON("unexpected single quote (strings and keys take double quotes) at offset 1, expected a string key")),
        Case("['a']", .badJSON("unexpected single quote (strings and keys take double quotes) at offset 1, expected a value")),
        Case("", .badJSON("empty input")),
        Case(" \n", .badJSON("empty input")),
        Case("[1,]", .badJSON("unexpected ']' at offset 3, expected a value")),
        Case(#"{"a":1}x"#, .badJSON("unexpected 'x' after the top-level value at offset 7")),
        Case("[1] [2]", .badJSON("unexpected '[' after the top-level value at offset 4")),
        Case("// c\n1", .badJSON("unexpected '/' at offset 0, expected a value")),
        Case("\u{FEFF}1", .badJSON("unexpected byte 0xEF at offset 0, expected a value")),
        Case("[\"a\u{1}\"]", .badJSON("unescaped control character 0x01 in string at offset 3")),
        Case(#"{"a":1,"a":2}"#, .badJSON("duplicate key \"a\" at offset 7")),
        Case(#"{"x":{"a":1,"b":{},"a":3}}"#, .badJSON("duplicate key \"a\" at offset 19")),
        Case("{\"\u{E9}\":1,\"e\u{301}\":2}", .badJSON("duplicate key")),
        // Nesting: every case runs with a limit of 8.
        Case(String(repeating: "[", count: 8) + String(repeating: "]", count: 8), .value(nested(8))),
        Case(String(repeating: "[", count: 9) + String(repeating: "]", count: 9), .badJSON("nesting deeper than 8 at offset 8")),
    ]

    static func nested(_ depth: Int) -> JSON {
        (0..<depth - 1).reduce(JSON.array([])) { inner, _ in .array([inner]) }
    }

    static let maxDepth = 8

    @Test(arguments: cases)
    func bridgeAndCoreParserGiveTheSameResult(_ c: Case) {
        let results = Self.results(c.bytes)
        let first = results[0]
        for r in results.dropFirst() { #expect(Self.same(r, first), "\(r) differs from \(first)") }
        switch (c.expected, first) {
        case (.value(let expected), .success(let v)):
            #expect(Self.identical(v, expected), "got \(v.encoded())")
        case (.badJSON(let fragment), .failure(let e)):
            #expect(e.code == .badJSON)
            #expect(e.message.contains(fragment), "message: \(e.message)")
        default:
            Issue.record("expected \(c.expected), got \(first)")
        }
    }

    /// Every entry point: raw bytes, a byte array, and a `String` when the bytes are valid UTF-8.
    static func results(_ bytes: [UInt8]) -> [Result<JSON, CanopyError>] {
        var results = [
            bytes.withUnsafeBytes { b in Result { () throws(CanopyError) -> JSON in try JSONParser.parse(bytes: b.bindMemory(to: UInt8.self), maxDepth: maxDepth) } },
            Result { () throws(CanopyError) -> JSON in try JSONParser.parse(bytes: bytes, maxDepth: maxDepth) },
        ]
        if let text = String(validating: bytes, as: UTF8.self) {
            results.append(Result { () throws(CanopyError) -> JSON in try JSONParser.parse(text, maxDepth: maxDepth) })
        }
        return results
    }

    static func same(_ a: Result<JSON, CanopyError>, _ b: Result<JSON, CanopyError>) -> Bool {
        switch (a, b) {
        case (.success(let x), .success(let y)): return identical(x, y)
        case (.failure(let x), .failure(let y)): return x == y
        default: return false
        }
    }

    /// Equal with the same number types (`JSON.==` treats `1` and `1.0` as equal) and the same key order.
    static func identical(_ a: JSON, _ b: JSON) -> Bool {
        switch (a, b) {
        case (.int(let x), .int(let y)): return x == y
        case (.double(let x), .double(let y)): return x == y
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { identical($0, $1) }
        case (.object(let x), .object(let y)):
            return x.keys == y.keys && zip(x.members, y.members).allSatisfy { identical($0.value, $1.value) }
        case (.int, _), (.double, _), (.array, _), (.object, _): return false
        default: return a == b
        }
    }
}
