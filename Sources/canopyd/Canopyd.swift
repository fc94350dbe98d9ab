import ArgumentParser
import CanopyCore
import CanopyServer
import Dispatch
import Foundation
import Logging

/// canopyd: serves shared view trees over WebSockets (`/ws`) and the inspector (`/`) on one port.
///
/// Settings come from the flags below, then `CANOPY_*` environment variables, then the configuration file
/// (`--config`, or `config/canopyd.yaml` when it exists), then the built-in defaults; see docs/server.md,
/// "Configuration".
@main
struct Canopyd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "canopyd", abstract: "Serve shared SwiftUI-like view trees with incremental preferences.",
        discussion: """
            Settings are read from the configuration file (every setting, its default and range are in \
            config/canopyd.yaml), overridden by CANOPY_<SECTION>_<KEY> environment variables \
            (e.g. CANOPY_SERVER_PORT), overridden by the flags.
            """)

    /// The file read when `--config` is not given, if it exists in the working directory.
    static let defaultConfigFile = "config/canopyd.yaml"

    @Option(
        help: ArgumentHelp(
            "Configuration file (YAML). Default: config/canopyd.yaml if it exists, else the built-in defaults.",
            valueName: "file"))
    var config: String?

    @Option(
        help: ArgumentHelp(
            "Address to bind (server.host; default 127.0.0.1). Anything but loopback needs tokens.", valueName: "addr"))
    var host: String?

    @Option(help: ArgumentHelp("Port to listen on (server.port; default 7700; 0 = any free port).", valueName: "n"))
    var port: Int?

    @Option(
        help: ArgumentHelp(
            "Data directory (storage.data; default ./data) holding the durable store canopy.db, created at start. "
                + "A new one is filled with the example trees.",
            valueName: "dir"))
    var data: String?

    @Option(help: ArgumentHelp("Directory served at / (server.web; default ./web).", valueName: "dir"))
    var web: String?

    @Option(
        help: ArgumentHelp(
            "Directory of example trees (*.json createTree bodies) loaded at first start and served at /examples/ "
                + "(examples.directory; default config/examples).",
            valueName: "dir"))
    var examples: String?

    @Option(
        name: .customLong("token"),
        help: ArgumentHelp(
            "TOKEN:ROLE[:PATTERN,...] (role viewer, editor or admin; patterns limit the trees). "
                + "Repeatable; replaces the file's auth.tokens.",
            valueName: "spec"))
    var tokens: [String] = []

    @Option(
        help: ArgumentHelp("Maximum message size in bytes (limits.max_message_bytes; default 1048576).", valueName: "n")
    )
    var maxMessageBytes: Int?

    @Option(
        help: ArgumentHelp(
            "trace, debug, info, notice, warning, error or critical (log.level; default info).", valueName: "level"))
    var logLevel: String?

    func run() throws {
        let configuration: DaemonConfiguration
        let source: String
        do {
            (configuration, source) = try resolveConfiguration()
        } catch {
            // No configured level yet: the flag's if it is valid, else info.
            let level = logLevel.flatMap(Logger.Level.init(rawValue:)) ?? .info
            throw Canopyd.fail(Canopyd.startLogging(level: level), error)
        }
        let logger = Canopyd.startLogging(level: configuration.logLevel)
        do {
            try serve(configuration, source: source, logger: logger)
        } catch {
            throw Canopyd.fail(logger, error)
        }
    }

    /// Flags, then environment variables, then the file, then the defaults; validated. Returns the configuration and
    /// where the file layer came from.
    func resolveConfiguration() throws -> (DaemonConfiguration, String) {
        let file =
            config
            ?? (FileManager.default.fileExists(atPath: Canopyd.defaultConfigFile) ? Canopyd.defaultConfigFile : nil)
        var flags: [FlagValue] = []
        if let host { flags.append(FlagValue("--host", "server.host", string: host)) }
        if let port { flags.append(FlagValue("--port", "server.port", integer: port)) }
        if let data { flags.append(FlagValue("--data", "storage.data", string: data)) }
        if let web { flags.append(FlagValue("--web", "server.web", string: web)) }
        if let examples { flags.append(FlagValue("--examples", "examples.directory", string: examples)) }
        if !tokens.isEmpty { flags.append(FlagValue("--token", "auth.tokens", strings: tokens)) }
        if let maxMessageBytes {
            flags.append(FlagValue("--max-message-bytes", "limits.max_message_bytes", integer: maxMessageBytes))
        }
        if let logLevel { flags.append(FlagValue("--log-level", "log.level", string: logLevel)) }
        let sources = ConfigurationSources(file: file, environment: ProcessInfo.processInfo.environment, flags: flags)
        let configuration = try sources.load()
        try configuration.validate()
        var source = file ?? "built-in defaults (no \(Canopyd.defaultConfigFile))"
        if !sources.environmentOverrides.isEmpty {
            source += ", overridden by " + sources.environmentOverrides.joined(separator: ", ")
        }
        return (configuration, source)
    }

    func serve(_ configuration: DaemonConfiguration, source: String, logger: Logger) throws {
        logger.info("configuration: \(source)")
        for line in configuration.summary { logger.debug("\(line)") }
        let dataDirectory = try Canopyd.prepareDataDirectory(configuration.dataDirectory)

        // The store: a corrupt or unreadable one stops the start here, naming its file.
        var options = StoreOptions(directory: dataDirectory)
        options.durability = configuration.durability
        options.keepSnapshots = configuration.keepSnapshots
        let firstStart = !FileManager.default.fileExists(atPath: TreeStore.databasePath(in: dataDirectory))
        let started = Date()
        let store = try TreeStore(options: options)
        let stored = try store.load()
        var hubConfiguration = configuration.hub
        hubConfiguration.catchUpMaxBytes = configuration.service.maxQueueBytes / 2
        let hub = ProtocolRunner(configuration: hubConfiguration, store: store)
        hub.logger = logger
        do {
            try hub.restore(stored)
        } catch {
            throw StartError("\(store.path): \(error.message)")
        }
        let restored = stored.map(\.id).sorted()
        Canopyd.returnFreedMemory()
        let milliseconds = Int(Date().timeIntervalSince(started) * 1000)
        logger.info(
            "store \(store.path) (durability \(configuration.durability.rawValue)): \(restored.count) trees restored in \(milliseconds) ms"
        )

        var service = configuration.service
        if let web = service.webRoot, !Canopyd.isDirectory(web) {
            logger.notice("web directory \(web) not found: serving only /healthz")
            service.webRoot = nil
        }
        // Served at /examples/ for the inspector's import (an empty index when the directory is missing).
        service.examplesRoot = configuration.examplesDirectory.isEmpty ? nil : configuration.examplesDirectory
        let loop = try ServiceLoop(configuration: service, handler: hub)
        loop.logger = logger
        hub.attach { job in loop.post(job) }

        // Examples fill a daemon at its first start only (a new data directory); later, `canopy import` adds them.
        let examples = configuration.examplesDirectory
        var loaded: [String] = []
        if firstStart && !examples.isEmpty {
            if Canopyd.isDirectory(examples) {
                loaded = try Canopyd.loadExamples(from: examples, into: hub)
            } else {
                logger.warning("examples directory \(examples) not found: no example trees loaded")
            }
            logger.info("\(loaded.count) example trees loaded from \(examples)")
        }
        let shown = service.host.contains(":") ? "[\(service.host)]" : service.host
        let tokens = configuration.hub.tokens.count
        let access =
            tokens == 0 ? "without tokens (every session is admin)" : "with \(tokens) token\(tokens == 1 ? "" : "s")"
        logger.info("listening on \(shown):\(loop.port) \(access)")

        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        var sources: [DispatchSourceSignal] = []
        for sig in [SIGINT, SIGTERM] {
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                logger.info("signal \(sig): stopping")
                loop.stop()
            }
            source.resume()
            sources.append(source)
        }
        let all = (restored + loaded).sorted()
        print(
            "canopyd: \(all.count) trees (\(restored.count) restored from \(store.path), \(loaded.count) examples loaded): "
                + all.joined(separator: ", "))
        print("canopyd: inspector http://\(shown):\(loop.port)/  WebSocket ws://\(shown):\(loop.port)/ws")
        fflush(nil)  // flushes every output stream (stdout is not concurrency-safe to name in Swift 6)
        loop.run()
        for source in sources { source.cancel() }
        store.close()  // commits what is still queued
        let (commits, writes) = store.statistics
        logger.info("store closed: \(writes) writes in \(commits) commits this run")
        logger.info("stopped")
        print("canopyd: stopped")
        fflush(nil)
    }

    /// Gives the memory that parsing the snapshots took back to the system (glibc's `malloc_trim`, looked up at run
    /// time: it is not in the C module Swift imports). Restoring a 1M-node tree otherwise leaves the process at the
    /// parser's high-water mark.
    static func returnFreedMemory() {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim") else { return }
        let trim = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        _ = trim(0)
    }

    // MARK: Logging and errors

    /// Bootstraps swift-log (standard error, `level`) and returns the daemon's logger. Called exactly once per run.
    static func startLogging(level: Logger.Level) -> Logger {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        return Logger(label: "canopyd")
    }

    /// Logs why the daemon cannot run (at error, or critical when the level hides errors) and returns the error
    /// that makes ArgumentParser exit 1 without printing anything more.
    static func fail(_ logger: Logger, _ error: any Error) -> ExitCode {
        let message: Logger.Message = "\(error)"
        logger.log(level: logger.logLevel > .error ? .critical : .error, message)
        return ExitCode.failure
    }

    /// A start-up failure that is not a configuration value (files, directories, examples).
    struct StartError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    // MARK: Files

    static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Creates `path` (with its parents) if needed and checks that it is a writable directory; returns its
    /// absolute path.
    static func prepareDataDirectory(_ path: String) throws -> String {
        // mkdir -p by hand: Foundation's error for a failed createDirectory does not say which part failed or why.
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
                let reason = String(cString: strerror(errno))
                throw StartError("cannot create the data directory \(path): \(prefix): \(reason)")
            }
            prefix += "/"
        }
        guard isDirectory(path) else { throw StartError("data directory \(path) exists and is not a directory") }
        guard access(path, W_OK | X_OK) == 0 else {
            throw StartError("data directory \(path) is not writable: \(String(cString: strerror(errno)))")
        }
        return URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// The POSIX reason of a Foundation file error when it has one, else its description.
    static func reason(_ error: any Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return ns.localizedDescription
    }

    /// Loads every `*.json` of `directory` (a createTree body: tree, keys, root) in name order; a broken example
    /// stops the start with its file name. Files are read under the rule HTTP serves them by (`ConfinedDirectory`):
    /// a symlink that leads outside the directory stops the start too (refused, never read), so a link planted there
    /// cannot import a file from elsewhere; one that stays inside is fine. Every file is checked and parsed before
    /// the first tree is created, so a refused or broken example leaves no tree behind.
    static func loadExamples(from directory: String, into hub: ProtocolRunner) throws -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw StartError("cannot list the examples directory \(directory): \(Canopyd.reason(error))")
        }
        guard let confined = ConfinedDirectory(directory) else {
            throw StartError("the examples directory \(directory) is not a directory")
        }
        var bodies: [(path: String, body: JSONObject)] = []
        for name in names.sorted() where name.hasSuffix(".json") {
            let path = directory + "/" + name
            do {
                let real: String
                switch confined.lookup(name) {
                case .file(let realPath):
                    real = realPath
                case .outside(let realPath):
                    throw CanopyError(
                        .forbidden,
                        "it leads to \(realPath), outside the examples directory \(confined.root): refused "
                            + "(copy the file in, or remove the link)")
                case .notFound:
                    throw CanopyError(.badJSON, "not a regular file (or a dangling link)")
                }
                guard let data = FileManager.default.contents(atPath: real) else {
                    throw CanopyError(.badJSON, "cannot read the file")
                }
                guard let body = try JSONParser.parse(bytes: data).object else {
                    throw CanopyError(.badMessage, "an example is a createTree body (a JSON object)")
                }
                bodies.append((path, body))
            } catch let error as CanopyError {
                throw StartError("example \(path): \(error)")
            }
        }
        var loaded: [String] = []
        for (path, body) in bodies {
            do {
                loaded.append(try hub.createTree(body: body))
            } catch {
                throw StartError("example \(path): \(error)")
            }
        }
        return loaded
    }
}
