/// The leading members of a daemon message, read without parsing the rest: the Hub writes `type`, `tree`,
/// `version`, `author` and `seq` first in a diff (and `type`, `tree`, `seq`, `code` in a rejection), so the load tool
/// learns what it needs from a diff's first few dozen bytes however large its `ops` and `changes` are.
///
/// The scan stops at the first member whose value is not a plain string (no escapes) or integer; what it did not
/// reach stays nil, and callers fall back to the full parser when a field they need is missing.
struct MessageHead: Equatable {
    var type: String?
    var tree: String?
    var version: Int64?
    var author: String?
    var seq: Int64?
    var code: String?

    init(
        type: String? = nil, tree: String? = nil, version: Int64? = nil, author: String? = nil, seq: Int64? = nil,
        code: String? = nil
    ) {
        self.type = type
        self.tree = tree
        self.version = version
        self.author = author
        self.seq = seq
        self.code = code
    }

    init(scanning bytes: [UInt8]) {
        self = bytes.withUnsafeBufferPointer { MessageHead(scanning: $0) }
    }

    init(scanning b: UnsafeBufferPointer<UInt8>) {
        let quote = UInt8(ascii: "\"")
        let backslash = UInt8(ascii: "\\")
        var i = 0
        let n = b.count
        func skipSpace() { while i < n && (b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09) { i += 1 } }
        /// A string without escapes starting at the opening quote at `i`; nil (and `i` unchanged) otherwise.
        func plainString() -> (start: Int, end: Int)? {
            guard i < n, b[i] == quote else { return nil }
            var j = i + 1
            while j < n && b[j] != quote {
                if b[j] == backslash { return nil }
                j += 1
            }
            guard j < n else { return nil }
            defer { i = j + 1 }
            return (i + 1, j)
        }
        func text(_ range: (start: Int, end: Int)) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: b[range.start..<range.end]), as: UTF8.self)
        }
        func keyIs(_ range: (start: Int, end: Int), _ name: StaticString) -> Bool {
            guard range.end - range.start == name.utf8CodeUnitCount else { return false }
            let p = name.utf8Start
            for k in 0..<name.utf8CodeUnitCount where b[range.start + k] != p[k] { return false }
            return true
        }
        skipSpace()
        guard i < n, b[i] == UInt8(ascii: "{") else { return }
        i += 1
        while true {
            skipSpace()
            guard let key = plainString() else { return }
            skipSpace()
            guard i < n, b[i] == UInt8(ascii: ":") else { return }
            i += 1
            skipSpace()
            guard i < n else { return }
            if b[i] == quote {
                guard let value = plainString() else { return }
                if keyIs(key, "type") {
                    type = text(value)
                } else if keyIs(key, "tree") {
                    tree = text(value)
                } else if keyIs(key, "author") {
                    author = text(value)
                } else if keyIs(key, "code") {
                    code = text(value)
                }
            } else if b[i] == UInt8(ascii: "-") || (b[i] >= UInt8(ascii: "0") && b[i] <= UInt8(ascii: "9")) {
                let negative = b[i] == UInt8(ascii: "-")
                if negative { i += 1 }
                var value: Int64 = 0
                var digits = 0
                while i < n, b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9"), digits < 18 {
                    value = value * 10 + Int64(b[i] - UInt8(ascii: "0"))
                    i += 1
                    digits += 1
                }
                // A fraction, an exponent or more digits: not an integer this scan reads.
                guard digits > 0, i < n, b[i] == UInt8(ascii: ",") || b[i] == UInt8(ascii: "}") || b[i] == 0x20
                else { return }
                if negative { value = -value }
                if keyIs(key, "version") {
                    version = value
                } else if keyIs(key, "seq") {
                    seq = value
                }
            } else {
                return
            }
            skipSpace()
            guard i < n, b[i] == UInt8(ascii: ",") else { return }
            i += 1
        }
    }
}
