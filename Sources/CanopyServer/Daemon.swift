import CanopyCore
import CanopyStore
import CanopySupport
import CanopyWebSocket
import Dispatch
import Foundation
import Logging

/// canopyd assembled from a configuration: the store (opened and restored), the protocol runner, the HTTP routes,
/// the service loop listening, and — at a first start — the example trees. `canopyd`'s `main` and every test that
/// runs a daemon in-process build it here, so there is one wiring.
public final class Daemon: @unchecked Sendable {  // set up in init; afterwards only the loop's thread mutates state
    /// Where the daemon keeps its trees.
    public enum Storage: Sendable {
        /// The store in `configuration.dataDirectory`, with its durability and snapshots kept.
        case configured
        /// A store with these options (tests: a tiny page limit standing in for a full disk).
        case custom(StoreOptions)
        /// No store: nothing survives the process (tests, load tests).
        case none
    }

    public let configuration: DaemonConfiguration
    public let loop: ServiceLoop
    public let runner: ProtocolRunner
    public let store: TreeStore?
    /// Cluster mode: the daemon's link to the NATS cluster, which holds the trees instead of a store.
    let cluster: ClusterLink?
    /// Trees rebuilt from the store, and example trees loaded at this start, by id.
    public let restoredTrees: [String]
    public let loadedExamples: [String]
    private let logger: Logger
    private let finished = DispatchSemaphore(value: 0)
    private let restoreFailure = Locked<String?>(nil)

    /// Stored trees of at least this many bytes (snapshot and log) are rebuilt in the background by default.
    public static let defaultRestoreInBackgroundBytes = 1 << 20

    /// Why a tree restored in the background could not be rebuilt (the daemon then stopped); nil otherwise.
    public var startFailure: String? { restoreFailure.withLock { $0 } }

