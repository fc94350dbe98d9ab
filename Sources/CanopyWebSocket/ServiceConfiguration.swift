/// How the service loop listens, which requests it answers, and the per-session limits it enforces.
public struct ServiceConfiguration: Sendable {
    /// The WebSocket subprotocol of protocol version 1 (PROTOCOL.md); a client that asks for none is accepted too.
    public static let subprotocol = "canopy.v1"
    /// The only path that accepts WebSocket upgrades.
    public static let webSocketPath = "/ws"

    /// Address to bind: an IPv4 or IPv6 literal (`localhost` means `127.0.0.1`). For an IPv4 address lws's IPv6
    /// support is turned off: with it on, lws 4.1.6 listens on every interface (`[::]`) whatever IPv4 address it was
    /// given. `::1` binds IPv6 loopback only; `::` every interface, both families.
    public var host = "127.0.0.1"
    /// TCP port; 0 picks a free one (read it back from `ServiceLoop.port`).
    public var port = 0
    /// Largest incoming message after reassembly; a bigger one closes the session with 1009.
    public var maxMessageBytes = 1 << 20
    /// Bytes queued to one session and not yet written; going over closes the session with 1008. A single message
    /// larger than this is still accepted into an empty queue, so a big snapshot can always be delivered.
    public var maxQueueBytes = 16 << 20
    /// Seconds without a pong (since the connection opened or the last pong) before the server sends a ping.
    public var pingIntervalSeconds = 30
    /// Seconds without a pong before the connection is dropped; must exceed `pingIntervalSeconds`.
    public var idleTimeoutSeconds = 60
    /// Seconds a session asked to close (by the handler or an overflow) may take to get its close frame out before
    /// it is dropped without one. Once the frame is out, lws waits (a fixed 5 s) for the client's close.
    public var closeTimeoutSeconds = 5
    /// Seconds `stop()` waits for clients to acknowledge their 1001 close before `run()` tears everything down (0:
    /// no wait, connections are dropped without close frames).
    public var drainTimeoutSeconds = 3
    /// Browser origins allowed to open sessions besides the daemon's own pages (`*`: any). Clients that send no
    /// `Origin` (the CLI) are always allowed. See `OriginPolicy`.
    public var allowedOrigins: [String] = []
    /// Host names (`name` or `name:port`) a loopback-bound server answers besides the loopback ones, for a proxy or an
    /// /etc/hosts alias; other names get 421 (DNS rebinding). See `HostPolicy`.
    public var allowedHosts: [String] = []
    /// How the service thread waits for its connections' events: `.libuv` (epoll; a wake costs what is ready) or lws's
    /// own `.poll` (every wake looks at every connection). See docs/server.md, "Service loop".
    public var eventLoop = EventLoopKind.libuv
    /// lws's strict security headers on HTTP responses (CSP without inline script or style, nosniff, deny framing).
    public var securityHeaders = true

    public init() {}

    /// `host` as lws gets it.
    var bindAddress: String { host == "localhost" ? "127.0.0.1" : host }

    /// Whether `host` is an IPv4 address (lws's IPv6 support then stays off; see `host`).
    var isIPv4: Bool { !bindAddress.contains(":") }

    /// Whether `host` is a loopback address (IPv4 or `::1`).
    public var isLoopback: Bool { bindAddress.hasPrefix("127.") || bindAddress == "::1" }

    /// Throws when the values cannot work together.
    func validate() throws(ServiceLoopError) {
        func invalid(_ why: String) -> ServiceLoopError { ServiceLoopError(.invalidConfiguration, why) }
        if host.isEmpty { throw invalid("host is empty") }
        if !(0...65535).contains(port) { throw invalid("port \(port) is outside 0...65535") }
        if maxMessageBytes < 1 { throw invalid("maxMessageBytes must be positive") }
        if maxQueueBytes < 1 { throw invalid("maxQueueBytes must be positive") }
        if !(1...Int(UInt16.max)).contains(pingIntervalSeconds) {
            throw invalid("pingIntervalSeconds must be within 1...65535")
        }
        if idleTimeoutSeconds <= pingIntervalSeconds || idleTimeoutSeconds > Int(UInt16.max) {
            throw invalid("idleTimeoutSeconds must exceed pingIntervalSeconds (and be at most 65535)")
        }
        if closeTimeoutSeconds < 1 { throw invalid("closeTimeoutSeconds must be at least 1") }
        if drainTimeoutSeconds < 0 { throw invalid("drainTimeoutSeconds must not be negative") }
    }
}
