import CanopyCore
import CanopyTestSupport
import Foundation
import Testing

@testable import CanopyServer
@testable import CanopyWebSocket
import CanopyClient
import CanopySupport

/// The built `canopyd` as a process on a data folder: killed with SIGKILL at random moments while writers edit,
/// restarted, and checked against what was acknowledged before the kill.
@Suite(.serialized) struct DurabilityTests {
    /// Snapshots every 100 batches (so the rounds go through many snapshots and compactions), and a log long enough
    /// (40 snapshots) that the observer, which replays every diff in a debug build and can fall hundreds of versions
    /// behind on a busy machine, can always fetch what it had not yet received from `history`.
    static let config = """
        storage:
          snapshot_every_batches: 100
          keep_snapshots: 40
        examples:
          directory: ""
        log:
          level: "warning"
        """

    /// 20 rounds on one data folder: 4 writers pipeline edits (inserts, removes, moves, preference values) while an
    /// observer follows the tree; the daemon is killed with SIGKILL after a random 50–600 ms; after the restart:
    /// every acknowledged batch is there at its version with its ops, versions are contiguous (the observer's diffs
    /// plus `history` for what was durable but not yet delivered), no batch is half applied (the observer's replica
    /// plus those diffs equals the restored tree), and the reader values equal a fresh evaluation.
    @Test func acknowledgedBatchesSurviveKill9() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let seed = ProcessInfo.processInfo.environment["CANOPY_TEST_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...1_000_000)
        var random = SplitMix64(seed: seed)
        var writerSeqs = [Int](repeating: 0, count: 4)
        var totalAcked = 0
        var replica: Tree?

        for round in 1...20 {
            let daemon = try DaemonProcess(folder: folder, config: Self.config)
            let admin = try daemon.client(name: "admin")
            if round == 1 {
                let created = try admin.request([
                    "type": "createTree", "tree": "dur", "keys": [["key": "K", "reducer": "sum", "default": 0]],
                    "root": ["id": "root", "type": "VStack", "modifiers": [["kind": "onPreferenceChange", "key": "K"]]],
                ])
                #expect(created["type"] == "created", "seed \(seed)")
            }
            // The observer's replica starts from the restored tree and must stay equal to the server's.
            let observer = try daemon.client(name: "observer")
            let snapshot = try observer.request(["type": "subscribe", "tree": "dur"])
            let restored = try Self.tree(from: snapshot)
            if let replica {
                // Round > 1: the previous round's replica plus the durable-but-undelivered diffs equals this.
                #expect(restored.root.json.encoded() == replica.root.json.encoded(), "round \(round), seed \(seed)")
                #expect(restored.readers == replica.readers, "round \(round), seed \(seed)")
            }
            #expect(restored.readers == restored.evaluateFromScratch().readers)
            var observed = ObservedTree(tree: restored)

            // Writers, each on its own thread with its own connection and client name.
            let stop = Flag()
            let writers = (0..<4).map { k in
                Writer(url: daemon.url, index: k, firstSeq: writerSeqs[k] + 1, seed: random.next(), stop: stop)
            }
            let threads = writers.map { writer in Thread { writer.run() } }
            threads.forEach { $0.start() }
            let observerThread = ObserverThread(client: observer, observed: observed)
            observerThread.start()

            usleep(UInt32(50_000 + Int(random.next() % 550_000)))
            daemon.kill9()
            stop.set()
            for writer in writers { writer.finished.wait() }
            observed = observerThread.finish()

            // Restart and check.
            let again = try DaemonProcess(folder: folder, config: Self.config)
            let checker = try again.client(name: "checker")
            let now = try checker.request(["type": "subscribe", "tree": "dur"])
            let version = Int(now["version"]?.number ?? -1)
            #expect(observed.versionsContiguous, "round \(round): the observer saw a gap, seed \(seed)")
            #expect(version >= observed.tree.version, "round \(round), seed \(seed)")

            // The diffs durable before the kill but not delivered: from history (the store's log).
            var diffs = observed.diffs
            if version > observed.tree.version {
                let history = try checker.request([
                    "type": "history", "tree": "dur", "from": .int(Int64(observed.tree.version + 1)),
                    "to": .int(Int64(version)),
                ])
                let missing = history["diffs"]?.array ?? []
                #expect(
                    missing.map { Int($0["version"]?.number ?? -1) } == Array((observed.tree.version + 1)...version),
                    "round \(round): versions after the observer's must be contiguous, seed \(seed)")
                for diff in missing {
                    _ = try observed.tree.apply(try [Op](json: diff["ops"] ?? .null))
                    diffs[Int(diff["version"]?.number ?? -1)] = diff
                }
            }
            // No batch half applied: the replica equals the restored tree, readers included.
            let server = try Self.tree(from: now)
            #expect(observed.tree.root.json.encoded() == server.root.json.encoded(), "round \(round), seed \(seed)")
            #expect(observed.tree.readers == server.readers, "round \(round), seed \(seed)")
            #expect(server.readers == server.evaluateFromScratch().readers)
            // Every acknowledged batch is there, at its version, with its seq and ops.
            for writer in writers {
                for (seq, ack) in writer.acked {
                    let diff = diffs[ack.version]
                    #expect(diff?["seq"] == .int(Int64(seq)), "round \(round): writer \(writer.index) seq \(seq), seed \(seed)")
                    #expect(diff?["ops"] == ack.ops, "round \(round): writer \(writer.index) seq \(seq), seed \(seed)")
                }
                totalAcked += writer.acked.count
                writerSeqs[writer.index] = writer.lastSeq
            }
            replica = observed.tree
            try again.terminate()
        }
        #expect(totalAcked > 100, "the writers got too few acknowledgements to mean anything (seed \(seed))")
    }

    @Test func aCleanRestartGivesAnIdenticalSnapshot() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let first = try DaemonProcess(folder: folder, config: Self.config)
        let client = try first.client(name: "c")
        #expect(try client.request(["type": "createTree", "tree": "t", "title": "T", "keys": [["key": "K", "reducer": "sum", "default": 0]]])["type"] == "created")
        for i in 0..<60 {
            let op: JSON = [
                "op": "insert", "parent": "root",
                "node": ["id": .string("n\(i)"), "type": "Text", "modifiers": [["kind": "preference", "key": "K", "value": .int(Int64(i))]]],
            ]
            _ = try client.edit("t", seq: i + 1, [op])
        }
        let before = try client.request(["type": "subscribe", "tree": "t"])
        try first.terminate()
        let second = try DaemonProcess(folder: folder, config: Self.config)
        let after = try second.client(name: "c").request(["type": "subscribe", "tree": "t"])
        var a = before.object!, b = after.object!
        a["clients"] = nil
        b["clients"] = nil
        #expect(JSON.object(a) == JSON.object(b))
        #expect(after["version"] == 60)
        #expect(after["title"] == "T")
        try second.terminate()
    }

    /// With a snapshot every batch too: the batch that triggered the snapshot is still recognised after a restart
    /// (the store's log answers for batches the in-memory index no longer holds).
    @Test(arguments: [100, 1])
    func resubmittingAnAcknowledgedBatchAfterARestartReturnsItsVersion(snapshotEvery: Int) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let config = Self.config.replacingOccurrences(
            of: "snapshot_every_batches: 100", with: "snapshot_every_batches: \(snapshotEvery)")
        let first = try DaemonProcess(folder: folder, config: config)
        let alice = try first.client(name: "alice")
        #expect(try alice.request(["type": "createTree", "tree": "t"])["type"] == "created")
        let op: JSON = ["op": "insert", "parent": "root", "node": ["id": "a", "type": "Text"]]
        let original = try alice.edit("t", seq: 7, [op])
        #expect(original["version"] == 1)
        // Again on the same connection, then after a restart on a new one: the original diff, nothing applied.
        let again = try alice.edit("t", seq: 7, [op])
        #expect(again["version"] == 1)
        #expect(again["duplicate"] == true)
        usleep(200_000)  // lets the snapshot (if one is due) reach the store
        first.kill9()
        let second = try DaemonProcess(folder: folder, config: config)
        let back = try second.client(name: "alice")
        let resent = try back.edit("t", seq: 7, [op])
        #expect(resent["version"] == 1)
        #expect(resent["duplicate"] == true)
        #expect(resent["ops"] == original["ops"])
        // A different client with the same seq is a different batch (here: rejected, the id exists).
        let bob = try second.client(name: "bob")
        let other = try bob.send(["type": "edit", "tree": "t", "seq": 7, "ops": [op]])
        #expect(other["type"] == "rejected")
        #expect(other["code"] == "duplicate_id")
        #expect(try back.request(["type": "listTrees"])["trees"]?[0]?["version"] == 1)
        try second.terminate()
    }

    @Test(arguments: ["truncated", "garbage", "text"])
    func aDamagedStoreStopsTheStartWithAMessageNamingTheFile(damage: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let first = try DaemonProcess(folder: folder, config: Self.config)
        let client = try first.client(name: "c")
        #expect(try client.request(["type": "createTree", "tree": "t"])["type"] == "created")
        for i in 0..<200 {
            _ = try client.edit("t", seq: i + 1, [["op": "setProps", "node": "root", "props": ["pad": .string(String(repeating: "x", count: 400)), "i": .int(Int64(i))]]])
        }
        try first.terminate()
        let file = folder.path + "/data/canopy.db"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        switch damage {
        case "truncated": bytes = bytes.prefix(bytes.count / 2)
        case "garbage":
            for i in stride(from: 4096, to: bytes.count, by: 997) { bytes[i] = UInt8(truncatingIfNeeded: i * 31) }
        default: bytes = Data("this is not a database\n".utf8)
        }
        try bytes.write(to: URL(fileURLWithPath: file))
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) }
        let (status, output) = try DaemonProcess.runToExit(folder: folder, config: Self.config)
        #expect(status == 1, "\(damage): \(output)")
        #expect(output.contains("canopy.db"), "\(damage): \(output)")
    }
}

