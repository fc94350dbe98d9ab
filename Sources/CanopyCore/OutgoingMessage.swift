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
    /// A large part shared by many messages and written after the payload (a snapshot's body): the message is the
    /// payload's bytes followed by the tail's. A transport holds the message until the tail is ready.
    public let tail: SharedTail?

    public init(bytes: [UInt8], headroom: Int = 0) {
        self.headroom = headroom
        framed = [UInt8](repeating: 0, count: headroom)
        framed.append(contentsOf: bytes)
        tail = nil
    }

    /// `head` (the start of the message) behind the head-room, followed by `tail` when it is ready.
    public init(head: [UInt8], tail: SharedTail, headroom: Int = 0) {
        self.headroom = headroom
        framed = [UInt8](repeating: 0, count: headroom)
        framed.append(contentsOf: head)
        self.tail = tail
    }

    /// `j` encoded straight behind the head-room (no copy).
    public init(encoding j: JSON, headroom: Int = 0) {
        self.headroom = headroom
        framed = [UInt8](repeating: 0, count: headroom)
        j.write(into: &framed)
        tail = nil
    }

    /// The payload's size in bytes (without the tail: a shared tail is counted once, by `SharedTail`, not in every
    /// queue that holds it).
    public var count: Int { framed.count - headroom }

    /// A copy of the whole message: the payload, then the tail (which must be ready).
    public var bytes: [UInt8] {
        guard let tail else { return Array(framed[headroom...]) }
        precondition(tail.isReady, "the message's tail is not encoded yet")
        return Array(framed[headroom...]) + tail.bytes
    }

    /// Calls `body` with the payload.
    public func withPayload<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        framed.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[headroom...])) }
    }
}

/// The shared end of messages that are mostly the same for every receiver (a snapshot's body: the tree, readers,
/// program and trace, while the head names the receiver's rid and the clients). It is encoded once, off the thread
/// that queues the messages, and filled in later; a transport writes a message only once its tail is ready.
///
/// Threading: `fill` happens on the encoding thread before the tail is handed back to the queuing thread (through a
/// lock, which orders it); `markReady`, `isReady`, `waiters` and `bytes` are used on the queuing thread only.
public final class SharedTail: @unchecked Sendable {
    public private(set) var bytes: [UInt8] = []
    public private(set) var isReady = false
    /// Sessions whose writer reached a message with this tail before it was ready: woken by `markReady`'s caller.
    public var waiters: [SessionID] = []

    public init() {}

    /// A tail that is ready at once.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
        isReady = true
    }

    /// Stores the encoded bytes (on the encoding thread, before `markReady`).
    public func fill(_ encoded: [UInt8]) {
        bytes = encoded
    }

    /// Makes the tail writable and returns the sessions to wake (on the queuing thread).
    public func markReady() -> [SessionID] {
        isReady = true
        defer { waiters = [] }
        return waiters
    }

    /// The tail's size once ready.
    public var count: Int { bytes.count }
}
