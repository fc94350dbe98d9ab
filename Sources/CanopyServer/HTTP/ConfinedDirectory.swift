#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A directory whose files are read by name (the web root, the examples) and nothing outside it: the one rule that
/// HTTP (`StaticFiles`) and canopyd's example loader share. A name is resolved to its real path (every symlink
/// followed) and must stay under the directory's own real path; a symlink that stays inside is fine.
public struct ConfinedDirectory: Sendable {
    /// What a name inside the directory turns out to be.
    public enum Lookup: Equatable, Sendable {
        /// A regular file inside the directory, at this real path.
        case file(realPath: String)
        /// Nothing there, a dangling link, or not a regular file (a directory, a FIFO, a device).
        case notFound
        /// It resolves to this real path, outside the directory (through a symlink): never read.
        case outside(realPath: String)
    }

    /// The directory's real path, without a trailing slash (except for `/` itself).
    public let root: String

    /// nil unless `directory` is an existing directory (itself possibly reached through a symlink).
    public init?(_ directory: String) {
        guard let real = Self.realPath(directory), Self.fileType(real) == S_IFDIR else { return nil }
        root = real
    }

    /// Resolves `relativePath` (segments joined by `/`, already checked by the caller for `..` and the like).
    public func lookup(_ relativePath: String) -> Lookup {
        guard let real = Self.realPath(root == "/" ? "/" + relativePath : root + "/" + relativePath) else {
            return .notFound
        }
        guard root == "/" || real.hasPrefix(root + "/") else { return .outside(realPath: real) }
        guard Self.fileType(real) == S_IFREG else { return .notFound }
        return .file(realPath: real)
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func fileType(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }
}
