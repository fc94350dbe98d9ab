import CNATS

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Message headers in order, a name possibly repeated (NATS headers are like HTTP's).
public struct NATSHeaders: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public var fields: [Field]

    public init(_ fields: [Field] = []) { self.fields = fields }
    public init(dictionaryLiteral elements: (String, String)...) { fields = elements.map { Field($0.0, $0.1) } }

    /// The first value of a header (names compare exactly, as nats.c does).
    public subscript(name: String) -> String? { fields.first { $0.name == name }?.value }
    public func values(_ name: String) -> [String] { fields.filter { $0.name == name }.map(\.value) }
    public var isEmpty: Bool { fields.isEmpty }
    public mutating func add(_ name: String, _ value: String) { fields.append(Field(name, value)) }
}

/// A message received from NATS: a request, a reply, or a message read from a JetStream stream.
public struct NATSMessage: Sendable {
    public var subject: String
    /// The reply subject of a request ("" when none).
    public var reply: String
    public var payload: [UInt8]
    public var headers: NATSHeaders
    /// The stream sequence of a JetStream message (0 for a plain NATS message).
    public var sequence: UInt64
    /// When the stream stored it, nanoseconds since the epoch (0 when unknown).
    public var timestamp: Int64

    public init(subject: String, reply: String = "", payload: [UInt8], headers: NATSHeaders = NATSHeaders(),
                sequence: UInt64 = 0, timestamp: Int64 = 0)
    {
        self.subject = subject
        self.reply = reply
        self.payload = payload
        self.headers = headers
        self.sequence = sequence
        self.timestamp = timestamp
    }

    /// Copies a nats.c message (it stays owned by the caller). The sequence comes from a direct/stream get
    /// (`natsMsg_GetSequence`) or, for a message a consumer delivered, from its JetStream metadata.
    init(copying message: OpaquePointer) {
        subject = natsMsg_GetSubject(message).map { String(cString: $0) } ?? ""
        reply = natsMsg_GetReply(message).map { String(cString: $0) } ?? ""
        let count = Int(natsMsg_GetDataLength(message))
        if count > 0, let data = natsMsg_GetData(message) {
            payload = Array(UnsafeRawBufferPointer(start: data, count: count))
        } else {
            payload = []
        }
        headers = Self.headers(of: message)
        sequence = natsMsg_GetSequence(message)
        timestamp = natsMsg_GetTime(message)
        if sequence == 0, !reply.isEmpty {
            var meta: UnsafeMutablePointer<jsMsgMetaData>?
            if natsMsg_GetMetaData(&meta, message) == NATS_OK, let meta {
                sequence = meta.pointee.Sequence.Stream
                timestamp = meta.pointee.Timestamp
                jsMsgMetaData_Destroy(meta)
            }
        }
    }

    private static func headers(of message: OpaquePointer) -> NATSHeaders {
        var keys: UnsafeMutablePointer<UnsafePointer<CChar>?>?
        var keyCount: Int32 = 0
        guard natsMsgHeader_Keys(message, &keys, &keyCount) == NATS_OK, let keys else { return NATSHeaders() }
        defer { free(keys) }
        var result = NATSHeaders()
        for index in 0..<Int(keyCount) {
            guard let key = keys[index] else { continue }
            var values: UnsafeMutablePointer<UnsafePointer<CChar>?>?
            var valueCount: Int32 = 0
            guard natsMsgHeader_Values(message, key, &values, &valueCount) == NATS_OK, let values else { continue }
            let name = String(cString: key)
            for v in 0..<Int(valueCount) { result.add(name, values[v].map { String(cString: $0) } ?? "") }
            free(values)
        }
        return result
    }
}

/// Builds a nats.c message with headers; the caller owns it (natsMsg_Destroy), unless a call takes it over.
func makeMessage(subject: String, reply: String? = nil, payload: [UInt8], headers: NATSHeaders,
                 operation: @autoclosure () -> String) throws(NATSError) -> OpaquePointer
{
    var message: OpaquePointer?
    let status = payload.withUnsafeBufferPointer { bytes in
        bytes.withMemoryRebound(to: CChar.self) { chars in
            natsMsg_Create(&message, subject, reply, chars.baseAddress, Int32(chars.count))
        }
    }
    guard status == NATS_OK, let message else { throw NATSError(operation(), status: status) }
    for field in headers.fields {
        let added = natsMsgHeader_Add(message, field.name, field.value)
        if added != NATS_OK {
            let error = NATSError(operation(), status: added)
            natsMsg_Destroy(message)
            throw error
        }
    }
    return message
}
