import CNATS

/// A stream to create or keep: Canopy's batch log (one subject per tree) or a snapshot stream.
public struct StreamConfig: Sendable, Equatable {
    public enum Storage: Sendable, Equatable { case file, memory }

    public var name: String
    public var subjects: [String]
    /// How many servers hold it (1, 3 or 5). An R3 stream acknowledges once two servers have the message.
    public var replicas: Int
    public var storage: Storage
    /// How long message IDs are remembered for deduplication (JetStream's default is 2 minutes).
    public var duplicateWindow: Duration
    /// The largest message the stream takes, or nil for the server's limit (1 MiB by default).
    public var maxMessageSize: Int32?
    /// Lets any replica answer direct gets (`lastMessage`, `message(at:)`). Such answers may lag the leader.
    public var allowDirect: Bool

    public init(name: String, subjects: [String], replicas: Int = 3, storage: Storage = .file,
                duplicateWindow: Duration = .seconds(120), maxMessageSize: Int32? = nil, allowDirect: Bool = false)
    {
        self.name = name
        self.subjects = subjects
        self.replicas = replicas
        self.storage = storage
        self.duplicateWindow = duplicateWindow
        self.maxMessageSize = maxMessageSize
        self.allowDirect = allowDirect
    }
}

/// What the server says about a stream.
public struct StreamInfo: Sendable {
    public struct Peer: Sendable {
        public var name: String
        public var current: Bool
        public var offline: Bool
    }

    public var name: String
    public var messages: UInt64
    public var firstSequence: UInt64
    public var lastSequence: UInt64
    /// The server name of the stream's leader ("" while there is none, or for a stream outside a cluster).
    public var leader: String
    /// The other replicas, as the leader sees them.
    public var replicas: [Peer]

    init(_ info: UnsafeMutablePointer<jsStreamInfo>) {
        name = info.pointee.Config?.pointee.Name.map { String(cString: $0) } ?? ""
        messages = info.pointee.State.Msgs
        firstSequence = info.pointee.State.FirstSeq
        lastSequence = info.pointee.State.LastSeq
        leader = ""
        replicas = []
        if let cluster = info.pointee.Cluster {
            leader = cluster.pointee.Leader.map { String(cString: $0) } ?? ""
            for index in 0..<Int(cluster.pointee.ReplicasLen) {
                guard let peer = cluster.pointee.Replicas?[index] else { continue }
                replicas.append(
                    Peer(name: peer.pointee.Name.map { String(cString: $0) } ?? "", current: peer.pointee.Current,
                         offline: peer.pointee.Offline))
            }
        }
    }
}

/// The JetStream context of a connection: streams, publishes, reads, key-value buckets.
///
/// Thread-safe: every method may be called from any thread, concurrently. Blocking methods wait at most their
/// timeout (by default the connection's `jetStreamTimeout`). Asynchronous publishes complete on nats.c threads
/// (see `publishAsync`).
public final class JetStream: @unchecked Sendable {  // the jsCtx is used only through nats.c's locked API
    public let connection: NATSConnection
    let context: OpaquePointer
    let pending: PendingPublishes
    private let pendingID: Int

    /// A JetStream context on `connection`.
    public init(_ connection: NATSConnection) throws(NATSError) {
        self.connection = connection
        let pending = PendingPublishes()
        self.pending = pending
        let id = PendingPublishes.register(pending)
        var options = jsOptions()
        var status = jsOptions_Init(&options)
        options.Wait = milliseconds(connection.options.jetStreamTimeout)
        options.PublishAsync.AckHandler = jetStreamAsyncAck
        options.PublishAsync.AckHandlerClosure = UnsafeMutableRawPointer(bitPattern: id)
        var context: OpaquePointer?
        if status == NATS_OK { status = natsConnection_JetStream(&context, connection.handle, &options) }
        guard status == NATS_OK, let context else {
            let error = NATSError("JetStream context", status: status)
            PendingPublishes.unregister(id)
            throw error
        }
        self.context = context
        pendingID = id
    }

    deinit {
        failPendingPublishes()
        jsCtx_Destroy(context)
        PendingPublishes.unregister(pendingID)
    }

    // MARK: Streams

    /// Creates the stream, or updates it to `config` if it exists with another configuration, and waits (up to the
    /// connection's `jetStreamTimeout`) until it has a leader; returns its info.
    ///
    /// Even then a first publish can meet no responders for a moment, while the leader's interest in the subjects
    /// reaches the other servers: such failures are `.retryable`. A timeout here (for example during an election of
    /// the meta leader) is transient too (`isTransient`): call again.
    @discardableResult
    public func ensureStream(_ config: StreamConfig) throws(NATSError) -> StreamInfo {
        let info = try addOrUpdateStream(config)
        return info.leader.isEmpty ? try waitForLeader(stream: config.name, replicas: config.replicas) : info
    }

