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
}
