import CNATS

/// Something that happened to a connection after it was established.
public enum NATSConnectionEvent: Sendable, Equatable {
    /// The connection to the current server was lost; the library is reconnecting (requests wait or fail, see
    /// `NATSConnectionOptions.failRequestsOnDisconnect`; publishes are buffered).
    case disconnected
    /// Connected again, to this server URL (possibly another server of the cluster).
    case reconnected(url: String)
    /// The connection is closed for good (`close()`); the last event of a connection.
    case closed
}

/// How to connect. The defaults suit a daemon in a cluster: find a dead server within seconds, reconnect forever.
public struct NATSConnectionOptions: Sendable {
    /// Server URLs (`nats://127.0.0.1:4222`); the client picks among them and learns the rest of the cluster.
    public var servers: [String]
    /// The connection's name, shown by the server's monitoring (`/connz`).
    public var name: String
    /// How long one attempt to connect to one server may take.
    public var connectTimeout: Duration
    /// The pause between two rounds of reconnection attempts. Reconnection never gives up.
    public var reconnectWait: Duration
    /// How often the client pings the server, and how many unanswered pings mean the server is gone. A killed
    /// server closes its sockets at once; a stopped (SIGSTOP) or cut-off one is only noticed by pings.
    public var pingInterval: Duration
    public var maxPingsOut: Int
    /// When the connection drops, fail requests that are waiting for a reply at once (as `retryable`), instead of
    /// letting them wait for their timeout on a connection that will never answer.
    public var failRequestsOnDisconnect: Bool
    /// The default time a JetStream API call or publish waits for the server's answer.
    public var jetStreamTimeout: Duration
    /// Called on disconnection, reconnection and close, on nats.c's single asynchronous-callback thread, one event
    /// at a time in order. Keep it short: it delays the other connections' events.
    public var onEvent: (@Sendable (NATSConnectionEvent) -> Void)?

    public init(servers: [String], name: String = "canopy", connectTimeout: Duration = .seconds(2),
                reconnectWait: Duration = .milliseconds(250), pingInterval: Duration = .seconds(1),
                maxPingsOut: Int = 3, failRequestsOnDisconnect: Bool = true, jetStreamTimeout: Duration = .seconds(5),
                onEvent: (@Sendable (NATSConnectionEvent) -> Void)? = nil)
    {
        self.servers = servers
        self.name = name
        self.connectTimeout = connectTimeout
        self.reconnectWait = reconnectWait
        self.pingInterval = pingInterval
        self.maxPingsOut = maxPingsOut
        self.failRequestsOnDisconnect = failRequestsOnDisconnect
        self.jetStreamTimeout = jetStreamTimeout
        self.onEvent = onEvent
    }
}

/// One connection to a NATS cluster (a nats.c `natsConnection`).
///
/// Every method may be called from any thread: nats.c locks its connection internally. Blocking calls (requests,
/// JetStream publishes and API calls) block only the calling thread. `close()` ends the connection; calls after it
/// fail with a closed-connection error. Dropping the last reference closes it too.
public final class NATSConnection: @unchecked Sendable {  // the pointer is used only through nats.c's locked API
    let handle: OpaquePointer
    public let options: NATSConnectionOptions

