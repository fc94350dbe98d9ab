/// A plain HTTP request as routes see it (after the transport's checks: size caps, `Host`, method).
public struct HTTPRequest: Sendable {
    /// The path as lws decoded and normalized it, without the query.
    public var path: String
    /// The token of an `Authorization: Bearer <token>` header, if there is one.
    public var bearerToken: String?

    public init(path: String, bearerToken: String? = nil) {
        self.path = path
        self.bearerToken = bearerToken
    }
}

/// What a route answers.
public enum HTTPResponse: Sendable, Equatable {
    /// A body held in memory, with an optional `WWW-Authenticate` challenge.
    case content(status: UInt32, body: [UInt8], contentType: String, authenticate: String? = nil)
    /// A file, streamed by lws as the socket takes it.
    case file(path: String, contentType: String)

    /// A short plain-text answer.
    public static func text(_ status: UInt32, _ text: String) -> HTTPResponse {
        .content(status: status, body: Array(text.utf8), contentType: "text/plain; charset=utf-8")
    }
}

/// Answers the plain HTTP requests of a `ServiceLoop` (all but `/healthz` and the WebSocket path), on the service
/// thread. `loop` is the loop asking, for what only it knows (its metrics).
public protocol HTTPRoutes: AnyObject, Sendable {
    func respond(to request: HTTPRequest, loop: ServiceLoop) -> HTTPResponse
}
