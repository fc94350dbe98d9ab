import CanopyCore
import CanopyStore
import Foundation
import Testing

@testable import CanopyServer

/// A program tree in a daemon built as canopyd builds one, with a fake program runtime: its events over a WebSocket,
/// its snapshot written by the runner with spec and cells, and a restart on the same data directory.
@Suite struct ProgramDaemonTests {
    static func start(in directory: String) throws -> Daemon {
        let configuration = DaemonConfiguration.forTests(hub: {
            $0.programs = TapCounterRuntime()
            $0.snapshotEveryBatches = 2
        })
        let daemon = try Daemon(configuration: configuration, storage: .custom(StoreOptions(directory: directory)))
        daemon.start()
        return daemon
    }

    static func tap(seq: Int) -> JSON {
        ["type": "event", "tree": "p", "seq": .int(Int64(seq)), "node": "button", "event": "tap"]
    }

    @Test func aProgramTreeSurvivesARestartWithItsCells() throws {
        let directory = NSTemporaryDirectory() + "canopy-program-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }

        let first = try Self.start(in: directory)
        let client = try DaemonClient(port: first.port)
        let created = try client.answer(["type": "createTree", "tree": "p", "source": "counter"])
        #expect(created == ["type": "created", "tree": "p", "version": 0])
        for seq in 1...3 {
            let diff = try client.answer(Self.tap(seq: seq))
            #expect(diff["version"] == .int(Int64(seq)))
            #expect(diff["state"] == [["node": "root", "name": "count", "value": .int(Int64(seq))]])
        }
        #expect(first.stopAndWait())
        // The newest stored snapshot — the creation's, or snapshot 2 if the runner's write (encoded off the service
        // thread) got in before the stop — holds the program's spec and its cells at that version.
        let store = try TreeStore(options: StoreOptions(directory: directory))
        let stored = try store.load().first { $0.id == "p" }
        store.close()
        let version = stored?.snapshotVersion ?? -1
        #expect(version == 0 || version == 2)
        #expect(stored?.diffs.map(\.version) == Array(version + 1...3))
        let snapshot = try stored.map { try SnapshotEncoding.parse($0.snapshot) }
        #expect(snapshot?["program"] == ["source": "counter", "view": "ContentView"])
        #expect(snapshot?["state"] == [["node": "root", "name": "count", "value": .int(Int64(version))]])

        let second = try Self.start(in: directory)
        defer { second.stopAndWait() }
        #expect(second.restoredTrees == ["p"])
        let again = try DaemonClient(port: second.port)
        let restored = try again.answer(["type": "subscribe", "tree": "p"])
        #expect(restored["version"] == 3)
        #expect(restored["state"] == [["node": "root", "name": "count", "value": 3]])
        #expect(restored["root"]?["children"]?[0]?["props"]?["text"] == "3")
        let next = try again.answer(Self.tap(seq: 4))
        #expect(next["version"] == 4)
        #expect(next["state"] == [["node": "root", "name": "count", "value": 4]])
    }
}

/// The source `counter`: a root with a Text `label` showing the root's cell `count`, and a Button `button` whose
/// `tap` adds one. Any other source is a `compile_error`.
struct TapCounterRuntime: ProgramRuntime {
    func start(
        _ spec: ProgramSpec, state: ProgramState, recorded: [RecordedInputs], inputs: any ProgramInputSource,
        version: Int, limits: Limits, trace: Bool
    ) throws(CanopyError) -> ProgramStart {
        guard spec.source == "counter" else { throw CanopyError(.compileError, "does not compile") }
        var resolved = spec
        resolved.view = spec.view ?? "ContentView"
        var count: Int64 = 0
        if case .int(let c)? = state.cells.first(where: { $0.name == "count" })?.value { count = c }
        let program = TapCounter(spec: resolved, count: count)
        let root = Node(
            id: "root", type: "VStack",
            children: [
                Node(id: "label", type: "Text", props: ["text": .string("\(count)")]),
                Node(id: "button", type: "Button"),
            ])
        let tree = try Tree(root: root, limits: limits, version: version)
        let diff = Diff(ops: [], changes: [], trace: nil, summary: TraceSummary())
        return ProgramStart(
            tree: tree, program: program,
            transaction: ProgramTransaction(diff: diff, state: program.cells, warnings: []))
    }
}

final class TapCounter: ProgramInstance, @unchecked Sendable {  // confined to the service thread
    let spec: ProgramSpec
    private var count: Int64

    init(spec: ProgramSpec, count: Int64) {
        self.spec = spec
        self.count = count
    }

    var state: ProgramState { ProgramState(cells: [StateCell(node: "root", name: "count", value: .int(count))]) }
    var previewContexts: [PreviewContextUse] { [] }

    func handle(_ event: ProgramEvent, tree: inout Tree, trace: Bool) throws(CanopyError) -> ProgramTransaction {
        guard event.node == "button", event.event == "tap" else { throw CanopyError(.badEvent, "only taps") }
        let diff = try tree.apply([.setProps(node: "label", props: ["text": .string("\(count + 1)")])], trace: trace)
        count += 1
        return ProgramTransaction(diff: diff, state: cells, warnings: [])
    }

    func setSource(_ source: String, tree: inout Tree, trace: Bool) throws(CanopyError) -> ProgramTransaction {
        throw CanopyError(.compileError, "the source is fixed")
    }

    func inspect(node: String) throws(CanopyError) -> JSONObject {
        guard node == "root" else { throw CanopyError(.noSuchNode, "only the root") }
        return ["view": "ContentView", "cells": [["name": "count", "value": .int(count)]], "bindings": [], "environment": []]
    }
}
