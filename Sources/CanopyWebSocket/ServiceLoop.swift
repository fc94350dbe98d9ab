import CLibWebSockets
import Logging
import CanopySupport
import CanopyCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The daemon's libwebsockets service loop: one context and vhost serving WebSocket sessions on `/ws` (subprotocol
/// `canopy.v1`, or none) and HTTP on the same port (`/healthz`, `/metrics`, the example trees at `/examples/` and static
/// files from the web root).
///
/// `run()` services lws on the calling thread, which becomes the service thread: every `ConnectionHandler` call,
/// every session and every lws call happens there. Other threads only `post` work and `stop`.
///
/// Per session: incoming fragments are reassembled up to `maxMessageBytes` (over it: close 1009); binary frames are
/// treated like text frames (the JSON layer validates UTF-8 either way); outgoing messages queue up to
/// `maxQueueBytes` (over it: the queue is dropped and the session closed with 1008); a message with nothing ahead of
/// it is written at once, and otherwise each writeable callback writes as many as the socket takes (see
/// `TransportSession.canWriteAtOnce` and `writeNext`). A handler `.close` is sent after
/// the messages queued before it; sends after it are dropped, as are messages the client sends once its close is
/// pending. `stop()` drops queued messages and closes every session with 1001.
public final class ServiceLoop: @unchecked Sendable {  // lws state stays on the service thread; others post to `core`

    public let configuration: ServiceConfiguration
    /// The port actually listened on (the configured one, or the one the system picked for port 0).
    public private(set) var port = 0
    /// How the service thread waits for events: `configuration.eventLoop`, or `.poll` if libuv could not make a loop.
    public var eventLoop: EventLoopKind { core.eventLoop }
    /// What went wrong tearing the event loop down, once `run()` returned (nil: nothing; it is logged too).
    var teardownProblem: String? { core.teardownProblem }
    /// Sessions closed for a limit (1009, 1008) are logged at notice. Silent until set (before `run()`).
    public var logger = Logger(label: "canopyd.transport", factory: { _ in SwiftLogNoOpLogHandler() })

    let handler: any ConnectionHandler
    /// What answers plain HTTP requests besides `/healthz` (nil: 404).
    let routes: (any HTTPRoutes)?
    let originPolicy: OriginPolicy
    let hostPolicy: HostPolicy
    let memory: LibWebSocketsSetup
    /// The context, its thread, mailbox, phases and wake timers (shared with `ClientLoop`).
    private let core: LoopCore
    private(set) var sessions: [SessionID: TransportSession] = [:]
    /// Sessions whose close frame is set and that lws is to close at the next wake-up (`TransportSession.closeNow`).
    private var closesDue: [SessionID] = []
    /// What `/metrics` reports of the transport (service thread only).
    var counters = TransportCounters()
    /// How many times `run()` has called `lws_service` (service thread only).
    var passes: Int { core.passes }
    private var nextSessionID: SessionID = 1

    /// Creates the lws context and vhost and starts listening (connections are served once `run()` is called).
    public init(
        configuration: ServiceConfiguration, handler: any ConnectionHandler, routes: (any HTTPRoutes)? = nil
    ) throws {
        try configuration.validate()
        self.configuration = configuration
        self.handler = handler
        self.routes = routes
        originPolicy = OriginPolicy(
            allowedOrigins: configuration.allowedOrigins, loopbackOnly: configuration.isLoopback)
        hostPolicy = HostPolicy(allowedHosts: configuration.allowedHosts, loopbackOnly: configuration.isLoopback)
        memory = LibWebSocketsSetup(configuration)
        core = LoopCore(drainTimeoutSeconds: configuration.drainTimeoutSeconds, eventLoop: configuration.eventLoop)
        ServiceLoop.quietLibraryLogging()

        var options = UInt64(LWS_SERVER_OPTION_EXPLICIT_VHOSTS) | UInt64(LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND)
        if configuration.isIPv4 { options |= UInt64(LWS_SERVER_OPTION_DISABLE_IPV6) }
        if configuration.securityHeaders {
            options |= UInt64(LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE)
        }

        var contextInfo = lws_context_creation_info()
        contextInfo.options = options
        contextInfo.user = Unmanaged.passUnretained(self).toOpaque()
        contextInfo.server_string = UnsafePointer(memory.serverName)
        contextInfo.token_limits = UnsafePointer(memory.tokenLimits)
        contextInfo.max_http_header_data = LibWebSocketsSetup.headerSpace
        core.prepare(&contextInfo)
        guard let context = lws_create_context(&contextInfo), core.attach(context) else {
            let loop = core.eventLoop == .libuv ? " on libuv (is libwebsockets-evlib-uv installed?)" : ""
            throw ServiceLoopError(.contextFailed, "libwebsockets could not create its context\(loop)")
        }

        var vhostInfo = lws_context_creation_info()
        vhostInfo.options = options
        vhostInfo.port = Int32(configuration.port)
        vhostInfo.iface = UnsafePointer(memory.bindAddress)
        vhostInfo.vhost_name = UnsafePointer(memory.vhostName)
        vhostInfo.protocols = UnsafePointer(memory.protocols)
        vhostInfo.pvo = UnsafePointer(memory.protocolOptions)
        vhostInfo.retry_and_idle_policy = UnsafePointer(memory.retryPolicy)
        guard let vhost = lws_create_vhost(context, &vhostInfo) else {
            throw ServiceLoopError(
                .listenFailed,
                "cannot listen on \(configuration.host):\(configuration.port) (address in use, not local, or not permitted)"
            )
        }
        port = Int(lws_get_vhost_listen_port(vhost))
    }

