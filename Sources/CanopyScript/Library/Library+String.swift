/// `String`'s members. Characters are one-character strings; counts are of characters (grapheme clusters), as in
/// Swift. Foundation's members (`components(separatedBy:)`, `replacingOccurrences`, `trimmingCharacters`) are
/// written here on the standard library alone.
extension Library {
    func registerString() {
        member([.string], "count", property: true, result: .int) { m, v, _ throws(ScriptFault) in
            let s = try m.string(v)
            try m.chargeLibrary(s.utf8.count)
            return .int(s.count)
        }
        // Each scalar as a one-scalar string (`"é"` decomposed would give two).
        member([.string], "unicodeScalars", property: true, result: .array(.string)) { m, v, _ throws(ScriptFault) in
            let s = try m.string(v)
            try m.chargeLibrary(s.utf8.count)
            return .array(s.unicodeScalars.map { .string(String($0)) })
        }
        member([.string], "isEmpty", property: true, result: .bool) { m, v, _ throws(ScriptFault) in
            .bool(try m.string(v).isEmpty)
        }
        member([.string], "first", property: true, result: .optional(.string)) { m, v, _ throws(ScriptFault) in
            try m.string(v).first.map { .string(String($0)) } ?? .null
        }
        member([.string], "last", property: true, result: .optional(.string)) { m, v, _ throws(ScriptFault) in
            try m.string(v).last.map { .string(String($0)) } ?? .null
        }
        member([.string], "contains", [nil], result: .bool) { m, v, args throws(ScriptFault) in
            let s = try m.string(v)
            try m.chargeLibrary(s.utf8.count)
            let other = try m.string(args[0])
            // Foundation's `contains` (NSString's range(of:)) finds no empty string; the standard library's does.
            if other.isEmpty { return .bool(!(m.program?.importsFoundation ?? false)) }
            return .bool(s.contains(other))
        }
        member([.string], "hasPrefix", [nil], result: .bool) { m, v, args throws(ScriptFault) in
            .bool(try m.string(v).hasPrefix(try m.string(args[0])))
        }
        member([.string], "hasSuffix", [nil], result: .bool) { m, v, args throws(ScriptFault) in
            .bool(try m.string(v).hasSuffix(try m.string(args[0])))
        }
        member([.string], "uppercased", result: .string) { m, v, _ throws(ScriptFault) in
            let s = try m.string(v)
            try m.chargeLibrary(s.utf8.count)
            return .string(s.uppercased())
        }
        member([.string], "lowercased", result: .string) { m, v, _ throws(ScriptFault) in
            let s = try m.string(v)
            try m.chargeLibrary(s.utf8.count)
            return .string(s.lowercased())
        }
        member([.string], "reversed", result: .string) { m, v, _ throws(ScriptFault) in
            let s = try m.string(v)
            try m.chargeLibrary(s.utf8.count)
            return .string(String(s.reversed()))
        }
        registerStringSlices()
        registerStringSplits()
        registerStringMutations()
    }

    /// `prefix`, `suffix`, `dropFirst`, `dropLast`: substrings are strings here.
    private func registerStringSlices() {
        let slices: [(String, String, (String, Int) -> Substring)] = [
            ("prefix", "Can't take a prefix of negative length from a collection", { $0.prefix($1) }),
            ("suffix", "Can't take a suffix of negative length from a collection", { $0.suffix($1) }),
            ("dropFirst", "Can't drop a negative number of elements from a collection", { $0.dropFirst($1) }),
            ("dropLast", "Can't drop a negative number of elements from a collection", { $0.dropLast($1) }),
        ]
        for (name, negative, slice) in slices {
            member([.string], name, [nil], result: .string) { m, v, args throws(ScriptFault) in
                let s = try m.string(v)
                let k = try m.int(args[0])
                guard k >= 0 else { throw m.fault(negative) }
                try m.chargeLibrary(s.utf8.count)
                return .string(String(slice(s, k)))
            }
            if name.hasPrefix("drop") {
                member([.string], name, result: .string) { m, v, _ throws(ScriptFault) in
                    let s = try m.string(v)
                    try m.chargeLibrary(s.utf8.count)
                    return .string(String(slice(s, 1)))
                }
            }
        }
    }

