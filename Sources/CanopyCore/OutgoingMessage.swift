/// Identifies one WebSocket connection for its whole life (shown to clients as `s<N>`): the transport's and the
/// protocol's name for a session.
public typealias SessionID = UInt64

/// An encoded outgoing message, shared by every session it is queued to (serialize once, send many).
///
/// The payload sits behind `headroom` spare bytes where a transport can put its frame header in place, so a message
/// fanned out to many sessions is written from this one buffer. The transport says how much head-room it needs
/// (libwebsockets: `LWS_PRE`); a message with less is copied by the transport once.
public final class OutgoingMessage: @unchecked Sendable {  // `framed` is touched only by the thread that writes it
    /// Spare bytes before the payload.
    public let headroom: Int
    /// `headroom` bytes, then the payload.
    public var framed: [UInt8]
    /// Set for updates where only the latest matters (presence): a message queued to a session and not yet being
    /// written is replaced by a later one with the same key, and such a message is dropped rather than closing a
    /// session whose queue is full. Set before the message is handed out.
    public var supersedes: String?

    public init(bytes: [UInt8], headroom: Int = 0) {
        self.headroom = headroom
        framed = [UInt8](repeating: 0, count: headroom)
        framed.append(contentsOf: bytes)
    }

    /// `j` encoded straight behind the head-room (no copy).
    public init(encoding j: JSON, headroom: Int = 0) {
        self.headroom = headroom
        framed = [UInt8](repeating: 0, count: headroom)
        j.write(into: &framed)
    }

    /// The payload's size in bytes.
    public var count: Int { framed.count - headroom }

    /// A copy of the payload.
    public var bytes: [UInt8] { Array(framed[headroom...]) }

    /// Calls `body` with the payload.
    public func withPayload<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        framed.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[headroom...])) }
    }
}
