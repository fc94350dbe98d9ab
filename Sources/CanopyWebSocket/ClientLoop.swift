import CLibWebSockets
import CanopySupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Identifies one client connection of a `ClientLoop`.
public typealias ConnectionID = UInt64

/// What happens to a client connection, in order: `opened` then any number of `message`s then `closed`; or only
/// `failed` when it never opened.
public enum ClientEvent: Sendable {
    /// The WebSocket handshake completed.
    case opened
    /// One complete message (reassembled from its fragments).
    case message([UInt8])
    /// The connection is gone. `code` is the close code the server sent (nil if it sent none: a dropped
    /// connection), or the one this side closed with.
    case closed(code: UInt16?, reason: String)
    /// The connection could not be made (refused, handshake rejected, unknown host).
    case failed(String)
}

/// The client side's counterpart of `ConnectionHandler`: every call happens on the loop's thread, one at a time.
public protocol ClientHandler: AnyObject {
    /// Reacts to `event` on `connection`; the actions (`send`, `close` by connection id) are applied in order.
    func handle(_ connection: ConnectionID, _ event: ClientEvent) -> [TransportAction]
}

/// Many WebSocket client connections on one libwebsockets client context, serviced by the thread that calls
/// `run()`: the CLI uses one connection, the load tool thousands.
///
/// Connections are opened with `connect` (before `run()`, or on the loop's thread: from the handler or a posted
/// job). Per connection, as in the server's sessions: incoming fragments are reassembled up to `maxMessageBytes`
/// (over it the connection is closed with 1009); outgoing messages queue without bound (the caller decides how much
/// it sends) and one is written per writeable callback; a `.close` action is sent after what was queued before it.
/// Sends to a connection that is not open (yet, or any more) are dropped. `stop()` closes every open connection
/// with 1000, waits for the closes (at most `drainTimeoutSeconds`), then `run()` returns.
public final class ClientLoop: @unchecked Sendable {  // lws state stays on the loop's thread; others post to `core`

    /// A connection from `connect` until its `closed` or `failed` event.
    private final class Connection {
        let url: WebSocketURL
        /// Set once the handshake completed.
        var session: TransportSession?
        /// The close code and reason the server sent, if it did.
        var peerClose: (code: UInt16, reason: String)?

        init(url: WebSocketURL) { self.url = url }
    }

    public let maxMessageBytes: Int
    public var drainTimeoutSeconds: Int { core.drainTimeoutSeconds }
    /// How the loop's thread waits for events (`.poll` if libuv was asked for but could not make a loop).
    public var eventLoop: EventLoopKind { core.eventLoop }
    private let handler: any ClientHandler
    private let memory: ClientSetup
    /// The context, its thread, mailbox, phases and wake timers (shared with `ServiceLoop`).
    private let core: LoopCore
    private var connections: [ConnectionID: Connection] = [:]
    /// Connections whose close frame is set and that lws is to close at the next wake-up (`TransportSession.closeNow`).
    private var closesDue: [ConnectionID] = []
    private var nextID: ConnectionID = 1

    /// Creates the client context. `maxMessageBytes` bounds one incoming message (a snapshot of a big tree is
    /// large: the default is 512 MiB). `eventLoop`: how the loop's thread waits (libuv pays off with many connections).
    public init(
        handler: any ClientHandler, maxMessageBytes: Int = 512 << 20, drainTimeoutSeconds: Int = 3,
        eventLoop: EventLoopKind = .poll
    ) throws(ClientError) {
        self.handler = handler
        self.maxMessageBytes = maxMessageBytes
        core = LoopCore(drainTimeoutSeconds: drainTimeoutSeconds, eventLoop: eventLoop)
        memory = ClientSetup()
        lws_set_log_level(Int32(LLL_ERR), nil)
        var info = lws_context_creation_info()
        info.port = -1  // CONTEXT_PORT_NO_LISTEN: a client-only context
        info.protocols = UnsafePointer(memory.protocols)
        info.user = Unmanaged.passUnretained(self).toOpaque()
        core.prepare(&info)
        guard let context = lws_create_context(&info), core.attach(context) else {
            throw ClientError(.client, "libwebsockets could not create a client context (out of file descriptors?)")
        }
    }

