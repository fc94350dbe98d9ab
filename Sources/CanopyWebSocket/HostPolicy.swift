/// Which `Host` a loopback-bound server answers, against DNS rebinding: a page on `http://evil.example` whose name
/// the attacker re-points at 127.0.0.1 reaches the daemon as same-origin, with `Host: evil.example`. A loopback-bound
/// daemon only answers loopback names (`localhost`, `127.x.x.x`, `[::1]`, any port) and the configured
/// `allowedHosts`; other requests get 421. A request without `Host` (HTTP/1.0, not a browser) is answered. A server
/// bound to another address answers every name (it is reachable under names it cannot know).
struct HostPolicy: Sendable {
    /// Names (`name` or `name:port`, compared case-insensitively) answered besides the loopback ones.
    var allowedHosts: [String]
    /// Whether the server is bound to a loopback address.
    var loopbackOnly: Bool

    func allows(host: String?) -> Bool {
        guard loopbackOnly, let host, !host.isEmpty else { return true }
        let lowered = host.lowercased()
        let name = OriginPolicy.hostName(of: lowered)
        if OriginPolicy.isLoopbackName(name) { return true }
        return allowedHosts.contains { allowed in
            let allowed = allowed.lowercased()
            return allowed == lowered || allowed == name
        }
    }
}
