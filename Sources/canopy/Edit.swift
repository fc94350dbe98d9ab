import ArgumentParser
import CanopyCore
import Foundation

extension Canopy {
    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Apply one batch of ops atomically and print the resulting diff.",
            discussion: """
                OPS.json holds an array of ops ({"op":"setPreference","node":"n1","key":"K","value":3}, …; see \
                docs/protocol.md), or an object with an "ops" array. `-` reads stdin. A rejected batch changes \
                nothing; its error is printed and the exit status is 1. Keys written in Swift: --keys File.swift \
                puts a declareKey op for every PreferenceKey the file declares before the file's ops, and an op \
                {"op":"declareKey","swiftFile":"Keys.swift"} (relative to OPS.json; with "key" for one key only) \
                stands for the same. Swift that does not compile prints File.swift:LINE:COLUMN: error: ….
                """)

        @Argument(help: "The tree to edit.")
        var tree: String

        @Argument(help: "A JSON file of ops, or - for stdin (may be left out with --keys).")
        var ops: String?

        @Option(
            name: .customLong("keys"),
            help: ArgumentHelp("A .swift file of PreferenceKeys to declare. Repeatable.", valueName: "file"))
        var swiftKeys: [String] = []

        @OptionGroup var connection: ConnectionOptions

        func validate() throws {
            if ops == nil && swiftKeys.isEmpty { throw ValidationError("name a file of ops, or --keys File.swift") }
        }

        /// The batch: declareKey ops of the --keys files, then the ops file's with its `swiftFile` references read.
        func batch() throws -> (ops: [JSON], files: [SwiftKeyFile]) {
            var files = try swiftKeys.map(SwiftKeyFile.init(path:))
            var list: [JSON] = try files.flatMap { file in
                try file.declarations().map { declaration -> JSON in
                    ["op": "declareKey", "key": declaration["key"] ?? .null, "swift": declaration["swift"] ?? .null]
                }
            }
            guard let ops else { return (list, files) }
            let document = try readJSON(ops)
            guard let given = document.array ?? document["ops"]?.array else {
                throw CLIError("\(ops): expected an array of ops or an object with an \"ops\" array")
            }
            let expanded = try SwiftKeyFile.expand(given, relativeTo: ops)
            list += expanded.entries
            files += expanded.files
            return (list, files)
        }

        func run() throws {
            let (list, files) = try reportingDiagnostics(path: { _ in nil }) { try batch() }
            let session = try connection.connect()
            // Milliseconds since 1970: grows from one invocation to the next, as a client's seq should.
            let seq = JSON.int(Int64(Date().timeIntervalSince1970 * 1000))
            let message: JSONObject = ["type": "edit", "tree": .string(tree), "seq": seq, "ops": .array(list)]
            // A compile_error names the failing op: its Swift is one of the files read.
            let swiftPath = { (error: ServerError) -> String? in
                guard let index = error.message["op"]?.number, Int(index) >= 0, Int(index) < list.count,
                    let source = list[Int(index)]["swift"]?.string
                else { return nil }
                return files.first { $0.source == source }?.path
            }
            let diff: JSON
            do {
                diff = try reportingDiagnostics(path: swiftPath) { try session.edit(message) }
            } catch let error as ServerError {
                if connection.json { emit(jsonLine(error.message)) }
                throw error
            }
            if connection.json { return emit(jsonLine(diff)) }
            let count = diff["ops"]?.array?.count ?? 0
            emit("\(tree) version \(Int(diff["version"]?.number ?? 0)): applied \(count) op\(count == 1 ? "" : "s")")
            for change in diff["changes"]?.array ?? [] { emit("  → " + Format.reader(change)) }
        }
    }
}