    deinit {
        // Only reached with a live context if `run()` never ran: no connection was ever accepted.
        core.destroyUnusedContext()
    }

    /// How often the handler's `tick()` runs while it has deferred work (such as coalesced presence updates).
    static let tickIntervalMicroseconds: UInt64 = 50_000

    /// Services connections on the calling thread until `stop()` has closed every session (or the drain timeout
    /// passed), then destroys the lws context. Call once.
    public func run() {
        core.run(
            isDrained: { sessions.isEmpty }, hasDeferredWork: { handler.hasDeferredWork },
            tickInterval: ServiceLoop.tickIntervalMicroseconds * 1000, tick: { apply(handler.tick()) })
        finish()
    }

    /// Asks the loop to close every session with 1001 ("going away"), wait for the closes (at most
    /// `drainTimeoutSeconds`) and return from `run()`. Callable from any thread, any number of times, but not from
    /// inside a signal handler (it takes a mutex): use a signal-handling thread or a dispatch source.
    public func stop() {
        core.requestStop()
    }

    /// Runs `job` on the service thread and applies the actions it returns. Jobs posted after the loop finished are
    /// dropped.
    public func post(_ job: @escaping @Sendable () -> [TransportAction]) {
        core.post(job)
    }

    // MARK: - Service thread

    func assertOnServiceThread() {
        core.assertOnLoopThread()
    }

    /// Whether new WebSocket sessions are admitted (not while draining).
    var acceptsSessions: Bool { core.phase == .running }

    /// Woken by `lws_cancel_service`: runs posted jobs, and starts the shutdown once `stop()` was called.
    func drainMailbox() {
        assertOnServiceThread()
        let due = closesDue
        closesDue = []
        for id in due { sessions[id]?.closeNow() }
        let (jobs, stopRequested) = core.takeMail()
        for job in jobs { apply(job()) }
        guard stopRequested else { return }
        core.beginDrain()
        for session in sessions.values {
            requestClose(session, code: 1001, reason: "going away", dropQueued: true, cause: .shutdown)
        }
    }

    /// After `run()`: sessions still open were dropped by `lws_context_destroy` (no close frame); they got `closed`
    /// through the CLOSED callback, and any left over (belt and braces) get it now.
    private func finish() {
        if let problem = core.teardownProblem { logger.warning("event loop teardown: \(problem)") }
        let leftover = sessions.keys.sorted()
        for session in sessions.values { counters.disconnects[session.endedBy.rawValue] += 1 }
        sessions.removeAll()
        for id in leftover { _ = handler.closed(id) }
    }

    // MARK: Sessions

    /// ESTABLISHED: registers the session and tells the handler.
    func sessionOpened(_ wsi: OpaquePointer, user: UnsafeMutableRawPointer?) -> Int32 {
        assertOnServiceThread()
        guard let user, core.phase == .running else { return -1 }
        let id = nextSessionID
        nextSessionID += 1
        user.storeBytes(of: id, as: SessionID.self)
        let session = TransportSession(id: id, wsi: wsi, writesInPlace: true)
        session.lastHeard = monotonicNanoseconds()
        sessions[id] = session
        counters.connectionsTotal += 1
        var peer = [CChar](repeating: 0, count: 128)
        let peerName = peer.withUnsafeMutableBufferPointer { buffer in
            lws_get_peer_simple(wsi, buffer.baseAddress, buffer.count - 1).map { String(cString: $0) } ?? ""
        }
        apply(handler.opened(id, peer: peerName))
        return 0
    }

