import CNATS

/// One write to a bucket's key, as a `KeyValueWatch` reads it.
public struct KeyValueChange: Sendable, Equatable {
    public var key: String
    /// The value written; nil for a delete (or purge).
    public var value: [UInt8]?
    /// The write's sequence in the bucket's stream (the key's revision).
    public var revision: UInt64

    public init(key: String, value: [UInt8]?, revision: UInt64) {
        self.key = key
        self.value = value
        self.revision = revision
    }
}

/// Every write to a bucket, in order: first each key's latest write still stored, then new writes as they are made
/// (an ordered consumer on the bucket's stream, recreated by nats.c after a gap or a lost server). Expiry by the
/// bucket's TTL writes nothing: a key that stops changing may be gone after the TTL.
///
/// `next` blocks the calling thread; one thread at a time reads. `close()` (or dropping the watch) ends it.
public final class KeyValueWatch: Sendable {
    public let bucket: String
    private let reader: SubjectReader
    private let prefix: String

    init(keyValue: KeyValue) throws(NATSError) {
        bucket = keyValue.bucket
        prefix = "$KV.\(keyValue.bucket)."
        reader = try keyValue.jetStream.readSubject(stream: keyValue.streamName, subject: prefix + ">", from: 1)
    }

    /// The next write, or nil when none arrives within `timeout` (at least a millisecond).
    public func next(timeout: Duration) throws(NATSError) -> KeyValueChange? {
        guard let message = try reader.next(timeout: max(timeout, .milliseconds(1))) else { return nil }
        let key = message.subject.hasPrefix(prefix) ? String(message.subject.dropFirst(prefix.count)) : message.subject
        let value = KeyValue.isDeleteMarker(message) ? nil : message.payload
        return KeyValueChange(key: key, value: value, revision: message.sequence)
    }

    /// Ends the watch and deletes its consumer. Idempotent.
    public func close() { reader.close() }
}

extension KeyValue {
    /// A watch of every key of the bucket (see `KeyValueWatch`).
    public func watch() throws(NATSError) -> KeyValueWatch { try KeyValueWatch(keyValue: self) }
}