    private func registerStringSplits() {
        // `split` drops empty pieces unless told otherwise; a one-character separator is a `Character`.
        member([.string], "split", ["separator"], result: .array(.string)) { m, v, args throws(ScriptFault) in
            try m.split(v, args[0], maxSplits: .max, omitEmpty: true)
        }
        member([.string], "split", ["separator", "maxSplits"], result: .array(.string)) {
            m, v, args throws(ScriptFault) in
            try m.split(v, args[0], maxSplits: m.int(args[1]), omitEmpty: true)
        }
        member([.string], "split", ["separator", "omittingEmptySubsequences"], result: .array(.string)) {
            m, v, args throws(ScriptFault) in
            try m.split(v, args[0], maxSplits: .max, omitEmpty: m.truth(args[1], at: m.site))
        }
        member([.string], "split", ["separator", "maxSplits", "omittingEmptySubsequences"], result: .array(.string)) {
            m, v, args throws(ScriptFault) in
            try m.split(v, args[0], maxSplits: m.int(args[1]), omitEmpty: m.truth(args[2], at: m.site))
        }
        member([.string], "components", ["separatedBy"], result: .array(.string)) { m, v, args throws(ScriptFault) in
            let s = try m.string(v)
            let sep = try m.string(args[0])
            try m.chargeLibrary(s.utf8.count)
            // Foundation leaves the string whole for an empty separator.
            if sep.isEmpty { return .array([.string(s)]) }
            return .array(s.split(separator: sep, omittingEmptySubsequences: false).map { .string(String($0)) })
        }
        member([.string], "replacingOccurrences", ["of", "with"], result: .string) { m, v, args throws(ScriptFault) in
            let s = try m.string(v)
            let target = try m.string(args[0])
            let replacement = try m.string(args[1])
            try m.chargeLibrary(s.utf8.count)
            if target.isEmpty { return .string(s) }
            let out = s.replacing(target, with: replacement)
            try m.checkCount(out.utf8.count)
            return .string(out)
        }
        member([.string], "trimmingCharacters", ["in"], result: .string) { m, v, args throws(ScriptFault) in
            let s = try m.string(v)
            let set = try m.string(args[0])
            try m.chargeLibrary(s.utf8.count)
            let newlines = "\n\u{0B}\u{0C}\r\u{85}\u{2028}\u{2029}".unicodeScalars
            let space: (Unicode.Scalar) -> Bool = { $0.properties.generalCategory == .spaceSeparator || $0 == "\t" }
            let strip: (Unicode.Scalar) -> Bool
            switch set {
            case "whitespaces": strip = space
            case "newlines": strip = { newlines.contains($0) }
            case "whitespacesAndNewlines": strip = { space($0) || newlines.contains($0) }
            default: throw m.fault("trimmingCharacters(in:) supports .whitespaces, .newlines, .whitespacesAndNewlines")
            }
            let scalars = Array(s.unicodeScalars)
            var lo = 0
            var hi = scalars.count
            while lo < hi && strip(scalars[lo]) { lo += 1 }
            while hi > lo && strip(scalars[hi - 1]) { hi -= 1 }
            var out = String.UnicodeScalarView()
            out.append(contentsOf: scalars[lo..<hi])
            return .string(String(out))
        }
    }

    private func registerStringMutations() {
        member([.string], "append", [nil], mutating: true, result: .void) { m, v, args throws(ScriptFault) in
            var s = try m.string(v)
            let more = try m.string(args[0])
            try m.checkCount(s.utf8.count + more.utf8.count)
            v = .null
            s += more
            v = .string(s)
            return .null
        }
        member([.string], "append", ["contentsOf"], mutating: true, result: .void) { m, v, args throws(ScriptFault) in
            var s = try m.string(v)
            let more = try m.string(args[0])
            try m.checkCount(s.utf8.count + more.utf8.count)
            v = .null
            s += more
            v = .string(s)
            return .null
        }
        member([.string], "removeLast", mutating: true, result: .string) { m, v, _ throws(ScriptFault) in
            var s = try m.string(v)
            guard !s.isEmpty else { throw m.fault("Can't remove last element from an empty collection") }
            v = .null
            let c = s.removeLast()
            v = .string(s)
            return .string(String(c))
        }
        member([.string], "removeFirst", mutating: true, result: .string) { m, v, _ throws(ScriptFault) in
            var s = try m.string(v)
            guard !s.isEmpty else { throw m.fault("Can't remove first element from an empty collection") }
            try m.chargeLibrary(s.utf8.count)
            v = .null
            let c = s.removeFirst()
            v = .string(s)
            return .string(String(c))
        }
        member([.string], "popLast", mutating: true, result: .optional(.string)) { m, v, _ throws(ScriptFault) in
            var s = try m.string(v)
            v = .null
            let c = s.popLast()
            v = .string(s)
            return c.map { .string(String($0)) } ?? .null
        }
        member([.string], "removeAll", mutating: true, result: .void) { m, v, _ throws(ScriptFault) in
            _ = try m.string(v)
            v = .string("")
            return .null
        }
    }
}

extension Machine {
    /// `String.split(separator:…)` as an array of strings.
    func split(_ v: Value, _ separator: Value, maxSplits: Int, omitEmpty: Bool) throws(ScriptFault) -> Value {
        let s = try string(v)
        let sep = try string(separator)
        guard maxSplits >= 0 else { throw fault("Must take zero or more splits") }
        try chargeLibrary(s.utf8.count)
        let pieces: [Substring]
        if sep.count == 1, let c = sep.first {
            pieces = s.split(separator: c, maxSplits: maxSplits, omittingEmptySubsequences: omitEmpty)
        } else {
            guard !sep.isEmpty else { throw fault("split(separator:) needs a non-empty separator") }
            pieces = s.split(separator: sep, maxSplits: maxSplits, omittingEmptySubsequences: omitEmpty)
        }
        return .array(pieces.map { .string(String($0)) })
    }
}
