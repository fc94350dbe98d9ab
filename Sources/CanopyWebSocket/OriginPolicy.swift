/// Which browser pages may open a WebSocket session. Browsers let any page connect to `ws://127.0.0.1:…`, so
/// without this a web page the user visits could edit trees through a daemon that runs without tokens.
///
/// A request without `Origin` (CLI and other non-browser clients) is allowed. Otherwise the origin must be listed
/// in `allowedOrigins`, or be the page's own server: its host and port equal the `Host` header, and for a loopback
/// bind that host is a loopback name (`localhost`, `127.x.x.x`, `[::1]`), which also defeats DNS rebinding.
struct OriginPolicy: Sendable {
    /// Exact origins (`scheme://host[:port]`, compared case-insensitively) allowed besides the server's own;
    /// `*` allows every origin.
    var allowedOrigins: [String]
    /// Whether the server is bound to a loopback address.
    var loopbackOnly: Bool

    func allows(origin: String?, host: String?) -> Bool {
        guard let origin, !origin.isEmpty else { return true }
        let lowered = origin.lowercased()
        if allowedOrigins.contains(where: { $0 == "*" || $0.lowercased() == lowered }) { return true }
        guard let host = host?.lowercased(), !host.isEmpty else { return false }
        var authority: Substring
        if lowered.hasPrefix("http://") {
            authority = lowered.dropFirst(7)
        } else if lowered.hasPrefix("https://") {
            authority = lowered.dropFirst(8)
        } else {
            return false  // "null" (sandboxed pages, file://) and anything else
        }
        if authority.hasSuffix("/") { authority = authority.dropLast() }
        guard authority == host else { return false }
        return !loopbackOnly || Self.isLoopbackName(Self.hostName(of: host))
    }

    /// The host of `host[:port]`, without brackets for IPv6.
    static func hostName(of authority: String) -> Substring {
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            return authority[authority.index(after: authority.startIndex)..<close]
        }
        if let colon = authority.lastIndex(of: ":") { return authority[..<colon] }
        return authority[...]
    }

    static func isLoopbackName(_ name: Substring) -> Bool {
        if name == "localhost" || name == "::1" { return true }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
