import ArgumentParser
import CanopyCore
import Foundation

extension Canopy {
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run a SwiftUI program (.swift) as a program tree and print what it made.",
            discussion: """
                Sends the file as the source of a new program tree (PROGRAMS.md): its root view (--view, else the \
                view #Preview shows, else ContentView) runs in the daemon. The tree id is the file's base name in \
                lower kebab case (SignupForm.swift → signup-form) unless --tree names one. A first line \
                `// canopy: view=V title="T" previewModifiers=M1,M2` gives defaults the options override. Swift \
                that does not compile prints File.swift:LINE:COLUMN: error: … and nothing is created.
                """)

        @Argument(help: "The program's .swift file.")
        var file: String

        @Option(help: "The root view's type name.")
        var view: String?

        @Option(help: "The new tree's id (default: the file's base name, lower-kebab).")
        var tree: String?

        @Option(
            name: .customLong("preview-modifier"),
            help: ArgumentHelp("A PreviewModifier type to apply, as named in the source. Repeatable.", valueName: "M"))
        var previewModifiers: [String] = []

        @Option(help: "A title shown by `ls` and the inspector.")
        var title: String?

        @Option(help: ArgumentHelp("The canvas it is laid out in, in points (default: the iPhone 15's).", valueName: "WxH"))
        var canvas: String?

        @Option(help: ArgumentHelp("A device preset to lay it out in (docs/layout.md): \"iPhone 15\", \"iPhone SE\", \"iPad\"…", valueName: "name"))
        var device: String?

        @OptionGroup var connection: ConnectionOptions

        func validate() throws {
            if canvas != nil && device != nil { throw ValidationError("give --canvas or --device, not both") }
            if let canvas, Run.canvasJSON(canvas) == nil {
                throw ValidationError("--canvas takes WIDTHxHEIGHT in points, such as 393x852")
            }
        }

        /// `393x852` as `{"width":393,"height":852}`; nil when it is not two non-negative numbers.
        static func canvasJSON(_ text: String) -> JSON? {
            let parts = text.split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w >= 0, h >= 0, w.isFinite,
                h.isFinite
            else { return nil }
            return ["width": .double(w), "height": .double(h)]
        }

        /// The file read and the `createTree` body made from it and the options.
        func request() throws -> (ProgramFile, JSONObject) {
            let program = try ProgramFile(path: file)
            var body = try program.createTree(
                tree: tree, view: view, previewModifiers: previewModifiers, title: title)
            if let canvas { body["canvas"] = Run.canvasJSON(canvas) }
            if let device { body["canvas"] = ["device": .string(device)] }
            return (program, body)
        }

        func run() throws {
            let (program, body) = try request()
            let id = body["tree"]?.string ?? "?"
            let session = try connection.connect()
            let created = try reportingDiagnostics(path: { _ in program.path }) { try session.request(body) }
            let snapshot = try session.request(["type": "subscribe", "tree": .string(id)])
            if connection.json {
                emit(jsonLine(created))
                emit(jsonLine(snapshot))
            } else {
                for line in Run.summary(created: created, snapshot: snapshot, file: program.path) { emit(line) }
            }
            guard snapshot["program"] != nil else {
                throw CLIError(
                    "the daemon made \(id) a plain tree: it does not run programs (remove it with canopy delete \(id))")
            }
        }

        /// `created ID (version N) from FILE`, the program, the counts of nodes, cells and readers, then the cells.
        static func summary(created: JSON, snapshot: JSON, file: String, maxCells: Int = 20) -> [String] {
            let id = created["tree"]?.string ?? snapshot["tree"]?.string ?? "?"
            var out = ["created \(id) (version \(Int(created["version"]?.number ?? 0))) from \(file)"]
            if let program = snapshot["program"] { out.append("  " + Format.program(program, snapshot)) }
            let cells = snapshot["state"]?.array ?? []
            let readers = snapshot["readers"]?.array ?? []
            out.append(
                "  \(Format.nodeCount(snapshot["root"] ?? .null)) nodes, \(count(cells.count, "state cell")), "
                    + count(readers.count, "reader"))
            for cell in cells.prefix(maxCells) { out.append("  state " + Format.cell(cell)) }
            if cells.count > maxCells { out.append("  … \(cells.count - maxCells) more cells (canopy watch \(id))") }
            return out
        }

        private static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
    }
}
