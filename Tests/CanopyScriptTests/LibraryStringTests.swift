@testable import CanopyScript
import Testing

@Suite struct LibraryStringTests {
    let l = Lib()

    @Test func queries() throws {
        let s = Value.string("Héllo, world")
        #expect(try l.get(s, "count") == .int(12))
        #expect(try l.get(.string("🇫🇷e\u{301}"), "count") == .int(2))
        #expect(try l.get(.string(""), "isEmpty") == .bool(true))
        #expect(try l.get(s, "isEmpty") == .bool(false))
        #expect(try l.call(s, "contains", [nil], [.string("lo, w")]) == .bool(true))
        #expect(try l.call(s, "contains", [nil], [.string("xyz")]) == .bool(false))
        #expect(try l.call(s, "hasPrefix", [nil], [.string("Hé")]) == .bool(true))
        #expect(try l.call(s, "hasSuffix", [nil], [.string("world")]) == .bool(true))
        #expect(try l.call(s, "hasSuffix", [nil], [.string("World")]) == .bool(false))
        #expect(try l.call(s, "uppercased") == .string("HÉLLO, WORLD"))
        #expect(try l.call(.string("ÀB"), "lowercased") == .string("àb"))
        #expect(try l.get(s, "first") == .string("H"))
        #expect(try l.get(s, "last") == .string("d"))
        #expect(try l.get(.string(""), "first") == .null)
        #expect(try l.call(.string("abc"), "reversed") == .string("cba"))
        let isL = closure { a in .bool(a[0] == .string("l")) }
        #expect(try l.call(s, "contains", ["where"], [isL]) == .bool(true))
        #expect(try l.call(s, "count", ["where"], [isL]) == .int(3))
        #expect(try l.call(.string("hello"), "filter", [nil], [closure { a in .bool(a[0] != .string("l")) }])
            == .string("heo"))
        #expect(try l.call(.string("ab"), "map", [nil], [closure { a in a[0] }]) == strings(["a", "b"]))
        #expect(try l.call(.string("bca"), "sorted") == strings(["a", "b", "c"]))
    }

    @Test func slices() throws {
        let s = Value.string("abcdef")
        #expect(try l.call(s, "dropFirst") == .string("bcdef"))
        #expect(try l.call(s, "dropFirst", [nil], [.int(2)]) == .string("cdef"))
        #expect(try l.call(s, "dropLast") == .string("abcde"))
        #expect(try l.call(s, "prefix", [nil], [.int(3)]) == .string("abc"))
        #expect(try l.call(s, "suffix", [nil], [.int(2)]) == .string("ef"))
        #expect(try l.call(s, "prefix", [nil], [.int(10)]) == s)
        #expect(l.fault { l throws(ScriptFault) in try l.call(s, "suffix", [nil], [.int(-1)]) }
            == "Can't take a suffix of negative length from a collection")
    }

    @Test func splitting() throws {
        #expect(try l.call(.string(",a,,b,"), "split", ["separator"], [.string(",")]) == strings(["a", "b"]))
        #expect(try l.call(.string("a--b----c"), "split", ["separator"], [.string("--")]) == strings(["a", "b", "c"]))
        #expect(try l.call(.string("a,,b"), "split", ["separator", "omittingEmptySubsequences"],
                           [.string(","), .bool(false)]) == strings(["a", "", "b"]))
        #expect(try l.call(.string("a b c"), "split", ["separator", "maxSplits"], [.string(" "), .int(1)])
            == strings(["a", "b c"]))
        #expect(try l.call(.string(",a,,b"), "components", ["separatedBy"], [.string(",")])
            == strings(["", "a", "", "b"]))
        #expect(try l.call(.string("a<>b"), "components", ["separatedBy"], [.string("<>")]) == strings(["a", "b"]))
        #expect(try l.call(.string("a.b.c"), "replacingOccurrences", ["of", "with"], [.string("."), .string("::")])
            == .string("a::b::c"))
        #expect(try l.call(.string("abc"), "replacingOccurrences", ["of", "with"], [.string(""), .string("x")])
            == .string("abc"))
        #expect(try l.call(.string(" \t hi there \n"), "trimmingCharacters", ["in"], [.string("whitespaces")])
            == .string("hi there \n"))
        #expect(try l.call(.string(" \t hi there \n"), "trimmingCharacters", ["in"],
                           [.string("whitespacesAndNewlines")]) == .string("hi there"))
    }

    @Test func mutations() throws {
        var s = Value.string("ab")
        _ = try l.mutate(&s, "append", [nil], [.string("c")])
        _ = try l.mutate(&s, "append", ["contentsOf"], [.string("de")])
        #expect(s == .string("abcde"))
        #expect(try l.mutate(&s, "removeLast") == .string("e"))
        #expect(try l.mutate(&s, "removeFirst") == .string("a"))
        #expect(s == .string("bcd"))
        #expect(l.fault { l throws(ScriptFault) in
            var e = Value.string("")
            return try l.mutate(&e, "removeLast")
        } == "Can't remove last element from an empty collection")
    }

    @Test func characterProperties() throws {
        #expect(try l.get(.string("é"), "isLetter") == .bool(true))
        #expect(try l.get(.string("é"), "isLowercase") == .bool(true))
        #expect(try l.get(.string("É"), "isUppercase") == .bool(true))
        #expect(try l.get(.string("é"), "isASCII") == .bool(false))
        #expect(try l.get(.string("½"), "isNumber") == .bool(true))
        #expect(try l.get(.string("½"), "isWholeNumber") == .bool(false))
        #expect(try l.get(.string("\t"), "isWhitespace") == .bool(true))
        #expect(try l.get(.string("\n"), "isNewline") == .bool(true))
        #expect(try l.get(.string("!"), "isPunctuation") == .bool(true))
        #expect(try l.get(.string("+"), "isMathSymbol") == .bool(true))
        #expect(try l.get(.string("€"), "isCurrencySymbol") == .bool(true))
        #expect(try l.get(.string("f"), "isHexDigit") == .bool(true))
        // A decomposed `é` is one character of two scalars.
        #expect(try l.get(.string("e\u{301}"), "isLetter") == .bool(true))
        #expect(try l.get(.string("7"), "wholeNumberValue") == .int(7))
        #expect(try l.get(.string("٣"), "wholeNumberValue") == .int(3))
        #expect(try l.get(.string("x"), "wholeNumberValue") == .null)
        #expect(try l.get(.string("F"), "hexDigitValue") == .int(15))
        #expect(l.fault { l throws(ScriptFault) in try l.get(.string("ab"), "isLetter") }
            == "'isLetter' is a member of Character, and \"ab\" is 2 characters, not one")
        #expect(l.fault { l throws(ScriptFault) in try l.get(.string(""), "isNumber") }
            == "'isNumber' is a member of Character, and \"\" is 0 characters, not one")
        #expect(try l.type("Character", "init(_:)", [.string("e\u{301}")]) == .string("e\u{301}"))
        #expect(l.fault { l throws(ScriptFault) in try l.type("Character", "init(_:)", [.string("ab")]) }
            == "Can't form a Character from a String containing more than one extended grapheme cluster")
        #expect(l.fault { l throws(ScriptFault) in try l.type("Character", "init(_:)", [.string("")]) }
            == "Can't form a Character from an empty String")
    }

    @Test func walksWithClosures() throws {
        let s = Value.string("ab cd  ef")
        let isSpace = closure { a in .bool(a[0] == .string(" ")) }
        let notSpace = closure { a in .bool(a[0] != .string(" ")) }
        #expect(try l.call(s, "prefix", ["while"], [notSpace]) == .string("ab"))
        #expect(try l.call(s, "drop", ["while"], [notSpace]) == .string(" cd  ef"))
        #expect(try l.call(s, "drop", ["while"], [closure { _ in .bool(true) }]) == .string(""))
        #expect(try l.call(s, "last", ["where"], [isSpace]) == .string(" "))
        #expect(try l.call(s, "last", ["where"], [closure { _ in .bool(false) }]) == .null)
        #expect(try l.call(s, "split", ["whereSeparator"], [isSpace]) == strings(["ab", "cd", "ef"]))
        #expect(try l.call(s, "split", ["omittingEmptySubsequences", "whereSeparator"], [.bool(false), isSpace])
            == strings(["ab", "cd", "", "ef"]))
        #expect(try l.call(s, "split", ["maxSplits", "whereSeparator"], [.int(1), isSpace]) == strings(["ab", "cd  ef"]))
        #expect(try l.call(.string(" a"), "split", ["maxSplits", "omittingEmptySubsequences", "whereSeparator"],
                           [.int(1), .bool(false), isSpace]) == strings(["", "a"]))
        #expect(try l.call(.string(""), "split", ["whereSeparator"], [isSpace]) == strings([]))
        #expect(try l.call(.string(""), "split", ["omittingEmptySubsequences", "whereSeparator"], [.bool(false), isSpace])
            == strings([""]))
        #expect(try l.call(s, "split", ["maxSplits", "whereSeparator"], [.int(0), isSpace]) == strings(["ab cd  ef"]))
        #expect(l.fault { l throws(ScriptFault) in try l.call(s, "split", ["maxSplits", "whereSeparator"], [.int(-1), isSpace]) }
            == "Must take zero or more splits")
        var m = Value.string("a b c")
        _ = try l.mutate(&m, "removeAll", ["where"], [isSpace])
        #expect(m == .string("abc"))
    }
}

