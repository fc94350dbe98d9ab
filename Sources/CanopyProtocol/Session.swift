import CanopyCore

/// One connection as the protocol sees it: who it is, what it may do, what it follows.
struct Session {
    enum Phase: Equatable {
        /// Tokens are configured and no valid `hello` came yet: only `hello` is answered, until `deadline`.
        case awaitingHello(deadline: Double)
        /// May send requests (after a valid `hello`, or at once without tokens).
        case ready
    }

    var phase: Phase
    var role: Role
    var grant: TokenGrant?
    /// The hello `client` name ("" before or without one).
    var client = ""
    /// Trees this session subscribes to.
    var subscriptions: Set<String> = []
    /// Edit rate limit: tokens left, and when they were last refilled.
    var bucket: Double
    var lastRefill: Double
    /// Limit codes already logged for this session (each is logged once).
    var loggedLimits: Set<ErrorCode> = []
    /// Cluster mode: a batch forwarded by another daemon (its request is this session's only message), with its
    /// author's wire name there; nil for a connection of this daemon.
    var forwardedFrom: String?

    var isReady: Bool { phase == .ready }

    /// Whether this session's token covers tree `id` (every tree without a token).
    func sees(_ id: String) -> Bool { grant?.covers(id) ?? true }

    /// Throws `forbidden` unless the session may do `what` (needing `role`) on tree `id`. A tree outside the token's
    /// patterns is forbidden whether or not it exists, so answers never tell which trees exist.
    func authorize(_ id: String, _ needed: Role, _ what: String) throws(CanopyError) {
        guard sees(id) else { throw CanopyError(.forbidden, "this token gives no access to tree \"\(id)\"") }
        guard role >= needed else {
            throw CanopyError(.forbidden, "role \(role.rawValue) may not \(what) (needs \(needed.rawValue))")
        }
    }

    /// Takes one edit token of a bucket refilled at `rate` per second (burst `rate`); false when empty.
    mutating func takeEditToken(rate: Double, now: Double) -> Bool {
        guard rate > 0 else { return true }
        bucket = min(max(rate, 1), bucket + (now - lastRefill) * rate)
        lastRefill = now
        guard bucket >= 1 else { return false }
        bucket -= 1
        return true
    }

    /// The name a session has on the wire.
    static func name(_ s: SessionID) -> String { "s\(s)" }
}
