/// Checks that bytes are UTF-8 as RFC 3629 defines it (no overlong forms, no surrogates, nothing above U+10FFFF),
/// piece by piece, so a character split across WebSocket fragments still passes.
struct UTF8Validator {
    /// Continuation bytes the current character still needs.
    private var remaining = 0
    /// The range the next continuation byte must fall in: narrower than 80...BF right after E0, ED, F0 and F4, which
    /// is what rules out overlong forms, surrogates and code points above U+10FFFF.
    private var low: UInt8 = 0x80
    private var high: UInt8 = 0xBF

    /// Consumes `bytes`; false as soon as they cannot be UTF-8 whatever follows.
    mutating func consume(_ bytes: UnsafeRawBufferPointer) -> Bool {
        for byte in bytes {
            if remaining == 0 {
                switch byte {
                case 0x00...0x7F: continue
                case 0xC2...0xDF: expect(1, 0x80, 0xBF)
                case 0xE0: expect(2, 0xA0, 0xBF)
                case 0xED: expect(2, 0x80, 0x9F)
                case 0xE1...0xEF: expect(2, 0x80, 0xBF)
                case 0xF0: expect(3, 0x90, 0xBF)
                case 0xF1...0xF3: expect(3, 0x80, 0xBF)
                case 0xF4: expect(3, 0x80, 0x8F)
                default: return false  // a stray continuation byte, C0, C1 or F5...FF
                }
            } else {
                guard byte >= low && byte <= high else { return false }
                expect(remaining - 1, 0x80, 0xBF)
            }
        }
        return true
    }

    /// Whether everything consumed so far ends on a character boundary.
    var isComplete: Bool { remaining == 0 }

    private mutating func expect(_ count: Int, _ low: UInt8, _ high: UInt8) {
        remaining = count
        self.low = low
        self.high = high
    }

    /// Whether `bytes` are complete UTF-8.
    static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var validator = UTF8Validator()
        return validator.consume(bytes) && validator.isComplete
    }
}
