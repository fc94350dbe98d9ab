import CanopyCore
import CanopyScript
import CanopyStore
import Foundation
import Testing

@testable import CanopyServer

/// Keys written in Swift through the daemon with the real compiler (CanopyScript's `ScriptKeyCompiler`, as canopyd
/// uses it): over a WebSocket, with compile errors, `declareKey`, and a restart that recompiles the stored source.
@Suite struct SwiftKeyRealCompilerTests {
    static let maxHeight = """
        struct MaxHeightKey: PreferenceKey {
            static var defaultValue: CGFloat = 0
            static func reduce(value: inout CGFloat, nextValue: () -> CGFloat) {
                value = max(value, nextValue())
            }
        }
        """
    static let titles = """
        struct TitlesKey: PreferenceKey {
            typealias Value = [String]
            static var defaultValue: Value = []
            static func reduce(value: inout Value, nextValue: () -> Value) {
                value.append(contentsOf: nextValue())
            }
        }
        """
    static let root: JSON = [
        "id": "root", "type": "VStack", "modifiers": [["kind": "onPreferenceChange", "key": "MaxHeightKey"]],
        "children": [
            ["id": "a", "type": "Text", "modifiers": [["kind": "preference", "key": "MaxHeightKey", "value": 20]]],
            ["id": "b", "type": "Text", "modifiers": [["kind": "preference", "key": "MaxHeightKey", "value": 44]]],
        ],
    ]

    static func start(in directory: String) throws -> Daemon {
        let daemon = try Daemon(
            configuration: .forTests(), storage: .custom(StoreOptions(directory: directory)),
            keyCompiler: ScriptKeyCompiler())
        daemon.start()
        return daemon
    }

    static func edit(_ client: DaemonClient, _ seq: Int, _ ops: [JSON]) throws -> JSON {
        try client.answer(["type": "edit", "tree": "demo", "seq": .int(Int64(seq)), "ops": .array(ops)])
    }

    /// The reader values of a snapshot or diff, by reader id.
    static func values(_ message: JSON, _ field: String) -> [String: JSON] {
        var out: [String: JSON] = [:]
        for r in message[field]?.array ?? [] { out[r["reader"]?.string ?? "?"] = r["value"] ?? .null }
        return out
    }