/// `String(format:)` against what swiftc 6.3.1 with Foundation printed for the same calls.
@Suite struct StringFormatTests {
    @Test func formatsAsFoundationDoes() throws {
        let source = #"""
            func main() {
                let d = 3.14159
                print(String(format: "%.2f", d), String(format: "%d items", 42), String(format: "%05.1f|%-6d|%x|%X|%o", 2.5, 7, 255, 255, 8))
                print(String(format: "%@ is %d years", "Ann", 30), String(format: "%8.3e", 12345.678), String(format: "%g %g", 0.0001, 1e20))
                print(String(format: "%.0f %.0f %.1f", 0.5, 1.5, 0.25), String(format: "100%%"), String(format: "%+d %+.1f", 5, -0.05))
                print(String(format: "%-8@|%8@|", "ab", "cd"), String(format: "%ld %lld", 9, -9), String(format: "%.3f", 1.0005))
            }
            """#
        let r = try Script.compile(source).run()
        #expect(r.fault == nil)
        #expect(
            r.output == """
                3.14 42 items 002.5|7     |ff|FF|10
                Ann is 30 years 1.235e+04 0.0001 1e+20
                0 2 0.2 100% +5 -0.1
                ab|cd| 9 -9 1.000

                """)
    }

    @Test func aWrongArgumentIsAFault() throws {
        let r = try Script.compile(#"func main() { print(String(format: "%d", "x")) }"#).run()
        #expect(r.fault?.message == "%d in String(format:) needs an Int")
    }
}
