import CanopyCore
import CanopySupport
import CanopyWebSocket

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One WebSocket connection to canopyd used from ordinary (blocking) code: the CLI, scripts, tests. A `ClientLoop`
/// runs on its own thread; `send` hands messages to it, `receive` waits for the next one.
public final class BlockingClient: @unchecked Sendable {  // state shared with the loop's thread is in `inbox`
    private let loop: ClientLoop
    private let inbox: Inbox
    private let connection: ConnectionID
    private var thread: pthread_t?

    /// Connects to `url` and waits (at most `timeout` seconds) until the connection is open.
    public init(url: WebSocketURL, timeout: Double = 5, maxMessageBytes: Int = 512 << 20) throws(ClientError) {
        inbox = Inbox()
        loop = try ClientLoop(handler: inbox, maxMessageBytes: maxMessageBytes, drainTimeoutSeconds: 2)
        connection = loop.connect(url)
        thread = try Self.startThread(loop)
        switch inbox.waitForOpen(timeout: timeout) {
        case .open:
            break
        case .failed(let why):
            close()
            throw ClientError(.client, why)
        case .timedOut:
            close()
            throw ClientError(.client, "no answer from \(url) within \(Self.seconds(timeout))")
        }
    }

    deinit { close() }

    /// Queues `message` (a JSON text) for sending.
    public func send(bytes message: [UInt8]) {
        let id = connection
        let outgoing = OutgoingMessage(bytes: message)
        loop.post { [.send(id, outgoing)] }
    }

    public func send(_ message: JSON) {
        var bytes: [UInt8] = []
        message.write(into: &bytes)
        send(bytes: bytes)
    }

    /// The next message, parsed; nil if none arrived within `timeout` seconds (nil: wait for ever). Throws once the
    /// connection is closed and every message that came before the close was received.
    public func receive(timeout: Double? = nil) throws(ClientError) -> JSON? {
        guard let bytes = try receiveBytes(timeout: timeout) else { return nil }
        do {
            return try JSONParser.parse(bytes: bytes, maxDepth: 4096)  // as deep as any daemon configuration allows
        } catch {
            throw ClientError(.client, "the server sent a message that is not JSON: \(error)")
        }
    }

    public func receiveBytes(timeout: Double? = nil) throws(ClientError) -> [UInt8]? {
        switch inbox.next(timeout: timeout) {
        case .message(let bytes): return bytes
        case .timedOut: return nil
        case .closed(let code, let reason):
            let shown = code.map { "\($0)" } ?? "no close code"
            throw ClientError(
                .client, "the server closed the connection (\(shown)\(reason.isEmpty ? "" : ": \(reason)"))")
        }
    }

    /// Closes the connection (code 1000) and waits for the loop's thread to finish. Idempotent.
    public func close() {
        guard let thread else { return }
        self.thread = nil
        loop.stop()
        pthread_join(thread, nil)
    }

    private static func seconds(_ t: Double) -> String { t == t.rounded() ? "\(Int(t)) s" : "\(t) s" }

    private static func startThread(_ loop: ClientLoop) throws(ClientError) -> pthread_t {
        let box = Unmanaged.passRetained(loop).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, canopyBlockingClientThread, box)
        guard status == 0 else {
            Unmanaged<ClientLoop>.fromOpaque(box).release()
            throw ClientError(.client, "cannot start the client thread (error \(status))")
        }
        return thread
    }

    /// Receives the loop's events; `BlockingClient` waits on it. Messages stay in order; the close comes last.
    private final class Inbox: ClientHandler, @unchecked Sendable {  // all state behind `mutex`/`condition`
        enum OpenState {
            case open
            case failed(String)
            case timedOut
        }
        enum Next {
            case message([UInt8])
            case closed(UInt16?, String)
            case timedOut
        }

        private var opened = false
        private var failure: String?
        private var messages: [[UInt8]] = []
        private var head = 0
        private var closed: (code: UInt16?, reason: String)?
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

        init() {
            pthread_mutex_init(mutex, nil)
            var attributes = pthread_condattr_t()
            pthread_condattr_init(&attributes)
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
            pthread_cond_init(condition, &attributes)
            pthread_condattr_destroy(&attributes)
        }

        deinit {
            pthread_cond_destroy(condition)
            pthread_mutex_destroy(mutex)
            condition.deallocate()
            mutex.deallocate()
        }

        func handle(_ connection: ConnectionID, _ event: ClientEvent) -> [TransportAction] {
            pthread_mutex_lock(mutex)
            switch event {
            case .opened: opened = true
            case .message(let bytes): messages.append(bytes)
            case .closed(let code, let reason): closed = (code, reason)
            case .failed(let why): failure = why
            }
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
            return []
        }

        func waitForOpen(timeout: Double) -> OpenState {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            let deadline = Self.deadline(after: timeout)
            while true {
                if opened { return .open }
                if let failure { return .failed(failure) }
                if let closed { return .failed("the server closed the connection during the handshake (\(closed))") }
                if wait(until: deadline) == false { return .timedOut }
            }
        }

        func next(timeout: Double?) -> Next {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            let deadline = timeout.map(Self.deadline(after:))
            while true {
                if head < messages.count {
                    let message = messages[head]
                    head += 1
                    if head == messages.count {
                        messages.removeAll(keepingCapacity: true)
                        head = 0
                    }
                    return .message(message)
                }
                if let closed { return .closed(closed.code, closed.reason) }
                if let failure { return .closed(nil, failure) }
                if let deadline {
                    if wait(until: deadline) == false { return .timedOut }
                } else {
                    pthread_cond_wait(condition, mutex)
                }
            }
        }

        /// Waits for a broadcast or the deadline; false once the deadline has passed. Holds `mutex`.
        private func wait(until deadline: timespec) -> Bool {
            var until = deadline
            return pthread_cond_timedwait(condition, mutex, &until) != ETIMEDOUT
        }

        private static func deadline(after seconds: Double) -> timespec {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let total = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 + max(0, seconds)
            let whole = total.rounded(.down)
            return timespec(tv_sec: Int(whole), tv_nsec: Int((total - whole) * 1e9))
        }
    }
}

/// The blocking client's loop thread: runs the loop it was handed (retained by `startThread`) until it stops.
private func canopyBlockingClientThread(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let argument else { return nil }
    let loop = Unmanaged<ClientLoop>.fromOpaque(argument).takeRetainedValue()
    loop.run()
    return nil
}