// MARK: - Process and clients

/// A temporary folder holding the config file and the data directory.
struct TemporaryFolder {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "canopy-durability-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// The `canopyd` built next to this test bundle, started on port 0 with `folder/data`.
final class DaemonProcess {
    let process = Process()
    let port: Int
    var url: WebSocketURL { WebSocketURL(host: "127.0.0.1", port: port) }

    static var binary: String {
        if let path = ProcessInfo.processInfo.environment["CANOPYD_BINARY"] { return path }
        // The test runner lives in the products directory (…/debug/CanopyPackageTests.xctest), as does canopyd.
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if directory.lastPathComponent.hasSuffix(".xctest") { directory.deleteLastPathComponent() }
        return directory.appendingPathComponent("canopyd").path
    }

    static func arguments(_ folder: TemporaryFolder, _ config: String) throws -> [String] {
        let file = folder.path + "/canopyd.yaml"
        try config.write(toFile: file, atomically: true, encoding: .utf8)
        return ["--config", file, "--port", "0", "--data", folder.path + "/data"]
    }

    init(folder: TemporaryFolder, config: String) throws {
        let process = self.process
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = try Self.arguments(folder, config)
        let output = try ChildProcesses.start {
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            return output
        }
        var port: Int?
        var text = ""
        let handle = output.fileHandleForReading
        let deadline = Date().addingTimeInterval(30)
        while port == nil && Date() < deadline {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
            if let range = text.range(of: #"ws://127\.0\.0\.1:(\d+)/ws"#, options: .regularExpression) {
                port = Int(text[range].dropFirst("ws://127.0.0.1:".count).dropLast(3))
            }
        }
        guard let port else {
            process.terminate()
            throw ClientError(.client, "canopyd did not announce its port: \(text)")
        }
        self.port = port
    }

