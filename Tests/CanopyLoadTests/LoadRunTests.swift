import CanopyCore
import CanopyServer
import Foundation
import Testing

@testable import CanopyLoad
@testable import CanopyWebSocket
import CanopySupport

#if canImport(Glibc)
    import Glibc
#endif

/// Short load runs against a daemon in this process (a `Hub` behind a `ServiceLoop` on an ephemeral port): what the
/// tool counts must be what the daemon counted, as its `/metrics` tell.
@Suite(.serialized) struct LoadRunTests {
    @Test func aShortOpenLoopRunCountsWhatTheDaemonCounted() throws {
        let daemon = try InProcessDaemon()
        defer { daemon.stop() }
        var c = LoadConfiguration()
        c.trees = 2
        c.writers = 2
        c.clients = 6
        c.nodes = 60
        c.fanout = 4
        c.mix = try OpMix(parsing: "set=55,insert=15,remove=15,move=15")
        c.opsPerEdit = 2
        c.rate = 200
        c.warmup = 0.5
        c.duration = 1.5
        let runner = LoadRunner(configuration: c, url: daemon.url)
        let report = try runner.run()

        // Every edit sent was accepted: the model never names a node another in-flight batch changes.
        #expect(report.totalRejected == 0)
        #expect(report.rejected.isEmpty)
        #expect(report.unanswered == 0)
        #expect(report.totalSent == report.totalAccepted)
        #expect(report.disconnects.isEmpty)
        #expect(report.opened == 8 && report.failed == 0 && report.peak == 8)
        // Open loop at 200/s for 2 s: 400 batches (the window holds the last 1.5 s: 300).
        #expect((395...400).contains(report.totalSent))
        #expect((295...301).contains(report.accepted))
        #expect(abs(report.editsPerSecond - 200) < 5)
        // Histograms: one ack per accepted edit of the window, one delivery per other subscriber of its tree.
        #expect(report.ack.count == UInt64(report.accepted))
        // Per tree: 1 writer + 3 clients subscribe, so each edit reaches its author and 3 others.
        #expect(report.delivery.count == UInt64(report.accepted * 3))
        #expect(report.delivered == report.accepted * 4)
        #expect(report.totalDiffs == report.totalAccepted * 4)
        #expect(report.ack.maxMilliseconds > 0)
        #expect(report.setupBatches == 2)

        // The daemon saw the same: the edits that built the trees, then the run's; each diff once per copy.
        let metrics = try daemon.metrics()
        #expect(
            metrics[#"canopy_edits_total{result="accepted"}"#] == Double(report.totalAccepted + report.setupBatches))
        #expect(metrics[#"canopy_edits_total{result="rejected"}"#] == 0)
        #expect(metrics["canopy_diffs_delivered_total"] == Double(report.totalDiffs + report.setupBatches))
        // The scratch trees are gone.
        #expect(metrics["canopy_trees"] == 0)

        let json = report.json
        #expect(json["edits"]?["accepted"] == .int(Int64(report.accepted)))
        #expect(json["totals"]?["accepted"] == .int(Int64(report.totalAccepted)))
        #expect(json["ack"]?["count"] == .int(Int64(report.accepted)))
        #expect(json["config"]?["mode"] == "open")
        #expect(json["window"]?["seconds"]?.number.map { abs($0 - 1.5) < 0.05 } == true)
    }

    @Test func aClosedLoopRunKeepsEachWriterAtItsInFlightCount() throws {
        let daemon = try InProcessDaemon()
        defer { daemon.stop() }
        var c = LoadConfiguration()
        c.writers = 3
        c.clients = 2
        c.inFlight = 4
        c.shape = .deep
        c.nodes = 300
        c.mix = try OpMix(parsing: "set=70,insert=10,remove=10,move=10")
        c.warmup = 0.2
        c.duration = 0.6
        let report = try LoadRunner(configuration: c, url: daemon.url).run()
        #expect(report.totalRejected == 0)
        // Each writer fills its 4 slots at the start and the drain waits for every answer. How many edits fall in the
        // 0.6 s window depends on the machine: on a starved one, none (the first answers came after it ended).
        #expect(report.totalAccepted >= 3 * 4)
        #expect(report.totalSent == report.totalAccepted)
        // One tree: 3 writers + 2 clients, so every edit has 4 deliveries besides its ack.
        #expect(report.delivery.count == report.ack.count * 4)
        let metrics = try daemon.metrics()
        #expect(
            metrics[#"canopy_edits_total{result="accepted"}"#] == Double(report.totalAccepted + report.setupBatches))
        #expect(metrics["canopy_diffs_delivered_total"] == Double(report.totalDiffs + report.setupBatches))
    }

    @Test func holdConnectsEveryClientAndKeepsThemConnected() throws {
        let daemon = try InProcessDaemon()
        defer { daemon.stop() }
        var c = LoadConfiguration()
        c.hold = true
        c.clients = 40
        c.trees = 4
        c.duration = 0.5
        let report = try LoadRunner(configuration: c, url: daemon.url).run()
        #expect(report.opened == 40)
        #expect(report.connectedAtEnd == 40)
        #expect(report.peak == 40)
        #expect(report.totalSent == 0)
        #expect(report.text.hasPrefix("held 40 of 40 client(s) for 0.5 s"))
    }

    @Test func anUnreachableDaemonIsAClearError() throws {
        var c = LoadConfiguration()
        c.timeout = 2
        let runner = LoadRunner(configuration: c, url: WebSocketURL(host: "127.0.0.1", port: 1))
        #expect { try runner.run() } throws: {
            ($0 as? LoadError)?.message.hasPrefix("cannot connect to ws://127.0.0.1:1/ws") == true
        }
    }
}

/// A daemon without a store (built by `Daemon`, as canopyd builds one) on an ephemeral loopback port, serviced on its
/// own thread.
final class InProcessDaemon: Sendable {
    let daemon: Daemon

    init(programs: (any ProgramRuntime)? = nil) throws {
        var c = DaemonConfiguration()
        c.service.port = 0
        c.service.drainTimeoutSeconds = 0
        c.webRoot = nil
        c.examplesDirectory = ""
        daemon = try Daemon(configuration: c, storage: .none, programs: programs)
        daemon.start()
    }

    var loop: ServiceLoop { daemon.loop }
    var url: WebSocketURL { WebSocketURL(host: "127.0.0.1", port: daemon.port) }

    func stop() { daemon.stopAndWait() }

    /// `GET /metrics`, as sample name (with labels) → value.
    func metrics() throws -> [String: Double] {
        let body = try httpGet("/metrics")
        var samples: [String: Double] = [:]
        for line in body.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            if parts.count >= 2, let value = Double(parts[1]) { samples[String(parts[0])] = value }
        }
        return samples
    }

    private func httpGet(_ path: String) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw LoadError(.load, "socket() failed") }
        defer { close(fd) }
        // A daemon that stopped answering fails the test in seconds instead of blocking it for good.
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(loop.port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw LoadError(.load, "cannot connect to the daemon's HTTP port") }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                throw LoadError("GET \(path): no answer from the daemon within \(timeout.tv_sec) s")
            }
            if n <= 0 { break }
            response += buffer[0..<n]
        }
        let text = String(decoding: response, as: UTF8.self)
        guard text.hasPrefix("HTTP/1.1 200"), let split = text.range(of: "\r\n\r\n") else {
            throw LoadError(.load, "GET \(path): \(text.prefix(200))")
        }
        return String(text[split.upperBound...])
    }
}
