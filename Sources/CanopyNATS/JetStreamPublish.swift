import CNATS
import Synchronization

/// JetStream's acknowledgement of a stored message.
public struct PubAck: Sendable, Equatable {
    public var stream: String
    /// The message's sequence in the stream (for a duplicate: the sequence of the message stored first).
    public var sequence: UInt64
    /// True when the message ID was seen within the duplicate window: nothing new was stored.
    public var duplicate: Bool

    public init(stream: String, sequence: UInt64, duplicate: Bool) {
        self.stream = stream
        self.sequence = sequence
        self.duplicate = duplicate
    }

    init(_ ack: UnsafePointer<jsPubAck>) {
        stream = ack.pointee.Stream.map { String(cString: $0) } ?? ""
        sequence = ack.pointee.Sequence
        duplicate = ack.pointee.Duplicate
    }
}

extension JetStream {
    /// Publishes one message to a stream's subject and waits for JetStream's acknowledgement: with an R3 stream on
    /// servers with `sync_interval: always`, the message is then on disk on at least two servers.
    ///
    /// - Parameters:
    ///   - msgID: the `Nats-Msg-Id` header. A second publish with the same ID within the stream's duplicate window
    ///     stores nothing and is acknowledged with `duplicate: true` (and the first message's sequence).
    ///   - expectedLastSubjectSequence: the `Nats-Expected-Last-Subject-Sequence` header: the stream stores the
    ///     message only if the last message on `subject` has this sequence (0: the subject has no message yet);
    ///     otherwise the publish fails with `.fenced`. nil: no check.
    ///   - timeout: how long to wait for the acknowledgement (default: the connection's `jetStreamTimeout`).
    /// - Throws: `PublishError`: `.fenced`, `.retryable` (no answer; may be stored) or `.failed`.
    @discardableResult
    public func publish(
        _ subject: String, payload: [UInt8], headers: NATSHeaders = NATSHeaders(), msgID: String? = nil,
        expectedLastSubjectSequence: UInt64? = nil, timeout: Duration? = nil
    ) throws(PublishError) -> PubAck {
        let what = "publish to \(subject)"
        let message: OpaquePointer
        do { message = try makeMessage(subject: subject, payload: payload, headers: headers, operation: what) } catch {
            throw .failed(error)
        }
        defer { natsMsg_Destroy(message) }
        return try withPublishOptions(msgID, expectedLastSubjectSequence, timeout) { (options) throws(PublishError) in
            var ack: UnsafeMutablePointer<jsPubAck>?
            var code = jsErrCode(0)
            let status = js_PublishMsg(&ack, context, message, &options, &code)
            guard status == NATS_OK, let ack else {
                let error = NATSError(what, status: status, jetStreamCode: Int(code.rawValue))
                throw PublishError.classify(error, subject: subject, expected: expectedLastSubjectSequence)
            }
            defer { jsPubAck_Destroy(ack) }
            return PubAck(ack)
        }
    }

    /// Publishes without waiting: `completion` is called once, with the acknowledgement or the error, exactly as
    /// `publish` would have returned or thrown. Several publishes may be in flight at once (to different subjects:
    /// publishes to one subject with an expected sequence must wait for each other's acknowledgement).
    ///
    /// `completion` runs on the thread of this context's reply subscription (one nats.c thread per JetStream
    /// context; timeouts are delivered there too), one completion at a time. Keep it short.
    /// - Throws: only when the message could not be sent at all (then `completion` is not called).
    public func publishAsync(
        _ subject: String, payload: [UInt8], headers: NATSHeaders = NATSHeaders(), msgID: String? = nil,
        expectedLastSubjectSequence: UInt64? = nil, timeout: Duration? = nil,
        completion: @escaping @Sendable (Result<PubAck, PublishError>) -> Void
    ) throws(PublishError) {
        let what = "publish to \(subject)"
        var message: OpaquePointer?
        do { message = try makeMessage(subject: subject, payload: payload, headers: headers, operation: what) } catch {
            throw .failed(error)
        }
        let key = UInt(bitPattern: message)
        pending.add(key, PendingPublishes.Entry(subject: subject, expected: expectedLastSubjectSequence,
                                                completion: completion))
        let wait = timeout ?? connection.options.jetStreamTimeout
        try withPublishOptions(msgID, expectedLastSubjectSequence, wait) { (options) throws(PublishError) in
            let status = js_PublishMsgAsync(context, &message, &options)  // on success nats.c owns the message
            guard status == NATS_OK else {
                let error = NATSError(what, status: status)
                // Still ours only if the ack handler has not taken it (nats.c reports success in that case).
                if pending.remove(key) != nil {
                    natsMsg_Destroy(message)
                    throw PublishError.classify(error, subject: subject, expected: expectedLastSubjectSequence)
                }
                return
            }
        }
    }

