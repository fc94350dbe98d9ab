import CanopyCore
import CanopySupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The example trees served read-only under `/examples/`: each `*.json` file of the examples directory, through the
/// same path checks as the web root (`StaticFiles`), and `/examples/index.json`, generated per request (the files
/// may change while the daemon runs): `[{"file", "tree", "title"}]` sorted by file name.
struct ExampleFiles: Sendable {
    enum Resolution: Equatable {
        case index(JSON)
        case file(path: String)
        case notFound
        case forbidden
    }

    /// Request paths under this prefix are answered here, never from the web root.
    static let prefix = "/examples/"
    /// Files over this size are left out of the index, which reads every listed file on each request.
    static let maxIndexedBytes = 16 << 20

    /// nil when no directory is configured or it does not exist: the index is then empty.
    let files: StaticFiles?

    init(directory: String?) {
        files = directory.flatMap { try? StaticFiles(webRoot: $0) }
    }

    /// What `requestPath` (decoded, starting with `prefix`) answers: the index, a top-level `.json` file, or a refusal.
    func resolve(_ requestPath: String) -> Resolution {
        let name = requestPath.dropFirst(Self.prefix.count)
        if name == "index.json" { return .index(index()) }
        guard let files else { return .notFound }
        switch files.resolve("/" + name) {
        case .forbidden:
            return .forbidden
        case .notFound:
            return .notFound
        case .file(let path, _):
            // Only the files the index can list: top-level `.json` files.
            return name.hasSuffix(".json") && !name.contains("/") ? .file(path: path) : .notFound
        }
    }

    /// Every regular, non-hidden `*.json` file of the directory that parses to an object with a string `tree`;
    /// `title` only when it is a non-empty string.
    func index() -> JSON {
        guard let files else { return [] }
        var entries: [JSON] = []
        for name in Self.fileNames(in: files.root).sorted() where name.hasSuffix(".json") && name != "index.json" {
            guard case .file(let path, _) = files.resolve("/" + name),
                let bytes = fileContents(path, limit: Self.maxIndexedBytes),
                let body = try? JSONParser.parse(bytes: bytes), let tree = body["tree"]?.string
            else { continue }
            var entry: JSONObject = ["file": .string(name), "tree": .string(tree)]
            if let title = body["title"]?.string, !title.isEmpty { entry["title"] = .string(title) }
            entries.append(.object(entry))
        }
        return .array(entries)
    }

    /// The names in `directory` (without `.` and `..`); empty if it cannot be read.
    private static func fileNames(in directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
