import Testing

@testable import CanopyCore

/// JSON values, `JSONObject`, the writer and the parser. Every suite here is nested in this one, so
/// `swift test --filter JSONTests` selects them all.
@Suite("JSON")
enum JSONTests {}

// MARK: - Helpers

extension JSONTests {
    /// Random JSON values: every kind, nested up to `depth`, with strings that need every kind of escape.
    struct RandomJSON {
        var rng: SplitMix64

        mutating func value(depth: Int) -> JSON {
            let kind = Int.random(in: 0..<(depth > 0 ? 9 : 7), using: &rng)
            switch kind {
            case 0: return .null
            case 1: return .bool(Bool.random(using: &rng))
            case 2: return .int(Int64(bitPattern: rng.next()))
            case 3: return .int(Int64.random(in: -1000...1000, using: &rng))
            case 4: return .double(anyFiniteDouble())
            case 5: return .double(Double(Int.random(in: -1_000_000...1_000_000, using: &rng)) / 1000)
            case 6: return .string(string())
            case 7:
                return .array((0..<Int.random(in: 0...5, using: &rng)).map { _ in value(depth: depth - 1) })
            default:
                var object = JSONObject()
                for _ in 0..<Int.random(in: 0...5, using: &rng) { object[key()] = value(depth: depth - 1) }
                return .object(object)
            }
        }

        /// A string without U+0000, which keys may not contain.
        mutating func key() -> String {
            String(string().unicodeScalars.filter { $0 != "\u{0}" })
        }

        mutating func anyFiniteDouble() -> Double {
            while true {
                let d = Double(bitPattern: rng.next())
                if d.isFinite { return d }
            }
        }

        mutating func string() -> String {
            var s = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...10, using: &rng) {
                let value: UInt32
                switch Int.random(in: 0..<8, using: &rng) {
                case 0, 1, 2: value = UInt32.random(in: 0x20...0x7E, using: &rng)
                case 3: value = UInt32.random(in: 0x00...0x1F, using: &rng)
                case 4: value = [0x22, 0x5C, 0x2F, 0x7F, 0x2028, 0x2029, 0x2027, 0x202A].randomElement(using: &rng)!
                case 5: value = UInt32.random(in: 0x80...0xD7FF, using: &rng)
                case 6: value = UInt32.random(in: 0xE000...0xFFFF, using: &rng)
                default: value = UInt32.random(in: 0x10000...0x10FFFF, using: &rng)
                }
                s.append(Unicode.Scalar(value)!)
            }
            return String(s)
        }
    }

    /// The `CanopyError` that parsing `text` throws, or nil if it parses.
    static func parseError(_ text: String, maxDepth: Int = 512) -> CanopyError? {
        do throws(CanopyError) {
            _ = try JSONParser.parse(text, maxDepth: maxDepth)
            return nil
        } catch {
            return error
        }
    }

    /// The `CanopyError` that parsing `bytes` throws, or nil if they parse.
    static func parseError(bytes: [UInt8]) -> CanopyError? {
        do throws(CanopyError) {
            _ = try JSONParser.parse(bytes: bytes)
            return nil
        } catch {
            return error
        }
    }

    /// `count` nested arrays around `1`, e.g. `[[1]]` for 2.
    static func nestedArrays(_ count: Int) -> String {
        String(repeating: "[", count: count) + "1" + String(repeating: "]", count: count)
    }

    /// `count` nested objects around `1`, e.g. `{"a":{"a":1}}` for 2.
    static func nestedObjects(_ count: Int) -> String {
        String(repeating: "{\"a\":", count: count) + "1" + String(repeating: "}", count: count)
    }
}

// MARK: - Equality and hashing

extension JSONTests {
    @Suite("JSON equality and hashing")
    struct Equality {
        @Test(
            "numbers that are the same value are equal whether stored as int or double",
            arguments: [
                (JSON.int(1), JSON.double(1.0)),
                (.int(0), .double(-0.0)),
                (.int(-42), .double(-42)),
                (.int(1 << 53), .double(9_007_199_254_740_992)),
                (.int(Int64.min), .double(-9.223372036854775808e18)),
                (.double(0.5), .double(0.5)),
            ] as [(JSON, JSON)])
        func equalNumbers(a: JSON, b: JSON) {
            #expect(a == b)
            #expect(b == a)
            #expect(a.hashValue == b.hashValue)
        }