    deinit {
        core.destroyUnusedContext()
    }

    /// Starts connecting to `url` and returns the new connection's id; its `opened` or `failed` event follows.
    /// Call before `run()` or on the loop's thread.
    @discardableResult
    public func connect(_ url: WebSocketURL) -> ConnectionID {
        assertOnLoopThread()
        let id = nextID
        nextID += 1
        guard let context = core.context, core.phase == .idle || core.phase == .running else {
            post { [self] in self.handler.handle(id, .failed("the client is shutting down")) }
            return id
        }
        connections[id] = Connection(url: url)
        let host = strdup(url.host)!
        let path = strdup(url.path)!
        let hostHeader = strdup(url.port == 80 ? url.host : "\(url.host):\(url.port)")!
        defer {
            free(host)
            free(path)
            free(hostHeader)
        }
        var info = lws_client_connect_info()
        info.context = context
        info.address = UnsafePointer(host)
        info.port = Int32(url.port)
        info.path = UnsafePointer(path)
        info.host = UnsafePointer(hostHeader)
        info.protocol = UnsafePointer(memory.protocolName)
        info.local_protocol_name = UnsafePointer(memory.protocolName)
        info.ietf_version_or_minus_one = -1
        info.opaque_user_data = UnsafeMutableRawPointer(bitPattern: UInt(id))
        if lws_client_connect_via_info(&info) == nil, connections[id] != nil {
            // Failed before any callback could report it (lws may also have called CONNECTION_ERROR already).
            connections[id] = nil
            post { [self] in self.handler.handle(id, .failed("cannot connect to \(url)")) }
        }
        return id
    }

    /// Services the connections on the calling thread until `stop()` has closed them all (or the drain timeout
    /// passed), then destroys the context. Call once.
    public func run() {
        core.run(isDrained: { connections.isEmpty })
        connections.removeAll()
    }

    /// Asks `run()` to close every connection with 1000 and return. Callable from any thread (not from a signal
    /// handler).
    public func stop() {
        core.requestStop()
    }

    /// Runs `job` on the loop's thread and applies the actions it returns. Dropped once the loop finished.
    public func post(_ job: @escaping @Sendable () -> [TransportAction]) {
        core.post(job)
    }

    /// Connections not yet closed or failed (opening ones included). Loop thread only.
    public var connectionCount: Int { connections.count }

    /// Bytes queued on `connection` and not yet written. Loop thread only.
    public func queuedBytes(_ connection: ConnectionID) -> Int {
        connections[connection]?.session?.queuedBytes ?? 0
    }

    // MARK: - Loop thread (called from the lws callbacks)

    private func assertOnLoopThread() { core.assertOnLoopThread() }

    private func connectionID(_ wsi: OpaquePointer) -> ConnectionID {
        ConnectionID(UInt(bitPattern: lws_get_opaque_user_data(wsi)))
    }

    func drainMailbox() {
        let due = closesDue
        closesDue = []
        for id in due { connections[id]?.session?.closeNow() }
        let (jobs, stopRequested) = core.takeMail()
        for job in jobs { apply(job()) }
        guard stopRequested else { return }
        core.beginDrain()
        for connection in connections.values {
            if let session = connection.session {
                requestClose(session, code: 1000, reason: "bye", dropQueued: false)
            }
        }
    }

    func established(_ wsi: OpaquePointer) -> Int32 {
        let id = connectionID(wsi)
        guard let connection = connections[id] else { return -1 }
        let session = TransportSession(id: id, wsi: wsi, writesInPlace: false)
        connection.session = session
        apply(handler.handle(id, .opened))
        if core.phase == .draining { requestClose(session, code: 1000, reason: "bye", dropQueued: false) }
        return 0
    }

