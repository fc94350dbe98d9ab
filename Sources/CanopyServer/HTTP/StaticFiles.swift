import CanopyWebSocket

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Maps request paths to files under the web root and refuses anything that could leave it: `.` and `..`
/// segments, backslashes, NULs and leftover percent signs (lws has already decoded `%xx` once, so one here means
/// double encoding) are forbidden; the real path (symlinks resolved) must stay under the root's real path
/// (`ConfinedDirectory`, the rule the example loader shares). Hidden files and files of unknown type are not served.
struct StaticFiles: Sendable {
    enum Resolution: Equatable {
        case file(path: String, contentType: String)
        case notFound
        case forbidden
    }

    /// Content types by lowercased extension; anything else is not served.
    static let contentTypes: [String: String] = [
        "html": "text/html; charset=utf-8",
        "htm": "text/html; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "json": "application/json",
        "map": "application/json",
        "png": "image/png",
        "svg": "image/svg+xml",
        "ico": "image/x-icon",
        "txt": "text/plain; charset=utf-8",
        "woff2": "font/woff2",
    ]

    let directory: ConfinedDirectory
    /// The content types served, by lowercased extension.
    let types: [String: String]
    /// The web root's real path, without a trailing slash (except for `/` itself).
    var root: String { directory.root }

    /// Resolves `webRoot` once; it must be an existing directory. Only files whose extension `contentTypes` lists
    /// are served.
    init(webRoot: String, contentTypes: [String: String] = Self.contentTypes) throws(ServiceLoopError) {
        guard let directory = ConfinedDirectory(webRoot) else {
            throw ServiceLoopError(.invalidConfiguration, "webRoot \(webRoot) is not an existing directory")
        }
        self.directory = directory
        types = contentTypes
    }

    /// What `requestPath` (the decoded path of a GET, without the query) names under the root.
    func resolve(_ requestPath: String) -> Resolution {
        guard requestPath.hasPrefix("/") else { return .forbidden }
        if requestPath.contains(where: { $0 == "\0" || $0 == "\\" || $0 == "%" }) { return .forbidden }
        var segments = requestPath.split(separator: "/").map(String.init)
        for segment in segments {
            if segment == "." || segment == ".." { return .forbidden }
            if segment.hasPrefix(".") { return .notFound }
        }
        if requestPath.hasSuffix("/") { segments.append("index.html") }
        guard let name = segments.last, let contentType = Self.contentType(forName: name, in: types) else {
            return .notFound
        }
        switch directory.lookup(segments.joined(separator: "/")) {
        case .file(let real): return .file(path: real, contentType: contentType)
        case .notFound: return .notFound
        case .outside: return .forbidden
        }
    }

    static func contentType(forName name: String, in types: [String: String] = contentTypes) -> String? {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return types[name[name.index(after: dot)...].lowercased()]
    }
}