    @Test func swiftKeysOverTheWireAndAcrossARestart() throws {
        let directory = NSTemporaryDirectory() + "canopy-real-swift-key-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }

        let first = try Self.start(in: directory)
        let client = try DaemonClient(port: first.port)
        let key: JSON = ["key": "MaxHeightKey", "swift": .string(Self.maxHeight)]
        let created = try client.answer(["type": "createTree", "tree": "demo", "keys": [key], "root": Self.root])
        #expect(created == ["type": "created", "tree": "demo", "version": 0])
        let snapshot = try client.answer(["type": "subscribe", "tree": "demo"])
        #expect(snapshot["keys"] == [key])
        #expect(Self.values(snapshot, "readers") == ["root#0": 44])

        // Edits: a lower value fires nothing, a higher one fires, an inserted writer takes part.
        let quiet = try Self.edit(client, 1, [["op": "setPreference", "node": "a", "key": "MaxHeightKey", "value": 30]])
        #expect(quiet["type"] == "diff")
        #expect(quiet["changes"]?.array == [])
        let higher = try Self.edit(client, 2, [["op": "setPreference", "node": "a", "key": "MaxHeightKey", "value": 60.5]])
        #expect(Self.values(higher, "changes") == ["root#0": 60.5])
        let inserted = try Self.edit(client, 3, [[
            "op": "insert", "parent": "root", "index": 0,
            "node": ["id": "c", "type": "Text", "modifiers": [["kind": "preference", "key": "MaxHeightKey", "value": 80]]],
        ]])
        #expect(inserted["version"] == 3)
        #expect(Self.values(inserted, "changes") == ["root#0": 80])
        let mismatch = try Self.edit(client, 4, [["op": "setPreference", "node": "c", "key": "MaxHeightKey", "value": "tall"]])
        #expect(mismatch["type"] == "rejected")
        #expect(mismatch["code"] == "type_mismatch")

        // declareKey with Swift, then a reader and writers of the new key in the same batch.
        let declared = try Self.edit(client, 5, [
            ["op": "declareKey", "key": "TitlesKey", "swift": .string(Self.titles)],
            ["op": "setModifiers", "node": "root", "modifiers": [
                ["kind": "onPreferenceChange", "key": "MaxHeightKey"], ["kind": "onPreferenceChange", "key": "TitlesKey"],
            ]],
            ["op": "setPreference", "node": "a", "key": "TitlesKey", "value": ["Inbox"]],
            ["op": "setPreference", "node": "b", "key": "TitlesKey", "value": ["Sent", "Drafts"]],
        ])
        #expect(declared["type"] == "diff")
        #expect(declared["version"] == 4)
        // root#0 is the same reader as before (same index, same key), so only the new one fires.
        #expect(Self.values(declared, "changes") == ["root#1": ["Inbox", "Sent", "Drafts"]])
        #expect(first.stopAndWait())

        // A restart recompiles both keys from the store and continues from the same values.
        let second = try Self.start(in: directory)
        defer { second.stopAndWait() }
        #expect(second.restoredTrees == ["demo"])
        let again = try DaemonClient(port: second.port)
        let restored = try again.answer(["type": "subscribe", "tree": "demo"])
        #expect(restored["version"] == 4)
        #expect(restored["keys"] == [key, ["key": "TitlesKey", "swift": .string(Self.titles)]])
        #expect(Self.values(restored, "readers") == ["root#0": 80, "root#1": ["Inbox", "Sent", "Drafts"]])
        let next = try Self.edit(again, 6, [["op": "remove", "node": "a"]])
        #expect(next["version"] == 5)
        #expect(Self.values(next, "changes") == ["root#1": ["Sent", "Drafts"]])
    }

    @Test func compileErrorsOverTheWireCarryDiagnostics() throws {
        let directory = NSTemporaryDirectory() + "canopy-real-swift-error-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let daemon = try Self.start(in: directory)
        defer { daemon.stopAndWait() }
        let client = try DaemonClient(port: daemon.port)

        let broken = Self.maxHeight.replacingOccurrences(of: "max(value, nextValue())", with: "max(value, nextVal())")
        let refused = try client.answer([
            "type": "createTree", "tree": "bad", "rid": "r1",
            "keys": [["key": "MaxHeightKey", "swift": .string(broken)]],
        ])
        #expect(refused["type"] == "error")
        #expect(refused["code"] == "compile_error")
        #expect(refused["rid"] == "r1")
        let diagnostic = refused["diagnostics"]?.array?.first
        #expect(diagnostic?["line"] == 4)
        #expect(diagnostic?["column"] == 28)
        #expect(diagnostic?["message"]?.string?.contains("nextVal") == true, "\(refused)")
        let list = try client.answer(["type": "subscribe", "tree": "bad"])
        #expect(list["code"] == "no_such_tree")

        let created = try client.answer([
            "type": "createTree", "tree": "demo", "keys": [["key": "MaxHeightKey", "swift": .string(Self.maxHeight)]],
            "root": Self.root,
        ])
        #expect(created["type"] == "created")
        _ = try client.answer(["type": "subscribe", "tree": "demo"])
        let rejected = try Self.edit(client, 1, [
            ["op": "setPreference", "node": "a", "key": "MaxHeightKey", "value": 99],
            ["op": "declareKey", "key": "TitlesKey", "swift": "struct TitlesKey: PreferenceKey {\n  static var defaultValue = [String]()\n}"],
        ])
        #expect(rejected["type"] == "rejected")
        #expect(rejected["code"] == "compile_error")
        #expect(rejected["op"] == 1)
        #expect((rejected["diagnostics"]?.array?.count ?? 0) >= 1)
        #expect(rejected["diagnostics"]?.array?.first?["line"] == 1)
    }
}
