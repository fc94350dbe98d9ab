import CLibWebSockets

/// HTTP on the WebSocket port: the checks every request passes (size caps, `Host`, method), `GET /healthz`, the
/// routes the loop was given for everything else, and which upgrades are allowed.
extension ServiceLoop {
    /// LWS_CALLBACK_HTTP: answers one request (`HEAD` like `GET`, without the body). `path` is the request path as
    /// lws decoded it, without the query.
    func serveHTTP(_ wsi: OpaquePointer, path: String) -> Int32 {
        assertOnServiceThread()
        if let refusal = refusal(wsi) { return respond(wsi, status: refusal.status, text: refusal.text) }
        guard lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) > 0 || isHead(wsi) else {
            return respond(wsi, status: 405, text: "method not allowed\n")
        }
        if path == "/healthz" { return respond(wsi, status: 200, text: "ok") }
        if path == ServiceConfiguration.webSocketPath {
            return respond(wsi, status: 426, text: "WebSocket upgrade required\n")
        }
        guard let routes else { return respond(wsi, status: 404, text: "not found\n") }
        let request = HTTPRequest(path: path, bearerToken: Self.bearerToken(header(wsi, WSI_TOKEN_HTTP_AUTHORIZATION)))
        switch routes.respond(to: request, loop: self) {
        case .content(let status, let body, let contentType, let authenticate):
            return respond(wsi, status: status, body: body, contentType: contentType, authenticate: authenticate)
        case .file(let file, let contentType):
            return serveFile(wsi, file, contentType: contentType)
        }
    }

    /// What every request is refused for before its method or path matter: a URI or header over lws's caps (lws
    /// keeps them cut, see shim.h), or a `Host` that a loopback-bound server does not answer (DNS rebinding).
    private func refusal(_ wsi: OpaquePointer) -> (status: UInt32, text: String)? {
        switch canopy_oversized_status(wsi, memory.tokenLimits) {
        case 414: return (414, "URI too long\n")
        case 431: return (431, "request header fields too large\n")
        default: break
        }
        if !hostPolicy.allows(host: header(wsi, WSI_TOKEN_HOST)) { return (421, "misdirected request: unknown host\n") }
        return nil
    }

    private func isHead(_ wsi: OpaquePointer) -> Bool { lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI) > 0 }

    /// Streams a file: lws writes the headers, then the body in pieces as the socket takes them.
    private func serveFile(_ wsi: OpaquePointer, _ file: String, contentType: String) -> Int32 {
        let status = lws_serve_http_file(wsi, file, contentType, nil, 0)
        if status < 0 || (status > 0 && lws_http_transaction_completed(wsi) != 0) { return -1 }
        return 0
    }

    /// LWS_CALLBACK_HTTP_CONFIRM_UPGRADE: only requests within the caps to an answered `Host` (see `refusal`), only
    /// WebSocket upgrades, only on `/ws`, only for `canopy.v1` or no subprotocol, only from allowed origins, and not
    /// while shutting down. Refusals get an HTTP status (return 1:
    /// lws then completes the transaction) instead of a dropped connection.
    func confirmUpgrade(_ wsi: OpaquePointer, upgrade: String?) -> Int32 {
        assertOnServiceThread()
        let refusal: (status: UInt32, text: String)?
        if let early = self.refusal(wsi) {
            refusal = early
        } else if upgrade?.lowercased() != "websocket" {
            refusal = (400, "unsupported upgrade\n")
        } else if header(wsi, WSI_TOKEN_GET_URI) != ServiceConfiguration.webSocketPath {
            refusal = (404, "not found\n")
        } else if !offersOurSubprotocol(header(wsi, WSI_TOKEN_PROTOCOL)) {
            refusal = (400, "unsupported subprotocol (speak \(ServiceConfiguration.subprotocol) or none)\n")
        } else if !originPolicy.allows(origin: header(wsi, WSI_TOKEN_ORIGIN), host: header(wsi, WSI_TOKEN_HOST)) {
            refusal = (403, "origin not allowed\n")
        } else if !acceptsSessions {
            refusal = (503, "shutting down\n")
        } else {
            refusal = nil
        }
        guard let refusal else { return 0 }
        return respond(wsi, status: refusal.status, text: refusal.text, completing: false) == 0 ? 1 : -1
    }

    /// lws binds an upgrade to the first protocol it knows in the client's list (or, with no list, to canopy.v1):
    /// that must be canopy.v1, not the HTTP protocol's name, and not nothing.
    private func offersOurSubprotocol(_ list: String?) -> Bool {
        guard let list, !list.isEmpty else { return true }
        let known = list.split(separator: ",").lazy
            .map { $0.filter { $0 != " " && $0 != "\t" } }
            .first { $0 == ServiceConfiguration.subprotocol || $0 == LibWebSocketsSetup.httpProtocolName }
        return known == ServiceConfiguration.subprotocol
    }

    /// A request header as lws holds it (for the URI: decoded and normalized), or nil if absent.
    func header(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> String? {
        let length = Int(lws_hdr_total_length(wsi, token))
        guard length > 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: length + 1)
        let copied = lws_hdr_copy(wsi, &buffer, Int32(buffer.count), token)
        guard copied >= 0 else { return nil }
        return String(decoding: buffer.prefix(Int(copied)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A complete plain-text response; see `respond(_:status:body:contentType:completing:)`.
    private func respond(_ wsi: OpaquePointer, status: UInt32, text: String, completing: Bool = true) -> Int32 {
        respond(
            wsi, status: status, body: Array(text.utf8), contentType: "text/plain; charset=utf-8", completing: completing)
    }

    /// A complete response held in memory: headers (with lws's security headers when configured, and a
    /// `WWW-Authenticate` challenge if given) and body (not for `HEAD`, which gets the same headers); `completing`
    /// also ends the HTTP transaction (not for upgrade refusals, where lws does it).
    func respond(
        _ wsi: OpaquePointer, status: UInt32, body: [UInt8], contentType: String, authenticate: String? = nil,
        completing: Bool = true
    ) -> Int32 {
        let pre = canopy_lws_pre()
        let headerRoom = 2048
        var buffer = [UInt8](repeating: 0, count: pre + max(headerRoom, body.count))
        let written = buffer.withUnsafeMutableBufferPointer { all -> Bool in
            let start = all.baseAddress! + pre
            var cursor: UnsafeMutablePointer<UInt8>? = start
            let end = start + headerRoom - 1
            guard
                lws_add_http_common_headers(
                    wsi, status, contentType, lws_filepos_t(body.count), &cursor, end) == 0,
                (authenticate.map { challenge in
                    let value = Array(challenge.utf8)
                    return lws_add_http_header_by_token(
                        wsi, WSI_TOKEN_HTTP_WWW_AUTHENTICATE, value, Int32(value.count), &cursor, end)
                } ?? 0) == 0,
                lws_finalize_write_http_header(wsi, start, &cursor, end) == 0
            else { return false }
            if isHead(wsi) { return true }
            // The headers are written; the same space now carries the body (LWS_PRE still in front of it).
            start.update(from: body, count: body.count)
            return lws_write(wsi, start, body.count, LWS_WRITE_HTTP_FINAL) >= Int32(body.count)
        }
        guard written else { return -1 }
        if completing && lws_http_transaction_completed(wsi) != 0 { return -1 }
        return 0
    }
}
