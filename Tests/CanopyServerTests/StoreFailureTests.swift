import CanopyCore
import Foundation
import Testing

@testable import CanopyServer
@testable import CanopyWebSocket
@testable import CanopyStore

/// The daemon over a store that fills up (SQLite's max_page_count stands in for a full disk): edits are rejected
/// with `storage_error` and change nothing, reads go on, the tree is rolled back to what is durable, and once space
/// is back edits are accepted again. Also: `deleteTree` removes the tree's data.
@Suite struct StoreFailureTests {
    @Test func aFullDiskRejectsEditsKeepsReadsAndRecovers() throws {
        let daemon = try DurableDaemon(maxPageCount: 120)
        defer { daemon.stop() }
        let client = try daemon.connect()
        let watcher = try daemon.connect()
        #expect(try client.request(["type": "createTree", "tree": "filler", "root": Self.padded("f", 60_000)])["type"] == "created")
        #expect(try client.request(["type": "createTree", "tree": "t", "keys": [["key": "K", "reducer": "sum", "default": 0]]])["type"] == "created")
        #expect(try watcher.request(["type": "subscribe", "tree": "t"])["type"] == "snapshot")
        #expect(try watcher.next()["type"] == "clients")

        // Edit until the store is full.
        var acknowledged = 0
        var failure: JSON?
        for seq in 1...2000 {
            let reply = try client.request(Self.edit(seq))
            if reply["type"] == "diff" {
                acknowledged = Int(reply["version"]?.number ?? -1)
                #expect(acknowledged == seq)
                #expect(try watcher.next()["version"] == .int(Int64(seq)))
            } else {
                failure = reply
                break
            }
        }
        let rejected = try #require(failure, "the store never filled up")
        #expect(rejected["type"] == "rejected")
        #expect(rejected["code"] == "storage_error")
        #expect(rejected["seq"] == .int(Int64(acknowledged + 1)))  // sent after the failed commit, yet matchable
        #expect(rejected["rid"] == .string("r\(acknowledged + 1)"))
        #expect(rejected["message"]?.string?.contains("full") == true, "\(rejected.encoded())")
        #expect(acknowledged > 0)
        // The subscriber never saw the failed batch: it gets the tree as it is durable, as a snapshot.
        let resync = try watcher.next()
        #expect(resync["type"] == "snapshot")
        #expect(resync["version"] == .int(Int64(acknowledged)))

        // Edits are refused for a while; reads work and show the durable state.
        let refused = try client.request(Self.edit(5000))
        #expect(refused["code"] == "storage_error")
        // Refused outright (not applied and failed again): the cool-down's message.
        #expect(refused["message"]?.string?.contains("cannot store edits right now") == true, "\(refused.encoded())")
        let list = try client.request(["type": "listTrees"])
        #expect(list["trees"]?.array?.first { $0["tree"] == "t" }?["version"] == .int(Int64(acknowledged)))
        let probe = try client.request(["type": "probe", "tree": "t", "node": "root", "key": "K"])
        #expect(probe["version"] == .int(Int64(acknowledged)))

        // Space comes back (the filler tree goes); after the retry delay edits are accepted again.
        #expect(try client.request(["type": "deleteTree", "tree": "filler"])["type"] == "deleted")
        usleep(2_200_000)  // the retry delay
        let after = try client.request(Self.edit(6000))
        #expect(after["type"] == "diff", "\(after.encoded())")
        #expect(after["version"] == .int(Int64(acknowledged + 1)))
        let delivered = try watcher.next()
        #expect(delivered["version"] == .int(Int64(acknowledged + 1)), "\(delivered.encoded().prefix(300))")

        // What the store holds is exactly what was acknowledged.
        daemon.stop()
        let stored = try daemon.reopen().load()
        #expect(stored.map(\.id) == ["t"])  // the deleted tree's data is gone
        #expect(stored.first.map { $0.snapshotVersion + $0.diffs.count } == acknowledged + 1)
    }

    static func padded(_ id: String, _ bytes: Int) -> JSON {
        ["id": .string(id), "type": "Root", "props": ["pad": .string(String(repeating: "p", count: bytes))]]
    }

    static func edit(_ seq: Int) -> JSON {
        [
            "type": "edit", "tree": "t", "seq": .int(Int64(seq)), "rid": .string("r\(seq)"),
            "ops": [
                [
                    "op": "insert", "parent": "root",
                    "node": [
                        "id": .string("n\(seq)"), "type": "Text", "props": ["pad": .string(String(repeating: "x", count: 1500))],
                        "modifiers": [["kind": "preference", "key": "K", "value": 1]],
                    ],
                ]
            ],
        ]
    }
}

/// A daemon with a store (built by `Daemon`, as canopyd builds one) on an ephemeral port.
final class DurableDaemon: @unchecked Sendable {  // `stop` is called from the test thread only
    let directory: String
    let daemon: Daemon
    private let maxPageCount: Int?
    private var stopped = false

    /// In `directory` (which must exist) or a new temporary one; `reserveBytes` nil: the store's default.
    init(maxPageCount: Int? = nil, directory: String? = nil, reserveBytes: Int? = nil) throws {
        self.directory = directory ?? NSTemporaryDirectory() + "canopy-store-failure-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: self.directory, withIntermediateDirectories: true)
        self.maxPageCount = maxPageCount
        var options = StoreOptions(directory: self.directory)
        options.maxPageCount = maxPageCount
        if let reserveBytes { options.reserveBytes = reserveBytes }
        daemon = try Daemon(
            configuration: .forTests(hub: { $0.storageRetrySeconds = 2 }), storage: .custom(options))
        daemon.start()
    }

    var store: TreeStore { daemon.store! }

    func connect() throws -> DaemonClient { try DaemonClient(port: daemon.port) }

    /// Stops serving; `run()` closes the store once the loop is done.
    func stop() {
        guard !stopped else { return }
        stopped = true
        daemon.stopAndWait()
    }

    /// The store opened again (after `stop`), without a page limit.
    func reopen() throws -> TreeStore { try TreeStore(options: StoreOptions(directory: directory)) }

    deinit { try? FileManager.default.removeItem(atPath: directory) }
}