        @Test(
            "values of different value or type are not equal",
            arguments: [
                // 2^63 - 1 is not a double; the nearest double is 2^63, so exact comparison must say no.
                (JSON.int(Int64.max), JSON.double(9.223372036854775807e18)),
                (.int((1 << 53) + 1), .double(9_007_199_254_740_992)),
                (.int(1), .string("1")),
                (.int(1), .double(1.5)),
                (.int(1), .bool(true)),
                (.null, .bool(false)),
                (.null, .int(0)),
                (.string(""), .null),
                (.array([]), .object([:])),
                (.array([1, 2]), .array([2, 1])),
                (.array([1]), .array([1, 1])),
                (["a": 1], ["a": 2]),
                (["a": 1], ["b": 1]),
                (["a": 1], ["a": 1, "b": 2]),
            ] as [(JSON, JSON)])
        func unequalValues(a: JSON, b: JSON) {
            #expect(a != b)
            #expect(b != a)
        }

        @Test("objects are equal regardless of key order, and hash the same")
        func objectKeyOrder() {
            let ab: JSON = ["a": 1, "b": [true, .null]]
            let ba: JSON = ["b": [true, .null], "a": 1.0]
            #expect(ab == ba)
            #expect(ab.hashValue == ba.hashValue)
            #expect(ab.object!.keys == ["a", "b"])
            #expect(ba.object!.keys == ["b", "a"])
        }

        @Test("arrays are equal only in the same order")
        func arrayOrder() {
            #expect(JSON.array([1, "x", .null]) == JSON.array([1.0, "x", .null]))
            #expect(JSON.array([1, "x", .null]) != JSON.array(["x", 1, .null]))
        }

        @Test("a set of values treats 1 and 1.0 and reordered objects as one element")
        func hashConsistentWithEquality() {
            let values: [JSON] = [
                .int(1), .double(1.0), .double(1.5), .string("1"),
                ["x": 1, "y": 2], ["y": 2.0, "x": 1], [1, 2], [2, 1],
            ]
            let set = Set(values)
            #expect(set.count == 6)
            #expect(set.contains(.double(1)))
            #expect(set.contains(["y": 2, "x": 1.0]))
        }
    }
}

// MARK: - JSONObject

extension JSONTests {
    @Suite("JSONObject")
    struct Object {
        @Test("keeps members in insertion order and replaces values in place")
        func insertionOrder() {
            var o = JSONObject()
            o["b"] = 1
            o["a"] = 2
            o["c"] = 3
            o["a"] = "replaced"
            #expect(o.keys == ["b", "a", "c"])
            #expect(o["a"] == "replaced")
            #expect(o.count == 3)
        }

        @Test("setting nil removes the member and setting a missing key to nil does nothing")
        func setNilRemoves() {
            var o: JSONObject = ["a": 1, "b": 2, "c": 3]
            o["b"] = nil
            #expect(o.keys == ["a", "c"])
            #expect(o["b"] == nil)
            o["zzz"] = nil
            #expect(o.keys == ["a", "c"])
            o["b"] = 4
            #expect(o.keys == ["a", "c", "b"])
        }

        @Test("an explicit null is a member, unlike a missing key")
        func nullIsAMember() {
            var o = JSONObject()
            o["n"] = .null
            #expect(o.count == 1)
            #expect(o["n"] == .null)
        }

        @Test("init keeps the first position of a duplicate key with the last value")
        func initWithDuplicates() {
            let o = JSONObject([(key: "a", value: 1), (key: "b", value: 2), (key: "a", value: 3)])
            #expect(o.keys == ["a", "b"])
            #expect(o["a"] == 3)
        }

        @Test("merge of small objects overwrites existing keys in place and appends new ones")
        func mergeSmall() {
            var o: JSONObject = ["a": 1, "b": 2]
            o.merge(["b": 3, "c": 4])
            #expect(o.keys == ["a", "b", "c"])
            #expect(o.members.map(\.value) == [1, 3, 4])

            var empty = JSONObject()
            empty.merge(["x": 1, "y": 2])
            #expect(empty.keys == ["x", "y"])
        }

