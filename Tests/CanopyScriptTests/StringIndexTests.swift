import CanopyCore
import Testing

@testable import CanopyScript

/// `String.Index` (StringIndexPrelude): walking, slicing and editing a string by index, the traps Swift has, and
/// what stays refused (printing an index, an index used with another string, a scalar's `value`).
@Suite struct StringIndexTests {
    @Test func walking() throws {
        #expect(try run("String", "let s = \"héllo\"; return String(s[s.index(after: s.startIndex)])") == "\"é\"")
        #expect(try run("Int", "let s = \"héllo\"; return s.distance(from: s.startIndex, to: s.endIndex)") == "5")
        #expect(try run("Bool", "let s = \"ab\"; return s.startIndex < s.endIndex && s.index(s.endIndex, offsetBy: -2) == s.startIndex")
            == "true")
        #expect(try run("Bool", "let s = \"ab\"; return s.index(s.startIndex, offsetBy: 3, limitedBy: s.endIndex) == nil")
            == "true")
        #expect(try run("Int", "let s = \"banana\"; return s.indices.filter { s[$0] == \"a\" }.count") == "3")
        #expect(try run("Int?", "let s = \"banana\"; return s.lastIndex(of: \"n\").map { s.distance(from: s.startIndex, to: $0) }")
            == "4")
        #expect(try run("String", "let s = \"a,b\"; let i: String.Index = s.firstIndex(where: { $0 == \",\" })!; return String(s[..<i]) + String(s[i...])")
            == "\"a,b\"")
    }

    @Test func editing() throws {
        #expect(try run("String", "var s = \"hello\"; _ = s.remove(at: s.startIndex); s.insert(\"J\", at: s.startIndex); return s")
            == "\"Jello\"")
        #expect(try run("String", "var s = \"hello\"; s.replaceSubrange(s.startIndex..<s.index(after: s.startIndex), with: \"y\"); return s")
            == "\"yello\"")
        #expect(try run("String", "var s = \"hello\"; s.removeSubrange(s.index(after: s.startIndex)...); return s") == "\"h\"")
    }

    @Test func traps() throws {
        #expect(try runFault("String", "let s = \"ab\"; return String(s[s.endIndex])") == "String index is out of bounds")
        #expect(try runFault("String", "let s = \"ab\"; return String(s[s.index(after: s.endIndex)])")
            == "String index is out of bounds")
        #expect(try runFault("String", "let s = \"ab\"; return String(s[s.endIndex..<s.startIndex])")
            == "Range requires lowerBound <= upperBound")
    }

    @Test func refused() throws {
        let foreign = try runFault("String", "let s = \"ab\"; let t = \"xy\"; return String(t[s.startIndex])")
        #expect(foreign?.contains("another string than the one it came from") == true)
        let changed = try runFault("String", "var s = \"ab\"; let i = s.startIndex; s.append(\"c\"); return String(s[i])")
        #expect(changed?.contains("another string than the one it came from") == true)
        let printed = try runFault("String", "let s = \"ab\"; return \"\\(s.startIndex)\"")
        #expect(printed?.contains("printing a String.Index is not part of Canopy's Swift subset") == true)
        for shown in ["String(describing: [s.startIndex])", "\"\\(s.firstIndex(of: \"b\"))\"", "\"\\(s.startIndex..<s.endIndex)\"",
                      "\"\\(type(of: s.startIndex))\""] {
            let fault = try runFault("String", "let s = \"ab\"; return \(shown)")
            #expect(fault?.contains("not part of Canopy's Swift subset") == true, "\(shown)")
        }
        #expect(compileError("Int", "let s = \"ab\"; return s.startIndex + 1") != nil)
        #expect(compileError("Int", "let s = \"ab\"; return s.startIndex.utf16Offset(in: s)")?.contains("utf16Offset") == true)
        #expect(compileError("Int", "return \"ab\".unicodeScalars.map { $0.value }.count")?.contains("UInt32") == true)
    }
}
