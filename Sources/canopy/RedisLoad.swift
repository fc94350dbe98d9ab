import ArgumentParser
import CanopyCore
import CanopyLoad
import CanopyServer
import Glibc

extension Canopy {
    /// `canopy redis-load`: the same open-loop fan-out as `canopy load`, against Redis pub/sub, as an anchor.
    struct RedisLoad: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "redis-load",
            abstract:
                "Fan-out against Redis pub/sub: one publisher at a fixed rate, N subscribers (an anchor for load).",
            discussion: """
                Opens one publisher and --subscribers subscriber connections to Redis (RESP over TCP, all on one \
                thread with poll), subscribes them to --channel, then publishes --rate messages/s of --payload \
                bytes for --warmup + --duration seconds (open loop). Each message carries its sequence number; \
                delivery latency runs from the message's scheduled send time to its arrival at each subscriber. \
                Deliveries are counted when they arrive inside the measured window; latencies are those of the \
                messages scheduled inside it. With --json, prints the `diffs`, `delivery` and `window` objects of \
                `canopy load --json`.
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
                "redis-load: 1 publisher at \(rate) msg/s, \(subscribers) subscriber(s), \(payload)-byte messages "
                + "on \(host):\(port); warm-up \(warmup) s, measuring \(duration) s"
            if json { printError(banner) } else { emit(banner) }  // --json: stdout is the report only
            try run.run(host: host, port: UInt16(port))
            emit(json ? jsonLine(run.reportJSON()) : run.reportText())
        }
    }
}

/// Drives one open-loop pub/sub fan-out run against Redis on the calling thread.
final class RedisFanOut {
    private let channel: String
    private let subscriberCount: Int
    private let interval: Double  // nanoseconds between scheduled publishes
    private let warmup: Int64
    private let duration: Int64
    private let payload: Int

    private var publisher: RESPConnection?
    private var subscribers: [RESPConnection] = []
    private var histogram = LatencyStats()
    private var start: Int64 = 0
    private var measureFrom: Int64 = 0
    private var measureTo: Int64 = 0
    private var published = 0  // messages scheduled so far (the next sequence number)
    private var publishedInWindow = 0
    private var delivered = 0
    private var deliveredInWindow = 0
    private var fewestReceivers = Int.max
    /// This process's CPU seconds at the window's start and end (nil until sampled).
    private var clientCPUFrom: Double?
    private var clientCPUTo: Double?

    init(
        channel: String, subscribers: Int, rate: Double, warmup: Double, duration: Double, payload: Int
    ) {
        self.channel = channel
        self.subscriberCount = subscribers
        self.interval = 1e9 / rate
        self.warmup = Int64(warmup * 1e9)
        self.duration = Int64(duration * 1e9)
        self.payload = payload
    }

    /// Connects, subscribes everyone, publishes for warm-up + duration, then waits (at most 2 s) for the stragglers.
    func run(host: String, port: UInt16) throws {
        let publisher = RESPConnection(socket: try TCPSocket.connect(host: host, port: port))
        self.publisher = publisher
        for _ in 0..<subscriberCount {
            let subscriber = RESPConnection(socket: try TCPSocket.connect(host: host, port: port))
            subscriber.queue(RESP.command(["SUBSCRIBE", channel]))
            subscribers.append(subscriber)
        }
        var confirmed = 0
        let connections = [publisher] + subscribers
        var poller = Poller(sockets: connections.map(\.socket))

        // Phase 1: every subscription confirmed before the clock starts.
        let subscribeDeadline = Clock.now() + 30_000_000_000
        while confirmed < subscriberCount {
            guard Clock.now() < subscribeDeadline else {
                throw CLIError(
                    "only \(confirmed) of \(subscriberCount) subscriptions confirmed within 30 s")
            }
            try pump(connections, &poller, timeout: 100_000_000) { index, frame in
                if index > 0, case .subscribed = frame { confirmed += 1 }
            }
        }

        // Phase 2: publish on schedule, then drain.
        let template = RESP.command(["PUBLISH", channel, String(repeating: "x", count: payload)])
        let payloadOffset = template.count - payload - 2
        start = Clock.now()
        measureFrom = start + warmup
        measureTo = measureFrom + duration
        var drainDeadline = Int64.max
        while true {
            let now = Clock.now()
            if clientCPUFrom == nil && now >= measureFrom {
                clientCPUFrom = Clock.processCPUSeconds()
                printError("redis-load: measuring")  // scripts sample the server's CPU from here
            }
            while scheduled(published) <= now && scheduled(published) < measureTo {
                var message = template
                RESP.writeSequence(published, into: &message, at: payloadOffset)
                publisher.queue(message)
                if scheduled(published) >= measureFrom { publishedInWindow += 1 }
                published += 1
            }
            let publishing = scheduled(published) < measureTo
            if !publishing && clientCPUTo == nil && now >= measureTo {
                clientCPUTo = Clock.processCPUSeconds()
                printError("redis-load: measured")
                drainDeadline = now + 2_000_000_000
            }
            if !publishing && clientCPUTo != nil
                && (delivered >= published * subscriberCount || now >= drainDeadline)
            {
                break
            }
            let wake =
                publishing ? scheduled(published) : min(drainDeadline, max(measureTo, now + 1_000_000))
            try pump(connections, &poller, timeout: max(0, wake - now)) { index, frame in
                switch frame {
                case .message(let sequence):
                    self.received(sequence, at: Clock.now())
                case .integer(let receivers) where index == 0:
                    self.fewestReceivers = min(self.fewestReceivers, receivers)
                default:
                    break
                }
            }
        }
        for connection in connections { connection.socket.close() }
    }

    private func scheduled(_ sequence: Int) -> Int64 {
        start + Int64((Double(sequence) * interval).rounded())
    }

    private func received(_ sequence: Int, at now: Int64) {
        delivered += 1
        if now >= measureFrom && now < measureTo { deliveredInWindow += 1 }
        let sent = scheduled(sequence)
        if sent >= measureFrom && sent < measureTo { histogram.record(nanoseconds: UInt64(max(0, now - sent))) }
    }

    /// Flushes pending output, waits up to `timeout` ns for readiness, reads what arrived and hands each frame on.
    private func pump(
        _ connections: [RESPConnection], _ poller: inout Poller, timeout: Int64,
        _ handle: (Int, RESPFrame) -> Void
    ) throws {
        for (index, connection) in connections.enumerated() {
            if connection.hasOutput { try connection.flush() }
            poller.wantWrite(index, connection.hasOutput)
        }
        try poller.wait(nanoseconds: timeout)
        for index in poller.ready() {
            let connection = connections[index]
            if poller.writable(index) { try connection.flush() }
            if poller.readable(index) {
                guard try connection.fill() else {
                    throw CLIError(
                        "Redis closed connection \(index) (\(index == 0 ? "publisher" : "subscriber"))")
                }
                try connection.frames { handle(index, $0) }
            }
        }
    }

    // MARK: - Report

    private var seconds: Double { Double(duration) / 1e9 }
    /// Messages published but not delivered to every subscriber by the end of the drain.
    private var lost: Int { published * subscriberCount - delivered }
    /// This process's CPU seconds over the measured window.
    private var clientCPU: Double { (clientCPUTo ?? 0) - (clientCPUFrom ?? 0) }

    func reportJSON() -> JSON {
        [
            "diffs": [
                "delivered": .int(Int64(deliveredInWindow)),
                "perSecond": .double(Double(deliveredInWindow) / seconds),
            ],
            "delivery": histogram.json,
            "published": [
                "sent": .int(Int64(publishedInWindow)),
                "perSecond": .double(Double(publishedInWindow) / seconds),
                "fewestReceivers": .int(Int64(fewestReceivers == Int.max ? 0 : fewestReceivers)),
            ],
            "lost": .int(Int64(lost)),
            "client": ["cpuSeconds": .double(clientCPU), "cpuShare": .double(clientCPU / seconds)],
            "window": ["seconds": .double(seconds)],
            "totals": ["published": .int(Int64(published)), "delivered": .int(Int64(delivered))],
            "config": [
                "server": "redis", "subscribers": .int(Int64(subscriberCount)),
                "rate": .double(1e9 / interval),
                "payload": .int(Int64(payload)), "channel": .string(channel),
                "warmup": .double(Double(warmup) / 1e9),
                "duration": .double(seconds),
            ],
        ]
    }

    func reportText() -> String {
        func ms(_ milliseconds: Double) -> String { String(format: "%.3f ms", milliseconds) }
        let percentiles = LatencyStats.shown.map { "\($0.name) \(ms(histogram.milliseconds(atPercentile: $0.percentile)))" }
        return [
            String(
                format: "published/s %.0f   delivered/s %.0f   lost %d   client CPU %.0f%%",
                Double(publishedInWindow) / seconds, Double(deliveredInWindow) / seconds,
                lost, clientCPU / seconds * 100),
            "delivery    " + (percentiles + ["max \(ms(histogram.maxMilliseconds))"]).joined(separator: ", "),
        ].joined(separator: "\n")
    }
}

/// One RESP connection: a socket, its pending output, and an input buffer parsed incrementally.
final class RESPConnection {
    let socket: TCPSocket
    private var output: [UInt8] = []
    private var outputSent = 0
    private var input = [UInt8](repeating: 0, count: 32 * 1024)
    private var filled = 0

    init(socket: TCPSocket) { self.socket = socket }

    var hasOutput: Bool { outputSent < output.count }

    func queue(_ bytes: [UInt8]) {
        if outputSent == output.count {
            output.removeAll(keepingCapacity: true)
            outputSent = 0
        }
        output += bytes
    }

    /// Writes as much pending output as the socket takes.
    func flush() throws {
        while outputSent < output.count {
            let written = try socket.write(output, from: outputSent)
            if written == 0 { return }
            outputSent += written
        }
    }

    /// Reads once into the free end of the buffer (growing it when a frame does not fit). False at end of stream.
    func fill() throws -> Bool {
        if filled == input.count { input += [UInt8](repeating: 0, count: input.count) }
        guard let count = try socket.read(into: &input, at: filled) else { return true }
        if count == 0 { return false }
        filled += count
        return true
    }

    /// Hands on every complete frame in the buffer and keeps the incomplete tail for the next read.
    func frames(_ handle: (RESPFrame) -> Void) throws {
        var offset = 0
        while offset < filled, let (frame, end) = try RESP.frame(in: input, from: offset, to: filled) {
            handle(frame)
            offset = end
        }
        if offset > 0 {
            input.withUnsafeMutableBufferPointer { buffer in
                _ = memmove(buffer.baseAddress!, buffer.baseAddress! + offset, filled - offset)
            }
            filled -= offset
        }
    }
}

/// What the load run needs to know about one RESP frame.
enum RESPFrame {
    case message(sequence: Int)
    case subscribed
    case integer(Int)
    case other
}

/// The few RESP2 encodings and decodings a pub/sub fan-out needs.
enum RESP {
    static let sequenceDigits = 12

    static func command(_ arguments: [String]) -> [UInt8] {
        var bytes = Array("*\(arguments.count)\r\n".utf8)
        for argument in arguments {
            bytes += Array("$\(argument.utf8.count)\r\n".utf8) + Array(argument.utf8) + [13, 10]
        }
        return bytes
    }

    /// Writes `sequence` as fixed-width decimal followed by `:` at `offset` (the payload's start).
    static func writeSequence(_ sequence: Int, into bytes: inout [UInt8], at offset: Int) {
        var value = sequence
        for i in stride(from: sequenceDigits - 1, through: 0, by: -1) {
            bytes[offset + i] = UInt8(48 + value % 10)
            value /= 10
        }
        bytes[offset + sequenceDigits] = UInt8(ascii: ":")
    }

    /// The frame starting at `offset` and the offset after it, or nil while it is incomplete.
    /// Top-level arrays are flat here (pub/sub pushes and replies); nested aggregates are not expected.
    static func frame(in bytes: [UInt8], from offset: Int, to end: Int) throws -> (RESPFrame, Int)? {
        guard let (type, value, next) = header(bytes, offset, end) else { return nil }
        switch type {
        case UInt8(ascii: ":"):
            return (.integer(value), next)
        case UInt8(ascii: "+"):
            return (.other, next)
        case UInt8(ascii: "-"):
            let text = String(decoding: bytes[offset + 1..<next - 2], as: UTF8.self)
            throw CLIError("Redis answered with an error: \(text)")
        case UInt8(ascii: "$"):
            let after = next + max(0, value) + (value >= 0 ? 2 : 0)
            return after <= end ? (.other, after) : nil
        case UInt8(ascii: "*"):
            var position = next
            var kind: UInt8 = 0  // first letter of the first element: m(essage), s(ubscribe)
            var sequence = -1
            for element in 0..<max(0, value) {
                guard let (elementType, length, body) = header(bytes, position, end) else { return nil }
                if elementType == UInt8(ascii: "$") {
                    let after = body + max(0, length) + 2
                    guard after <= end else { return nil }
                    if element == 0 && length > 0 { kind = bytes[body] }
                    if element == 2 && kind == UInt8(ascii: "m") {
                        sequence = parseSequence(bytes, body, body + length)
                    }
                    position = after
                } else {
                    position = body
                }
            }
            if kind == UInt8(ascii: "m") && sequence >= 0 {
                return (.message(sequence: sequence), position)
            }
            if kind == UInt8(ascii: "s") { return (.subscribed, position) }
            return (.other, position)
        default:
            throw CLIError("unexpected RESP type byte \(type) from Redis")
        }
    }

    /// The type byte, the line's integer (a length, count or value) and the offset after its CRLF.
    private static func header(_ bytes: [UInt8], _ offset: Int, _ end: Int) -> (UInt8, Int, Int)? {
        guard offset < end else { return nil }
        var i = offset + 1
        var value = 0
        var negative = false
        let isNumeric = bytes[offset] != UInt8(ascii: "+") && bytes[offset] != UInt8(ascii: "-")
        while i < end && bytes[i] != 13 {
            if isNumeric {
                if bytes[i] == UInt8(ascii: "-") {
                    negative = true
                } else {
                    value = value * 10 + Int(bytes[i] &- 48)
                }
            }
            i += 1
        }
        guard i + 1 < end else { return nil }
        return (bytes[offset], negative ? -value : value, i + 2)
    }

    private static func parseSequence(_ bytes: [UInt8], _ from: Int, _ to: Int) -> Int {
        var value = 0
        var i = from
        while i < to, bytes[i] >= 48, bytes[i] <= 57 {
            value = value * 10 + Int(bytes[i] - 48)
            i += 1
        }
        return i > from ? value : -1
    }
}

/// Monotonic time and this process's CPU time.
enum Clock {
    static func now() -> Int64 { Int64(monotonicNanoseconds()) }

    static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// A non-blocking TCP socket. This and `Poller` hold the file's pointer code.
struct TCPSocket {
    let descriptor: Int32

    /// Connects (blocking, loopback is quick), then switches to non-blocking with Nagle off.
    static func connect(host: String, port: UInt16) throws -> TCPSocket {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw CLIError("socket: \(errorText())") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            Glibc.close(descriptor)
            throw CLIError("--host must be an IPv4 address, not \(host)")
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let reason = errorText()
            Glibc.close(descriptor)
            throw CLIError("cannot connect to Redis at \(host):\(port): \(reason)")
        }
        var one: Int32 = 1
        _ = setsockopt(
            descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        return TCPSocket(descriptor: descriptor)
    }

    /// Bytes written from `bytes[offset...]`; 0 when the socket would block.
    func write(_ bytes: [UInt8], from offset: Int) throws -> Int {
        let written = bytes.withUnsafeBufferPointer {
            Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset)
        }
        if written >= 0 { return written }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return 0 }
        throw CLIError("write to Redis: \(Self.errorText())")
    }

    /// Bytes read into `buffer[offset...]`: 0 at end of stream, nil when nothing is there yet.
    func read(into buffer: inout [UInt8], at offset: Int) throws -> Int? {
        let count = buffer.withUnsafeMutableBufferPointer {
            Glibc.read(descriptor, $0.baseAddress! + offset, $0.count - offset)
        }
        if count >= 0 { return count }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return nil }
        throw CLIError("read from Redis: \(Self.errorText())")
    }

    func close() { Glibc.close(descriptor) }

    /// Raises the soft limit on open files towards `count` (within the hard limit): one per connection.
    static func raiseDescriptorLimit(to count: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(count)
        else { return }
        limit.rlim_cur = min(limit.rlim_max, rlim_t(count))
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}

/// `ppoll(2)` over a fixed set of sockets (nanosecond timeouts; `poll` only has milliseconds, which would add up to a
/// millisecond of lateness to every scheduled publish). Glibc's Swift module does not export `ppoll`, so it is
/// looked up once with `dlsym`.
struct Poller {
    private typealias PPoll =
        @convention(c) (
            UnsafeMutablePointer<pollfd>?, nfds_t, UnsafePointer<timespec>?, UnsafeRawPointer?
        ) -> Int32
    private static let ppoll: PPoll = unsafeBitCast(dlsym(nil, "ppoll")!, to: PPoll.self)

    private var descriptors: [pollfd]
    private var readyCount = 0

    init(sockets: [TCPSocket]) {
        descriptors = sockets.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
    }

    mutating func wantWrite(_ index: Int, _ on: Bool) {
        descriptors[index].events = Int16(POLLIN) | (on ? Int16(POLLOUT) : 0)
    }

    mutating func wait(nanoseconds: Int64) throws {
        var timeout = timespec(
            tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        let count = descriptors.withUnsafeMutableBufferPointer {
            Poller.ppoll($0.baseAddress, nfds_t($0.count), &timeout, nil)
        }
        if count < 0 && errno != EINTR { throw CLIError("ppoll: \(String(cString: strerror(errno)))") }
        readyCount = max(0, Int(count))
    }

    /// Indexes with any event from the last wait.
    func ready() -> [Int] {
        guard readyCount > 0 else { return [] }
        var indexes: [Int] = []
        indexes.reserveCapacity(readyCount)
        for index in descriptors.indices where descriptors[index].revents != 0 { indexes.append(index) }
        return indexes
    }

    func readable(_ index: Int) -> Bool {
        descriptors[index].revents & (Int16(POLLIN) | Int16(POLLHUP) | Int16(POLLERR)) != 0
    }

    func writable(_ index: Int) -> Bool { descriptors[index].revents & Int16(POLLOUT) != 0 }
}