    /// RECEIVE: one fragment (or part of one) of a message.
    func sessionReceived(user: UnsafeMutableRawPointer?, _ data: UnsafeRawBufferPointer, final: Bool) -> Int32 {
        assertOnServiceThread()
        guard let session = session(for: user) else { return -1 }
        session.lastHeard = monotonicNanoseconds()
        if !checkUTF8(session, data, final: final) {
            logger.notice("s\(session.id): text message is not UTF-8: closing with 1007")
            session.closeAtOnce(code: 1007, reason: "invalid UTF-8")
            return -1  // lws sends the close frame now; CLOSED follows
        }
        switch session.receive(data, final: final, limit: configuration.maxMessageBytes) {
        case .partial:
            return 0
        case .tooBig:
            session.endedBy = .tooLarge
            logger.notice("s\(session.id): message over \(configuration.maxMessageBytes) bytes: closing with 1009")
            return -1  // lws sends the close frame now; CLOSED follows
        case .message(let message):
            counters.messagesReceived += 1
            counters.bytesReceived += message.count
            apply(handler.received(session.id, message: message))
            return 0
        }
    }

    /// Whether a piece of a message keeps a text message UTF-8 (RFC 6455 8.1: otherwise close with 1007), checked as
    /// it arrives so a character may straddle fragments. Binary messages are not checked here: the JSON layer refuses
    /// them with `bad_json` if they are not UTF-8 (docs/security.md).
    private func checkUTF8(_ session: TransportSession, _ data: UnsafeRawBufferPointer, final: Bool) -> Bool {
        if session.pendingClose != nil || session.closeFrameRequested { return true }
        let isText = session.receivingText ?? (lws_frame_is_binary(session.wsi) == 0)
        session.receivingText = final ? nil : isText
        guard isText else { return true }
        defer { if final { session.utf8 = UTF8Validator() } }
        return session.utf8.consume(data) && (!final || session.utf8.isComplete)
    }

    /// RECEIVE_PONG: the peer is alive.
    func sessionPonged(user: UnsafeMutableRawPointer?) {
        session(for: user)?.lastHeard = monotonicNanoseconds()
    }

    /// WS_PEER_INITIATED_CLOSE: lws echoes the peer's close unless the payload breaks RFC 6455, which is answered
    /// with 1002 (or 1007 for a reason that is not UTF-8) instead; returns what the callback returns.
    func sessionPeerClosing(user: UnsafeMutableRawPointer?, payload: UnsafeRawBufferPointer) -> Int32 {
        assertOnServiceThread()
        guard let session = session(for: user) else { return 0 }
        session.peerSentClose = true
        guard let violation = PeerClose.violation(payload) else { return 0 }
        logger.notice("s\(session.id): \(violation.reason): closing with \(violation.code)")
        session.closeAtOnce(code: violation.code, reason: violation.reason)
        return -1  // lws sends our close frame instead of the echo
    }

    /// SERVER_WRITEABLE: writes queued messages, or has the pending close sent once the queue is empty.
    func sessionWriteable(user: UnsafeMutableRawPointer?) -> Int32 {
        assertOnServiceThread()
        guard let session = session(for: user) else { return 0 }
        session.hasBeenWriteable = true
        var written = TransportSession.Written()
        let status = session.writeNext(written: &written)
        counters.messagesSent += written.messages
        counters.bytesSent += written.bytes
        if session.closeDue {
            closesDue.append(session.id)
            core.wakeSoon()
        }
        return status
    }

    /// WS_SERVER_DROP_PROTOCOL: lws is closing the connection and has not yet decided whether to send a close frame.
    func sessionDropping(user: UnsafeMutableRawPointer?) {
        assertOnServiceThread()
        guard let session = session(for: user), droppedForAProtocolError(session) else { return }
        logger.notice("s\(session.id): lws refused a frame without a close code: closing with 1002")
        session.closeAtOnce(code: 1002, reason: "protocol error")
    }

    /// CLOSED: the connection is gone, whoever closed it.
    func sessionClosed(user: UnsafeMutableRawPointer?) {
        assertOnServiceThread()
        guard let session = session(for: user) else { return }
        user?.storeBytes(of: 0, as: SessionID.self)
        sessions[session.id] = nil
        counters.disconnects[session.endedBy.rawValue] += 1
        let actions = handler.closed(session.id)
        if core.phase != .finished { apply(actions) }
    }

