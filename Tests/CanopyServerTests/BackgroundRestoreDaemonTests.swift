import CanopyCore
import CanopyStore
import Dispatch
import Foundation
import Testing

@testable import CanopyServer

/// Large stored trees are rebuilt after the daemon started serving (`restoreInBackgroundBytes`; 0 here, so every
/// tree is): requests for them are answered once they are served, with the same state as a restore at start; a tree
/// that does not rebuild stops the daemon.
@Suite struct BackgroundRestoreDaemonTests {
    static let root: JSON = [
        "id": "root", "type": "VStack", "modifiers": [["kind": "onPreferenceChange", "key": "K"]],
        "children": [["id": "a", "type": "Text", "modifiers": [["kind": "preference", "key": "K", "value": 1]]]],
    ]

    static func directory() throws -> String {
        let directory = NSTemporaryDirectory() + "canopy-background-restore-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    static func daemon(in directory: String, backgroundBytes: Int) throws -> Daemon {
        let daemon = try Daemon(
            configuration: .forTests(), storage: .custom(StoreOptions(directory: directory)),
            restoreInBackgroundBytes: backgroundBytes)
        daemon.start()
        return daemon
    }

    @Test func treesRestoredInTheBackgroundServeWhatWasStored() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try Self.daemon(in: directory, backgroundBytes: Daemon.defaultRestoreInBackgroundBytes)
        let writer = try DaemonClient(port: first.port)
        for tree in ["t1", "t2"] {
            let created = try writer.answer([
                "type": "createTree", "tree": .string(tree), "keys": [["key": "K", "reducer": "sum", "default": 0]],
                "root": Self.root,
            ])
            #expect(created["type"] == "created")
        }
        for value in 2...4 {
            let diff = try writer.answer([
                "type": "edit", "tree": "t1", "ops": [["op": "setPreference", "node": "a", "key": "K", "value": .int(Int64(value))]],
            ])
            #expect(diff["version"] == .int(Int64(value - 1)))
        }
        #expect(first.stopAndWait())

        let second = try Self.daemon(in: directory, backgroundBytes: 0)
        defer { second.stopAndWait() }
        #expect(second.restoredTrees == ["t1", "t2"])
        let client = try DaemonClient(port: second.port)
        let listed = try client.answer(["type": "listTrees"])
        #expect(listed["trees"]?.array?.compactMap { $0["tree"]?.string } == ["t1", "t2"])
        let snapshot = try client.answer(["type": "subscribe", "tree": "t1"])
        #expect(snapshot["type"] == "snapshot" && snapshot["version"] == 3)
        #expect(snapshot["readers"]?.array?.first?["value"] == 4)
        let diff = try client.answer(["type": "edit", "tree": "t2", "ops": [["op": "setPreference", "node": "a", "key": "K", "value": 9]]])
        #expect(diff["type"] == "diff" && diff["version"] == 1)
        #expect(diff["changes"]?.array?.first?["value"] == 9)
        let served = try client.answer(["type": "listTrees"])
        #expect(served["trees"]?.array?.allSatisfy { $0["loading"] == nil && $0["nodes"] == 2 } == true)
        #expect(second.startFailure == nil)
    }

    @Test func aTreeThatDoesNotRebuildStopsTheDaemon() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try TreeStore(options: StoreOptions(directory: directory))
        let written = DispatchSemaphore(value: 0)
        store.enqueue(.createTree(id: "broken", about: Array("{}".utf8), snapshot: Array(#"{"keys":["#.utf8))) { _ in
            written.signal()
        }
        written.wait()
        store.close()

        // Restored at start, it stops the start as before.
        #expect(throws: (any Error).self) {
            _ = try Daemon(
                configuration: .forTests(), storage: .custom(StoreOptions(directory: directory)),
                restoreInBackgroundBytes: Daemon.defaultRestoreInBackgroundBytes)
        }
        // Restored in the background, it stops the daemon, which says why.
        let daemon = try Self.daemon(in: directory, backgroundBytes: 0)
        defer { daemon.stopAndWait() }
        let deadline = Date().addingTimeInterval(20)
        while daemon.startFailure == nil && Date() < deadline { usleep(10_000) }
        let failure = try #require(daemon.startFailure)
        #expect(failure.contains("tree broken: snapshot 0 is unreadable"))
    }
}
