import CLibWebSockets
import CanopyCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Everything lws keeps pointers to for its context's life: names, the protocol list, the vhost options that make
/// `canopy.v1` the protocol of upgrades that name none, the keepalive policy and the drain timer. The service loop
/// destroys its context before this is released.
final class LibWebSocketsSetup {
    /// lws protocol list entries: HTTP first (lws serves plain requests with protocols[0]), then the WebSocket
    /// protocol, then the zeroed terminator.
    static let httpProtocolIndex = 0
    static let webSocketProtocolIndex = 1
    /// The HTTP entry's name; lws would bind an upgrade asking for it as a subprotocol to it, so that is refused.
    static let httpProtocolName = "http-only"

    let serverName: UnsafeMutablePointer<CChar>
    let vhostName: UnsafeMutablePointer<CChar>
    let bindAddress: UnsafeMutablePointer<CChar>
    let protocols: UnsafeMutablePointer<lws_protocols>
    let protocolOptions: UnsafeMutablePointer<lws_protocol_vhost_options>
    let retryPolicy: UnsafeMutablePointer<lws_retry_bo_t>
    /// Per-header caps below the header space, so an oversized header or URI is answered 431 or 414 instead of
    /// dropped (shim.h, `canopy_token_limits_fill`).
    let tokenLimits: UnsafeMutablePointer<lws_token_limits>
    /// Bytes lws holds of one request's headers (its default is 4 KiB); headers beyond it still drop the connection.
    static let headerSpace: UInt16 = 32 << 10
    /// The longest header (all its lines together) and URI answered: one byte less than these.
    static let headerCap: UInt16 = 8 << 10
    static let uriCap: UInt16 = 8 << 10
    private var strings: [UnsafeMutablePointer<CChar>] = []

    init(_ configuration: ServiceConfiguration) {
        var strings: [UnsafeMutablePointer<CChar>] = []
        func keep(_ s: String) -> UnsafeMutablePointer<CChar> {
            let copy = strdup(s)!
            strings.append(copy)
            return copy
        }
        serverName = keep("canopyd")
        vhostName = keep("canopy")
        bindAddress = keep(configuration.bindAddress)
        let httpName = keep(Self.httpProtocolName)
        let webSocketName = keep(ServiceConfiguration.subprotocol)
        let defaultOption = keep("default")
        let empty = keep("")

        protocols = .allocate(capacity: 3)
        protocols.initialize(repeating: lws_protocols(), count: 3)
        protocols[Self.httpProtocolIndex].name = UnsafePointer(httpName)
        protocols[Self.httpProtocolIndex].callback = canopyHTTPCallback
        protocols[Self.webSocketProtocolIndex].name = UnsafePointer(webSocketName)
        protocols[Self.webSocketProtocolIndex].callback = canopyWebSocketCallback
        // The per-session user area holds the SessionID (0 until ESTABLISHED).
        protocols[Self.webSocketProtocolIndex].per_session_data_size = MemoryLayout<SessionID>.size
        // Fragments arrive in pieces of at most this much; messages are reassembled whatever the size. lws allocates
        // it per connection for the connection's life: at 16 KiB an idle connection cost 13.6 KiB of RSS, at 4 KiB
        // 6.4–7.3, at 2 KiB 5.2 (docs/performance.md). Edits are far smaller; a 35 MB createTree arrives in twice as
        // many reads, which did not make it slower.
        protocols[Self.webSocketProtocolIndex].rx_buffer_size = 2 << 10
        // Largest single send(); lws buffers the rest of a bigger write and finishes it before the next writeable.
        protocols[Self.webSocketProtocolIndex].tx_packet_size = 256 << 10

        // vhost option "default" on canopy.v1: an upgrade without Sec-WebSocket-Protocol binds to it (otherwise it
        // would bind to protocols[0], the HTTP protocol).
        protocolOptions = .allocate(capacity: 2)
        protocolOptions.initialize(repeating: lws_protocol_vhost_options(), count: 2)
        protocolOptions[1].name = UnsafePointer(defaultOption)
        protocolOptions[1].value = UnsafePointer(empty)
        protocolOptions[0].name = UnsafePointer(webSocketName)
        protocolOptions[0].value = UnsafePointer(empty)
        protocolOptions[0].options = UnsafePointer(protocolOptions + 1)

        // Ping after pingIntervalSeconds without a pong, hang up after idleTimeoutSeconds.
        retryPolicy = .allocate(capacity: 1)
        var policy = lws_retry_bo_t()
        policy.secs_since_valid_ping = UInt16(configuration.pingIntervalSeconds)
        policy.secs_since_valid_hangup = UInt16(configuration.idleTimeoutSeconds)
        retryPolicy.initialize(to: policy)

        tokenLimits = .allocate(capacity: 1)
        tokenLimits.initialize(to: lws_token_limits())
        canopy_token_limits_fill(tokenLimits, Self.headerCap, Self.uriCap)

        self.strings = strings
    }

    deinit {
        retryPolicy.deallocate()
        tokenLimits.deallocate()
        protocolOptions.deinitialize(count: 2)
        protocolOptions.deallocate()
        protocols.deinitialize(count: 3)
        protocols.deallocate()
        for s in strings { free(s) }
    }
}
