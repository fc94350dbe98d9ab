import ArgumentParser
import CanopyCore
import CanopyLoad
import Foundation
import CanopySupport

/// `canopy-redis-load`: the same open-loop fan-out as `canopy load`, against Redis pub/sub, as an anchor.
@main
struct RedisLoad: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "canopy-redis-load",
        abstract:
            "Fan-out against Redis pub/sub: one publisher at a fixed rate, N subscribers (an anchor for load).",
        discussion: """
            Opens one publisher and --subscribers subscriber connections to Redis (RESP over TCP, all on one \
            thread with poll), subscribes them to --channel, then publishes --rate messages/s of --payload \
            bytes for --warmup + --duration seconds (open loop). Each message carries its sequence number; \
            delivery latency runs from the message's scheduled send time to its arrival at each subscriber. \
            Deliveries are counted when they arrive inside the measured window; latencies are those of the \
            messages scheduled inside it. With --json, prints the `diffs`, `delivery` and `window` objects of \
            `canopy load --json`. Part of the load tooling (scripts/anchor-redis.py), not of the user CLI.
            """)

    @Option(help: "Redis address (IPv4).") var host = "127.0.0.1"
    @Option(help: "Redis port.") var port = 6379
    @Option(help: "Subscriber connections.") var subscribers = 10
    @Option(help: "Messages published per second (open loop).") var rate: Double = 1000
    @Option(help: "Seconds measured.") var duration: Double = 5
    @Option(help: "Seconds run before measuring.") var warmup: Double = 1
    @Option(help: "Bytes per message (sequence number plus padding; ~200 is a small canopy diff).")
    var payload = 200
    @Option(help: "The pub/sub channel.") var channel = "canopy-load"
    @Flag(help: "Print the report as one JSON object.") var json = false

    func validate() throws {
        if subscribers < 1 || subscribers > 50_000 {
            throw ValidationError("--subscribers must be in 1...50000")
        }
        if !(rate > 0 && rate <= 1_000_000) {
            throw ValidationError("--rate must be in (0, 1000000]")
        }
        if !(duration > 0) || !(warmup >= 0) {
            throw ValidationError("--duration must be > 0 and --warmup >= 0")
        }
        if payload < 16 || payload > 1_000_000 {
            throw ValidationError("--payload must be in 16...1000000")
        }
        if port < 1 || port > 65535 { throw ValidationError("--port must be in 1...65535") }
    }

    func run() throws {
        TCPSocket.raiseDescriptorLimit(to: subscribers + 64)
        let run = RedisFanOut(
            channel: channel, subscribers: subscribers, rate: rate, warmup: warmup, duration: duration,
            payload: payload)
        let banner =
            "1 publisher at \(rate) msg/s, \(subscribers) subscriber(s), \(payload)-byte messages "
            + "on \(host):\(port); warm-up \(warmup) s, measuring \(duration) s"
        // --json: stdout is the report only
        if json { printError(banner) } else { emit("canopy-redis-load: " + banner) }
        try run.run(host: host, port: UInt16(port))
        emit(json ? run.reportJSON().encoded() : run.reportText())
    }
}

/// A failure the run reports (on stderr, prefixed with the tool's name) before it exits non-zero.
struct RedisLoadError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// One line on stderr, prefixed with `canopy-redis-load: `.
func printError(_ text: String) {
    FileHandle.standardError.write(Data(("canopy-redis-load: " + text + "\n").utf8))
}

/// Prints `text` on stdout and flushes it (a script reads the output as it comes).
func emit(_ text: String) {
    print(text)
    fflush(nil)  // every output stream (naming stdout is not concurrency-safe in Swift 6)
}