    /// Fails every asynchronous publish still waiting for its acknowledgement (as `.failed`, connection closed):
    /// call it after closing the connection, whose replies will then never come. Also done when the context goes.
    public func failPendingPublishes() {
        // nats.c 3.4.1 dereferences its pending map, created by the first asynchronous publish, without a check.
        guard pending.everUsed else { return }
        var list = natsMsgList()
        guard js_PublishAsyncGetPendingList(&list, context) == NATS_OK else { return }
        for index in 0..<Int(list.Count) {
            guard let message = list.Msgs[index] else { continue }
            if let entry = pending.remove(UInt(bitPattern: message)) {
                let error = NATSError("publish to \(entry.subject)", wrapper: "the JetStream context was closed")
                entry.completion(.failure(.failed(error)))
            }
        }
        natsMsgList_Destroy(&list)
    }

    /// Calls `body` with nats.c publish options for a message ID, expected subject sequence and timeout.
    private func withPublishOptions<R>(
        _ msgID: String?, _ expected: UInt64?, _ timeout: Duration?,
        _ body: (inout jsPubOptions) throws(PublishError) -> R
    ) throws(PublishError) -> R {
        try withOptionalCString(msgID) { (id) throws(PublishError) -> R in
            var options = jsPubOptions()
            jsPubOptions_Init(&options)
            options.MsgId = id
            if let expected {
                if expected == 0 { options.ExpectNoMessage = true } else { options.ExpectLastSubjectSeq = expected }
            }
            if let timeout { options.MaxWait = milliseconds(timeout) }
            return try body(&options)
        }
    }
}

/// The completions of asynchronous publishes in flight, by the address of their nats.c message.
final class PendingPublishes: Sendable {
    struct Entry: Sendable {
        let subject: String
        let expected: UInt64?
        let completion: @Sendable (Result<PubAck, PublishError>) -> Void
    }

    private let entries = Mutex<(byMessage: [UInt: Entry], everUsed: Bool)>(([:], false))

    /// The live registries by a number that nats.c gets as the ack handler's closure: a late callback after the
    /// context is gone finds no registry instead of a freed object.
    private static let registries = Mutex<(next: Int, byID: [Int: PendingPublishes])>((1, [:]))

    static func register(_ pending: PendingPublishes) -> Int {
        registries.withLock { state in
            let id = state.next
            state.next += 1
            state.byID[id] = pending
            return id
        }
    }

    static func unregister(_ id: Int) { _ = registries.withLock { $0.byID.removeValue(forKey: id) } }
    static func lookup(_ id: Int) -> PendingPublishes? { registries.withLock { $0.byID[id] } }

    func add(_ key: UInt, _ entry: Entry) {
        entries.withLock {
            $0.byMessage[key] = entry
            $0.everUsed = true
        }
    }

    func remove(_ key: UInt) -> Entry? { entries.withLock { $0.byMessage.removeValue(forKey: key) } }
    var everUsed: Bool { entries.withLock { $0.everUsed } }
}

/// nats.c's acknowledgement handler for asynchronous publishes (the context's reply-subscription thread). It owns
/// `message` and must destroy it.
func jetStreamAsyncAck(
    _ context: OpaquePointer?, _ message: OpaquePointer?, _ ack: UnsafeMutablePointer<jsPubAck>?,
    _ failure: UnsafeMutablePointer<jsPubAckErr>?, _ closure: UnsafeMutableRawPointer?
) {
    defer { natsMsg_Destroy(message) }
    guard let message, let pending = PendingPublishes.lookup(Int(bitPattern: closure)) else { return }
    guard let entry = pending.remove(UInt(bitPattern: message)) else { return }
    if let ack {
        entry.completion(.success(PubAck(ack)))
        return
    }
    let status = failure?.pointee.Err ?? NATS_ERR
    let code = Int(failure?.pointee.ErrCode.rawValue ?? 0)
    let text = failure?.pointee.ErrText.map { String(cString: $0) } ?? ""
    let error = NATSError("publish to \(entry.subject)", status: status, jetStreamCode: code, detail: text)
    entry.completion(.failure(PublishError.classify(error, subject: entry.subject, expected: entry.expected)))
}