    /// Whether lws is closing `session` for a frame it refused without setting a close code (a control frame longer
    /// than 125 bytes, a length with its top bit set): it tells the application only through the DROP_PROTOCOL
    /// callback, which runs before lws decides whether to send a close frame, so setting a code there makes it send
    /// 1002 instead of dropping the connection. Every other way of getting here is ruled out: the server or the peer closed
    /// (their close is set or echoed), lws set a code itself (`lws_get_close_length`), the peer is gone (end of
    /// stream or reset on the socket), the idle timeout (nothing heard for `idleTimeoutSeconds`), or the shutdown.
    /// See docs/security.md.
    private func droppedForAProtocolError(_ session: TransportSession) -> Bool {
        guard core.phase == .running, session.pendingClose == nil, !session.closeFrameRequested, !session.peerSentClose,
            lws_get_close_length(session.wsi) == 0
        else { return false }
        let quiet = monotonicNanoseconds() - session.lastHeard
        if quiet >= UInt64(configuration.idleTimeoutSeconds) * 1_000_000_000 { return false }
        var byte: UInt8 = 0
        let peeked = recv(lws_get_socket_fd(session.wsi), &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return peeked > 0 || (peeked < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
    }

    private func session(for user: UnsafeMutableRawPointer?) -> TransportSession? {
        guard let user else { return nil }
        let id = user.load(as: SessionID.self)
        return id == 0 ? nil : sessions[id]
    }

    // MARK: Actions

    /// Applies the handler's actions in order.
    func apply(_ actions: [TransportAction]) {
        for action in actions {
            switch action {
            case .send(let id, let message):
                guard let session = sessions[id], session.pendingClose == nil else { continue }
                // An update that only its latest matters of (presence) replaces the one still waiting, and never
                // closes a session: over the limit it is dropped, and the next one will carry the news.
                if let key = message.supersedes {
                    let behindNext = session.queuedBytes - session.nextMessageBytes
                    if session.isWaiting(key) || behindNext + message.count <= configuration.maxQueueBytes {
                        session.enqueue(message)
                        flush(session)
                    }
                    continue
                }
                // The limit counts what waits behind the next message to write, so one message larger than the limit
                // (a big tree's snapshot) does not make the small one after it (its presence update) an overflow.
                if session.hasQueuedMessages
                    && session.queuedBytes - session.nextMessageBytes + message.count > configuration.maxQueueBytes
                {
                    logger.notice(
                        "s\(session.id): outgoing queue over \(configuration.maxQueueBytes) bytes (a slow reader): closing with 1008"
                    )
                    requestClose(session, code: 1008, reason: "outgoing queue overflow", dropQueued: true, cause: .slow)
                    continue
                }
                session.enqueue(message)
                flush(session)
            case .close(let id, let code, let reason):
                guard let session = sessions[id] else { continue }
                requestClose(session, code: code, reason: reason, dropQueued: false, cause: .unauthorized)
            case .wake(let ids):
                for id in ids { if let session = sessions[id] { lws_callback_on_writable(session.wsi) } }
            }
        }
    }

    /// Writes the message just queued to `session` at once when nothing is ahead of it (`canWriteAtOnce`), else asks
    /// lws for a writeable callback.
    private func flush(_ session: TransportSession) {
        guard session.canWriteAtOnce else {
            lws_callback_on_writable(session.wsi)
            return
        }
        var written = TransportSession.Written()
        let status = session.writeNext(written: &written)
        counters.messagesSent += written.messages
        counters.bytesSent += written.bytes
        if status < 0 { session.dropSoon() }
    }

    /// Closes `session` after its queue (or at once, dropping it); see `TransportSession.requestClose`. While
    /// draining the drain timeout applies instead of the close timeout. `cause` is what the metrics count the end of
    /// the session as, if this is the first close asked for.
    private func requestClose(
        _ session: TransportSession, code: UInt16, reason: String, dropQueued: Bool, cause: DisconnectReason
    ) {
        if session.pendingClose == nil && !session.closeFrameRequested { session.endedBy = cause }
        let timeout = core.phase == .draining ? configuration.drainTimeoutSeconds : configuration.closeTimeoutSeconds
        session.requestClose(code: code, reason: reason, dropQueued: dropQueued, timeoutSeconds: timeout)
    }

    // MARK: Helpers

    private static func quietLibraryLogging() {
        lws_set_log_level(Int32(LLL_ERR) | Int32(LLL_WARN), nil)
    }
}
