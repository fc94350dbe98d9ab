import CanopyCore
import CanopySupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The example trees served read-only under `/examples/`: each `*.json` file (a createTree body) and `*.swift` file
/// (a program) of the examples directory, through the same path checks as the web root (`StaticFiles`), and
/// `/examples/index.json`, generated per request (the files may change while the daemon runs), sorted by file name:
/// `{"file", "tree", "title"}` for a JSON example, `{"file", "tree", "title", "program": true, "view",
/// "description", "previewModifiers"}` for a program, from its header line (`ProgramHeader`).
struct ExampleFiles: Sendable {
    enum Resolution: Equatable {
        case index(JSON)
        case file(path: String, contentType: String)
        case notFound
        case forbidden
    }

    /// Request paths under this prefix are answered here, never from the web root.
    static let prefix = "/examples/"
    /// Files over this size are left out of the index, which reads every listed file on each request.
    static let maxIndexedBytes = 16 << 20
    /// What is served, by extension: a program as the text it is.
    static let contentTypes = ["json": "application/json", "swift": "text/plain; charset=utf-8"]

    /// nil when no directory is configured or it does not exist: the index is then empty.
    let files: StaticFiles?

    init(directory: String?) {
        files = directory.flatMap { try? StaticFiles(webRoot: $0, contentTypes: Self.contentTypes) }
    }

    /// Whether `name` is one the index can list: a top-level `.json` or `.swift` file.
    static func isExample(_ name: Substring) -> Bool {
        !name.contains("/") && (name.hasSuffix(".json") || name.hasSuffix(".swift"))
    }

    /// What `requestPath` (decoded, starting with `prefix`) answers: the index, a top-level `.json` or `.swift`
    /// file, or a refusal.
    func resolve(_ requestPath: String) -> Resolution {
        let name = requestPath.dropFirst(Self.prefix.count)
        if name == "index.json" { return .index(index()) }
        guard let files else { return .notFound }
        switch files.resolve("/" + name) {
        case .forbidden:
            return .forbidden
        case .notFound:
            return .notFound
        case .file(let path, let contentType):
            return Self.isExample(name) ? .file(path: path, contentType: contentType) : .notFound
        }
    }

    /// Every regular, non-hidden `*.json` file of the directory that parses to an object with a string `tree`
    /// (`title` only when it is a non-empty string), and every `*.swift` file whose header is well formed.
    func index() -> JSON {
        guard let files else { return [] }
        var entries: [JSON] = []
        for name in Self.fileNames(in: files.root).sorted() where Self.isExample(name[...]) && name != "index.json" {
            guard case .file(let path, _) = files.resolve("/" + name),
                let bytes = fileContents(path, limit: Self.maxIndexedBytes),
                let entry = name.hasSuffix(".swift") ? Self.programEntry(name, bytes) : Self.treeEntry(name, bytes)
            else { continue }
            entries.append(.object(entry))
        }
        return .array(entries)
    }

    /// A JSON example's entry: `{"file","tree","title"}`.
    private static func treeEntry(_ name: String, _ bytes: [UInt8]) -> JSONObject? {
        guard let body = try? JSONParser.parse(bytes: bytes), let tree = body["tree"]?.string else { return nil }
        var entry: JSONObject = ["file": .string(name), "tree": .string(tree)]
        if let title = body["title"]?.string, !title.isEmpty { entry["title"] = .string(title) }
        return entry
    }

    /// A program's entry, from its header line: the tree id its file name gives, `"program": true`, and the
    /// header's `title`, `view`, `description` and `previewModifiers` when it gives them. A malformed header (or a
    /// name that gives no tree id) leaves the file out.
    private static func programEntry(_ name: String, _ bytes: [UInt8]) -> JSONObject? {
        let tree = ProgramHeader.treeID(forFile: name)
        guard !tree.isEmpty, let header = try? ProgramHeader(source: String(decoding: bytes, as: UTF8.self)) else {
            return nil
        }
        var entry: JSONObject = ["file": .string(name), "tree": .string(tree)]
        if let title = header.title, !title.isEmpty { entry["title"] = .string(title) }
        entry["program"] = true
        if let view = header.view { entry["view"] = .string(view) }
        if let description = header.description, !description.isEmpty { entry["description"] = .string(description) }
        if !header.previewModifiers.isEmpty {
            entry["previewModifiers"] = .array(header.previewModifiers.map { .string($0) })
        }
        return entry
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
