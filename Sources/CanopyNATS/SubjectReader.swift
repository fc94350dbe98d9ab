import CNATS
import Synchronization

/// Reads one subject of a stream in stream order, from a sequence on, and keeps following it as new messages are
/// stored: a JetStream *ordered consumer* (ephemeral, no acknowledgements, flow control and heartbeats; nats.c
/// recreates it from the next expected sequence when it sees a gap or misses heartbeats, for example when the
/// server holding it dies). Messages come with their headers and stream sequence.
///
/// `next` blocks the calling thread; calls are serialized, so one thread at a time reads. `close()` (or dropping
/// the reader) deletes the consumer.
public final class SubjectReader: Sendable {
    public let stream: String
    public let subject: String
    /// Kept alive while the reader is: nats.c recreates the ordered consumer through the context.
    let jetStream: JetStream
    private let lock = Mutex<UInt>(0)  // the subscription's address; 0 once closed

    init(jetStream: JetStream, stream: String, subject: String, from sequence: UInt64, heartbeat: Duration)
        throws(NATSError)
    {
        self.jetStream = jetStream
        let context = jetStream.context
        self.stream = stream
        self.subject = subject
        let what = "read \(subject) of \(stream) from \(sequence)"
        var subscription: OpaquePointer?
        var code = jsErrCode(0)
        let status = withOptionalCString(stream) { name in
            var options = jsSubOptions()
            jsSubOptions_Init(&options)
            options.Stream = name
            options.Ordered = true
            options.Config.Heartbeat = nanoseconds(heartbeat)
            if sequence > 1 {
                options.Config.DeliverPolicy = js_DeliverByStartSequence
                options.Config.OptStartSeq = sequence
            } else {
                options.Config.DeliverPolicy = js_DeliverAll
            }
            return js_SubscribeSync(&subscription, context, subject, nil, &options, &code)
        }
        guard status == NATS_OK, let subscription else {
            throw NATSError(what, status: status, jetStreamCode: Int(code.rawValue))
        }
        lock.withLock { $0 = UInt(bitPattern: subscription) }
    }

    deinit { close() }

    /// The next message on the subject, or nil when none arrives within `timeout`.
    public func next(timeout: Duration) throws(NATSError) -> NATSMessage? {
        try lock.withLock { (address) throws(NATSError) -> NATSMessage? in
            guard let subscription = OpaquePointer(bitPattern: address) else {
                throw NATSError("read \(subject)", wrapper: "the reader is closed")
            }
            var message: OpaquePointer?
            let status = natsSubscription_NextMsg(&message, subscription, milliseconds(timeout))
            if status == NATS_TIMEOUT { return nil }
            guard status == NATS_OK, let message else { throw NATSError("read \(subject)", status: status) }
            defer { natsMsg_Destroy(message) }
            return NATSMessage(copying: message)
        }
    }

    /// Ends the reading and deletes the ephemeral consumer. Idempotent.
    public func close() {
        lock.withLock { endSubscription(at: &$0) }
    }
}

extension JetStream {
    /// A reader of `subject` in `stream` from `sequence` on (1 or 0: from the beginning). `heartbeat` is how
    /// often the server signals an idle consumer; after two missed heartbeats nats.c recreates the consumer, so it
    /// bounds how long a reader stalls when the server holding its consumer dies.
    public func readSubject(stream: String, subject: String, from sequence: UInt64,
                            heartbeat: Duration = .seconds(2)) throws(NATSError) -> SubjectReader
    {
        try SubjectReader(jetStream: self, stream: stream, subject: subject, from: sequence, heartbeat: heartbeat)
    }

    /// Every message on `subject` from `sequence` up to the last one stored when the call starts, in order.
    /// Throws a timeout if a message takes longer than `timeout` to arrive.
    public func messages(stream: String, subject: String, from sequence: UInt64, timeout: Duration = .seconds(10))
        throws(NATSError) -> [NATSMessage]
    {
        guard let last = try lastMessage(stream: stream, subject: subject), last.sequence >= sequence else {
            return []
        }
        let reader = try readSubject(stream: stream, subject: subject, from: sequence)
        defer { reader.close() }
        var result: [NATSMessage] = []
        while result.last.map({ $0.sequence < last.sequence }) ?? true {
            guard let message = try reader.next(timeout: timeout) else {
                throw NATSError("read \(subject) of \(stream) up to \(last.sequence)", status: NATS_TIMEOUT)
            }
            result.append(message)
        }
        return result
    }
}

/// Unsubscribes and destroys the subscription whose address `address` holds, and sets it to 0; nothing if it is 0.
/// Call with the lock that guards `address` held.
func endSubscription(at address: inout UInt) {
    guard let handle = OpaquePointer(bitPattern: address) else { return }
    natsSubscription_Unsubscribe(handle)
    natsSubscription_Destroy(handle)
    address = 0
}
