import CanopyCore
import Foundation

/// A `.swift` program file to run as a program tree: its source, the settings of its `// canopy:` header
/// (`ProgramHeader`) and the tree id it gets by default (its base name in lower kebab case).
struct ProgramFile {
    let path: String
    let source: String
    var header: ProgramHeader

    init(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError("\(path): cannot read the file")
        }
        self.path = path
        source = String(decoding: data, as: UTF8.self)
        do {
            header = try ProgramHeader(source: source)
        } catch {
            throw CLIError("\(path):1: \(error.message)")
        }
    }

    /// The tree id the file gives when none is named.
    var defaultTree: String { ProgramHeader.treeID(forFile: path) }

    /// The `createTree` body: the header's settings, then the given ones over them.
    func createTree(tree: String?, view: String?, previewModifiers: [String], title: String?) throws -> JSONObject {
        let id = tree ?? defaultTree
        if id.isEmpty { throw CLIError("\(path): no tree id can be made from the file name; name one with --tree") }
        var settings = header
        if let view { settings.view = view }
        if !previewModifiers.isEmpty { settings.previewModifiers = previewModifiers }
        if let title { settings.title = title }
        return settings.createTree(tree: id, source: source)
    }

    static func isProgram(_ path: String) -> Bool { path.hasSuffix(".swift") }
}
