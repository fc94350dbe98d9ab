/// `String.Index` and the `String` members that take or give one, written in Swift over the natives of
/// `Library+StringIndex.swift`. Compiled only with programs that may use them.
///
/// An index is the character offset into the string it came from, kept with that string (`__base`): every use
/// checks it is used with the same string, so an index from another string (or from before a mutation) is a clear
/// fault, never a character Swift would not give. It is a struct of its own, so the compiler keeps it apart from
/// `Int` as Swift does; printing one is refused (Swift prints its UTF-8 offset and encoding flags).
enum StringIndexPrelude {
    /// Whether `source` may use an index (a cheap textual test: the prelude costs compile time).
    static func isNeeded(by source: String) -> Bool {
        ["Index", "index(", "indices", "distance(from", "prefix(upTo", "prefix(through", "suffix(from", "remove(at",
         "insert(", "Subrange"].contains { source.contains($0) }
    }

    /// The members a `String` receiver takes from this prelude, bound when compiling.
    static let members: Set<String> = [
        "startIndex", "endIndex", "indices", "index", "distance", "firstIndex", "lastIndex", "prefix", "suffix",
        "remove", "insert", "removeSubrange", "replaceSubrange", "__character", "__substring",
    ]

    static let source = """
        struct __StringIndex: Equatable, Hashable, Comparable, CustomStringConvertible {
            var __offset: Int
            var __base: String
            static func == (a: __StringIndex, b: __StringIndex) -> Bool { __stringIndexOrder(a, b) == 0 }
            static func < (a: __StringIndex, b: __StringIndex) -> Bool { __stringIndexOrder(a, b) < 0 }
            static func ..< (a: __StringIndex, b: __StringIndex) -> __StringRange {
                if __stringIndexOrder(b, a) < 0 { __stringIndexFault("Range requires lowerBound <= upperBound") }
                return __StringRange(__lower: a, __upper: b, __closed: false)
            }
            static func ... (a: __StringIndex, b: __StringIndex) -> __StringRange {
                if __stringIndexOrder(b, a) < 0 { __stringIndexFault("Range requires lowerBound <= upperBound") }
                return __StringRange(__lower: a, __upper: b, __closed: true)
            }
            static func __upTo(_ b: __StringIndex) -> __StringRange { __StringRange(__lower: nil, __upper: b, __closed: false) }
            static func __through(_ b: __StringIndex) -> __StringRange { __StringRange(__lower: nil, __upper: b, __closed: true) }
            static func __from(_ a: __StringIndex) -> __StringRange { __StringRange(__lower: a, __upper: nil, __closed: false) }
            var description: String { __stringIndexUnsupported("printing a String.Index") }
        }

        struct __StringRange: CustomStringConvertible {
            var __lower: __StringIndex?
            var __upper: __StringIndex?
            var __closed: Bool
            var description: String { __stringIndexUnsupported("printing a range of String.Index") }
        }

        extension String {
            var startIndex: __StringIndex { __StringIndex(__offset: 0, __base: self) }
            var endIndex: __StringIndex { __StringIndex(__offset: count, __base: self) }
            var indices: [__StringIndex] { (0..<count).map { __StringIndex(__offset: $0, __base: self) } }
            func index(after i: __StringIndex) -> __StringIndex {
                __StringIndex(__offset: __stringMove(self, i, 1), __base: self)
            }
            func index(before i: __StringIndex) -> __StringIndex {
                __StringIndex(__offset: __stringMove(self, i, -1), __base: self)
            }
            func index(_ i: __StringIndex, offsetBy n: Int) -> __StringIndex {
                __StringIndex(__offset: __stringMove(self, i, n), __base: self)
            }
            func index(_ i: __StringIndex, offsetBy n: Int, limitedBy limit: __StringIndex) -> __StringIndex? {
                let o = __stringOffset(self, i)
                let l = __stringOffset(self, limit)
                if n >= 0 && l >= o && o + n > l { return nil }
                if n < 0 && l <= o && o + n < l { return nil }
                return __StringIndex(__offset: __stringMove(self, i, n), __base: self)
            }
            func distance(from a: __StringIndex, to b: __StringIndex) -> Int {
                __stringOffset(self, b) - __stringOffset(self, a)
            }
            func firstIndex(of c: Character) -> __StringIndex? {
                if let o = __stringFind(self, c, false) { return __StringIndex(__offset: o, __base: self) }
                return nil
            }
            func lastIndex(of c: Character) -> __StringIndex? {
                if let o = __stringFind(self, c, true) { return __StringIndex(__offset: o, __base: self) }
                return nil
            }
            func firstIndex(where p: (Character) -> Bool) -> __StringIndex? {
                var o = 0
                for c in self {
                    if p(c) { return __StringIndex(__offset: o, __base: self) }
                    o += 1
                }
                return nil
            }
            func lastIndex(where p: (Character) -> Bool) -> __StringIndex? {
                let cs = Array(self)
                var o = cs.count - 1
                while o >= 0 {
                    if p(cs[o]) { return __StringIndex(__offset: o, __base: self) }
                    o -= 1
                }
                return nil
            }
            func __character(at i: __StringIndex) -> Character { __stringCharacter(self, i) }
            func __substring(_ r: __StringRange) -> String {
                let b = __stringBounds(self, r)
                return __stringSlice(self, b[0], b[1])
            }
            func prefix(upTo i: __StringIndex) -> String { __substring(__StringIndex.__upTo(i)) }
            func prefix(through i: __StringIndex) -> String { __substring(__StringIndex.__through(i)) }
            func suffix(from i: __StringIndex) -> String { __substring(__StringIndex.__from(i)) }
            mutating func remove(at i: __StringIndex) -> Character {
                let c = __stringCharacter(self, i)
                let o = __stringOffset(self, i)
                self = __stringReplace(self, o, o + 1, "")
                return c
            }
            mutating func insert(_ c: Character, at i: __StringIndex) {
                let o = __stringOffset(self, i)
                self = __stringReplace(self, o, o, String(c))
            }
            mutating func insert(contentsOf t: String, at i: __StringIndex) {
                let o = __stringOffset(self, i)
                self = __stringReplace(self, o, o, t)
            }
            mutating func removeSubrange(_ r: __StringRange) {
                let b = __stringBounds(self, r)
                self = __stringReplace(self, b[0], b[1], "")
            }
            mutating func replaceSubrange(_ r: __StringRange, with t: String) {
                let b = __stringBounds(self, r)
                self = __stringReplace(self, b[0], b[1], t)
            }
        }
        """
}
