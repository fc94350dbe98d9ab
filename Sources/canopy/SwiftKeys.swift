import ArgumentParser
import CanopyCore
import CanopyScript
import Foundation

/// A `.swift` file of preference keys: every `PreferenceKey` it declares becomes `{"key":K,"swift":<the file>}`.
struct SwiftKeyFile {
    let path: String
    let source: String
    /// The names of the `PreferenceKey`s the file declares, in source order.
    let keys: [String]

    /// Reads and compiles `path` here, so a file that does not compile is reported before anything is sent.
    init(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError("\(path): cannot read the file")
        }
        let source = String(decoding: data, as: UTF8.self)
        let script: Script
        do {
            script = try Script.compile(source)
        } catch {
            throw SwiftDiagnostics(
                path: path, diagnostics: error.diagnostics.map { ($0.location.line, $0.location.column, $0.message) })
        }
        let keys = script.preferenceKeys
        if keys.isEmpty { throw CLIError("\(path): declares no PreferenceKey (struct K: PreferenceKey { … })") }
        self.path = path
        self.source = source
        self.keys = keys
    }

    /// One `createTree.keys` entry per key, or only `key`'s when it is given.
    func declarations(only key: String? = nil) throws -> [JSON] {
        if let key, !keys.contains(key) {
            let declared = keys.joined(separator: ", ")
            throw CLIError("\(path): declares no PreferenceKey named \(key) (it declares \(declared))")
        }
        return keys.filter { key == nil || $0 == key }.map { ["key": .string($0), "swift": .string(source)] }
    }

    /// `path` as written when it is absolute, else relative to the directory of `file` (`-`: the working directory).
    static func resolve(_ path: String, relativeTo file: String) -> String {
        if path.hasPrefix("/") || file == "-" { return path }
        let directory = (file as NSString).deletingLastPathComponent
        return directory.isEmpty ? path : (directory as NSString).appendingPathComponent(path)
    }

    /// `entries` (key declarations or ops) with every `"swiftFile"` reference, relative to `file`, replaced by
    /// the declarations it stands for: `{"swiftFile":"Keys.swift"}` by one entry per key the file declares,
    /// `{"key":"K","swiftFile":…}` by K's alone. Other fields of the entry (`"op"`) are kept. Returns the files read.
    static func expand(_ entries: [JSON], relativeTo file: String) throws -> (entries: [JSON], files: [SwiftKeyFile]) {
        var out: [JSON] = []
        var files: [SwiftKeyFile] = []
        for entry in entries {
            guard var object = entry.object, let reference = object["swiftFile"] else {
                out.append(entry)
                continue
            }
            guard let name = reference.string else { throw CLIError("\(file): \"swiftFile\" must be a file name") }
            let keyFile = try SwiftKeyFile(path: resolve(name, relativeTo: file))
            files.append(keyFile)
            object["swiftFile"] = nil
            for declaration in try keyFile.declarations(only: object["key"]?.string) {
                var expanded = object
                for member in declaration.object?.members ?? [] { expanded[member.key] = member.value }
                out.append(.object(expanded))
            }
        }
        return (out, files)
    }
}

/// Diagnostics of Swift that does not compile, printed as the Swift compiler prints them.
struct SwiftDiagnostics: Error {
    var path: String
    var diagnostics: [(line: Int, column: Int, message: String)]

    /// `File.swift:3:9: error: message`, one line per diagnostic.
    var lines: [String] { diagnostics.map { "\(path):\($0.line):\($0.column): error: \($0.message)" } }

    /// The lines on stderr, without the `canopy: ` prefix of other errors (editors jump to `file:line:column`).
    func print() {
        for line in lines { FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }

    /// The daemon's `compile_error` with diagnostics as lines of `path`; nil for any other answer.
    init?(_ error: ServerError, path: String) {
        guard error.message["code"]?.string == "compile_error", let list = error.message["diagnostics"]?.array,
            !list.isEmpty
        else { return nil }
        self.path = path
        diagnostics = list.map {
            (Int($0["line"]?.number ?? 0), Int($0["column"]?.number ?? 0), $0["message"]?.string ?? "")
        }
    }

    init(path: String, diagnostics: [(line: Int, column: Int, message: String)]) {
        self.path = path
        self.diagnostics = diagnostics
    }
}

/// Runs `body`; Swift that does not compile, found here or by the daemon, is printed compiler-style on stderr and
/// ends the command with exit status 1. `path` names the Swift source a daemon `compile_error` refers to.
func reportingDiagnostics<T>(path: (ServerError) -> String?, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let failure as SwiftDiagnostics {
        failure.print()
        throw ExitCode(1)
    } catch let error as ServerError {
        guard let name = path(error), let failure = SwiftDiagnostics(error, path: name) else { throw error }
        failure.print()
        throw ExitCode(1)
    }
}
