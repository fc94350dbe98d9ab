import CLibWebSockets

// The C entry point lws calls for client connections, on the loop's thread. A named top-level function (a closure
// literal in main.swift called from another thread traps in Swift 6); it reaches the loop through the context's
// user pointer and the connection through the wsi's opaque user data.

private func clientLoop(of wsi: OpaquePointer?) -> ClientLoop? {
    guard let wsi, let context = lws_get_context(wsi), let user = lws_context_user(context) else { return nil }
    return Unmanaged<ClientLoop>.fromOpaque(user).takeUnretainedValue()
}

func canopyClientCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    switch reason {
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        guard let wsi, let loop = clientLoop(of: wsi) else { return -1 }
        return loop.established(wsi)
    case LWS_CALLBACK_CLIENT_RECEIVE:
        guard let wsi, let loop = clientLoop(of: wsi) else { return -1 }
        let data = UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length)
        return loop.received(wsi, data, final: lws_is_final_fragment(wsi) != 0)
    case LWS_CALLBACK_CLIENT_WRITEABLE:
        guard let wsi, let loop = clientLoop(of: wsi) else { return -1 }
        return loop.writeable(wsi)
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
        if let wsi, let loop = clientLoop(of: wsi) {
            loop.peerClosing(wsi, UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length))
        }
        return 0  // lws answers the close frame
    case LWS_CALLBACK_CLIENT_CLOSED:
        if let wsi { clientLoop(of: wsi)?.closed(wsi) }
        return 0
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        let message = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? ""
        clientLoop(of: wsi)?.connectionError(wsi, message: message)
        return 0
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        clientLoop(of: wsi)?.drainMailbox()
        return 0
    default:
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
}
