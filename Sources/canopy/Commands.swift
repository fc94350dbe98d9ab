import ArgumentParser
import CanopyCore
import Foundation

extension Canopy {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "ls", abstract: "List the trees.")

        @OptionGroup var connection: ConnectionOptions

        func run() throws {
            let session = try connection.connect()
            let reply = try session.request(["type": "listTrees"])
            if connection.json { return emit(jsonLine(reply)) }
            let trees = reply["trees"]?.array ?? []
            if trees.isEmpty { return emit("no trees") }
            var rows = [["TREE", "VERSION", "NODES", "SUBSCRIBERS", "TITLE"]]
            for tree in trees {
                rows.append([
                    tree["tree"]?.string ?? "?", "\(Int(tree["version"]?.number ?? 0))",
                    // A tree still loading at the daemon's start has no node count yet.
                    tree["loading"] == true ? "loading" : "\(Int(tree["nodes"]?.number ?? 0))",
                    "\(Int(tree["subscribers"]?.number ?? 0))",
                    tree["title"]?.string ?? "",
                ])
            }
            let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
            for row in rows {
                let cells = row.enumerated().map { column, cell in
                    column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                }
                emit(cells.joined(separator: "  ").trimmingCharacters(in: .whitespaces))
            }
        }
    }

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a tree.",
            discussion: """
                Without --root the tree is a single node {"id":"root","type":"Root"}. A key's default, when left \
                out, is its reducer's neutral value (0 for sum/max/min, true for and, false for or, [] for append, \
                {} for merge, "" for nest, null otherwise). --keys File.swift declares every PreferenceKey the file \
                declares, each with the whole file as its source; a file that does not compile is reported as the \
                Swift compiler reports it (File.swift:LINE:COLUMN: error: …) and nothing is created.
                """)

        @Argument(help: "The new tree's id (1–128 characters of A–Z a–z 0–9 . _ -).")
        var tree: String

        @Option(name: .customLong("key"), help: "NAME:REDUCER[:DEFAULT_JSON], e.g. Total:sum:0. Repeatable.")
        var keys: [String] = []

        @Option(
            name: .customLong("keys"),
            help: ArgumentHelp("A .swift file of PreferenceKeys to declare. Repeatable.", valueName: "file"))
        var swiftKeys: [String] = []

        @Option(help: "A JSON file holding the root node (a Node of the protocol).")
        var root: String?

        @Option(help: "A title shown by `ls` and the inspector.")
        var title: String?

        @OptionGroup var connection: ConnectionOptions

        func run() throws {
            let files = try reportingDiagnostics(path: { _ in nil }) { try swiftKeys.map(SwiftKeyFile.init(path:)) }
            var body: JSONObject = ["type": "createTree", "tree": .string(tree)]
            body["keys"] = .array(try keys.map(Create.keyDeclaration) + files.flatMap { try $0.declarations() })
            if let root { body["root"] = try readJSON(root) }
            if let title { body["title"] = .string(title) }
            let session = try connection.connect()
            // The daemon names no key in its diagnostics: they are the file's when there is one.
            let reply = try reportingDiagnostics(path: { _ in files.count == 1 ? files[0].path : nil }) {
                try session.request(body)
            }
            emit(connection.json ? jsonLine(reply) : "created \(tree) (version \(Int(reply["version"]?.number ?? 0)))")
        }

        static func keyDeclaration(_ spec: String) throws -> JSON {
            let parts = spec.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            let reducers = Reducer.allCases.map(\.rawValue).joined(separator: ", ")
            guard parts.count >= 2, !parts[0].isEmpty, let reducer = Reducer(rawValue: parts[1]) else {
                throw ValidationError("--key \(spec): expected NAME:REDUCER[:DEFAULT_JSON] with REDUCER one of \(reducers)")
            }
            var defaultValue: JSON
            if parts.count == 3 {
                do {
                    defaultValue = try JSONParser.parse(parts[2])
                } catch {
                    throw ValidationError("--key \(spec): the default is not JSON (\(error)); quote strings: '\"text\"'")
                }
            } else {
                switch reducer {
                case .sum, .max, .min: defaultValue = 0
                case .and: defaultValue = true
                case .or: defaultValue = false
                case .append: defaultValue = []
                case .merge: defaultValue = .object(JSONObject())
                case .nest: defaultValue = ""
                default: defaultValue = .null
                }
            }
            return ["key": .string(parts[0]), "reducer": .string(reducer.rawValue), "default": defaultValue]
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create trees from example files (createTree bodies, or .swift programs as `run` takes them).",
            discussion: """
                A directory imports every *.json and *.swift file in it, e.g. `canopy import config/examples`. A \
                .swift file becomes a program tree, as `canopy run` makes one (its id: the file's base name in lower \
                kebab case; its `// canopy:` header gives view, title and preview modifiers). A key entry \
                {"swiftFile":"Keys.swift"} (relative to the tree file) stands for every PreferenceKey that file \
                declares, {"key":"K","swiftFile":…} for K alone; --keys adds a .swift file's keys to every tree.
                """)

        @Argument(help: "Files or directories to import.")
        var paths: [String]

        @Option(help: "Create the tree under this id instead of the file's (one file only).")
        var tree: String?

        @Option(
            name: .customLong("keys"),
            help: ArgumentHelp(
                "A .swift file of PreferenceKeys added to every tree's keys. Repeatable.", valueName: "file"))
        var swiftKeys: [String] = []

        @Flag(help: "Skip trees that already exist instead of reporting them as failures.")
        var skipExisting = false

        @OptionGroup var connection: ConnectionOptions

        func validate() throws {
            if paths.isEmpty { throw ValidationError("name at least one file or directory") }
        }

        func run() throws {
            let files = try paths.flatMap(Import.files)
            if tree != nil && files.count != 1 { throw ValidationError("--tree needs exactly one file") }
            let extra = try reportingDiagnostics(path: { _ in nil }) { try swiftKeys.map(SwiftKeyFile.init(path:)) }
            var bodies: [(String, JSONObject, [SwiftKeyFile])] = []
            for file in files {
                if ProgramFile.isProgram(file) {
                    if !extra.isEmpty { throw ValidationError("\(file): a program declares its own keys: no --keys") }
                    let program = try ProgramFile(path: file)
                    let body = try program.createTree(tree: tree, view: nil, previewModifiers: [], title: nil)
                    bodies.append((file, body, []))
                    continue
                }
                guard var body = try readJSON(file).object else {
                    throw CLIError("\(file): expected a JSON object (a createTree body)")
                }
                body["type"] = "createTree"
                if let tree { body["tree"] = .string(tree) }
                if body["tree"]?.string == nil { throw CLIError("\(file): no \"tree\" id (name one with --tree)") }
                let (keys, read) = try reportingDiagnostics(path: { _ in nil }) {
                    try SwiftKeyFile.expand(body["keys"]?.array ?? [], relativeTo: file)
                }
                if !read.isEmpty || !extra.isEmpty {
                    body["keys"] = .array(try keys + extra.flatMap { try $0.declarations() })
                }
                bodies.append((file, body, read + extra))
            }
            let session = try connection.connect()
            var failures = 0
            for (file, body, swiftFiles) in bodies {
                let id = body["tree"]?.string ?? "?"
                do {
                    let reply = try session.request(body)
                    emit(connection.json ? jsonLine(reply) : "imported \(id) from \(file)")
                } catch let error as ServerError where error.message["code"]?.string == "tree_exists" && skipExisting {
                    emit("skipped \(id): it already exists")
                } catch let error as ServerError {
                    failures += 1
                    // A program's diagnostics are its own file's; a tree file's, its one Swift key file's if any.
                    let swiftPath =
                        ProgramFile.isProgram(file) ? file : (swiftFiles.count == 1 ? swiftFiles[0].path : nil)
                    if let swiftPath, let failure = SwiftDiagnostics(error, path: swiftPath) {
                        failure.print()
                    } else {
                        printError("\(file): \(error)")
                    }
                }
            }
            if failures > 0 { throw ExitCode(1) }
        }

        /// `path` itself, or the `*.json` and `*.swift` files of a directory in name order.
        static func files(_ path: String) throws -> [String] {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CLIError("\(path): no such file or directory")
            }
            guard isDirectory.boolValue else { return [path] }
            let names = try FileManager.default.contentsOfDirectory(atPath: path).filter {
                $0.hasSuffix(".json") || ProgramFile.isProgram($0)
            }
            if names.isEmpty { throw CLIError("\(path): no .json or .swift files") }
            return names.sorted().map { path.hasSuffix("/") ? path + $0 : path + "/" + $0 }
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a tree (needs the admin role).")

        @Argument(help: "The tree to delete.")
        var tree: String

        @OptionGroup var connection: ConnectionOptions

        func run() throws {
            let session = try connection.connect()
            let reply = try session.request(["type": "deleteTree", "tree": .string(tree)])
            emit(connection.json ? jsonLine(reply) : "deleted \(tree)")
        }
    }

    struct Watch: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Follow a tree: every diff (author, ops, reader changes) and who is connected, until interrupted.")

        @Argument(help: "The tree to watch.")
        var tree: String

        @Option(help: "Start after this version: print the diffs since then instead of the snapshot's summary.")
        var since: Int?

        @Flag(help: "Ask for traces and print each diff's reduce calls.")
        var trace = false

        @Option(help: "Stop after this many diffs (for scripts).")
        var count: Int?

        @OptionGroup var connection: ConnectionOptions

        func run() throws {
            let session = try connection.connect()
            var subscribe: JSONObject = ["type": "subscribe", "tree": .string(tree)]
            if let since { subscribe["since"] = .int(Int64(since)) }
            if trace { subscribe["trace"] = true }
            var values = TreeValues()
            var lastClients = ""
            var diffs = 0
            func show(_ message: JSON) throws -> Bool {
                if connection.json {
                    emit(jsonLine(message))
                } else if message["type"]?.string == "clients" {
                    // Presence follows every join and leave, our own subscribe included: print changes only.
                    let clients = Format.clients(message["clients"])
                    if clients != lastClients { emit("clients: \(clients)") }
                    lastClients = clients
                } else {
                    if message["type"]?.string == "snapshot" { lastClients = Format.clients(message["clients"]) }
                    Watch.describe(message, values: &values, trace: trace)
                }
                switch message["type"]?.string {
                case "diff":
                    diffs += 1
                    return count.map { diffs >= $0 } ?? false
                case "deleted":
                    return true
                default:
                    return false
                }
            }
            // With `since` the answer is the missed diffs (broadcast copies) and `subscribed`, or a snapshot.
            session.client.send(.object(subscribe))
            if !connection.json && since != nil { emit("watching \(tree) after version \(since ?? 0)") }
            var done = false
            while !done {
                let message = try session.nextWithoutTimeout()
                if message["type"]?.string == "error" { throw ServerError(message) }
                done = try show(message)
            }
        }
    }

    struct Probe: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Evaluate a key at a node on demand (for inspection: it creates no reader).")

        @Argument(help: "The tree.") var tree: String
        @Argument(help: "The node id.") var node: String
        @Argument(help: "The preference key.") var key: String

        @OptionGroup var connection: ConnectionOptions

        func run() throws {
            let session = try connection.connect()
            let reply = try session.request([
                "type": "probe", "tree": .string(tree), "node": .string(node), "key": .string(key),
            ])
            if connection.json { return emit(jsonLine(reply)) }
            let version = Int(reply["version"]?.number ?? 0)
            if reply["present"]?.bool == true {
                emit("\(node) \(key) = \((reply["value"] ?? .null).encoded())  (version \(version))")
            } else {
                emit("\(node) \(key): not present  (version \(version))")
            }
        }
    }

    struct History: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a tree's past diffs (as far back as the daemon keeps them).")

        @Argument(help: "The tree.") var tree: String
        @Option(help: "First version.") var from: Int?
        @Option(help: "Last version.") var to: Int?

        @OptionGroup var connection: ConnectionOptions

        func run() throws {
            let session = try connection.connect()
            var request: JSONObject = ["type": "history", "tree": .string(tree)]
            if let from { request["from"] = .int(Int64(from)) }
            if let to { request["to"] = .int(Int64(to)) }
            // A reply holds what fits the daemon's byte budget; `next` says where the following page starts.
            var diffs: [JSON] = []
            while true {
                let reply = try session.request(request)
                if connection.json { emit(jsonLine(reply)) }
                diffs += reply["diffs"]?.array ?? []
                guard let next = reply["next"] else { break }
                request["from"] = next
            }
            if connection.json { return }
            if diffs.isEmpty { return emit("no diffs in that range") }
            var values = TreeValues()
            for diff in diffs { Watch.describe(diff, values: &values, trace: false) }
        }
    }
}

/// One line on stderr, prefixed with `canopy: `.
func printError(_ text: String) {
    FileHandle.standardError.write(Data(("canopy: " + text + "\n").utf8))
}
