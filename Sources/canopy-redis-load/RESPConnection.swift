import Glibc
import CanopySupport

/// One RESP connection: a socket, its pending output, and an input buffer parsed incrementally.
final class RESPConnection {
    let socket: TCPSocket
    private var output: [UInt8] = []
    private var outputSent = 0
    private var input = [UInt8](repeating: 0, count: 32 * 1024)
    private var filled = 0

    init(socket: TCPSocket) { self.socket = socket }

    var hasOutput: Bool { outputSent < output.count }

    func queue(_ bytes: [UInt8]) {
        if outputSent == output.count {
            output.removeAll(keepingCapacity: true)
            outputSent = 0
        }
        output += bytes
    }

    /// Writes as much pending output as the socket takes.
    func flush() throws {
        while outputSent < output.count {
            let written = try socket.write(output, from: outputSent)
            if written == 0 { return }
            outputSent += written
        }
    }

    /// Reads once into the free end of the buffer (growing it when a frame does not fit). False at end of stream.
    func fill() throws -> Bool {
        if filled == input.count { input += [UInt8](repeating: 0, count: input.count) }
        guard let count = try socket.read(into: &input, at: filled) else { return true }
        if count == 0 { return false }
        filled += count
        return true
    }

    /// Hands on every complete frame in the buffer and keeps the incomplete tail for the next read.
    func frames(_ handle: (RESPFrame) -> Void) throws {
        var offset = 0
        while offset < filled, let (frame, end) = try RESP.frame(in: input, from: offset, to: filled) {
            handle(frame)
            offset = end
        }
        if offset > 0 {
            input.withUnsafeMutableBufferPointer { buffer in
                _ = memmove(buffer.baseAddress!, buffer.baseAddress! + offset, filled - offset)
            }
            filled -= offset
        }
    }
}

/// What the load run needs to know about one RESP frame.
enum RESPFrame {
    case message(sequence: Int)
    case subscribed
    case integer(Int)
    case other
}

/// The few RESP2 encodings and decodings a pub/sub fan-out needs.
enum RESP {
    static let sequenceDigits = 12

    static func command(_ arguments: [String]) -> [UInt8] {
        var bytes = Array("*\(arguments.count)\r\n".utf8)
        for argument in arguments {
            bytes += Array("$\(argument.utf8.count)\r\n".utf8) + Array(argument.utf8) + [13, 10]
        }
        return bytes
    }

    /// Writes `sequence` as fixed-width decimal followed by `:` at `offset` (the payload's start).
    static func writeSequence(_ sequence: Int, into bytes: inout [UInt8], at offset: Int) {
        var value = sequence
        for i in stride(from: sequenceDigits - 1, through: 0, by: -1) {
            bytes[offset + i] = UInt8(48 + value % 10)
            value /= 10
        }
        bytes[offset + sequenceDigits] = UInt8(ascii: ":")
    }

    /// The frame starting at `offset` and the offset after it, or nil while it is incomplete.
    /// Top-level arrays are flat here (pub/sub pushes and replies); nested aggregates are not expected.
    static func frame(in bytes: [UInt8], from offset: Int, to end: Int) throws -> (RESPFrame, Int)? {
        guard let (type, value, next) = header(bytes, offset, end) else { return nil }
        switch type {
        case UInt8(ascii: ":"):
            return (.integer(value), next)
        case UInt8(ascii: "+"):
            return (.other, next)
        case UInt8(ascii: "-"):
            let text = String(decoding: bytes[offset + 1..<next - 2], as: UTF8.self)
            throw RedisLoadError("Redis answered with an error: \(text)")
        case UInt8(ascii: "$"):
            let after = next + max(0, value) + (value >= 0 ? 2 : 0)
            return after <= end ? (.other, after) : nil
        case UInt8(ascii: "*"):
            var position = next
            var kind: UInt8 = 0  // first letter of the first element: m(essage), s(ubscribe)
            var sequence = -1
            for element in 0..<max(0, value) {
                guard let (elementType, length, body) = header(bytes, position, end) else { return nil }
                if elementType == UInt8(ascii: "$") {
                    let after = body + max(0, length) + 2
                    guard after <= end else { return nil }
                    if element == 0 && length > 0 { kind = bytes[body] }
                    if element == 2 && kind == UInt8(ascii: "m") {
                        sequence = parseSequence(bytes, body, body + length)
                    }
                    position = after
                } else {
                    position = body
                }
            }
            if kind == UInt8(ascii: "m") && sequence >= 0 {
                return (.message(sequence: sequence), position)
            }
            if kind == UInt8(ascii: "s") { return (.subscribed, position) }
            return (.other, position)
        default:
            throw RedisLoadError("unexpected RESP type byte \(type) from Redis")
        }
    }

    /// The type byte, the line's integer (a length, count or value) and the offset after its CRLF.
    private static func header(_ bytes: [UInt8], _ offset: Int, _ end: Int) -> (UInt8, Int, Int)? {
        guard offset < end else { return nil }
        var i = offset + 1
        var value = 0
        var negative = false
        let isNumeric = bytes[offset] != UInt8(ascii: "+") && bytes[offset] != UInt8(ascii: "-")
        while i < end && bytes[i] != 13 {
            if isNumeric {
                if bytes[i] == UInt8(ascii: "-") {
                    negative = true
                } else {
                    value = value * 10 + Int(bytes[i] &- 48)
                }
            }
            i += 1
        }
        guard i + 1 < end else { return nil }
        return (bytes[offset], negative ? -value : value, i + 2)
    }

    private static func parseSequence(_ bytes: [UInt8], _ from: Int, _ to: Int) -> Int {
        var value = 0
        var i = from
        while i < to, bytes[i] >= 48, bytes[i] <= 57 {
            value = value * 10 + Int(bytes[i] - 48)
            i += 1
        }
        return i > from ? value : -1
    }
}
