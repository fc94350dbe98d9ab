import CanopyCore
import Foundation
import CanopySupport
import CanopyWebSocket

/// One `canopy load` run from start to end: creates the scratch trees (or reads the existing one), drives the
/// connections on a `ClientLoop` on the calling thread until the window and its drain are over, deletes the scratch
/// trees and returns what was measured. The CLI and the tests both call `run()`.
public final class LoadRunner: @unchecked Sendable {  // `interrupt()` may come from another thread: behind `lock`
    public let configuration: LoadConfiguration
    public let url: WebSocketURL
    /// Setup and teardown messages (the CLI sends them to stderr).
    public var log: (String) -> Void = { _ in }
    /// The progress line, once a second (nil: none).
    public var progress: ((String) -> Void)?

    private let lock = NSLock()
    private var loop: ClientLoop?
    private var driver: LoadDriver?
    private var interrupted = false
    /// Edit batches that built the scratch trees (the daemon counts them as accepted edits too).
    private var setupBatches = 0

    public init(configuration: LoadConfiguration, url: WebSocketURL) {
        self.configuration = configuration
        self.url = url
    }

    /// Stops the run early: what was measured so far is reported and the scratch trees are still deleted.
    public func interrupt() {
        lock.lock()
        defer { lock.unlock() }
        interrupted = true
        if let loop, let driver { loop.post { driver.interrupt() } }
    }

    private var wasInterrupted: Bool {
        lock.lock()
        defer { lock.unlock() }
        return interrupted
    }

    public func run() throws(LoadError) -> LoadReport {
        try configuration.validate()
        let pid = getpid()
        let prefix = configuration.clientName ?? "canopy-load-\(pid)"
        var created: [String] = []
        let report: LoadReport
        do throws(LoadError) {
            let trees = try prepareTrees(prefix: prefix, pid: pid, created: &created)
            if wasInterrupted { throw LoadError(.load, "interrupted") }
            report = try drive(trees, prefix: prefix)
        } catch {
            cleanUp(created)
            throw error
        }
        cleanUp(created)
        return report
    }

    // MARK: Setup

    private func admin(_ prefix: String) throws(LoadError) -> AdminSession {
        try AdminSession(url: url, token: configuration.token, name: prefix + "-admin", timeout: configuration.timeout)
    }

    private func prepareTrees(prefix: String, pid: Int32, created: inout [String]) throws(LoadError) -> [LoadTreeModel]
    {
        let session = try admin(prefix)
        if let id = configuration.tree {
            let snapshot = try session.request(["type": "subscribe", "tree": .string(id)])
            _ = try session.request(["type": "unsubscribe", "tree": .string(id)])
            if configuration.sendsEvents {
                let model = try LoadTreeModel.program(snapshot: snapshot)
                log("program tree \(id): \(model.nodeCount) nodes, \(model.fields.count) text fields")
                return [model]
            }
            let model = try LoadTreeModel.existing(snapshot: snapshot, insertPrefix: prefix + "-")
            log(
                "tree \(id): \(model.nodeCount) nodes, \(model.leaves.count) leaves, \(model.targets.count) inner nodes"
            )
            return [model]
        }
        let c = configuration
        if let source = c.program { return try preparePrograms(source, pid: pid, session: session, created: &created) }
        let models = (0..<c.trees).map {
            LoadTreeModel.scratch(id: "load-\(pid)-\($0)", shape: c.shape, nodes: c.nodes, fanout: c.fanout)
        }
        let totalNodes = c.trees * c.nodes
        log("creating \(c.trees) scratch tree(s) of \(c.nodes) nodes (\(c.shape.rawValue))")
        var done = 0
        var lastShown = monotonicNanoseconds()
        // Trees go in groups of about 200k nodes: the messages of one group are built, then pipelined.
        let perGroup = max(1, 200_000 / c.nodes)
        for first in stride(from: 0, to: models.count, by: perGroup) {
            var requests: [AdminSession.Request] = []
            var nodesIn: [Int] = []
            for model in models[first..<min(models.count, first + perGroup)] {
                for (i, bytes) in model.creationMessages().enumerated() {
                    requests.append(
                        AdminSession.Request(bytes: bytes, tree: i == 0 ? nil : model.id, seq: i == 0 ? nil : Int64(i)))
                    nodesIn.append(i == 0 ? 1 : Self.insertCount(bytes))
                    if i > 0 { setupBatches += 1 }
                }
            }
            try session.pipeline(requests) { index, reply throws(LoadError) in
                if reply["type"] == "created", let id = reply["tree"]?.string { created.append(id) }
                done += nodesIn[index]
                let now = monotonicNanoseconds()
                if now - lastShown > 1_000_000_000 {
                    lastShown = now
                    log("  \(done)/\(totalNodes) nodes created")
                }
                if wasInterrupted { throw LoadError(.load, "interrupted") }
            }
        }
        return models
    }

