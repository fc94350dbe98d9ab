/// `Character`'s properties (on one-character strings, which is what a character is here) and `String`'s members
/// that walk its characters with a closure: `prefix(while:)`, `drop(while:)`, `split(whereSeparator:)`,
/// `last(where:)`, `removeAll(where:)`; and its `utf8` and `utf16` views, as arrays of code units.
extension Library {
    func registerCharacters() {
        // The host's own `Character` answers, so the Unicode rules are exactly Swift's.
        let flags: [(String, (Character) -> Bool)] = [
            ("isLetter", \.isLetter), ("isNumber", \.isNumber), ("isWholeNumber", \.isWholeNumber),
            ("isUppercase", \.isUppercase), ("isLowercase", \.isLowercase), ("isCased", \.isCased),
            ("isWhitespace", \.isWhitespace), ("isNewline", \.isNewline), ("isPunctuation", \.isPunctuation),
            ("isSymbol", \.isSymbol), ("isMathSymbol", \.isMathSymbol), ("isCurrencySymbol", \.isCurrencySymbol),
            ("isHexDigit", \.isHexDigit), ("isASCII", \.isASCII),
        ]
        for (name, flag) in flags {
            shadowableProperty([.string], name, result: .bool) { m, v, _ throws(ScriptFault) in
                .bool(flag(try m.character(v, name)))
            }
        }
        let values: [(String, (Character) -> Int?)] = [
            ("wholeNumberValue", \.wholeNumberValue), ("hexDigitValue", \.hexDigitValue),
        ]
        for (name, value) in values {
            shadowableProperty([.string], name, result: .optional(.int)) { m, v, _ throws(ScriptFault) in
                value(try m.character(v, name)).map { .int($0) } ?? .null
            }
        }
        // `asciiValue`, `utf8` and `utf16` are left out: their elements are UInt8 and UInt16 in Swift, whose
        // arithmetic traps where Canopy's Int would not (`c.asciiValue! - 98` on "a").
        // `Character("a")`: a one-character string, checked as Swift checks it.
        typeFunction("Character", "init(_:)") { m, args throws(ScriptFault) in
            let s = try m.string(args[0])
            guard !s.isEmpty else { throw m.fault("Can't form a Character from an empty String") }
            guard s.count == 1 else {
                throw m.fault("Can't form a Character from a String containing more than one extended grapheme cluster")
            }
            return .string(s)
        }
        registerCharacterWalks()
    }

    private func registerCharacterWalks() {
        member([.string], "prefix", ["while"], result: .string) { m, v, args throws(ScriptFault) in
            let chars = try m.characters(m.string(v))
            let end = try m.index(in: chars, where: args[0], last: false, negated: true) ?? chars.count
            return .string(Machine.joinedCharacters(chars[..<end]))
        }
        member([.string], "drop", ["while"], result: .string) { m, v, args throws(ScriptFault) in
            let chars = try m.characters(m.string(v))
            let start = try m.index(in: chars, where: args[0], last: false, negated: true) ?? chars.count
            return .string(Machine.joinedCharacters(chars[start...]))
        }
        member([.string], "last", ["where"], result: .optional(.string)) { m, v, args throws(ScriptFault) in
            let chars = try m.characters(m.string(v))
            return try m.index(in: chars, where: args[0], last: true).map { chars[$0] } ?? .null
        }
        member([.string], "removeAll", ["where"], mutating: true, result: .void) { m, v, args throws(ScriptFault) in
            let chars = try m.characters(m.string(v))
            let c = try m.callable(args[0])
            var kept = ""
            for ch in chars where try !m.test(c, ch) {
                if case .string(let t) = ch { kept += t }
            }
            v = .string(kept)
            return .null
        }
        let splits: [[String?]] = [
            ["whereSeparator"], ["maxSplits", "whereSeparator"], ["omittingEmptySubsequences", "whereSeparator"],
            ["maxSplits", "omittingEmptySubsequences", "whereSeparator"],
        ]
        for labels in splits {
            member([.string], "split", labels, result: .array(.string)) { m, v, args throws(ScriptFault) in
                var maxSplits = Int.max
                var omitEmpty = true
                for (label, arg) in zip(labels, args) {
                    if label == "maxSplits" { maxSplits = try m.int(arg) }
                    if label == "omittingEmptySubsequences" { omitEmpty = try m.truth(arg, at: m.site) }
                }
                let chars = try m.characters(m.string(v))
                let pieces = try m.split(chars, maxSplits: maxSplits, omitEmpty: omitEmpty, where: args[args.count - 1])
                return .array(pieces.map { .string(Machine.joinedCharacters($0)) })
            }
        }
    }
}

extension Machine {
    /// The `Character` a one-character string stands for. A longer string has no such member in Swift, so the
    /// compiler would have refused it there; here it is a fault.
    func character(_ v: Value, _ member: String) throws(ScriptFault) -> Character {
        let s = try string(v)
        guard s.count == 1, let c = s.first else {
            throw fault("'\(member)' is a member of Character, and \"\(s)\" is \(s.count) characters, not one")
        }
        return c
    }

    /// One-character strings joined back into a string.
    static func joinedCharacters(_ chars: ArraySlice<Value>) -> String {
        var out = ""
        for case .string(let c) in chars { out += c }
        return out
    }

    /// `split(maxSplits:omittingEmptySubsequences:whereSeparator:)` over elements, as Swift's `Collection.split`:
    /// at most `maxSplits` splits, empty pieces dropped when `omitEmpty`.
    func split(
        _ elements: [Value], maxSplits: Int, omitEmpty: Bool, where separator: Value
    ) throws(ScriptFault) -> [ArraySlice<Value>] {
        guard maxSplits >= 0 else { throw fault("Must take zero or more splits") }
        let c = try callable(separator)
        var pieces: [ArraySlice<Value>] = []
        var start = 0
        if maxSplits == 0 || elements.isEmpty {
            if !(elements.isEmpty && omitEmpty) { pieces.append(elements[...]) }
            return pieces
        }
        var i = 0
        while i < elements.count {
            try chargeLibrary(1)
            if try test(c, elements[i]) {
                var appended = false
                if !(start == i && omitEmpty) {
                    pieces.append(elements[start..<i])
                    appended = true
                }
                i += 1
                start = i
                if appended && pieces.count == maxSplits { break }
                continue
            }
            i += 1
        }
        if start != elements.count || !omitEmpty { pieces.append(elements[start...]) }
        return pieces
    }
}
