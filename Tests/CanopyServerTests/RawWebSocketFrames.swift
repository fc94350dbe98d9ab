// Client frames built byte by byte, for tests that break RFC 6455 on purpose: masking on or off, any opcode, RSV
// bits and FIN, a declared length that differs from the payload (up to 2^64 - 1), and raw bytes on the socket.

/// One client frame as it goes on the wire.
struct RawFrame {
    var opcode: UInt8
    var payload: [UInt8] = []
    var final = true
    var masked = true
    /// RSV1-3 as they sit in the first byte (0x70 sets all three).
    var rsv: UInt8 = 0
    /// The length written in the header; nil writes the payload's, in the shortest form.
    var declaredLength: UInt64? = nil
    /// Forces the 16-bit (126) or 64-bit (127) length form even for a short length.
    var lengthForm: UInt8? = nil

    static let mask: [UInt8] = [0x5A, 0x0F, 0xC3, 0x81]

    var bytes: [UInt8] {
        var wire: [UInt8] = [(final ? 0x80 : 0) | rsv | (opcode & 0x0F)]
        let length = declaredLength ?? UInt64(payload.count)
        let maskBit: UInt8 = masked ? 0x80 : 0
        let form = lengthForm ?? (length < 126 ? 0 : length <= 0xFFFF ? 126 : 127)
        switch form {
        case 126:
            wire += [maskBit | 126, UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
        case 127:
            wire.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) { wire.append(UInt8(length >> UInt64(shift) & 0xFF)) }
        default:
            wire.append(maskBit | UInt8(length))
        }
        if masked {
            wire += Self.mask
            for (i, byte) in payload.enumerated() { wire.append(byte ^ Self.mask[i & 3]) }
        } else {
            wire += payload
        }
        return wire
    }

    static func text(_ payload: [UInt8], final: Bool = true) -> RawFrame {
        RawFrame(opcode: 1, payload: payload, final: final)
    }

    static func continuation(_ payload: [UInt8], final: Bool = true) -> RawFrame {
        RawFrame(opcode: 0, payload: payload, final: final)
    }

    /// A close frame with `code` (nil: no code) and `reason` bytes after it.
    static func close(_ code: UInt16?, reason: [UInt8] = []) -> RawFrame {
        let payload = code.map { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } ?? []
        return RawFrame(opcode: 8, payload: payload + reason)
    }
}

extension TestWebSocket {
    /// Writes `frames` back to back, in one write.
    func send(raw frames: [RawFrame]) throws {
        try socket.write(frames.flatMap(\.bytes))
    }

    /// The code of the server's close frame after skipping messages (nil: a close without a code); throws if the
    /// connection ended without one.
    func closeCode() throws -> UInt16? {
        let (_, ending) = try skipMessages()
        guard case .close(let code, _) = ending else {
            throw TestSocketError(description: "the server ended the connection without a close frame")
        }
        return code
    }
}
