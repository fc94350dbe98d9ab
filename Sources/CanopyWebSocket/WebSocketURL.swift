import CanopySupport

/// A `ws://host[:port][/path]` address, as the CLI and load tool take it. Only plain `ws`: canopyd serves no TLS
/// (put a TLS proxy in front of it and connect to the proxy's plain side, or tunnel).
public struct WebSocketURL: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var path: String

    public init(host: String, port: Int, path: String = ServiceConfiguration.webSocketPath) {
        self.host = host
        self.port = port
        self.path = path
    }

    /// Parses `text`; `http://` is accepted as a synonym (the inspector's address works), the path defaults to
    /// `/ws` and the port to 7700 (canopyd's default). IPv6 hosts go in brackets: `ws://[::1]:7700/ws`.
    public init(parsing text: String) throws(ClientError) {
        func invalid(_ why: String) -> ClientError { ClientError(.client, "invalid URL \"\(text)\": \(why)") }
        var rest = Substring(text)
        if rest.hasPrefix("ws://") {
            rest = rest.dropFirst(5)
        } else if rest.hasPrefix("http://") {
            rest = rest.dropFirst(7)
        } else if rest.hasPrefix("wss://") || rest.hasPrefix("https://") {
            throw invalid("TLS is not supported (canopyd speaks plain ws://)")
        } else if rest.contains("://") {
            throw invalid("expected ws://HOST[:PORT][/PATH]")
        }
        let authority = rest.prefix { $0 != "/" }
        let path = rest.dropFirst(authority.count)
        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw invalid("unclosed [ in the host") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw invalid("expected :PORT after ]") }
                portText = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        if host.isEmpty { throw invalid("no host") }
        if host.contains(where: { $0 == "@" || $0 == " " }) { throw invalid("unexpected characters in the host") }
        var port = 7700
        if let portText {
            guard let number = Int(portText), (1...65535).contains(number) else {
                throw invalid("port must be a number in 1...65535")
            }
            port = number
        }
        self.host = String(host)
        self.port = port
        self.path = path.isEmpty || path == "/" ? ServiceConfiguration.webSocketPath : String(path)
    }

    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "ws://\(shownHost):\(port)\(path)"
    }
}
