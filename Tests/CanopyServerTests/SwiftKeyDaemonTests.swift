import CanopyCore
import CanopyStore
import Foundation
import Testing

@testable import CanopyServer

/// Keys written in Swift in a daemon built as canopyd builds one, with a fake compiler handed to the builder: over a
/// WebSocket, and across a restart on the same data directory.
@Suite struct SwiftKeyDaemonTests {
    static let sumKey: JSON = ["key": "K", "swift": "sum"]
    static let root: JSON = [
        "id": "root", "type": "VStack", "modifiers": [["kind": "onPreferenceChange", "key": "K"]],
        "children": [
            ["id": "a", "type": "Text", "modifiers": [["kind": "preference", "key": "K", "value": 1]]],
            ["id": "b", "type": "Text", "modifiers": [["kind": "preference", "key": "K", "value": 2]]],
        ],
    ]

    static func start(in directory: String) throws -> Daemon {
        let daemon = try Daemon(
            configuration: .forTests(), storage: .custom(StoreOptions(directory: directory)),
            keyCompiler: SumKeyCompiler())
        daemon.start()
        return daemon
    }

    @Test func aSwiftKeyWorksOverTheWireAndSurvivesARestart() throws {
        let directory = NSTemporaryDirectory() + "canopy-swift-key-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }

        let first = try Self.start(in: directory)
        let client = try DaemonClient(port: first.port)
        let create: JSON = ["type": "createTree", "tree": "demo", "keys": [Self.sumKey], "root": Self.root]
        let created = try client.answer(create)
        #expect(created == ["type": "created", "tree": "demo", "version": 0])
        let snapshot = try client.answer(["type": "subscribe", "tree": "demo"])
        #expect(snapshot["keys"] == [Self.sumKey])
        #expect(snapshot["readers"]?.array?.first?["value"] == 3)
        let diff = try client.answer([
            "type": "edit", "tree": "demo", "seq": 1,
            "ops": [["op": "setPreference", "node": "a", "key": "K", "value": 5]],
        ])
        #expect(diff["type"] == "diff")
        #expect(diff["version"] == 1)
        #expect(diff["changes"]?.array?.first?["value"] == 7)

        let refused = try client.answer([
            "type": "createTree", "tree": "bad", "keys": [["key": "K", "swift": "struct K {"]], "rid": "r",
        ])
        #expect(refused["type"] == "error")
        #expect(refused["code"] == "compile_error")
        #expect(refused["rid"] == "r")
        #expect(refused["diagnostics"] == SumKeyCompiler.diagnostics)
        let fault = try client.answer([
            "type": "edit", "tree": "demo", "seq": 2,
            "ops": [["op": "setPreference", "node": "a", "key": "K", "value": 999]],
        ])
        #expect(fault["type"] == "rejected")
        #expect(fault["code"] == "runtime_error")
        #expect(fault["seq"] == 2)
        for m in SumKeyCompiler.fault.members { #expect(fault[m.key] == m.value) }
        #expect(first.stopAndWait())

        let second = try Self.start(in: directory)
        defer { second.stopAndWait() }
        #expect(second.restoredTrees == ["demo"])
        let again = try DaemonClient(port: second.port)
        let restored = try again.answer(["type": "subscribe", "tree": "demo"])
        #expect(restored["version"] == 1)
        #expect(restored["keys"] == [Self.sumKey])
        #expect(restored["readers"]?.array?.first?["value"] == 7)
        let next = try again.answer([
            "type": "edit", "tree": "demo", "seq": 3,
            "ops": [["op": "setPreference", "node": "b", "key": "K", "value": 10]],
        ])
        // The faulting batch took no version.
        #expect(next["version"] == 2)
        #expect(next["changes"]?.array?.first?["value"] == 15)
    }

    @Test func theFuelLimitIsASetting() throws {
        let c = try ConfigurationSources(file: "test.yaml", environment: [:], flags: [])
            .load(yaml: "limits:\n  fuel: 5000\n")
        #expect(c.hub.limits.fuel == 5000)
        #expect(DaemonConfiguration().hub.limits.fuel == 10_000_000)
        let refused = ConfigurationSources(file: "test.yaml", environment: [:], flags: [])
        #expect(throws: ConfigurationError.self) { try refused.load(yaml: "limits:\n  fuel: 0\n") }
    }
}

/// Compiles the "Swift" `sum` (integers added, default 0); anything else is a `compile_error` with one diagnostic.
/// A sum past 1000 faults with a `runtime_error` (as an overflow trap would); each reduce spends one unit of fuel.
struct SumKeyCompiler: KeyCompiler {
    static let diagnostics: JSON = [["line": 1, "column": 11, "message": "expected '}' to end struct"]]
    static let fault: JSONObject = ["line": 2, "column": 9, "stack": [["function": "reduce(value:nextValue:)"]]]

    func compileKey(named key: String, source: String) throws(CanopyError) -> any CustomReducer {
        guard source == "sum" else {
            throw CanopyError(.compileError, "\(key) does not compile", details: ["diagnostics": Self.diagnostics])
        }
        return SumKey()
    }
}

final class SumKey: CustomReducer {
    var source: String { "sum" }
    var defaultValue: JSON { 0 }
    var reduceLine: Int? { nil }

    func reduce(_ value: inout JSON, context: ReducerContext, next: () -> JSON) throws(CanopyError) {
        context.fuel -= 1
        if context.fuel < 0 { throw CanopyError(.tooExpensive, "out of fuel") }
        guard case .int(let a) = value, case .int(let b) = next() else { return }
        guard a + b <= 1000 else { throw CanopyError(.runtimeError, "overflow", details: SumKeyCompiler.fault) }
        value = .int(a + b)
    }

    func mismatch(_ value: JSON) -> String? {
        if case .int = value { return nil }
        return "expected an Int"
    }

    func compileTransform(_ source: String) throws(CanopyError) -> any CustomTransform {
        throw CanopyError(.compileError, "no closures here", details: ["diagnostics": []])
    }
}