    deinit {
        if process.isRunning { kill9() }  // a test that failed half-way leaves no daemon behind
    }

    func client(name: String) throws -> TestClient { try TestClient(url: url, name: name) }

    func kill9() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// SIGTERM, and the exit status must be 0.
    func terminate() throws {
        process.terminate()
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        #expect(!process.isRunning, "canopyd did not exit within 20 s of SIGTERM")
        if process.isRunning {
            // Say where it is stuck before the kill, so a rare hang can be diagnosed from the test's output.
            print("canopyd \(process.processIdentifier) still running 20 s after SIGTERM:\n\(Self.stacks(of: process))")
            kill9()
        }
        #expect(process.terminationStatus == 0)
    }

    /// Every thread's stack of a running process, from gdb if the machine has it.
    static func stacks(of process: Process) -> String {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gdb") else { return "(no gdb to show the stacks)" }
        let gdb = Process()
        gdb.executableURL = URL(fileURLWithPath: "/usr/bin/gdb")
        gdb.arguments = ["-batch", "-p", "\(process.processIdentifier)", "-ex", "thread apply all bt"]
        let started = ChildProcesses.start { () -> Pipe? in
            let output = Pipe()
            gdb.standardOutput = output
            gdb.standardError = output
            return (try? gdb.run()) != nil ? output : nil
        }
        guard let output = started else { return "(gdb did not start)" }
        let text = output.fileHandleForReading.readDataToEndOfFile()
        gdb.waitUntilExit()
        return String(decoding: text, as: UTF8.self)
    }

