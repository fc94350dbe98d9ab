import CanopyCore
import CanopySupport
import Foundation

/// The daemon's files: its data directory, the example trees, and memory given back after a restore.
enum DaemonFiles {
    /// Gives the memory that parsing the snapshots took back to the system (glibc's `malloc_trim`, looked up at run
    /// time: it is not in the C module Swift imports). Restoring a 1M-node tree otherwise leaves the process at the
    /// parser's high-water mark.
    static func returnFreedMemory() {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim") else { return }
        let trim = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        _ = trim(0)
    }

    static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Creates `path` (with its parents) if needed and checks that it is a writable directory; returns its
    /// absolute path.
    static func prepareDataDirectory(_ path: String) throws -> String {
        // mkdir -p by hand: Foundation's error for a failed createDirectory does not say which part failed or why.
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
                let reason = String(cString: strerror(errno))
                throw DaemonStartError(.start, "cannot create the data directory \(path): \(prefix): \(reason)")
            }
            prefix += "/"
        }
        guard isDirectory(path) else {
            throw DaemonStartError(.start, "data directory \(path) exists and is not a directory")
        }
        guard access(path, W_OK | X_OK) == 0 else {
            throw DaemonStartError(
                .start, "data directory \(path) is not writable: \(String(cString: strerror(errno)))")
        }
        return URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// The POSIX reason of a Foundation file error when it has one, else its description.
    static func reason(_ error: any Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return ns.localizedDescription
    }

    /// Loads every `*.json` of `directory` (a createTree body: tree, keys, root) and every `*.swift` (a program tree,
    /// see `ProgramHeader`) in name order. A broken JSON example stops the start with its file name; a program that
    /// does not start (or any, when the daemon has no program runtime: `programs` false) is passed to `skip` and left
    /// out. Files are read under the rule HTTP serves them by (`ConfinedDirectory`): a symlink that leads outside the
    /// directory stops the start too (refused, never read), so a link planted there cannot import a file from
    /// elsewhere; one that stays inside is fine. Every JSON file is checked and parsed before the first tree is
    /// created, so a refused or broken example leaves no tree behind.
    static func loadExamples(
        from directory: String, into runner: ProtocolRunner, programs: Bool, skip: (String) -> Void = { _ in }
    ) throws -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw DaemonStartError(.start, "cannot list the examples directory \(directory): \(reason(error))")
        }
        guard let confined = ConfinedDirectory(directory) else {
            throw DaemonStartError(.start, "the examples directory \(directory) is not a directory")
        }
        var bodies: [(path: String, body: JSONObject)] = []
        for name in names.sorted() where name.hasSuffix(".json") || name.hasSuffix(".swift") {
            let path = directory + "/" + name
            do {
                let real: String
                switch confined.lookup(name) {
                case .file(let realPath):
                    real = realPath
                case .outside(let realPath):
                    throw CanopyError(
                        .forbidden,
                        "it leads to \(realPath), outside the examples directory \(confined.root): refused "
                            + "(copy the file in, or remove the link)")
                case .notFound:
                    throw CanopyError(.badJSON, "not a regular file (or a dangling link)")
                }
                guard let data = FileManager.default.contents(atPath: real) else {
                    throw CanopyError(.badJSON, "cannot read the file")
                }
                if name.hasSuffix(".swift") {
                    let source = String(decoding: data, as: UTF8.self)
                    do {
                        let header = try ProgramHeader(source: source)
                        guard programs else { throw CanopyError(.badMessage, "this daemon runs no programs") }
                        let tree = ProgramHeader.treeID(forFile: name)
                        bodies.append((path, header.createTree(tree: tree, source: source)))
                    } catch {
                        skip("example \(path): \(error); skipped")
                    }
                    continue
                }
                guard let body = try JSONParser.parse(bytes: data).object else {
                    throw CanopyError(.badMessage, "an example is a createTree body (a JSON object)")
                }
                bodies.append((path, body))
            } catch let error as CanopyError {
                throw DaemonStartError(.start, "example \(path): \(error)")
            }
        }
        var loaded: [String] = []
        for (path, body) in bodies {
            do {
                loaded.append(try runner.createTree(body: body))
            } catch where path.hasSuffix(".swift") {
                // A program that does not compile or faults at its start leaves the other examples alone.
                skip("example \(path): \(error); skipped")
            } catch {
                throw DaemonStartError(.start, "example \(path): \(error)")
            }
        }
        return loaded
    }
}