    /// Opens the store (a corrupt or unreadable one throws, naming its file), restores its trees, starts listening
    /// and, when the store is new (or there is none), loads the example trees. Trees whose snapshot and log hold at
    /// least `restoreInBackgroundBytes` are listed at once but rebuilt in the background once the daemon serves:
    /// requests naming one wait until it is (docs/storage.md, "Start-up"). Serving starts with `run()` or
    /// `start()`. `keyCompiler` (when given, over `configuration.hub.keyCompiler`) compiles keys written in Swift;
    /// the store's trees are restored with it, so it must be given before any tree with such a key can load.
    /// `programs` (over `configuration.hub.programs`) runs program trees, likewise needed to restore them.
    /// `programInputs` gives their transactions the time and a seed: the wall clock and system randomness unless given.
    public init(
        configuration: DaemonConfiguration, storage: Storage = .configured, keyCompiler: (any KeyCompiler)? = nil,
        programs: (any ProgramRuntime)? = nil, programInputs: (any ProgramInputSource)? = nil,
        restoreInBackgroundBytes: Int = Daemon.defaultRestoreInBackgroundBytes,
        logger: Logger = Logger(label: "canopyd", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws {
        self.configuration = configuration
        self.logger = logger
        var hub = configuration.hub
        if let keyCompiler { hub.keyCompiler = keyCompiler }
        if let programs { hub.programs = programs }
        hub.programInputs = programInputs ?? SystemInputs()
        hub.catchUpMaxBytes = configuration.service.maxQueueBytes / 2
        var firstStart = true
        var durability = configuration.durability
        var cluster: ClusterLink?
        var joined = ClusterLoad()
        if configuration.cluster.enabled {
            // The cluster holds the trees: no store, no examples (docs/cluster.md).
            hub.sessionPrefix = configuration.cluster.name + "/"
            let started = ProtocolRunner.monotonicSeconds()
            let link = try ClusterLink(settings: configuration.cluster, logger: logger)
            joined = try link.load()
            cluster = link
            firstStart = false
            let milliseconds = Int((ProtocolRunner.monotonicSeconds() - started) * 1000)
            logger.info(
                "cluster mode as \(configuration.cluster.name) (\(link.instance)) on \(configuration.cluster.servers): \(joined.records.count) trees read up to stream sequence \(joined.position) in \(milliseconds) ms"
            )
        }
        self.cluster = cluster
        switch cluster == nil ? storage : .none {
        case .none:
            store = nil
        case .configured, .custom:
            var options: StoreOptions
            if case .custom(let custom) = storage {
                options = custom
            } else {
                options = StoreOptions(directory: try DaemonFiles.prepareDataDirectory(configuration.dataDirectory))
                options.durability = configuration.durability
                options.keepSnapshots = configuration.keepSnapshots
                options.reserveBytes = configuration.reserveBytes
            }
            durability = options.durability
            firstStart = !FileManager.default.fileExists(atPath: TreeStore.databasePath(in: options.directory))
            store = try TreeStore(options: options)
        }
        runner = ProtocolRunner(configuration: hub, store: store, clustered: cluster != nil)
        runner.logger = logger
        if cluster != nil {
            do {
                try runner.restore(records: joined.records)
            } catch {
                throw DaemonStartError(.start, "cluster: \(error.message)")
            }
        }
        var restored: [String] = []
        var large: [StoredTree] = []
        if let store {
            let started = ProtocolRunner.monotonicSeconds()
            let stored = try store.load()
            // Large trees are rebuilt after the daemon started serving (see `restoreInBackground` below).
            let now = stored.filter { Self.storedBytes($0) < restoreInBackgroundBytes }
            large = stored.filter { Self.storedBytes($0) >= restoreInBackgroundBytes }
            do {
                try runner.restore(now)
            } catch {
                throw DaemonStartError(.start, "\(store.path): \(error.message)")
            }
            restored = stored.map(\.id).sorted()
            if !now.isEmpty { DaemonFiles.returnFreedMemory() }
            let milliseconds = Int((ProtocolRunner.monotonicSeconds() - started) * 1000)
            let later = large.isEmpty ? "" : "; \(large.count) large, restored in the background: \(large.map(\.id))"
            logger.info(
                "store \(store.path) (durability \(durability.rawValue)): \(now.count) trees restored in \(milliseconds) ms\(later)"
            )
        }
        if cluster != nil { restored = joined.records.map(\.id).sorted() }
        restoredTrees = restored

        var webRoot = configuration.webRoot
        if let web = webRoot, !DaemonFiles.isDirectory(web) {
            logger.notice("web directory \(web) not found: serving only /healthz")
            webRoot = nil
        }
        let examples = configuration.examplesDirectory
        // Served at /examples/ for the inspector's import (an empty index when the directory is missing).
        let routes = try DaemonRoutes(
            webRoot: webRoot, examplesDirectory: examples.isEmpty ? nil : examples, runner: runner)
        loop = try ServiceLoop(configuration: configuration.service, handler: runner, routes: routes)
        loop.logger = logger
        let loop = self.loop
        runner.attach { job in loop.post(job) }
        if let cluster {
            runner.attach(cluster: cluster)
            cluster.start(runner: runner, post: { job in loop.post(job) }, loaded: joined)
        }
        if let store, !large.isEmpty {
            let failure = restoreFailure
            let path = store.path
            do {
                try runner.restoreInBackground(large) { message in
                    // A store that does not replay is not served as a partial one: stop (canopyd then exits 1).
                    logger.critical("\(path): \(message): stopping")
                    failure.withLock { $0 = "\(path): \(message)" }
                    loop.stop()
                }
            } catch {
                throw DaemonStartError(.start, "\(store.path): \(error.message)")
            }
        }

        // Examples fill a daemon at its first start only (a new data directory); later, `canopy import` adds them.
        var loaded: [String] = []
        if firstStart && !examples.isEmpty {
            if DaemonFiles.isDirectory(examples) {
                loaded = try DaemonFiles.loadExamples(
                    from: examples, into: runner, programs: hub.programs != nil, skip: { logger.error("\($0)") })
            } else {
                logger.warning("examples directory \(examples) not found: no example trees loaded")
            }
            logger.info("\(loaded.count) example trees loaded from \(examples)")
        }
        loadedExamples = loaded
    }

    /// A stored tree's size as `load` read it: its snapshot and its logged diffs.
    static func storedBytes(_ t: StoredTree) -> Int { t.diffs.reduce(t.snapshot.count) { $0 + $1.diff.count } }

    /// Where the trees were restored from: the store's file, "the cluster", or "no store".
    public var restoredFrom: String { store?.path ?? (cluster != nil ? "the cluster" : "no store") }

    /// The port listened on (the system's pick for port 0).
    public var port: Int { loop.port }

    /// Serves on the calling thread until `stop()`, then commits what the store still has queued and closes it.
    public func run() {
        loop.run()
        cluster?.stop()
        if let store {
            store.close()
            let (commits, writes) = store.statistics
            logger.info("store closed: \(writes) writes in \(commits) commits this run")
        }
        finished.signal()
    }

    /// Serves on a thread of its own (tests).
    public func start() {
        Thread { [self] in run() }.start()
    }

    /// Closes every session (1001) and makes `run()` return; callable from any thread.
    public func stop() { loop.stop() }

    /// Stops and waits (at most `seconds`) until `run()` returned; whether it did.
    @discardableResult
    public func stopAndWait(seconds: Double = 10) -> Bool {
        stop()
        return finished.wait(timeout: .now() + seconds) == .success
    }

    /// Applies reloaded settings (tokens, edit rate) on the service thread.
    public func reload(_ settings: ReloadableSettings) {
        let runner = self.runner
        loop.post { runner.reload(tokens: settings.tokens, editsPerSecond: settings.editsPerSecond) }
    }
}

/// A start-up failure that is not a configuration value (files, directories, examples, a store that does not
/// replay).
public typealias DaemonStartError = CanopyFailure
