/// What RFC 6455 (5.5.1, 7.4) allows in a close frame a peer sends, for what lws 4.1.6 lets through: it turns codes
/// below 1000, 1004-1006 and 1012-2999 into 1002 before the application sees them, but echoes 5000 and above, a
/// one-byte payload and (without its UTF-8 option) a reason that is not UTF-8. See docs/security.md.
enum PeerClose {
    /// The code and reason to close with instead of echoing `payload`, or nil when it may be echoed.
    static func violation(_ payload: UnsafeRawBufferPointer) -> (code: UInt16, reason: String)? {
        if payload.isEmpty { return nil }  // a close without a code is allowed
        if payload.count == 1 { return (1002, "close payload of one byte") }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        guard isValidReceived(code) else { return (1002, "invalid close code \(code)") }
        guard UTF8Validator.isValid(UnsafeRawBufferPointer(rebasing: payload[2...])) else {
            return (1007, "close reason is not UTF-8")
        }
        return nil
    }

    /// Codes a peer may send: the defined ones that are not reserved for local use (1004-1006, 1015), and the
    /// registered and private ranges 3000-4999.
    static func isValidReceived(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1011, 3000...4999: true
        default: false
        }
    }
}
