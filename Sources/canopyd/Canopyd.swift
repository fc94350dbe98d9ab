import ArgumentParser
import CanopyCore
import CanopyServer
import Dispatch
import Foundation

/// canopyd: serves shared view trees over WebSockets (`/ws`) and the inspector (`/`) on one port.
@main
struct Canopyd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "canopyd", abstract: "Serve shared SwiftUI-like view trees with incremental preferences.")

    @Option(help: "Address to bind. Anything but loopback needs --token.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on (0 = any free port).")
    var port = 7700

    @Option(help: "Directory served at / (the inspector).")
    var web = "web"

    @Option(help: "Directory of example trees (*.json createTree bodies) loaded at start.")
    var examples = "config/examples"

    @Option(
        name: .customLong("token"),
        help: "TOKEN:ROLE[:PATTERN,...] (role viewer, editor or admin; patterns limit the trees). Repeatable.")
    var tokens: [String] = []

    @Option(help: "Maximum message size in bytes.")
    var maxMessageBytes = 1 << 20

    func run() throws {
        var hubConfiguration = HubConfiguration()
        hubConfiguration.tokens = try tokens.map(Canopyd.grant)
        if !Canopyd.isLoopback(host) && hubConfiguration.tokens.isEmpty {
            throw ValidationError("refusing to bind \(host) without --token: only loopback binds may run without tokens")
        }
        let hub = Hub(configuration: hubConfiguration)
        let loaded = try Canopyd.loadExamples(from: examples, into: hub)

        var service = ServiceConfiguration()
        service.host = host
        service.port = port
        service.maxMessageBytes = maxMessageBytes
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: web, isDirectory: &isDirectory), isDirectory.boolValue {
            service.webRoot = web
        }
        let loop = try ServiceLoop(configuration: service, handler: hub)

        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        var sources: [DispatchSourceSignal] = []
        for sig in [SIGINT, SIGTERM] {
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { loop.stop() }
            source.resume()
            sources.append(source)
        }
        let shown = host.contains(":") ? "[\(host)]" : host
        print("canopyd: \(loaded.count) trees loaded (\(loaded.joined(separator: ", ")))")
        print("canopyd: inspector http://\(shown):\(loop.port)/  WebSocket ws://\(shown):\(loop.port)/ws")
        fflush(nil)  // flushes every output stream (stdout is not concurrency-safe to name in Swift 6)
        loop.run()
        sources.forEach { $0.cancel() }
        print("canopyd: stopped")
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    static func grant(_ spec: String) throws -> TokenGrant {
        let parts = spec.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, !parts[0].isEmpty, let role = Role(rawValue: parts[1]) else {
            throw ValidationError("--token \(spec): expected TOKEN:ROLE[:PATTERN,...] with ROLE viewer, editor or admin")
        }
        let patterns = parts.count == 3 ? parts[2].split(separator: ",").map(String.init) : []
        return TokenGrant(token: parts[0], role: role, trees: patterns)
    }

    /// Loads every `*.json` of `directory` (a createTree body: tree, keys, root) in name order; a broken example
    /// stops the start with its file name.
    static func loadExamples(from directory: String, into hub: Hub) throws -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var loaded: [String] = []
        for name in names.sorted() where name.hasSuffix(".json") {
            let path = directory + "/" + name
            do {
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw CanopyError(.badJSON, "cannot read the file")
                }
                guard let body = try JSONParser.parse(bytes: data).object else {
                    throw CanopyError(.badMessage, "an example is a createTree body (a JSON object)")
                }
                loaded.append(try hub.createTree(body: body))
            } catch let error as CanopyError {
                throw ValidationError("example \(path): \(error)")
            }
        }
        return loaded
    }
}
