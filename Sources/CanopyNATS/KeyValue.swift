import CNATS

/// A JetStream key-value bucket to create or keep (for example the tree leases).
public struct KeyValueConfig: Sendable, Equatable {
    public var bucket: String
    public var replicas: Int
    /// How long a value lives after its last write; nil for ever. Leases use it: a holder that stops renewing
    /// (updating) its key loses it after `ttl`, and then anyone's `create` succeeds.
    public var ttl: Duration?
    /// How many values per key are kept (1: only the latest).
    public var history: UInt8
    public var storage: StreamConfig.Storage

    public init(bucket: String, replicas: Int = 3, ttl: Duration? = nil, history: UInt8 = 1,
                storage: StreamConfig.Storage = .file)
    {
        self.bucket = bucket
        self.replicas = replicas
        self.ttl = ttl
        self.history = history
        self.storage = storage
    }
}

/// A key's current value and its revision (the sequence of the write in the bucket's stream).
public struct KeyValueEntry: Sendable, Equatable {
    public var key: String
    public var value: [UInt8]
    public var revision: UInt64
}

/// A key-value bucket: a JetStream stream `KV_<bucket>` with one subject per key, `$KV.<bucket>.<key>`.
///
/// `create`, `update` and a checked `delete` are compare-and-set writes decided by the stream's leader, so two
/// daemons racing for a key cannot both win. `get` may be answered by any replica (direct get) and can lag the
/// latest write by a moment: use it to look, and the checked writes to decide. Thread-safe.
public final class KeyValue: @unchecked Sendable {  // the kvStore is used only through nats.c's locked API
    public let bucket: String
    let jetStream: JetStream
    let store: OpaquePointer
    var streamName: String { "KV_\(bucket)" }

    init(jetStream: JetStream, config: KeyValueConfig) throws(NATSError) {
        self.jetStream = jetStream
        bucket = config.bucket
        var store: OpaquePointer?
        let status = withOptionalCString(config.bucket) { name in
            var kv = kvConfig()
            kvConfig_Init(&kv)
            kv.Bucket = name
            kv.Replicas = Int32(config.replicas)
            kv.TTL = config.ttl.map(nanoseconds) ?? 0
            kv.History = config.history
            kv.StorageType = config.storage == .file ? js_FileStorage : js_MemoryStorage
            return js_CreateKeyValue(&store, jetStream.context, &kv)
        }
        guard status == NATS_OK, let store else { throw NATSError("ensure bucket \(config.bucket)", status: status) }
        self.store = store
    }

    deinit { kvStore_Destroy(store) }

    /// The key's value, or nil when it has none (never written, deleted, or expired).
    public func get(_ key: String) throws(NATSError) -> KeyValueEntry? {
        try Self.check(key, "get \(key) in \(bucket)")
        var entry: OpaquePointer?
        let status = kvStore_Get(&entry, store, key)
        if status == NATS_NOT_FOUND { return nil }
        guard status == NATS_OK, let entry else { throw NATSError("get \(key) in \(bucket)", status: status) }
        defer { kvEntry_Destroy(entry) }
        let count = Int(kvEntry_ValueLen(entry))
        var value: [UInt8] = []
        if count > 0, let bytes = kvEntry_Value(entry) {
            value = Array(UnsafeRawBufferPointer(start: bytes, count: count))
        }
        return KeyValueEntry(key: key, value: value, revision: kvEntry_Revision(entry))
    }

    /// Writes the key only if it has no value (never written, deleted, or expired); returns the new revision.
    /// - Throws: `.exists` when it has one.
    @discardableResult
    public func create(_ key: String, value: [UInt8]) throws(KeyValueError) -> UInt64 {
        do { return try write(key, value, expected: 0) } catch .wrongRevision(_, _, let error) {
            // The key's last entry may be a delete marker, which counts as no value: take its place instead.
            let last: NATSMessage?
            do { last = try jetStream.lastMessage(stream: streamName, subject: subject(key)) } catch {
                throw Self.classify(error)
            }
            guard let last, Self.isDeleteMarker(last) else { throw .exists(key: key, error) }
            do { return try write(key, value, expected: last.sequence) } catch .wrongRevision(_, _, let error) {
                throw .exists(key: key, error)
            }
        }
    }

