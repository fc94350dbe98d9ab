import CLibWebSockets
import CanopyCore

/// Identifies one WebSocket connection for its whole life (shown to clients as `s<N>`).
public typealias SessionID = UInt64

/// An encoded outgoing message. One instance is shared by every session it is queued to (serialize once, send
/// many). It is kept behind `LWS_PRE` bytes of head-room, where the server's `lws_write` puts the frame header, so
/// every subscriber is sent from this one buffer: the header is the same for all of them (a server does not mask and
/// uses no extension), lws copies whatever a socket does not take at once, and only the service thread writes.
/// A client masks the payload in place, so `ClientLoop` copies it instead.
public final class OutgoingMessage: @unchecked Sendable {
    /// `LWS_PRE` bytes of head-room, then the payload. Touched only by the thread that writes it.
    private var framed: [UInt8]

    static let headroom = Int(canopy_lws_pre())

    public init(bytes: [UInt8]) {
        framed = [UInt8](repeating: 0, count: Self.headroom)
        framed.append(contentsOf: bytes)
    }

    /// `j` encoded straight behind the head-room (no copy).
    public init(encoding j: JSON) {
        framed = [UInt8](repeating: 0, count: Self.headroom)
        j.write(into: &framed)
    }

    /// The payload's size in bytes.
    public var count: Int { framed.count - Self.headroom }

    /// A copy of the payload.
    public var bytes: [UInt8] { Array(framed[Self.headroom...]) }

    /// Calls `body` with the payload.
    func withPayload<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        framed.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[Self.headroom...])) }
    }

    /// `lws_write` of the payload as one text message, the frame header written into the head-room in place.
    /// Server sessions only, on the service thread.
    func writeInPlace(_ wsi: OpaquePointer) -> Int32 {
        let length = count
        return framed.withUnsafeMutableBufferPointer { buffer in
            lws_write(wsi, buffer.baseAddress! + Self.headroom, length, LWS_WRITE_TEXT)
        }
    }
}

/// What the protocol layer asks the transport to do, in order.
public enum TransportAction: Sendable {
    /// Queue a message to a session (bounded per session; overflow closes it with 1008).
    case send(SessionID, OutgoingMessage)
    /// Send a close frame with this code and reason, then drop the session.
    case close(SessionID, code: UInt16, reason: String)
}

/// The protocol layer as the transport sees it. Every call happens on the service thread, one at a time.
public protocol ConnectionHandler: AnyObject {
    /// A WebSocket connection was established on `/ws`.
    func opened(_ session: SessionID, peer: String) -> [TransportAction]
    /// One complete message (reassembled from its fragments, within the size limit).
    func received(_ session: SessionID, message: [UInt8]) -> [TransportAction]
    /// The connection is gone (closed by either side, timed out, or dropped by the transport).
    func closed(_ session: SessionID) -> [TransportAction]
    /// Whether a `GET /metrics` with this bearer token (nil: no `Authorization: Bearer` header) may read the metrics.
    func allowsMetrics(bearerToken: String?) -> Bool
    /// Appends the handler's own metrics to a `/metrics` response (after the transport's).
    func writeMetrics(into exposition: inout MetricsExposition)
    /// Whether the handler deferred work that `tick()` will do. The loop ticks only while this is true, so an idle
    /// daemon does not wake (and poll every connection) 20 times a second for nothing.
    var hasDeferredWork: Bool { get }
    /// Called on the service thread about every 50 ms while `hasDeferredWork`: for work the handler deferred
    /// (coalesced updates).
    func tick() -> [TransportAction]
}

extension ConnectionHandler {
    /// A handler without access control lets anyone read the metrics.
    public func allowsMetrics(bearerToken: String?) -> Bool { true }

    /// A handler without metrics of its own adds nothing.
    public func writeMetrics(into exposition: inout MetricsExposition) {}

    /// A handler that defers nothing has nothing to do.
    public var hasDeferredWork: Bool { false }

    /// A handler that defers nothing has nothing to do.
    public func tick() -> [TransportAction] { [] }
}