        @Test(
            "merge of objects of more than 8 members overwrites and appends like the small path",
            arguments: [9, 12, 40])
        func mergeLarge(size: Int) {
            let left = JSONObject((0..<size).map { (key: "k\($0)", value: JSON.int(Int64($0))) })
            let right = JSONObject((size / 2..<size + size / 2).map { (key: "k\($0)", value: JSON.string("r\($0)")) })
            var merged = left
            merged.merge(right)

            #expect(merged.keys == (0..<size + size / 2).map { "k\($0)" })
            for i in 0..<size / 2 { #expect(merged["k\(i)"] == .int(Int64(i))) }
            for i in size / 2..<size + size / 2 { #expect(merged["k\(i)"] == .string("r\(i)")) }

            // The same as assigning member by member.
            var expected = left
            for m in right.members { expected[m.key] = m.value }
            #expect(merged.members.map(\.key) == expected.members.map(\.key))
            #expect(merged.members.map(\.value) == expected.members.map(\.value))
        }
    }
}

// MARK: - Writer

extension JSONTests {
    @Suite("JSON writer")
    struct Writer {
        @Test(
            "writes compact JSON text",
            arguments: [
                (JSON.null, "null"),
                (.bool(true), "true"),
                (.bool(false), "false"),
                (.int(0), "0"),
                (.int(7), "7"),
                (.int(-1), "-1"),
                (.int(1_234_567_890), "1234567890"),
                (.int(Int64.max), "9223372036854775807"),
                (.int(Int64.min), "-9223372036854775808"),
                (.string(""), "\"\""),
                (.string("hi"), "\"hi\""),
                (.array([]), "[]"),
                (.object([:]), "{}"),
                (.array([1, "a", .null, true, [], [:]]), "[1,\"a\",null,true,[],{}]"),
                (["z": 1, "a": [1, ["c": .null]], "m": "x"], "{\"z\":1,\"a\":[1,{\"c\":null}],\"m\":\"x\"}"),
            ] as [(JSON, String)])
        func writesCompactText(value: JSON, text: String) {
            #expect(value.encoded() == text)
        }

        @Test(
            "writes integral doubles below 2^53 as integers and others in shortest round-trip form",
            arguments: [
                (3.0, "3"),
                (-0.0, "0"),
                (-12.0, "-12"),
                (1e15, "1000000000000000"),
                (9_007_199_254_740_991.0, "9007199254740991"),
                (9_007_199_254_740_992.0, "9007199254740992.0"),
                (0.1, "0.1"),
                (-2.5, "-2.5"),
                (0.30000000000000004, "0.30000000000000004"),
                (1e300, "1e+300"),
                (1.5e-7, "1.5e-07"),
                (Double.leastNonzeroMagnitude, "5e-324"),
                (Double.greatestFiniteMagnitude, "1.7976931348623157e+308"),
            ])
        func writesDoubles(value: Double, text: String) {
            #expect(JSON.double(value).encoded() == text)
        }

        @Test("writes null for non-finite doubles", arguments: [Double.infinity, -Double.infinity, Double.nan])
        func nonFiniteDoubles(value: Double) {
            #expect(JSON.double(value).encoded() == "null")
            #expect(JSON.array([.double(value)]).encoded() == "[null]")
        }

