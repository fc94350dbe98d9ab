import CNATS
import Synchronization

/// A request a responder received. Reply to it once, from any thread, whenever the answer is ready (an owner
/// replies to a forwarded edit after JetStream acknowledged it).
public struct NATSRequest: Sendable {
    public let message: NATSMessage
    let connection: NATSConnection

    /// Sends the reply. A request without a reply subject (a plain publish) has nobody to answer: an error.
    public func reply(payload: [UInt8], headers: NATSHeaders = NATSHeaders()) throws(NATSError) {
        guard !message.reply.isEmpty else {
            throw NATSError("reply to \(message.subject)", wrapper: "the message has no reply subject")
        }
        try connection.publish(message.reply, payload: payload, headers: headers)
    }
}

/// A subscription that hands requests to a handler; `stop()` (or dropping it) unsubscribes.
public final class Responder: Sendable {
    public let subject: String
    private let subscription: Mutex<UInt>  // the subscription's address; 0 once stopped

    init(subject: String, subscription: OpaquePointer) {
        self.subject = subject
        self.subscription = Mutex(UInt(bitPattern: subscription))
    }

    deinit { stop() }

    /// Unsubscribes. A handler call under way finishes; none starts after it returns. Idempotent.
    public func stop() {
        subscription.withLock { endSubscription(at: &$0) }
    }
}

/// The handler of a responder, handed to nats.c as the subscription's closure; released when the subscription
/// has delivered its last message (nats.c's on-complete callback).
final class RequestHandlerBox: Sendable {
    let connection: NATSConnection
    let handler: @Sendable (NATSRequest) -> Void
    init(_ connection: NATSConnection, _ handler: @escaping @Sendable (NATSRequest) -> Void) {
        self.connection = connection
        self.handler = handler
    }
}

extension NATSConnection {
    /// Publishes a plain (non-JetStream) message: fire and forget, buffered while reconnecting.
    public func publish(_ subject: String, payload: [UInt8], headers: NATSHeaders = NATSHeaders())
        throws(NATSError)
    {
        let message = try makeMessage(subject: subject, payload: payload, headers: headers,
                                      operation: "publish to \(subject)")
        defer { natsMsg_Destroy(message) }
        let status = natsConnection_PublishMsg(handle, message)
        guard status == NATS_OK else { throw NATSError("publish to \(subject)", status: status) }
    }

    /// Sends a request and waits for the first reply. Errors: `isNoResponders` (nobody subscribes to the subject:
    /// answered at once by the server), `isTimeout` (nobody answered in time: the request may have been handled).
    public func request(_ subject: String, payload: [UInt8], headers: NATSHeaders = NATSHeaders(),
                        timeout: Duration) throws(NATSError) -> NATSMessage
    {
        let what = "request to \(subject)"
        let message = try makeMessage(subject: subject, payload: payload, headers: headers, operation: what)
        defer { natsMsg_Destroy(message) }
        var reply: OpaquePointer?
        let status = natsConnection_RequestMsg(&reply, handle, message, milliseconds(timeout))
        guard status == NATS_OK, let reply else { throw NATSError(what, status: status) }
        defer { natsMsg_Destroy(reply) }
        return NATSMessage(copying: reply)
    }

    /// Subscribes `handler` to `subject` (wildcards allowed). With a `queue` group, each request goes to one member
    /// of the group only. The handler runs on the subscription's own nats.c delivery thread, one request at a time
    /// in arrival order; a slow handler delays the next requests (reply later from another thread if needed).
    public func respond(to subject: String, queue: String? = nil,
                        handler: @escaping @Sendable (NATSRequest) -> Void) throws(NATSError) -> Responder
    {
        let box = Unmanaged.passRetained(RequestHandlerBox(self, handler)).toOpaque()
        var subscription: OpaquePointer?
        var status: natsStatus
        if let queue {
            status = natsConnection_QueueSubscribe(&subscription, handle, subject, queue, natsRequestArrived, box)
        } else {
            status = natsConnection_Subscribe(&subscription, handle, subject, natsRequestArrived, box)
        }
        guard status == NATS_OK, let subscription else {
            let error = NATSError("respond to \(subject)", status: status)
            Unmanaged<RequestHandlerBox>.fromOpaque(box).release()
            throw error
        }
        status = natsSubscription_SetOnCompleteCB(subscription, natsHandlerComplete, box)
        guard status == NATS_OK else {
            // Without the on-complete callback the box could not be released safely: keep it (a small leak).
            let error = NATSError("respond to \(subject)", status: status)
            natsSubscription_Unsubscribe(subscription)
            natsSubscription_Destroy(subscription)
            throw error
        }
        return Responder(subject: subject, subscription: subscription)
    }
}

/// nats.c's message handler of a responder (the subscription's delivery thread).
private func natsRequestArrived(
    _ connection: OpaquePointer?, _ subscription: OpaquePointer?, _ message: OpaquePointer?,
    _ closure: UnsafeMutableRawPointer?
) {
    guard let message else { return }
    defer { natsMsg_Destroy(message) }
    guard let closure else { return }
    let box = Unmanaged<RequestHandlerBox>.fromOpaque(closure).takeUnretainedValue()
    box.handler(NATSRequest(message: NATSMessage(copying: message), connection: box.connection))
}

/// nats.c's on-complete callback: the subscription will call the handler no more.
private func natsHandlerComplete(_ closure: UnsafeMutableRawPointer?) {
    guard let closure else { return }
    Unmanaged<RequestHandlerBox>.fromOpaque(closure).release()
}
