import CLibWebSockets

// The C entry points lws calls, all on the service thread. They are named top-level functions (a closure literal
// in main.swift called from another thread traps in Swift 6) and reach the loop through the context's user pointer.

/// The loop owning `wsi`'s context. Unretained: the loop destroys its context before it goes away.
private func serviceLoop(of wsi: OpaquePointer?) -> ServiceLoop? {
    guard let wsi, let context = lws_get_context(wsi), let user = lws_context_user(context) else { return nil }
    return Unmanaged<ServiceLoop>.fromOpaque(user).takeUnretainedValue()
}

/// protocols[0]: plain HTTP requests (`/healthz`, examples, static files) and upgrade requests on kept-alive
/// connections.
func canopyHTTPCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    switch reason {
    case LWS_CALLBACK_HTTP:
        guard let wsi, let loop = serviceLoop(of: wsi) else { return -1 }
        let path = input.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: length), as: UTF8.self) }
        return loop.serveHTTP(wsi, path: path ?? "/")
    case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
        guard let wsi, let loop = serviceLoop(of: wsi) else { return -1 }
        return loop.confirmUpgrade(wsi, upgrade: input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) })
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        return 1  // a client asking for this protocol's name as its subprotocol gets no WebSocket
    default:
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
}

/// protocols[1], `canopy.v1`: WebSocket sessions, the mailbox wake-up, and (being the vhost's default protocol,
/// which new connections bind to first) upgrade checks of first requests.
func canopyWebSocketCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    switch reason {
    case LWS_CALLBACK_ESTABLISHED:
        guard let wsi, let loop = serviceLoop(of: wsi) else { return -1 }
        return loop.sessionOpened(wsi, user: user)
    case LWS_CALLBACK_RECEIVE:
        guard let wsi, let loop = serviceLoop(of: wsi) else { return -1 }
        let data = UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length)
        return loop.sessionReceived(user: user, data, final: lws_is_final_fragment(wsi) != 0)
    case LWS_CALLBACK_RECEIVE_PONG:
        serviceLoop(of: wsi)?.sessionPonged(user: user)
        return 0
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
        guard let loop = serviceLoop(of: wsi) else { return 0 }
        let payload = UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length)
        return loop.sessionPeerClosing(user: user, payload: payload)
    case LWS_CALLBACK_SERVER_WRITEABLE:
        guard let loop = serviceLoop(of: wsi) else { return -1 }
        return loop.sessionWriteable(user: user)
    case LWS_CALLBACK_WS_SERVER_DROP_PROTOCOL:
        serviceLoop(of: wsi)?.sessionDropping(user: user)
        return 0
    case LWS_CALLBACK_CLOSED:
        serviceLoop(of: wsi)?.sessionClosed(user: user)
        return 0
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        serviceLoop(of: wsi)?.drainMailbox()
        return 0
    case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
        guard let wsi, let loop = serviceLoop(of: wsi) else { return -1 }
        return loop.confirmUpgrade(wsi, upgrade: input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) })
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        return serviceLoop(of: wsi)?.acceptsSessions == true ? 0 : 1
    default:
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
}