    func received(_ wsi: OpaquePointer, _ data: UnsafeRawBufferPointer, final: Bool) -> Int32 {
        guard let session = connections[connectionID(wsi)]?.session else { return -1 }
        switch session.receive(data, final: final, limit: maxMessageBytes) {
        case .partial: return 0
        case .tooBig: return -1
        case .message(let message):
            apply(handler.handle(session.id, .message(message)))
            return 0
        }
    }

    func writeable(_ wsi: OpaquePointer) -> Int32 {
        guard let session = connections[connectionID(wsi)]?.session else { return 0 }
        let status = session.writeNext()
        if session.closeDue {
            closesDue.append(session.id)
            core.wakeSoon()
        }
        return status
    }

    /// The server's close frame (before lws answers it and reports the connection closed).
    func peerClosing(_ wsi: OpaquePointer, _ payload: UnsafeRawBufferPointer) {
        guard let connection = connections[connectionID(wsi)] else { return }
        var code: UInt16 = 1005  // "no status received"
        var reason = ""
        if payload.count >= 2 {
            code = UInt16(payload[0]) << 8 | UInt16(payload[1])
            reason = String(decoding: payload[2...], as: UTF8.self)
        }
        connection.peerClose = (code, reason)
    }

    func closed(_ wsi: OpaquePointer) {
        let id = connectionID(wsi)
        guard let connection = connections.removeValue(forKey: id) else { return }
        let event: ClientEvent
        if let peer = connection.peerClose {
            event = .closed(code: peer.code, reason: peer.reason)
        } else if let mine = connection.session?.pendingClose, connection.session?.closeFrameRequested == true {
            event = .closed(code: mine.code, reason: mine.reason)
        } else if connection.session == nil {
            event = .failed("connection to \(connection.url) closed during the handshake")
        } else {
            event = .closed(code: nil, reason: "connection lost")
        }
        let actions = handler.handle(id, event)
        if core.phase != .finished { apply(actions) }
    }

    func connectionError(_ wsi: OpaquePointer?, message: String) {
        guard let wsi else { return }
        let id = connectionID(wsi)
        guard let connection = connections.removeValue(forKey: id) else { return }
        let why = message.isEmpty ? "connection failed" : message
        let actions = handler.handle(id, .failed("\(connection.url): \(why)"))
        if core.phase != .finished { apply(actions) }
    }

    // MARK: Actions

    private func apply(_ actions: [TransportAction]) {
        for action in actions {
            switch action {
            case .send(let id, let message):
                guard let session = connections[id]?.session, session.pendingClose == nil else { continue }
                session.enqueue(message)
                lws_callback_on_writable(session.wsi)
            case .close(let id, let code, let reason):
                guard let session = connections[id]?.session else { continue }
                requestClose(session, code: code, reason: reason, dropQueued: false)
            case .wake(let ids):
                for id in ids {
                    if let session = connections[id]?.session { lws_callback_on_writable(session.wsi) }
                }
            }
        }
    }

    private func requestClose(_ session: TransportSession, code: UInt16, reason: String, dropQueued: Bool) {
        session.requestClose(code: code, reason: reason, dropQueued: dropQueued, timeoutSeconds: drainTimeoutSeconds)
    }
}

/// What lws keeps pointers to for the client context's life: the protocol list and name.
private final class ClientSetup {
    let protocolName: UnsafeMutablePointer<CChar>
    let protocols: UnsafeMutablePointer<lws_protocols>

    init() {
        protocolName = strdup(ServiceConfiguration.subprotocol)!
        protocols = .allocate(capacity: 2)
        protocols.initialize(repeating: lws_protocols(), count: 2)
        protocols[0].name = UnsafePointer(protocolName)
        protocols[0].callback = canopyClientCallback
        protocols[0].rx_buffer_size = 64 << 10
        protocols[0].tx_packet_size = 256 << 10
    }

    deinit {
        protocols.deinitialize(count: 2)
        protocols.deallocate()
        free(protocolName)
    }
}