    /// Scratch program trees (`load-PID-I`) from `source`, each read back from its snapshot for its text fields.
    private func preparePrograms(_ source: String, pid: Int32, session: AdminSession, created: inout [String])
        throws(LoadError) -> [LoadTreeModel]
    {
        log("creating \(configuration.trees) scratch program tree(s)")
        var models: [LoadTreeModel] = []
        for i in 0..<configuration.trees {
            let id = "load-\(pid)-\(i)"
            let reply = try session.request(
                LoadTreeModel.programCreation(id: id, source: source, view: configuration.programView))
            if reply["type"] == "created" { created.append(id) }
            let snapshot = try session.request(["type": "subscribe", "tree": .string(id)])
            _ = try session.request(["type": "unsubscribe", "tree": .string(id)])
            models.append(try LoadTreeModel.program(snapshot: snapshot))
            if wasInterrupted { throw LoadError(.load, "interrupted") }
        }
        log("program tree(s) of \(models[0].nodeCount) nodes, \(models[0].fields.count) text fields each")
        return models
    }

    /// The number of insert ops in a creation batch.
    private static func insertCount(_ bytes: [UInt8]) -> Int {
        let needle = Array(#"{"op":"insert""#.utf8)
        var count = 0
        var i = 0
        while i + needle.count <= bytes.count {
            if bytes[i] == needle[0] && bytes[i..<(i + needle.count)].elementsEqual(needle) {
                count += 1
                i += needle.count
            } else {
                i += 1
            }
        }
        return count
    }

    private func cleanUp(_ created: [String]) {
        guard !created.isEmpty, !configuration.keepTrees else {
            if !created.isEmpty {
                log("kept \(created.count) scratch tree(s): \(created.prefix(3).joined(separator: ", "))…")
            }
            return
        }
        do {
            let session = try admin(configuration.clientName ?? "canopy-load-\(getpid())")
            let requests = created.map {
                var bytes: [UInt8] = []
                JSON.object(["type": "deleteTree", "tree": .string($0)]).write(into: &bytes)
                return AdminSession.Request(bytes: bytes, tolerated: ["no_such_tree"])
            }
            try session.pipeline(requests, window: 64)
            log("deleted \(created.count) scratch tree(s)")
        } catch {
            log("could not delete the scratch trees (\(created.prefix(3).joined(separator: ", "))…): \(error)")
        }
    }

    // MARK: Run

    private func drive(_ trees: [LoadTreeModel], prefix: String) throws(LoadError) -> LoadReport {
        let c = configuration
        var realtime = timespec()
        clock_gettime(CLOCK_REALTIME, &realtime)
        // Seqs start at the wall clock's milliseconds: a later run with the same client names is not taken for a
        // resubmission of this one's batches.
        let firstSeq = Int64(realtime.tv_sec) * 1000 + Int64(realtime.tv_nsec) / 1_000_000
        let driver = LoadDriver(configuration: c, url: url, trees: trees, clientPrefix: prefix, firstSeq: firstSeq)
        driver.progress = progress
        let loop: ClientLoop
        do { loop = try ClientLoop(handler: driver, eventLoop: c.eventLoop) } catch {
            throw LoadError(.load, "\(error)")
        }
        driver.loop = loop
        if c.slow > 0 {
            let slow = try SlowReaders(
                count: c.slow, trees: trees.map(\.id), firstIndex: c.clients - c.slow, clientPrefix: prefix, url: url,
                token: c.token)
            driver.slowReaders = slow
            slow.start()
        }
        lock.lock()
        self.loop = loop
        self.driver = driver
        let early = interrupted
        lock.unlock()
        if early { loop.post { driver.interrupt() } }

        let mode =
            c.hold
            ? "holding idle"
            : c.rate.map { "open loop at \(Self.number($0)) edits/s" }
                ?? "closed loop, \(c.inFlightCount) in flight per writer"
        log(
            "\(c.writerCount) writer(s), \(c.clients) client(s)\(c.slow > 0 ? " (\(c.slow) slow)" : ""), "
                + "\(trees.count) tree(s); \(mode); "
                + (c.hold
                    ? "\(Self.number(c.duration)) s"
                    : "warm-up \(Self.number(c.warmup)) s, measuring \(Self.number(c.duration)) s"))
        let ticker = Ticker { [loop, driver] in loop.post { driver.tick() } }
        ticker.start()
        loop.run()
        ticker.stop()
        driver.slowReaders?.stop()
        lock.lock()
        self.loop = nil
        self.driver = nil
        lock.unlock()
        if let failure = driver.failure { throw LoadError(.load, failure) }
        var report = driver.finalReport()
        report.setupBatches = setupBatches
        return report
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

/// Calls `tick` about once a millisecond on its own thread until stopped: the client loop has no timers, so the
/// ticks reach it as posted jobs.
final class Ticker: @unchecked Sendable {  // `stopped` behind `lock`
    private let tick: @Sendable () -> Void
    private let lock = NSLock()
    private var stopped = false
    private let finished = DispatchSemaphore(value: 0)

    init(_ tick: @escaping @Sendable () -> Void) { self.tick = tick }

    func start() {
        Thread { [self] in
            while !isStopped {
                usleep(1000)
                tick()
            }
            finished.signal()
        }.start()
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    func stop() {
        lock.lock()
        stopped = true
        lock.unlock()
        finished.wait()
    }
}
