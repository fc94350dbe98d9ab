import CanopyCore
import CanopyLoad
import CanopySupport
import Foundation

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
                throw RedisLoadError(
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
                printError("measuring")  // scripts sample the server's CPU from here
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
                printError("measured")
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
                    throw RedisLoadError(
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
        let percentiles = LatencyStats.shown.map {
            "\($0.name) \(ms(histogram.milliseconds(atPercentile: $0.percentile)))"
        }
        return [
            String(
                format: "published/s %.0f   delivered/s %.0f   lost %d   client CPU %.0f%%",
                Double(publishedInWindow) / seconds, Double(deliveredInWindow) / seconds,
                lost, clientCPU / seconds * 100),
            "delivery    " + (percentiles + ["max \(ms(histogram.maxMilliseconds))"]).joined(separator: ", "),
        ].joined(separator: "\n")
    }
}
