/// Identifies one WebSocket connection for its whole life (shown to clients as `s<N>`).
public typealias SessionID = UInt64

/// An encoded outgoing message. One instance is shared by every session it is queued to (serialize once, send
/// many); the transport copies it behind `LWS_PRE` head-room when it writes.
public final class OutgoingMessage: Sendable {
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }
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
    /// Called on the service thread about every 50 ms: for work the handler deferred (coalesced updates).
    func tick() -> [TransportAction]
}

extension ConnectionHandler {
    /// A handler without access control lets anyone read the metrics.
    public func allowsMetrics(bearerToken: String?) -> Bool { true }

    /// A handler without metrics of its own adds nothing.
    public func writeMetrics(into exposition: inout MetricsExposition) {}

    /// A handler that defers nothing has nothing to do.
    public func tick() -> [TransportAction] { [] }
}
