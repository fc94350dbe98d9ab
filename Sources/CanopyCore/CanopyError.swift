/// The protocol error codes (PROTOCOL.md, "Errors").
public enum ErrorCode: String, Sendable, CaseIterable {
    case badJSON = "bad_json"
    case badMessage = "bad_message"
    case unknownType = "unknown_type"
    case unauthorized
    case forbidden
    case noSuchTree = "no_such_tree"
    case treeExists = "tree_exists"
    case noSuchNode = "no_such_node"
    case duplicateID = "duplicate_id"
    case cycle
    case badIndex = "bad_index"
    case badKey = "bad_key"
    case typeMismatch = "type_mismatch"
    case tooLarge = "too_large"
    case tooDeep = "too_deep"
    case tooMany = "too_many"
    case rateLimited = "rate_limited"
    /// The daemon could not make the batch (or tree) durable: disk full, I/O error. An addition to PROTOCOL.md.
    case storageError = "storage_error"
    /// Swift source that does not compile; `details` has `diagnostics` (PROGRAMS.md §7).
    case compileError = "compile_error"
    /// Swift code faulted while running; `details` has `line`, `column` and `stack`.
    case runtimeError = "runtime_error"
    /// Swift code ran out of fuel.
    case tooExpensive = "too_expensive"
    /// An event the node's kind of view does not have (`tap` on a `Text`), or a malformed event.
    case badEvent = "bad_event"
    /// A direct op on a program tree: its shape belongs to its code.
    case programTree = "program_tree"
    /// Cluster mode: no daemon can commit to the tree right now (its owner is gone or was deposed, a lease is being
    /// taken over, the NATS servers elect a leader). Nothing changed; resend the same message (same `seq`) shortly.
    /// An addition to PROTOCOL.md.
    case unavailable
}

/// A failure with a protocol error code, a human message and, for a rejected batch, the index of the failing op.
public struct CanopyError: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: ErrorCode
    public var message: String
    /// Index of the failing op within its batch, when the error comes from a batch.
    public var op: Int?
    /// A configured limit was hit (message nesting, tree depth, sizes): the daemon logs it once per session.
    public var hitLimit: Bool
    /// Fields the error adds to its wire form: `diagnostics` of a compile error, `line`/`column`/`stack` of a fault.
    public var details: JSONObject

    public init(
        _ code: ErrorCode, _ message: String, op: Int? = nil, hitLimit: Bool = false, details: JSONObject = [:]
    ) {
        self.code = code
        self.message = message
        self.op = op
        self.hitLimit = hitLimit
        self.details = details
    }

    /// Equal when code, message and op are (whether a limit was hit follows from them).
    public static func == (a: CanopyError, b: CanopyError) -> Bool {
        a.code == b.code && a.message == b.message && a.op == b.op && a.details == b.details
    }

    public var description: String {
        if let op { return "\(code.rawValue) (op \(op)): \(message)" }
        return "\(code.rawValue): \(message)"
    }
}
