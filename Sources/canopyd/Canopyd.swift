import ArgumentParser
import CanopyCore
import CanopyScript
import CanopyViews
import CanopyServer
import Dispatch
import Foundation
import Logging
import CanopyWebSocket
import CanopyStore

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
            "Directory of example trees (*.json createTree bodies, *.swift programs) loaded at first start, the JSON "
                + "served at /examples/ (examples.directory; default config/examples).",
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
        let sources: ConfigurationSources
        do {
            (configuration, source, sources) = try resolveConfiguration()
        } catch {
            // No configured level yet: the flag's if it is valid, else info.
            let level = logLevel.flatMap(Logger.Level.init(rawValue:)) ?? .info
            throw Canopyd.fail(Canopyd.startLogging(level: level), error)
        }
        let logger = Canopyd.startLogging(level: configuration.logLevel)
        do {
            try serve(configuration, source: source, sources: sources, logger: logger)
        } catch {
            throw Canopyd.fail(logger, error)
        }
    }

    /// Flags, then environment variables, then the file, then the defaults; validated. Returns the configuration,
    /// where the file layer came from, and the sources (SIGHUP reads them again).
    func resolveConfiguration() throws -> (DaemonConfiguration, String, ConfigurationSources) {
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
        return (configuration, source, sources)
    }

    func serve(
        _ configuration: DaemonConfiguration, source: String, sources: ConfigurationSources, logger: Logger
    ) throws {
        logger.info("configuration: \(source)")
        for line in configuration.summary { logger.debug("\(line)") }
        let daemon = try Daemon(
            configuration: configuration, keyCompiler: ScriptKeyCompiler(), programs: ViewRuntime(), logger: logger)
        let service = configuration.service
        let shown = service.host.contains(":") ? "[\(service.host)]" : service.host
        let tokens = configuration.hub.tokens.count
        let access =
            tokens == 0 ? "without tokens (every session is admin)" : "with \(tokens) token\(tokens == 1 ? "" : "s")"
        logger.info("listening on \(shown):\(daemon.port) \(access), event loop \(daemon.loop.eventLoop.rawValue)")

        // SIGINT/SIGTERM stop (close 1001, drain); SIGHUP re-reads the tokens and the edit rate (docs/server.md).
        for sig in [SIGINT, SIGTERM, SIGHUP] { signal(sig, SIG_IGN) }
        var handlers: [DispatchSourceSignal] = []
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            let handler = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            handler.setEventHandler {
                guard sig == SIGHUP else {
                    logger.info("signal \(sig): stopping")
                    daemon.stop()
                    return
                }
                do {
                    let settings = try sources.reloadableSettings()
                    logger.info(
                        "SIGHUP: reloading tokens and edit rate from \(sources.file ?? "flags and environment")")
                    daemon.reload(settings)
                } catch {
                    logger.error("SIGHUP: not reloaded, the running settings stay: \(error)")
                }
            }
            handler.resume()
            handlers.append(handler)
        }
        let all = (daemon.restoredTrees + daemon.loadedExamples).sorted()
        print(
            "canopyd: \(all.count) trees (\(daemon.restoredTrees.count) restored from \(daemon.restoredFrom), "
                + "\(daemon.loadedExamples.count) examples loaded): " + all.joined(separator: ", "))
        print("canopyd: inspector http://\(shown):\(daemon.port)/  WebSocket ws://\(shown):\(daemon.port)/ws")
        fflush(nil)  // flushes every output stream (stdout is not concurrency-safe to name in Swift 6)
        daemon.run()
        for handler in handlers { handler.cancel() }
        if let failure = daemon.startFailure { throw DaemonStartError(.start, failure) }
        logger.info("stopped")
        print("canopyd: stopped")
        fflush(nil)
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
}