    /// Starts canopyd and waits for it to exit (a start that fails); returns its status and standard error.
    static func runToExit(folder: TemporaryFolder, config: String) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = try arguments(folder, config)
        let errors = try ChildProcesses.start {
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = Pipe()
            try process.run()
            return errors
        }
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            return (-1, "still running")
        }
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, text)
    }
}

/// A blocking protocol client (over `BlockingClient`) that says hello with a client name.
final class TestClient {
    let connection: BlockingClient
    var session = ""

    init(url: WebSocketURL, name: String) throws {
        connection = try BlockingClient(url: url, timeout: 10)
        let welcome = try send(["type": "hello", "client": .string(name)])
        session = welcome["session"]?.string ?? ""
    }

    /// Sends `message` and returns the next message that is not a presence update.
    func send(_ message: JSON) throws -> JSON {
        connection.send(message)
        while true {
            let reply = try next()
            if reply["type"] != "clients" { return reply }
        }
    }

    func request(_ message: JSON) throws -> JSON { try send(message) }

    func next(timeout: Double = 20) throws -> JSON {
        guard let message = try connection.receive(timeout: timeout) else { throw ClientError(.client, "no answer") }
        return message
    }

    /// An edit, answered by its diff (or a rejection, which fails the test).
    func edit(_ tree: String, seq: Int, _ ops: [JSON]) throws -> JSON {
        let reply = try send(["type": "edit", "tree": .string(tree), "seq": .int(Int64(seq)), "ops": .array(ops)])
        #expect(reply["type"] == "diff", "\(reply.encoded())")
        return reply
    }
}

extension DurabilityTests {
    static func tree(from snapshot: JSON) throws -> Tree {
        let keys = try (snapshot["keys"]?.array ?? []).map { j throws(CanopyError) in try KeyDeclaration(json: j) }
        return try Tree(
            keys: keys, root: try Node(json: snapshot["root"] ?? .null),
            version: Int(snapshot["version"]?.number ?? 0))
    }
}

/// A thread-safe one-way flag.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

/// The observer's replica: the restored tree plus every diff it received, in order.
struct ObservedTree: @unchecked Sendable {
    var tree: Tree
    var diffs: [Int: JSON] = [:]
    var versionsContiguous = true

    init(tree: Tree) { self.tree = tree }

    mutating func apply(_ diff: JSON) {
        let version = Int(diff["version"]?.number ?? -1)
        guard version == tree.version + 1 else {
            versionsContiguous = false
            return
        }
        do {
            _ = try tree.apply(try [Op](json: diff["ops"] ?? .null))
            diffs[version] = diff
        } catch {
            versionsContiguous = false
        }
    }
}