    /// Connects to one of `options.servers`; throws when none of them accepts the connection.
    public init(_ options: NATSConnectionOptions) throws(NATSError) {
        self.options = options
        let what = "connect to \(options.servers.joined(separator: ","))"
        guard !options.servers.isEmpty else { throw NATSError(what, wrapper: "no server URL given") }
        var natsOptions: OpaquePointer?
        var status = natsOptions_Create(&natsOptions)
        guard status == NATS_OK, let natsOptions else { throw NATSError(what, status: status) }
        defer { natsOptions_Destroy(natsOptions) }

        // The events box lives until nats.c's closed callback, the last one it makes for the connection.
        let events = Unmanaged.passRetained(EventSink(options.onEvent)).toOpaque()
        status = withCStringArray(options.servers) { urls in
            natsOptions_SetServers(natsOptions, urls, Int32(options.servers.count))
        }
        let steps: [() -> natsStatus] = [
            { natsOptions_SetName(natsOptions, options.name) },
            { natsOptions_SetTimeout(natsOptions, milliseconds(options.connectTimeout)) },
            { natsOptions_SetAllowReconnect(natsOptions, true) },
            { natsOptions_SetMaxReconnect(natsOptions, -1) },  // forever
            { natsOptions_SetReconnectWait(natsOptions, milliseconds(options.reconnectWait)) },
            { natsOptions_SetPingInterval(natsOptions, milliseconds(options.pingInterval)) },
            { natsOptions_SetMaxPingsOut(natsOptions, Int32(options.maxPingsOut)) },
            { natsOptions_SetFailRequestsOnDisconnect(natsOptions, options.failRequestsOnDisconnect) },
            { natsOptions_SetDisconnectedCB(natsOptions, natsDisconnected, events) },
            { natsOptions_SetReconnectedCB(natsOptions, natsReconnected, events) },
            { natsOptions_SetClosedCB(natsOptions, natsClosed, events) },
        ]
        for step in steps where status == NATS_OK { status = step() }
        var connection: OpaquePointer?
        if status == NATS_OK { status = natsConnection_Connect(&connection, natsOptions) }
        guard status == NATS_OK, let connection else {
            let error = NATSError(what, status: status)
            Unmanaged<EventSink>.fromOpaque(events).release()  // no connection, so no callback will come
            throw error
        }
        handle = connection
    }

    deinit {
        natsConnection_Close(handle)
        natsConnection_Destroy(handle)
    }

    /// Closes the connection: subscriptions end, waiting calls fail, `.closed` is reported. Idempotent.
    public func close() { natsConnection_Close(handle) }

    public var isClosed: Bool { natsConnection_Status(handle) == NATS_CONN_STATUS_CLOSED }
    public var isConnected: Bool { natsConnection_Status(handle) == NATS_CONN_STATUS_CONNECTED }
    /// The largest message (payload and headers) the connected server takes (its `max_payload`).
    public var maxPayload: Int { Int(natsConnection_GetMaxPayload(handle)) }

    /// The URL of the server the connection is on now, or nil while disconnected.
    public var connectedURL: String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard natsConnection_GetConnectedUrl(handle, &buffer, buffer.count) == NATS_OK, buffer[0] != 0 else {
            return nil
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Sends everything buffered and waits for the server to have processed it (a round trip).
    public func flush(timeout: Duration = .seconds(5)) throws(NATSError) {
        let status = natsConnection_FlushTimeout(handle, milliseconds(timeout))
        guard status == NATS_OK else { throw NATSError("flush", status: status) }
    }
}

/// The connection's event handler, handed to nats.c as the callbacks' closure.
final class EventSink: Sendable {
    let handler: (@Sendable (NATSConnectionEvent) -> Void)?
    init(_ handler: (@Sendable (NATSConnectionEvent) -> Void)?) { self.handler = handler }
}

// nats.c calls these on its asynchronous-callback thread (one per process), in order.

private func natsDisconnected(_ connection: OpaquePointer?, _ closure: UnsafeMutableRawPointer?) {
    guard let closure else { return }
    Unmanaged<EventSink>.fromOpaque(closure).takeUnretainedValue().handler?(.disconnected)
}

private func natsReconnected(_ connection: OpaquePointer?, _ closure: UnsafeMutableRawPointer?) {
    guard let closure else { return }
    var buffer = [CChar](repeating: 0, count: 256)
    var url = ""
    if let connection, natsConnection_GetConnectedUrl(connection, &buffer, buffer.count) == NATS_OK {
        url = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    Unmanaged<EventSink>.fromOpaque(closure).takeUnretainedValue().handler?(.reconnected(url: url))
}

private func natsClosed(_ connection: OpaquePointer?, _ closure: UnsafeMutableRawPointer?) {
    guard let closure else { return }
    let sink = Unmanaged<EventSink>.fromOpaque(closure).takeRetainedValue()  // the last callback: release the box
    sink.handler?(.closed)
}
