import CanopyCore
import Testing

/// Messages are parsed as exactly strict JSON; everything else is `bad_json` (including what json-c, the daemon's
/// former message parser, let through). `JSONAgreementTests` holds every entry point of `JSONParser` to one result.
@Suite struct MessageParsingTests {
    @Test func parsesValuesWithExactTypesAndKeyOrder() throws {
        let v = try JSONParser.parse(#"{"b":1,"a":[true,false,null,1.5,-7,"x\u00e9\n"],"c":{"d":9223372036854775807}}"#)
        let expected: JSON = ["b": 1, "a": [true, false, .null, 1.5, -7, "x\u{e9}\n"], "c": ["d": .int(Int64.max)]]
        #expect(v == expected)
        #expect(v.object?.keys == ["b", "a", "c"])
    }

    @Test(arguments: ["null", "0", "-0.25", "\"s\"", "[]", "{}", " true "])
    func acceptsTopLevelScalarsAndEmptyContainers(_ text: String) throws {
        _ = try JSONParser.parse(text)
    }

    @Test func keepsStringsWithEmbeddedNULs() throws {
        #expect(try JSONParser.parse(#"["a\u0000b"]"#) == ["a\u{0}b"])
    }

    @Test func acceptsTheExtremeIntegers() throws {
        #expect(try JSONParser.parse("[-9223372036854775808, 9223372036854775807]") == [.int(Int64.min), .int(Int64.max)])
    }

    @Test(arguments: [
        ("", "empty"),
        ("NaN", "NaN"),
        ("[Infinity]", "Infinity"),
        ("[-Infinity]", "Infinity"),
        ("{'a':1}", "single quote"),
        ("{\"a\":1,\"a\":2}", "duplicate key"),
        ("{\"x\":{\"a\":1,\"b\":{},\"a\":3}}", "duplicate key"),
        ("[9223372036854775808]", "64-bit"),
        ("[-9223372036854775809]", "64-bit"),
        ("[123456789012345678901234567890]", "64-bit"),
        ("{\"a\\u0000b\":1}", "U+0000"),
        ("[1,]", ""),
        ("{\"a\":1}x", ""),
        ("[1] [2]", ""),
        ("{\"a\" 1}", ""),
        ("[\"\u{1}\"]", ""),
        ("tru", ""),
        ("[1e999]", ""),
        ("{\"\u{E9}\":1,\"e\u{301}\":2}", "duplicate key"),
    ])
    func rejectsWithBadJSON(_ text: String, _ fragment: String) {
        do {
            let v = try JSONParser.parse(text)
            Issue.record("accepted \(text) as \(v)")
        } catch {
            #expect(error.code == .badJSON)
            #expect(fragment.isEmpty || error.message.contains(fragment), "message: \(error.message)")
        }
    }

    @Test func rejectsInvalidUTF8() {
        let bytes: [UInt8] = [0x5B, 0x22, 0xC3, 0x28, 0x22, 0x5D]  // ["\xC3("]
        let result = bytes.withUnsafeBytes { b in Result { () throws(CanopyError) -> JSON in try JSONParser.parse(bytes: b.bindMemory(to: UInt8.self), maxDepth: 8) } }
        #expect(throws: CanopyError(.badJSON, "invalid UTF-8 at offset 2: truncated sequence (0xC3 0x28)")) {
            try result.get()
        }
    }

    @Test func enforcesTheDepthLimitExactly() throws {
        let ok = String(repeating: "[", count: 8) + String(repeating: "]", count: 8)
        _ = try JSONParser.parse(ok, maxDepth: 8)
        let deep = String(repeating: "[", count: 9) + String(repeating: "]", count: 9)
        #expect {
            try JSONParser.parse(deep, maxDepth: 8)
        } throws: { error in
            (error as? CanopyError)?.code == .badJSON && (error as? CanopyError)?.message.contains("deeper") == true
        }
    }

    @Test func agreesWithTheCoreParserOnRandomDocuments() throws {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<300 {
            let v = randomValue(&rng, depth: 4)
            let text = v.encoded()
            #expect(try JSONParser.parse(text) == v)
            #expect(try JSONParser.parse(text) == JSONParser.parse(text))
        }
    }

    private func randomValue(_ rng: inout SplitMix64, depth: Int) -> JSON {
        switch Int(rng.next() % (depth > 0 ? 8 : 6)) {
        case 0: return .null
        case 1: return .bool(rng.next() % 2 == 0)
        case 2: return .int(Int64(bitPattern: rng.next()))
        case 3: return .double(Double(Int64(bitPattern: rng.next() >> 11)) / 1024)
        case 4, 5: return .string(["", "a", "é\"\\\n", "日本", "\u{1F600}", "k\(rng.next() % 100)"][Int(rng.next() % 6)])
        case 6: return .array((0..<Int(rng.next() % 4)).map { _ in randomValue(&rng, depth: depth - 1) })
        default:
            var o = JSONObject()
            for i in 0..<Int(rng.next() % 4) { o["k\(i)"] = randomValue(&rng, depth: depth - 1) }
            return .object(o)
        }
    }
}