        @Test(
            "escapes quotes, backslashes, control characters and the JavaScript line separators",
            arguments: [
                ("\"", #""\"""#),
                ("\\", #""\\""#),
                ("a\nb", #""a\nb""#),
                ("\t\r\u{08}\u{0C}", #""\t\r\b\f""#),
                ("\u{00}\u{01}\u{1F}", #""\u0000\u0001\u001f""#),
                ("\u{2028}x\u{2029}", #""\u2028x\u2029""#),
                ("say \"hi\"\n", #""say \"hi\"\n""#),
                ("/ and \u{7F}", "\"/ and \u{7F}\""),
            ])
        func escapes(string: String, text: String) {
            #expect(JSON.string(string).encoded() == text)
        }

        @Test("writes non-ASCII characters as raw UTF-8")
        func rawUnicode() {
            let s = "é€😀 \u{2027}\u{202A} 日本"
            #expect(JSON.string(s).encoded() == "\"" + s + "\"")
            var bytes: [UInt8] = []
            JSON.string("é").write(into: &bytes)
            #expect(bytes == [0x22, 0xC3, 0xA9, 0x22])
        }

        @Test("escapes keys like strings")
        func escapesKeys() {
            let o: JSONObject = ["a\"b": 1, "\n": 2]
            #expect(o.encoded() == #"{"a\"b":1,"\n":2}"#)
        }

        @Test("write(into:) appends to the bytes already there")
        func writeAppends() {
            var bytes = Array("prefix:".utf8)
            JSON.array([1, 2]).write(into: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == "prefix:[1,2]")
        }

        @Test("JSONObject encodes in stored order")
        func objectEncoded() {
            var o = JSONObject()
            o["second"] = 2
            o["first"] = 1
            #expect(o.encoded() == #"{"second":2,"first":1}"#)
        }

        @Test("what is written parses back to an equal value")
        func roundTripExamples() throws {
            let values: [JSON] = [
                .null, true, false, 0, -1, .int(Int64.max), .int(Int64.min), 0.1, -0.0, 1e300, 1e-7,
                .double(.leastNonzeroMagnitude),
                .double(Double.greatestFiniteMagnitude), .double(-Double.leastNormalMagnitude),
                "", "plain", "\u{0}\u{1}\u{1F}\"\\/\u{7F}\u{2028}\u{2029}é😀",
                [], [:], [[[]]], ["": ["": [:]]],
                ["b": [1, 2.5, "x"], "a": .null, "c": ["d": false]],
            ]
            for value in values {
                let text = value.encoded()
                let parsed = try JSONParser.parse(text)
                #expect(parsed == value, "\(text)")
                #expect(parsed.encoded() == text)
            }
        }

        @Test("random nested values survive a write and parse unchanged", arguments: [1 as UInt64, 2, 3, 0xC0FFEE])
        func randomRoundTrip(seed: UInt64) throws {
            var generator = RandomJSON(rng: SplitMix64(seed: seed))
            for _ in 0..<300 {
                let value = generator.value(depth: 4)
                let text = value.encoded()
                let fromString = try JSONParser.parse(text)
                let fromBytes = try JSONParser.parse(bytes: Array(text.utf8))
                #expect(fromString == value, "\(text)")
                #expect(fromBytes == value, "\(text)")
                // Writing is deterministic, so a second round gives the same text.
                #expect(fromString.encoded() == text)
            }
        }

        @Test("random doubles parse back to exactly the same double")
        func randomDoublesExact() throws {
            var generator = RandomJSON(rng: SplitMix64(seed: 42))
            for _ in 0..<5000 {
                let d = generator.anyFiniteDouble()
                let text = JSON.double(d).encoded()
                let parsed = try JSONParser.parse(text)
                #expect(parsed.number == d, "\(text)")
                #expect(parsed.number?.sign == d.sign || d == 0, "\(text)")
            }
        }
    }
}

// MARK: - Parser: accepted documents

extension JSONTests {
    @Suite("JSON parser accepts")
    struct ParserAccepts {
        @Test(
            "top-level scalars",
            arguments: [
                ("null", JSON.null),
                ("true", .bool(true)),
                ("false", .bool(false)),
                ("42", .int(42)),
                ("-7", .int(-7)),
                ("2.5", .double(2.5)),
                ("\"s\"", .string("s")),
                (" \t\r\n null \n", .null),
            ])
        func topLevelScalars(text: String, value: JSON) throws {
            #expect(try JSONParser.parse(text) == value)
        }

        @Test("a document with exact values and key order")
        func document() throws {
            let text = """
                { "z": 1, "a" : [true, false, null, -0.5, "x"],
                  "m": {"inner": {}, "list": []}, "": "" }
                """
            let value = try JSONParser.parse(text)
            #expect(value == ["z": 1, "a": [true, false, .null, -0.5, "x"], "m": ["inner": [:], "list": []], "": ""])
            #expect(value.object?.keys == ["z", "a", "m", ""])
            #expect(value["m"]?.object?.keys == ["inner", "list"])
        }

        @Test("integers without fraction or exponent as .int and other numbers as .double")
        func numberKinds() throws {
            guard case .int(1) = try JSONParser.parse("1") else { Issue.record("1 is not .int(1)"); return }
            guard case .int(0) = try JSONParser.parse("-0") else { Issue.record("-0 is not .int(0)"); return }
            guard case .double(1.0) = try JSONParser.parse("1.0") else { Issue.record("1.0 is not .double"); return }
            guard case .double(100) = try JSONParser.parse("1e2") else { Issue.record("1e2 is not .double"); return }
            guard case .double(let negativeZero) = try JSONParser.parse("-0.0") else {
                Issue.record("-0.0 is not .double")
                return
            }
            #expect(negativeZero == 0 && negativeZero.sign == .minus)
        }

        @Test(
            "numbers with their exact double values",
            arguments: [
                ("0.1", 0.1),
                ("-2.5", -2.5),
                ("1E+2", 100.0),
                ("1e-2", 0.01),
                ("123.456e3", 123_456.0),
                ("0.30000000000000004", 0.30000000000000004),
                ("1234567890123456789.0", 1_234_567_890_123_456_789.0),
                ("3.141592653589793238462643383279", 3.141592653589793),
                ("2.2250738585072014e-308", 2.2250738585072014e-308),
                ("5e-324", Double.leastNonzeroMagnitude),
                ("1.7976931348623157e308", 1.7976931348623157e308),
                ("1e-400", 0.0),
                ("0.000000000000000000000000000001", 1e-30),
                ("9007199254740993.0", 9_007_199_254_740_992.0),
            ])
        func doubles(text: String, value: Double) throws {
            let parsed = try JSONParser.parse(text)
            guard case .double(let d) = parsed else {
                Issue.record("\(text) parsed as \(parsed)")
                return
            }
            #expect(d == value)
        }

        @Test(
            "integers up to the 64-bit boundaries",
            arguments: [
                ("9223372036854775807", Int64.max),
                ("-9223372036854775808", Int64.min),
                ("9223372036854775806", Int64.max - 1),
                ("-9223372036854775807", Int64.min + 1),
                ("0", 0),
                ("10", 10),
            ])
        func integerBoundaries(text: String, value: Int64) throws {
            let parsed = try JSONParser.parse(text)
            guard case .int(let i) = parsed else {
                Issue.record("\(text) parsed as \(parsed)")
                return
            }
            #expect(i == value)
        }

        @Test(
            "string escapes",
            arguments: [
                (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{08}\u{0C}\n\r\t"),
                (#""\u0041\u00e9\u20AC""#, "Aé€"),
                (#""\uD83D\uDE00""#, "😀"),
                (#""\ud83d\ude00 and \uDBFF\uDFFF""#, "😀 and \u{10FFFF}"),
                (#""a\u0000b""#, "a\u{0}b"),
                (#""\u2028""#, "\u{2028}"),
                (#""plain text, then \n an escape""#, "plain text, then \n an escape"),
                ("\"raw é€😀\"", "raw é€😀"),
            ])
        func stringEscapes(text: String, value: String) throws {
            #expect(try JSONParser.parse(text) == .string(value))
            #expect(try JSONParser.parse(bytes: Array(text.utf8)) == .string(value))
        }

        @Test("UTF-8 bytes from any collection")
        func bytesFromCollections() throws {
            let text = #"{"é":["€", "😀"]}"#
            let expected: JSON = ["é": ["€", "😀"]]
            #expect(try JSONParser.parse(bytes: Array(text.utf8)) == expected)
            #expect(try JSONParser.parse(bytes: text.utf8) == expected)
            #expect(try JSONParser.parse(bytes: Array(text.utf8)[...]) == expected)
            // Not contiguous: the parser copies it first.
            #expect(try JSONParser.parse(bytes: text.utf8.lazy.map { $0 }) == expected)
        }

        @Test("objects with many members in order", arguments: [16, 17, 33, 1000])
        func bigObject(count: Int) throws {
            let text = "{" + (0..<count).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}"
            let value = try JSONParser.parse(text)
            let object = try #require(value.object)
            #expect(object.count == count)
            #expect(object.keys == (0..<count).map { "k\($0)" })
            #expect(object["k\(count - 1)"] == .int(Int64(count - 1)))
            #expect(value.encoded() == text)
        }

        @Test("nesting up to the depth limit", arguments: [1, 2, 100, 512])
        func depthJustUnderLimit(depth: Int) throws {
            let arrays = try JSONParser.parse(nestedArrays(depth), maxDepth: depth)
            let objects = try JSONParser.parse(nestedObjects(depth), maxDepth: depth)
            #expect(arrays.encoded() == nestedArrays(depth))
            #expect(objects.encoded() == nestedObjects(depth))
        }

        @Test("512 levels by default")
        func defaultDepth() throws {
            var value = try JSONParser.parse(nestedArrays(512))
            var levels = 0
            while case .array(let a) = value {
                levels += 1
                value = a[0]
            }
            #expect(levels == 512)
            #expect(value == 1)
        }

        @Test("scalars with a depth limit of zero")
        func zeroDepth() throws {
            #expect(try JSONParser.parse("1", maxDepth: 0) == 1)
        }
    }
}

// MARK: - Parser: rejected documents

extension JSONTests {
    @Suite("JSON parser rejects")
    struct ParserRejects {
        @Test(
            "malformed documents with bad_json",
            arguments: [
                // Empty input.
                "", "   ", "\n\t",
                // Trailing commas and missing separators.
                "[1,]", "{\"a\":1,}", "[,1]", "{,}", "[1 2]", "{\"a\":1 \"b\":2}", "{\"a\" 1}", "[1,,2]",
                // Comments.
                "// c\n1", "/* c */ 1", "[1] // c", "[1 /* c */]", "# c\n1",
                // Quotes and unquoted keys.
                "'a'", "['a']", "{'a':1}", "{a:1}", "{1:1}", "{null:1}",
                // Not JSON numbers.
                "NaN", "Infinity", "-Infinity", "[NaN]", "nan", "inf",
                "01", "-01", "00", "00.5", "01.5", "+1", ".5", "-.5", "1.", "0.", "-0.", "1.e3", "1.e5", "1e", "1e+",
                "1E-", "1e+-1", "-", "--1", "1.5.5", "1..5", "0x10", "1_000", "[00]", "[1.]", "{\"a\":-01}",
                // Strings.
                "\"a\tb\"", "\"a\nb\"", "\"a\u{1}b\"", "\"a\u{1F}\"",
                #""\x""#, #""\'""#, #""\U0041""#, #""\u12""#, #""\u12G4""#, #""\u""#, #""\""#, "\"\\",
                #""\uD800""#, #""\uDC00""#, #""\uD800\u0041""#, #""\uD800x""#, #""\uDBFF\uDBFF""#, #""\uDE00\uD83D""#,
                #""\uD800\""#, "\"abc", "\"",
                // Trailing garbage.
                "1 2", "{} x", "[]]", "{}}", "null null", "\"a\"\"b\"", "1,", "nulll",
                // Bad literals.
                "nul", "tru", "True", "NULL", "fals",
                // Unterminated containers and stray tokens.
                "[", "{", "{\"a\"", "{\"a\":", "{\"a\":1", "[1", "]", "}", ":", ",",
                // A byte order mark is not whitespace.
                "\u{FEFF}1",
                // Duplicate keys and U+0000 in keys.
                "{\"a\":1,\"a\":2}", "{\"a\":1,\"b\":{},\"a\":1}", #"{"a":1,"\u0061":2}"#,
                #"{"\u0000":1}"#, #"{"a\u0000b":1}"#,
                // Integers beyond 64 bits are not clamped or converted.
                "9223372036854775808", "-9223372036854775809", "18446744073709551616", "99999999999999999999999",
                "[1, 100000000000000000000]",
                // Doubles that overflow.
                "1e999", "-1e999", "1.7976931348623159e308", "[1e400]",
            ])
        func malformed(text: String) {
            let error = parseError(text)
            #expect(error?.code == .badJSON, "\(text.debugDescription) gave \(String(describing: error))")
            let fromBytes = parseError(bytes: Array(text.utf8))
            #expect(fromBytes?.code == .badJSON)
        }

        @Test(
            "invalid UTF-8",
            arguments: [
                [0x22, 0xFF, 0x22],  // never valid
                [0x22, 0x80, 0x22],  // lone continuation byte
                [0x22, 0xC0, 0xAF, 0x22],  // overlong '/'
                [0x22, 0xE0, 0x80, 0xAF, 0x22],  // overlong, three bytes
                [0x22, 0xED, 0xA0, 0x80, 0x22],  // encoded surrogate U+D800
                [0x22, 0xE2, 0x82, 0x22],  // truncated '€'
                [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF
                [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22],
                [0x22, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0xC3, 0x22],  // truncated after a long ASCII run
                [0x7B, 0x22, 0xC3, 0x28, 0x22, 0x3A, 0x31, 0x7D],  // in a key
                [0x22, 0x5C, 0x6E, 0xFF, 0x22],  // after an escape
                [0xFF],  // outside a string
                [0xC3, 0xA9],
            ] as [[UInt8]])
        func invalidUTF8(bytes: [UInt8]) {
            let error = parseError(bytes: bytes)
            #expect(error?.code == .badJSON)
        }

        @Test(
            "integers just past the 64-bit boundaries",
            arguments: ["9223372036854775808", "-9223372036854775809"])
        func integerJustPastBoundary(text: String) {
            let error = parseError(text)
            #expect(error == CanopyError(.badJSON, "integer out of 64-bit range at offset 0"))
        }

        @Test("nesting one level deeper than the limit", arguments: [1, 2, 100, 512])
        func depthJustOverLimit(depth: Int) {
            for text in [nestedArrays(depth + 1), nestedObjects(depth + 1)] {
                let error = parseError(text, maxDepth: depth)
                #expect(error?.code == .badJSON)
                #expect(error?.message.hasPrefix("nesting deeper than \(depth) at offset") == true)
            }
        }

        @Test("empty containers count as a level")
        func emptyContainersCount() {
            #expect(parseError("[[[]]]", maxDepth: 2)?.code == .badJSON)
            #expect(parseError("[[{}]]", maxDepth: 2)?.code == .badJSON)
            #expect(parseError("[[{}]]", maxDepth: 3) == nil)
            #expect(parseError("[]", maxDepth: 0)?.code == .badJSON)
        }

        @Test("very deep nesting with an error, not a crash")
        func veryDeep() {
            let text = String(repeating: "[", count: 200_000)
            #expect(parseError(text)?.code == .badJSON)
            let huge = parseError(text + "]", maxDepth: 1_000_000)
            #expect(huge?.code == .badJSON)
        }

        @Test("a duplicate key in a big object", arguments: [17, 100])
        func duplicateInBigObject(count: Int) {
            let members = (0..<count).map { "\"k\($0)\":\($0)" } + ["\"k12\":0"]
            let text = "{" + members.joined(separator: ",") + "}"
            let error = parseError(text)
            #expect(error?.code == .badJSON)
            #expect(error?.message.hasPrefix("duplicate key \"k12\" at offset") == true)
        }

        @Test("keys that Swift considers equal (canonically equivalent) as duplicates, as JSONObject would merge them")
        func canonicallyEquivalentKeys() {
            let error = parseError("{\"\u{E9}\":1,\"e\u{301}\":2}")
            #expect(error?.code == .badJSON)
        }

        @Test(
            "with messages that say what and where",
            arguments: [
                ("{\"a\":1,\"a\":2}", "duplicate key \"a\" at offset 7"),
                ("[1,]", "unexpected ']' at offset 3, expected a value"),
                ("[1 2]", "unexpected '2' at offset 3, expected ',' or ']'"),
                ("{\"a\":1,}", "unexpected '}' at offset 7, expected a string key"),
                ("01", "leading zero in number at offset 0"),
                ("[1e999]", "number out of range at offset 1"),
                ("{} x", "unexpected 'x' after the top-level value at offset 3"),
                ("", "empty input"),
                (" ", "empty input"),
                ("[", "unexpected end of input at offset 1, expected a value"),
                ("\"ab", "unterminated string starting at offset 0"),
                ("\"a\tb\"", "unescaped control character 0x09 in string at offset 2"),
                (#"["\q"]"#, "invalid escape \\q at offset 2"),
                (#""\uD800""#, "unpaired high surrogate \\uD800 at offset 1"),
                (#""x\uDC00""#, "unpaired low surrogate \\uDC00 at offset 2"),
                (#"{"\u0000":1}"#, "key contains U+0000 at offset 2"),
                ("[nul]", "invalid literal at offset 1, expected null"),
                ("[+1]", "unexpected '+' at offset 1, expected a value"),
                ("1.x", "unexpected 'x' at offset 2, expected a digit after '.'"),
                ("1eE", "unexpected 'E' at offset 2, expected a digit in the exponent"),
                ("[NaN]", "unexpected word \"NaN\" at offset 1, expected a value"),
                ("{\"a\":undefined}", "unexpected word \"undefined\" at offset 5, expected a value"),
                ("{'a':1}", "unexpected single quote (strings and keys take double quotes) at offset 1, expected a string key"),
            ])
        func messages(text: String, message: String) {
            let error = parseError(text)
            #expect(error == CanopyError(.badJSON, message))
        }

        @Test(
            "invalid UTF-8 with what is wrong and the offset where the bad sequence starts",
            arguments: [
                ([0x5B, 0x22, 0x61, 0xC3, 0x28, 0x22, 0x5D], "offset 3: truncated sequence (0xC3 0x28)"),
                ([0x22, 0xED, 0xA0, 0x80, 0x22], "offset 1: UTF-16 surrogate encoded in UTF-8 (0xED 0xA0 0x80)"),
                ([0x22, 0xED, 0xBF, 0xBF, 0x22], "offset 1: UTF-16 surrogate encoded in UTF-8 (0xED 0xBF 0xBF)"),
                ([0x22, 0xC0, 0xAF, 0x22], "offset 1: overlong encoding (0xC0 0xAF)"),
                ([0x22, 0xC1, 0xBF, 0x22], "offset 1: overlong encoding (0xC1 0xBF)"),
                ([0x22, 0xE0, 0x80, 0xAF, 0x22], "offset 1: overlong encoding (0xE0 0x80 0xAF)"),
                ([0x22, 0xF0, 0x80, 0x80, 0xAF, 0x22], "offset 1: overlong encoding (0xF0 0x80 0x80 0xAF)"),
                ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], "offset 1: code point above U+10FFFF (0xF4 0x90 0x80 0x80)"),
                ([0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], "offset 1: code point above U+10FFFF (0xF5 0x80 0x80 0x80)"),
                ([0x22, 0x61, 0xE2, 0x82, 0x22], "offset 2: truncated sequence (0xE2 0x82 0x22)"),
                ([0x22, 0xF0, 0x9F, 0x98, 0x22], "offset 1: truncated sequence (0xF0 0x9F 0x98 0x22)"),
                ([0x22, 0x80, 0x22], "offset 1: stray continuation byte (0x80)"),
                ([0x22, 0xC3, 0xA9, 0xA9, 0x22], "offset 3: stray continuation byte (0xA9)"),
                ([0x22, 0xFF, 0x22], "offset 1: byte that never occurs in UTF-8 (0xFF)"),
                ([0x7B, 0x22, 0x6B, 0xC3, 0x22, 0x3A, 0x31, 0x7D], "offset 3: truncated sequence (0xC3 0x22)"),
                ([0x22, 0x5C, 0x6E, 0xFE, 0x22], "offset 3: byte that never occurs in UTF-8 (0xFE)"),
            ] as [([UInt8], String)])
        func invalidUTF8Message(bytes: [UInt8], message: String) {
            #expect(parseError(bytes: bytes) == CanopyError(.badJSON, "invalid UTF-8 at " + message))
        }

        @Test("valid UTF-8 at the edges of every range")
        func validUTF8Edges() throws {
            // U+0080, U+07FF, U+0800, U+D7FF, U+E000, U+FFFF, U+10000, U+10FFFF
            let bytes: [UInt8] =
                [0x22, 0xC2, 0x80, 0xDF, 0xBF, 0xE0, 0xA0, 0x80, 0xED, 0x9F, 0xBF, 0xEE, 0x80, 0x80]
                + [0xEF, 0xBF, 0xBF, 0xF0, 0x90, 0x80, 0x80, 0xF4, 0x8F, 0xBF, 0xBF, 0x22]
            let expected = "\u{80}\u{7FF}\u{800}\u{D7FF}\u{E000}\u{FFFF}\u{10000}\u{10FFFF}"
            #expect(try JSONParser.parse(bytes: bytes) == .string(expected))
        }
    }
}