/// Reads diffs into an `ObservedTree` on its own thread until the connection ends.
final class ObserverThread: @unchecked Sendable {  // `observed` is handed back only after the thread ended
    private let client: TestClient
    private var observed: ObservedTree
    private let done = DispatchSemaphore(value: 0)

    init(client: TestClient, observed: ObservedTree) {
        self.client = client
        self.observed = observed
    }

    func start() {
        Thread { [self] in
            while let message = try? client.next(timeout: 30) {
                if message["type"] == "diff" { observed.apply(message) }
            }
            done.signal()
        }.start()
    }

    func finish() -> ObservedTree {
        done.wait()
        return observed
    }
}

/// One writer: inserts, moves, removes and re-values its own nodes, up to 4 batches in flight, and records each
/// acknowledged seq with the version and ops of its diff.
final class Writer: @unchecked Sendable {  // `acked` and `lastSeq` are read only after `finished`
    let index: Int
    let url: WebSocketURL
    private(set) var lastSeq: Int
    private(set) var acked: [Int: (version: Int, ops: JSON)] = [:]
    let finished = DispatchSemaphore(value: 0)
    private var random: SplitMix64
    private let stop: Flag
    private var nodes: [String] = []
    private var nextNode = 0

    init(url: WebSocketURL, index: Int, firstSeq: Int, seed: UInt64, stop: Flag) {
        self.url = url
        self.index = index
        lastSeq = firstSeq - 1
        random = SplitMix64(seed: seed)
        self.stop = stop
    }

    func run() {
        defer { finished.signal() }
        guard let client = try? TestClient(url: url, name: "w\(index)") else { return }
        var inFlight = 0
        while !stop.isSet {
            while inFlight < 4 && !stop.isSet {
                lastSeq += 1
                client.connection.send(["type": "edit", "tree": "dur", "seq": .int(Int64(lastSeq)), "ops": .array(ops())])
                inFlight += 1
            }
            let received: JSON??
            do { received = try client.connection.receive(timeout: 5) } catch { return }  // the daemon is gone
            guard let received, let reply = received else { continue }
            switch reply["type"]?.string {
            case "diff" where reply["author"]?.string == client.session:
                inFlight -= 1
                acked[Int(reply["seq"]?.number ?? -1)] = (Int(reply["version"]?.number ?? -1), reply["ops"] ?? .null)
            case "rejected":
                inFlight -= 1
            default:
                break
            }
        }
    }

    /// One batch of one to three ops on this writer's own nodes.
    private func ops() -> [JSON] {
        (0..<(1 + Int(random.next() % 3))).map { _ in
            let choice = nodes.isEmpty ? 0 : random.next() % 10
            switch choice {
            case 0...3:
                nextNode += 1
                let id = "w\(index)-\(lastSeq)-\(nextNode)"
                let parent = nodes.isEmpty || random.next() % 2 == 0 ? "root" : nodes[Int(random.next() % UInt64(nodes.count))]
                nodes.append(id)
                return [
                    "op": "insert", "parent": .string(parent),
                    "node": [
                        "id": .string(id), "type": "Text",
                        "modifiers": [["kind": "preference", "key": "K", "value": .int(Int64(random.next() % 100))]],
                    ],
                ]
            case 4...6:
                let node = nodes[Int(random.next() % UInt64(nodes.count))]
                return ["op": "setPreference", "node": .string(node), "key": "K", "value": .int(Int64(random.next() % 100))]
            case 7:
                let i = Int(random.next() % UInt64(nodes.count))
                let node = nodes.remove(at: i)  // descendants go too; ops on them are rejected, which is fine
                return ["op": "remove", "node": .string(node)]
            default:
                let node = nodes[Int(random.next() % UInt64(nodes.count))]
                return ["op": "move", "node": .string(node), "parent": "root", "index": 0]
            }
        }
    }
}
