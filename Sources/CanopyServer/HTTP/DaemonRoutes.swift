import CanopyCore
import CanopySupport
import CanopyWebSocket

/// canopyd's HTTP routes: `/metrics` (with its token check), the example trees at `/examples/`, and static files
/// from the web root. The transport answers `/healthz` and the WebSocket path itself.
public final class DaemonRoutes: HTTPRoutes, @unchecked Sendable {  // called on the service thread only
    let files: StaticFiles?
    let examples: ExampleFiles
    /// The protocol runner: who may read the metrics, and its share of them (nil: `/metrics` is 404).
    let runner: ProtocolRunner?

    /// Routes for `webRoot` (nil: no files) and `examplesDirectory` (nil, or missing: an empty index). Throws if the
    /// web root is not an existing directory.
    public init(webRoot: String?, examplesDirectory: String?, runner: ProtocolRunner?) throws(ServiceLoopError) {
        files = try webRoot.map { root throws(ServiceLoopError) in try StaticFiles(webRoot: root) }
        examples = ExampleFiles(directory: examplesDirectory)
        self.runner = runner
    }

    public func respond(to request: HTTPRequest, loop: ServiceLoop) -> HTTPResponse {
        let path = request.path
        if path == "/metrics" { return metrics(request, loop) }
        // Before the web root: a web root holding an `examples` folder must not shadow the examples.
        if path.hasPrefix(ExampleFiles.prefix) {
            switch examples.resolve(path) {
            case .index(let list):
                return .content(status: 200, body: Array(list.encoded().utf8), contentType: "application/json")
            case .file(let file, let contentType): return .file(path: file, contentType: contentType)
            case .forbidden: return .text(403, "forbidden\n")
            case .notFound: return .text(404, "not found\n")
            }
        }
        guard let files else { return .text(404, "not found\n") }
        switch files.resolve(path) {
        case .forbidden: return .text(403, "forbidden\n")
        case .notFound: return .text(404, "not found\n")
        case .file(let file, let contentType): return .file(path: file, contentType: contentType)
        }
    }

    /// 401 unless the runner accepts the request's bearer token, else the transport's, the protocol's and the
    /// process's metrics.
    private func metrics(_ request: HTTPRequest, _ loop: ServiceLoop) -> HTTPResponse {
        guard let runner else { return .text(404, "not found\n") }
        guard runner.allowsMetrics(bearerToken: request.bearerToken) else {
            return .content(
                status: 401, body: Array("unauthorized: send Authorization: Bearer <token>\n".utf8),
                contentType: "text/plain; charset=utf-8", authenticate: "Bearer realm=\"canopyd\"")
        }
        var exposition = MetricsExposition()
        loop.writeMetrics(into: &exposition)
        runner.writeMetrics(into: &exposition)
        ProcessMetrics.write(into: &exposition)
        return .content(status: 200, body: Array(exposition.text.utf8), contentType: MetricsExposition.contentType)
    }
}
