import CLibWebSockets
import CanopySupport

/// Why a WebSocket session ended, as `canopy_disconnects_total{reason=…}` reports it.
enum DisconnectReason: Int, CaseIterable {
    /// The peer closed, or the connection dropped (including a ping timeout).
    case client
    /// Closed with 1008 because its outgoing queue overflowed (a slow reader).
    case slow
    /// Closed with 1009 for an incoming message over `maxMessageBytes`.
    case tooLarge
    /// Closed by the protocol layer: the Hub closes a session (1008) only when it fails to authenticate.
    case unauthorized
    /// Closed with 1001 by `stop()`.
    case shutdown

    var label: String {
        switch self {
        case .client: "client"
        case .slow: "slow"
        case .tooLarge: "too_large"
        case .unauthorized: "unauthorized"
        case .shutdown: "shutdown"
        }
    }
}

/// What the service loop counts, on the service thread only: plain integers, a few increments per message.
struct TransportCounters {
    var connectionsTotal = 0
    /// Indexed by `DisconnectReason.rawValue`.
    var disconnects = [Int](repeating: 0, count: DisconnectReason.allCases.count)
    var messagesReceived = 0
    var bytesReceived = 0
    var messagesSent = 0
    var bytesSent = 0
}

/// The transport's share of `/metrics` (the daemon's routes add the protocol's and the process's).
extension ServiceLoop {
    /// Appends the transport's metrics: sessions, disconnects by reason, messages, bytes and queues. Service thread.
    public func writeMetrics(into exposition: inout MetricsExposition) {
        assertOnServiceThread()
        exposition.gauge("canopy_connections", "Open WebSocket sessions.", sessions.count)
        exposition.counter(
            "canopy_connections_total", "WebSocket sessions accepted since the start.", counters.connectionsTotal)
        exposition.counter(
            "canopy_disconnects_total",
            "WebSocket sessions ended, by reason: client (closed or dropped by the peer), slow (1008, outgoing queue "
                + "overflow), too_large (1009), unauthorized (1008 after a failed hello), shutdown (1001).",
            label: "reason", DisconnectReason.allCases.map { ($0.label, counters.disconnects[$0.rawValue]) })
        exposition.counter(
            "canopy_messages_received_total", "Complete WebSocket messages received from clients.",
            counters.messagesReceived)
        exposition.counter(
            "canopy_bytes_received_total", "Bytes of the complete WebSocket messages received from clients.",
            counters.bytesReceived)
        exposition.counter(
            "canopy_messages_sent_total", "WebSocket messages written to sockets.", counters.messagesSent)
        exposition.counter(
            "canopy_bytes_sent_total", "Bytes of the WebSocket messages written to sockets (payloads).",
            counters.bytesSent)
        var queued = 0
        var largest = 0
        for session in sessions.values {
            queued += session.queuedBytes
            largest = max(largest, session.queuedBytes)
        }
        exposition.gauge("canopy_queue_bytes", "Bytes waiting in all sessions' outgoing queues.", queued)
        exposition.gauge("canopy_queue_bytes_max", "Bytes waiting in the largest session outgoing queue.", largest)
    }

    /// The token of an `Authorization: Bearer <token>` header (the scheme in any case), or nil.
    package static func bearerToken(_ authorization: String?) -> String? {
        guard let authorization else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingSpaces()
        return token.isEmpty ? nil : token
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