    /// Writes the key only if its latest revision is `revision`; returns the new revision (a lease renewal).
    /// - Throws: `.wrongRevision` when someone else wrote (or deleted) the key since.
    @discardableResult
    public func update(_ key: String, value: [UInt8], revision: UInt64) throws(KeyValueError) -> UInt64 {
        try write(key, value, expected: revision)
    }

    /// `update` without waiting, so that many keys can be written at once (a daemon renewing a thousand leases):
    /// `completion` is called once, with the new revision or the error `update` would throw (`.retryable` after
    /// `timeout`, by default the connection's `jetStreamTimeout`), on the JetStream context's reply thread (keep it
    /// short).
    public func updateAsync(
        _ key: String, value: [UInt8], revision: UInt64, timeout: Duration? = nil,
        completion: @escaping @Sendable (Result<UInt64, KeyValueError>) -> Void
    ) {
        do { try Self.check(key, "write \(key) in \(bucket)") } catch { return completion(.failure(.failed(error))) }
        do {
            try jetStream.publishAsync(
                subject(key), payload: value, expectedLastSubjectSequence: revision, timeout: timeout
            ) { result in
                completion(result.map(\.sequence).mapError { Self.classify($0, key: key) })
            }
        } catch {
            completion(.failure(Self.classify(error, key: key)))
        }
    }

    /// Deletes the key (a delete marker); with `revision`, only if that is still its latest (releasing a lease one
    /// still holds). - Throws: `.wrongRevision` when a checked delete finds a newer revision.
    public func delete(_ key: String, revision: UInt64? = nil) throws(KeyValueError) {
        _ = try write(key, [], expected: revision, headers: ["KV-Operation": "DEL"])
    }

    private func subject(_ key: String) -> String { "$KV.\(bucket).\(key)" }

    /// A publish to the key's subject, checked against `expected` (0: no message; nil: no check).
    private func write(_ key: String, _ value: [UInt8], expected: UInt64?, headers: NATSHeaders = NATSHeaders())
        throws(KeyValueError) -> UInt64
    {
        do { try Self.check(key, "write \(key) in \(bucket)") } catch { throw .failed(error) }
        do {
            return try jetStream.publish(
                subject(key), payload: value, headers: headers, expectedLastSubjectSequence: expected
            ).sequence
        } catch {
            throw Self.classify(error, key: key)
        }
    }

    /// A write's publish error as the bucket's.
    private static func classify(_ error: PublishError, key: String) -> KeyValueError {
        switch error {
        case .fenced(_, let expected, let error): .wrongRevision(key: key, expected: expected, error)
        case .retryable(let error): .retryable(error)
        case .failed(let error): .failed(error)
        }
    }

    private static func classify(_ error: NATSError) -> KeyValueError {
        error.isTransient ? .retryable(error) : .failed(error)
    }

    static func isDeleteMarker(_ message: NATSMessage) -> Bool {
        ["DEL", "PURGE"].contains(message.headers["KV-Operation"] ?? "")
    }

    /// Keys are subject tokens: letters, digits and `-_/=\.`, with no empty token between dots.
    static func check(_ key: String, _ operation: String) throws(NATSError) {
        let allowed = key.unicodeScalars.allSatisfy { c in
            c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c) || "-_/=\\.".unicodeScalars.contains(c))
        }
        guard allowed, !key.isEmpty, !key.hasPrefix("."), !key.hasSuffix("."), !key.contains("..") else {
            throw NATSError(operation, wrapper: "invalid key \"\(key)\" (letters, digits, -_/=\\ and inner dots)")
        }
    }
}

extension JetStream {
    /// Creates the bucket, or opens it if it exists with the same configuration (a different one is an error), and
    /// waits (up to the connection's `jetStreamTimeout`) until its stream has a leader. As with `ensureStream`, the
    /// first writes can still meet a moment of no responders (`.retryable`).
    public func keyValue(_ config: KeyValueConfig) throws(NATSError) -> KeyValue {
        let bucket = try KeyValue(jetStream: self, config: config)
        try waitForLeader(stream: "KV_\(config.bucket)", replicas: config.replicas)
        return bucket
    }
}
