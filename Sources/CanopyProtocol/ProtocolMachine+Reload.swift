import CanopyCore

/// Settings that change while the daemon runs (SIGHUP re-reads the configuration).
extension ProtocolMachine {
    /// Applies new token grants and an edit rate. Sessions keep running under the grant of their token as it is now:
    /// a session whose token is gone is closed (1008), one whose token's role or patterns changed gets them at once,
    /// ending (`unsubscribed`) the subscriptions they no longer cover. Whether tokens are needed at all (none
    /// configured: every session is admin) is fixed for the daemon's life; a reload that would change it is refused.
    public mutating func reload(tokens: [TokenGrant], editsPerSecond: Double, now: Double) -> [ProtocolAction] {
        guard tokens.isEmpty == configuration.tokens.isEmpty else {
            return [
                .log(
                    .error,
                    "reload refused: turning tokens on or off needs a restart (the running sessions were "
                        + "admitted \(configuration.tokens.isEmpty ? "without" : "with") tokens)")
            ]
        }
        configuration.tokens = tokens
        configuration.editsPerSecond = editsPerSecond
        var out: [ProtocolAction] = [
            .log(.info, "reloaded: \(tokens.count) tokens, \(editsPerSecond) edits/s per session")
        ]
        for (s, session) in sessions.sorted(by: { $0.key < $1.key }) {
            guard let old = session.grant else { continue }
            guard let grant = grant(of: old.token) else {
                out += [
                    reply(s, error: CanopyError(.unauthorized, "this session's token was revoked"), rid: nil),
                    .close(s, code: 1008, reason: "token revoked"),
                ]
                continue
            }
            sessions[s]?.grant = grant
            sessions[s]?.role = grant.role
            out += endUnseenSubscriptions(s)
        }
        return out
    }

    /// Ends the subscriptions of `s` to trees its grant no longer covers, each with `unsubscribed`.
    mutating func endUnseenSubscriptions(_ s: SessionID) -> [ProtocolAction] {
        var out: [ProtocolAction] = []
        guard let session = sessions[s] else { return [] }
        for id in session.subscriptions.sorted() where !session.sees(id) {
            sessions[s]?.subscriptions.remove(id)
            channels[id]?.unsubscribe(s)
            out.append(send(s, ["type": "unsubscribed", "tree": .string(id)], rid: nil))
            presenceDue.insert(id)
        }
        return out
    }
}
