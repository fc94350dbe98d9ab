import CNATS

/// A nats.c call that failed: what was being done, the library's status, its last error text on this thread and,
/// when a JetStream server answered with an API error, that error's code (for example 10071, wrong last sequence).
public struct NATSError: Error, Sendable, CustomStringConvertible {
    /// What the wrapper was doing, e.g. `publish to tree.main` or `connect to nats://127.0.0.1:4222`.
    public let operation: String
    /// The nats.c status (`natsStatus`), as its raw value.
    public let status: UInt32
    /// nats.c's name for the status ("Timeout", "No responders available for request", ...).
    public let statusText: String
    /// The library's last error text for the call (often the server's description), or "" when it has none.
    public let detail: String
    /// The JetStream API error code the server answered with, or 0 when the failure was not such an answer.
    public let jetStreamCode: Int

    init(_ operation: String, status: natsStatus, jetStreamCode: Int = 0) {
        self.operation = operation
        self.status = status.rawValue
        statusText = String(cString: natsStatus_GetText(status))
        var last = NATS_OK
        if let text = nats_GetLastError(&last), last == status { detail = String(cString: text) } else { detail = "" }
        self.jetStreamCode = jetStreamCode
    }

    /// A failure reported to a callback, with the text nats.c passed along.
    init(_ operation: String, status: natsStatus, jetStreamCode: Int, detail: String) {
        self.operation = operation
        self.status = status.rawValue
        statusText = String(cString: natsStatus_GetText(status))
        self.detail = detail
        self.jetStreamCode = jetStreamCode
    }

    /// A failure detected by the wrapper or its caller (no nats.c status behind it).
    public init(_ operation: String, wrapper detail: String) {
        self.operation = operation
        status = NATS_ERR.rawValue
        statusText = "Error"
        self.detail = detail
        jetStreamCode = 0
    }

    public var isTimeout: Bool { status == NATS_TIMEOUT.rawValue }
    /// The server had no subscriber for the subject (a request to nobody, or a stream with no leader to take it).
    public var isNoResponders: Bool { status == NATS_NO_RESPONDERS.rawValue }
    public var isNotFound: Bool { status == NATS_NOT_FOUND.rawValue }
    public var isConnectionClosed: Bool { status == NATS_CONNECTION_CLOSED.rawValue }

    /// True for failures that say nothing final about the request: the answer did not come in time, nobody was
    /// there to answer (a stream leader election), the connection dropped while waiting, or the server said that
    /// JetStream is temporarily unavailable, not the leader, or the stream is offline.
    public var isTransient: Bool {
        switch status {
        case NATS_TIMEOUT.rawValue, NATS_NO_RESPONDERS.rawValue, NATS_CONNECTION_DISCONNECTED.rawValue,
            NATS_STALE_CONNECTION.rawValue, NATS_IO_ERROR.rawValue, NATS_NOT_YET_CONNECTED.rawValue:
            return true
        default:
            return [10008, 10009, 10118].contains(jetStreamCode)  // cluster unavailable, not leader, stream offline
        }
    }

    public var description: String {
        var text = "\(operation): \(statusText)"
        if !detail.isEmpty && detail != statusText { text += " (\(detail))" }
        if jetStreamCode != 0 { text += " [JetStream error \(jetStreamCode)]" }
        return text
    }
}

/// Why a JetStream publish did not store the message. The three cases ask for three different reactions.
public enum PublishError: Error, Sendable, CustomStringConvertible {
    /// The subject's last sequence was not the one expected (JetStream error 10071, "wrong last sequence: N"):
    /// someone else published to the subject since. For a tree's owner this means it has been deposed: stop,
    /// resynchronise, rejoin as a follower. Nothing was stored.
    case fenced(subject: String, expected: UInt64, NATSError)
    /// No acknowledgement came: a timeout, no responders, the connection dropped, or no stream leader (an election).
    /// The message may or may not be stored. Publish it again, unchanged (same message ID, same expected sequence),
    /// after a short pause: if the first attempt was stored, deduplication answers with its acknowledgement.
    ///
    /// Also JetStream error 10164 ("wrong last sequence", no number): on a clustered stream, another publish to the
    /// subject was still being processed (the check nats-server added for issue 4320). Nothing was stored, but it
    /// does not mean someone else won: the publish in process can be the caller's own previous one, already
    /// acknowledged (seen with one sequential publisher, about once in a thousand publishes). The retry settles it:
    /// it is stored, or fenced with 10071 if another publisher's message is now the subject's last.
    ///
    /// And JetStream error 10158 ("duplicate message id is in process"): a copy with the same message ID — the
    /// caller's own earlier attempt, resent after a timeout — is being stored right now. The retry is answered as a
    /// duplicate with that copy's sequence (the randomized fault test saw a batch given up on 10158 and stored).
    case retryable(NATSError)
    /// Anything else (no such stream, message too large, bad subject, closed connection, wrong message ID
    /// expectation): retrying the same publish will fail the same way.
    case failed(NATSError)

    /// JetStream's "wrong last sequence: N": the subject's last message is not the expected one.
    public static let wrongLastSequenceCode = 10071
    /// JetStream's "wrong last sequence" (no number): a publish to the subject is still in process on the leader.
    public static let subjectBusyCode = 10164
    /// JetStream's "duplicate message id is in process": a copy with the same message ID is being stored.
    public static let duplicateInProcessCode = 10158

    static func classify(_ error: NATSError, subject: String, expected: UInt64?) -> PublishError {
        // nats.c reports "no responders" to a JetStream publish as error code 10076 (JetStream not enabled); the
        // status tells the truth, so it is checked first.
        if error.isNoResponders { return .retryable(error) }
        if error.jetStreamCode == subjectBusyCode || error.jetStreamCode == duplicateInProcessCode {
            return .retryable(error)
        }
        if error.jetStreamCode == wrongLastSequenceCode, let expected {
            return .fenced(subject: subject, expected: expected, error)
        }
        return error.isTransient ? .retryable(error) : .failed(error)
    }

    public var error: NATSError {
        switch self {
        case .fenced(_, _, let error), .retryable(let error), .failed(let error): return error
        }
    }

    public var isRetryable: Bool { if case .retryable = self { return true } else { return false } }
    public var isFenced: Bool { if case .fenced = self { return true } else { return false } }

    public var description: String {
        switch self {
        case .fenced(let subject, let expected, let error):
            return "fenced: \(subject) has moved past sequence \(expected) (another publisher wrote to it): \(error)"
        case .retryable(let error): return "retryable, the message may or may not be stored: \(error)"
        case .failed(let error): return "failed: \(error)"
        }
    }
}

/// Why a key-value write did not happen.
public enum KeyValueError: Error, Sendable, CustomStringConvertible {
    /// `create` of a key that exists (and is not deleted).
    case exists(key: String, NATSError)
    /// `update` or a checked `delete` with a revision that is not the key's latest: someone else wrote it since.
    case wrongRevision(key: String, expected: UInt64, NATSError)
    /// No answer: the write may or may not have happened. Read the key before deciding what to do.
    case retryable(NATSError)
    case failed(NATSError)

    public var error: NATSError {
        switch self {
        case .exists(_, let error), .wrongRevision(_, _, let error), .retryable(let error), .failed(let error):
            return error
        }
    }

    public var description: String {
        switch self {
        case .exists(let key, _): return "key \(key) exists"
        case .wrongRevision(let key, let expected, _): return "key \(key) is no longer at revision \(expected)"
        case .retryable(let error): return "retryable, the write may or may not have happened: \(error)"
        case .failed(let error): return "failed: \(error)"
        }
    }
}