    /// Polls the stream's info until it names a leader (a replicated stream elects one after its creation).
    @discardableResult
    func waitForLeader(stream: String, replicas: Int) throws(NATSError) -> StreamInfo {
        let clock = ContinuousClock()
        let deadline = clock.now + connection.options.jetStreamTimeout
        var info = try streamInfo(stream)
        while info.leader.isEmpty && replicas > 1 {
            guard clock.now < deadline else {
                throw NATSError("stream \(stream)", wrapper: "the stream has no leader yet")
            }
            nats_Sleep(10)
            info = try streamInfo(stream)
        }
        return info
    }

    private func addOrUpdateStream(_ config: StreamConfig) throws(NATSError) -> StreamInfo {
        let what = "ensure stream \(config.name)"
        return try withCStringArray(config.subjects) { (subjects) throws(NATSError) -> StreamInfo in
            var stream = jsStreamConfig()
            jsStreamConfig_Init(&stream)
            return try withOptionalCString(config.name) { (name) throws(NATSError) -> StreamInfo in
                stream.Name = name
                stream.Subjects = subjects
                stream.SubjectsLen = Int32(config.subjects.count)
                stream.Replicas = Int64(config.replicas)
                stream.Storage = config.storage == .file ? js_FileStorage : js_MemoryStorage
                stream.Duplicates = nanoseconds(config.duplicateWindow)
                stream.MaxMsgSize = config.maxMessageSize ?? -1
                stream.AllowDirect = config.allowDirect
                var info: UnsafeMutablePointer<jsStreamInfo>?
                var code = jsErrCode(0)
                var status = js_AddStream(&info, context, &stream, nil, &code)
                if status != NATS_OK && code == JSStreamNameExistErr {
                    code = jsErrCode(0)
                    status = js_UpdateStream(&info, context, &stream, nil, &code)
                }
                guard status == NATS_OK, let info else {
                    throw NATSError(what, status: status, jetStreamCode: Int(code.rawValue))
                }
                defer { jsStreamInfo_Destroy(info) }
                return StreamInfo(info)
            }
        }
    }

    /// The stream's state and cluster placement (its leader).
    public func streamInfo(_ name: String) throws(NATSError) -> StreamInfo {
        var info: UnsafeMutablePointer<jsStreamInfo>?
        var code = jsErrCode(0)
        let status = js_GetStreamInfo(&info, context, name, nil, &code)
        guard status == NATS_OK, let info else {
            throw NATSError("stream info \(name)", status: status, jetStreamCode: Int(code.rawValue))
        }
        defer { jsStreamInfo_Destroy(info) }
        return StreamInfo(info)
    }

    public func deleteStream(_ name: String) throws(NATSError) {
        var code = jsErrCode(0)
        let status = js_DeleteStream(context, name, nil, &code)
        guard status == NATS_OK else {
            throw NATSError("delete stream \(name)", status: status, jetStreamCode: Int(code.rawValue))
        }
    }

    // MARK: Reading single messages

    /// The last message stored on `subject` (its `sequence` is what the next fenced publish expects), or nil when
    /// the subject has none. Asked of the stream's leader, so it sees every acknowledged publish.
    public func lastMessage(stream: String, subject: String) throws(NATSError) -> NATSMessage? {
        var message: OpaquePointer?
        var code = jsErrCode(0)
        let status = js_GetLastMsg(&message, context, stream, subject, nil, &code)
        if status == NATS_NOT_FOUND { return nil }
        guard status == NATS_OK, let message else {
            throw NATSError(
                "last message of \(subject) in \(stream)", status: status, jetStreamCode: Int(code.rawValue))
        }
        defer { natsMsg_Destroy(message) }
        return NATSMessage(copying: message)
    }

    /// The message at `sequence` in the stream, or nil when there is none (never stored, deleted, or aged out).
    public func message(stream: String, sequence: UInt64) throws(NATSError) -> NATSMessage? {
        var message: OpaquePointer?
        var code = jsErrCode(0)
        let status = js_GetMsg(&message, context, stream, sequence, nil, &code)
        if status == NATS_NOT_FOUND { return nil }
        guard status == NATS_OK, let message else {
            throw NATSError("message \(sequence) of \(stream)", status: status, jetStreamCode: Int(code.rawValue))
        }
        defer { natsMsg_Destroy(message) }
        return NATSMessage(copying: message)
    }
}
