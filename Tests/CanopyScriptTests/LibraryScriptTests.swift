import CanopyCore
import Testing

@testable import CanopyScript

/// Runs `body` as `func f() -> type` and returns its result as JSON text.
func run(_ type: String, _ body: String, helpers: String = "") throws -> String {
    let s = try Script.compile("\(helpers)\nfunc f() -> \(type) {\n\(body)\n}")
    return try s.call("f").encoded()
}

/// The message of the fault `body` raises when run.
func runFault(_ type: String, _ body: String) throws -> String? {
    let s = try Script.compile("func f() -> \(type) {\n\(body)\n}")
    do {
        _ = try s.call("f")
        return nil
    } catch {
        return error.message
    }
}

/// The compile error of `body` as `func f() -> type`, or nil when it compiles.
func compileError(_ type: String, _ body: String) -> String? {
    do {
        _ = try Script.compile("func f() -> \(type) {\n\(body)\n}")
        return nil
    } catch {
        return error.description
    }
}

@Suite struct LibraryScriptTests {
    @Test func arrays() throws {
        #expect(try run("[Int]", "var a = [3, 1, 2]; a.append(5); a.insert(0, at: 0); a.sort(); return a")
            == "[0,1,2,3,5]")
        #expect(try run("[Int]", "return [1, 2, 3, 4].filter { $0 % 2 == 0 }.map { $0 * 10 }") == "[20,40]")
        #expect(try run("Int", "return [1, 2, 3].reduce(0, +)") == "6")
        #expect(try run("Int", "return [1, 2, 3].reduce(0) { $0 + $1 * $1 }") == "14")
        #expect(try run("[Int]", "return [\"1\", \"x\", \"3\"].compactMap { Int($0) }") == "[1,3]")
        #expect(try run("[Int]", "var a = [5, 6, 7]; let x = a.remove(at: 1); a.append(x); return a") == "[5,7,6]")
        #expect(try run("Int?", "return [4, 5, 6].firstIndex(of: 5)") == "1")
        #expect(try run("Int?", "return [4, 5, 6].first { $0 > 4 }") == "5")
        #expect(try run("Bool", "return [1, 2].contains(2) && ![1, 2].contains(where: { $0 > 5 })") == "true")
        #expect(try run("[Int]", "return [3, 1, 2].sorted(by: >)") == "[3,2,1]")
        #expect(try run("[Int]", "return [3, 1, 2].sorted { $0 > $1 }") == "[3,2,1]")
        #expect(try run("String", "return [\"a\", \"b\"].joined(separator: \", \")") == "\"a, b\"")
        #expect(try run("Int", "var t = 0; for (i, x) in [10, 20].enumerated() { t += i * x }; return t") == "20")
        #expect(try run("[Int]", "return Array([1, 2, 3].reversed())") == "[3,2,1]")
        #expect(try run("Int?", "return [7, 2, 9].max()") == "9")
        #expect(try run("[Int]", "var a = [1, 2, 3, 4]; a.removeAll { $0 > 2 }; return a") == "[1,2]")
        #expect(try run("Int", "return [1, 2, 3].indices.count") == "3")
        // A trailing closure picks the member that takes a closure there.
        #expect(try run("Bool", "return [1, 5].contains { $0 > 3 }") == "true")
        #expect(try run("Int?", "return [1, 5].firstIndex { $0 > 3 }") == "1")
        #expect(try run("[Int]", "return Array([1, 2, 5, 1].prefix { $0 < 3 })") == "[1,2]")
        // A slice's indices are its base array's: what depends on them is refused, not answered from 0.
        #expect(compileError("[Int]", "let s = [1, 2, 3][1...]; return [s[1]]")?.contains("ArraySlice") == true)
        #expect(compileError("Int", "return [1, 2, 3].dropFirst().indices.count")?.contains("ArraySlice") == true)
        #expect(compileError("[Int]", "return [1, 2, 3].dropFirst()")?.contains("'ArraySlice<Int>'") == true)
        #expect(try run("Int?", "return [\"a\", \"bbb\"].map { $0.count }.max { $0 < $1 }") == "3")
    }

    @Test func keyPathsAsClosures() throws {
        let helpers = "struct Item { var name: String; var size: Double }"
        #expect(try run("[String]", "return [Item(name: \"a\", size: 2), Item(name: \"b\", size: 1)].map(\\.name)",
                        helpers: helpers) == "[\"a\",\"b\"]")
        #expect(try run("[String]", """
            let items = [Item(name: "a", size: 2), Item(name: "b", size: 1)]
            return items.sorted { $0.size < $1.size }.map { $0.name }
            """, helpers: helpers) == "[\"b\",\"a\"]")
    }

    @Test func reduceIntoWritesBack() throws {
        #expect(try run("[Int]", "return [1, 2, 3].reduce(into: [Int]()) { acc, x in acc.append(x * 2) }")
            == "[2,4,6]")
        #expect(try run("Int", "return [1, 2, 3].reduce(into: 0) { $0 += $1 }") == "6")
        // `d[k, default: 0] += 1` keeps the key where it was first inserted.
        #expect(try run("[String: Int]", "return [\"a\", \"b\", \"a\"].reduce(into: [:]) { $0[$1, default: 0] += 1 }")
            == "{\"a\":2,\"b\":1}")
    }

    @Test func dictionaries() throws {
        #expect(try run("[String: Int]", """
            var d = ["a": 1, "b": 2]
            d.merge(["b": 5, "c": 3]) { old, new in max(old, new) }
            return d
            """) == "{\"a\":1,\"b\":5,\"c\":3}")
        #expect(try run("[String: Int]", "return [\"a\": 1].merging([\"a\": 2], uniquingKeysWith: max)")
            == "{\"a\":2}")
        #expect(try run("[String: Int]", "return [\"a\": 1, \"b\": 2].mapValues { $0 * 10 }")
            == "{\"a\":10,\"b\":20}")
        #expect(try run("[String]", "return [\"b\": 1, \"a\": 2].keys.sorted()") == "[\"a\",\"b\"]")
        #expect(try run("Int", "var t = 0; [\"a\": 1, \"b\": 2].forEach { k, v in t += v }; return t") == "3")
        #expect(try run("[String]", "return [\"a\": 1, \"b\": 2].sorted { $0.value > $1.value }.map { $0.key }")
            == "[\"b\",\"a\"]")
        #expect(try run("Int?", "var d = [\"a\": 1]; let old = d.removeValue(forKey: \"a\"); return old") == "1")
        #expect(try run("[String: Int]", "return [\"a\": 1, \"b\": 2].filter { $0.value > 1 }") == "{\"b\":2}")
        #expect(try run("[Int: [Int]]", "return Dictionary(grouping: [1, 2, 3]) { $0 % 2 }")
            == "{\"1\":[1,3],\"0\":[2]}")
        #expect(try run("[String: Int]", "return Dictionary(uniqueKeysWithValues: [(\"x\", 1), (\"y\", 2)])")
            == "{\"x\":1,\"y\":2}")
    }

    @Test func strings() throws {
        #expect(try run("Int", "return \"héllo\".count") == "5")
        #expect(try run("Bool", "return \"hello\".contains(\"ell\") && \"hello\".hasPrefix(\"he\")") == "true")
        #expect(try run("String", "return \"Hello\".uppercased() + \"Hello\".lowercased()") == "\"HELLOhello\"")
        #expect(try run("[String]", "return \"a,b,,c\".split(separator: \",\").map { String($0) }")
            == "[\"a\",\"b\",\"c\"]")
        #expect(try run("String", "return String(\"abc\".reversed())") == "\"cba\"")
        #expect(try run("String?", "return \"abc\".first.map { String($0) }") == "\"a\"")
        #expect(try run("String", "return String(\"abcdef\".prefix(2)) + String(\"abcdef\".dropFirst(4))")
            == "\"abef\"")
        #expect(try run("String", "return \"a-b\".replacingOccurrences(of: \"-\", with: \"+\")") == "\"a+b\"")
        #expect(try run("String", "return \"  x \".trimmingCharacters(in: .whitespaces)") == "\"x\"")
        #expect(try run("String", "return String(repeating: \"ab\", count: 2) + String(42)") == "\"abab42\"")
    }

    @Test func charactersAndWalks() throws {
        #expect(try run("String", "return \"a1b2\".filter { $0.isLetter } + \"A\".lowercased()") == "\"aba\"")
        #expect(try run("[Int]", "return \"x4y2\".compactMap { $0.wholeNumberValue }") == "[4,2]")
        #expect(try run("[String]", "return \"a1b22c\".split { $0.isNumber }.map { String($0) }")
            == "[\"a\",\"b\",\"c\"]")
        #expect(try run("String", "return String(\"--x-\".drop { $0 == \"-\" }) + String(\"ab-c\".prefix { $0 != \"-\" })")
            == "\"x-ab\"")
        #expect(try run("String", "var s = \"a-b-c\"; s.removeAll { $0 == \"-\" }; return s") == "\"abc\"")
        // A program's own extension property of the same name shadows the library's, as in Swift.
        #expect(try run("Bool", "return \"123\".isNumber && !\"12a\".isNumber",
                        helpers: "extension String { var isNumber: Bool { Int(self) != nil } }") == "true")
        #expect(try runFault("Bool", "return \"ab\".isLetter")
            == "'isLetter' is a member of Character, and \"ab\" is 2 characters, not one")
    }

    @Test func numbers() throws {
        #expect(try run("Int", "return Int(3.7) + Int(\"4\")! + abs(-2)") == "9")
        #expect(try run("Double", "return Double(3) / 2") == "1.5")
        #expect(try run("Double", "let x: CGFloat = 2.5; return x.rounded()") == "3")
        #expect(try run("Double", "let x: CGFloat = 2.1; return x.rounded(.up)") == "3")
        #expect(try run("Bool", "let x: CGFloat = 0; return x.isZero && 6.isMultiple(of: 3)") == "true")
        #expect(try run("Double", "return (16.0).squareRoot()") == "4")
        #expect(try run("Double", "return max(1.5, 2, 0.5)") == "2")
        #expect(try run("Int", "return min(4, 2, 8, 3)") == "2")
        #expect(try run("[Int]", "return stride(from: 0, to: 10, by: 4).map { $0 }") == "[0,4,8]")
        #expect(try run("Int", "var t = 0; for x in stride(from: 3, through: 1, by: -1) { t = t * 10 + x }; return t")
            == "321")
        #expect(try run("[Int]", "return zip([1, 2], [10, 20]).map { $0 + $1 }") == "[11,22]")
        #expect(try run("Int", "return Int.max / Int.max + Int.zero") == "1")
        #expect(try run("Double", "return CGFloat.zero + Double.pi * 0") == "0")
        #expect(try run("Int", "var x = 5; x.negate(); return x + 7.nonzeroBitCount + 3.distance(to: 10)") == "5")
        #expect(try run("Bool", "return Int.max.multipliedReportingOverflow(by: 2).overflow") == "true")
        #expect(try run("String", "return true.description + false.description") == "\"truefalse\"")
        #expect(try run("[Int]", "var a = [1, 2, 3, 4]; a.removeSubrange(1..<3); a.replaceSubrange(0...0, with: [9, 8]); return a")
            == "[9,8,4]")
        #expect(try run("[Int]", "return Array([1, 2, 3].prefix(upTo: 1) + [5, 6].suffix(from: 1))") == "[1,6]")
        #expect(try run("Int", "let d = Dictionary([(\"a\", 1), (\"a\", 2)]) { $0 + $1 }; return d[\"a\"]!") == "3")
        #expect(try run("Bool", "let x: Int? = Optional<Int>.none; return x == nil") == "true")
        #expect(try run("Int", "precondition(true, \"ok\"); print(\"discarded\"); return 1") == "1")
    }

    @Test func setsAndRanges() throws {
        #expect(try run("[Int]", "var s = Set([3, 1]); s.insert(2); s.insert(3); return s.sorted()") == "[1,2,3]")
        #expect(try run("Bool", "var s = Set<Int>(); return s.insert(1).inserted && !s.insert(1).inserted") == "true")
        #expect(try run("[Int]", "return Set([1, 2, 3]).union([4]).subtracting([1]).sorted()") == "[2,3,4]")
        #expect(try run("Bool", "return Set([1]).isSubset(of: Set([1, 2]))") == "true")
        #expect(try run("[Int]", "return (1...3).map { $0 * $0 }") == "[1,4,9]")
        #expect(try run("Int", "return (0..<5).count + (2..<4).lowerBound") == "7")
        #expect(try run("Bool", "return (0.0...1.0).contains(0.5) && !(0..<3).contains(3)") == "true")
        #expect(try run("[Int]", "return (0..<4).reversed()") == "[3,2,1,0]")
    }

    @Test func traps() throws {
        #expect(try runFault("Int", "var a = [1]; return a.remove(at: 3)") == "Index out of range")
        #expect(try runFault("Int", "var a: [Int] = []; return a.removeLast()")
            == "Can't remove last element from an empty collection")
        #expect(try runFault("Int", "return Int(Double.infinity)")
            == "Double value cannot be converted to Int because it is either infinite or NaN")
        #expect(try runFault("Int", "precondition(1 > 2, \"bad\"); return 0") == "Precondition failed: bad")
        #expect(try runFault("Int", "return abs(Int.min)") == "arithmetic overflow")
        #expect(try runFault("[String: Int]", "return Dictionary(uniqueKeysWithValues: [(\"a\", 1), (\"a\", 2)])")
            == "Fatal error: Duplicate values for key: 'a'")
    }
}

