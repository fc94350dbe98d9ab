import ArgumentParser
import CanopyCore
import CanopyServer
import Foundation

extension Canopy {
    struct Load: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measure edit round trips and fan-out: writers edit one tree while subscribers receive every diff.",
            discussion: """
                Creates a scratch tree (a root reading a sum over --leaves children that each write it), connects \
                --writers and --subscribers from one thread, and lets each writer keep --in-flight edits \
                outstanding (closed loop) for --duration seconds after --warmup. Reports edits/s, diffs delivered/s, \
                the edit round trip (send → the author's diff) and the delivery latency (send → the diff at each \
                subscriber). The scratch tree is deleted at the end.
                """)

        @Option(help: "Connections that only subscribe.") var subscribers = 10
        @Option(help: "Connections that edit (and also receive their own diffs).") var writers = 1
        @Option(help: "Edits each writer keeps outstanding.") var inFlight = 1
        @Option(help: "Leaves of the scratch tree.") var leaves = 100
        @Option(help: "Seconds measured.") var duration: Double = 5
        @Option(help: "Seconds run before measuring.") var warmup: Double = 1

        @OptionGroup var connection: ConnectionOptions

        func validate() throws {
            if subscribers < 0 || subscribers > 50_000 { throw ValidationError("--subscribers must be in 0...50000") }
            if writers < 1 || writers > 1000 { throw ValidationError("--writers must be in 1...1000") }
            if inFlight < 1 || inFlight > 10_000 { throw ValidationError("--in-flight must be in 1...10000") }
            if leaves < 1 || leaves > 1_000_000 { throw ValidationError("--leaves must be in 1...1000000") }
            if !(duration > 0) || !(warmup >= 0) { throw ValidationError("--duration must be > 0 and --warmup >= 0") }
        }

        func run() throws {
            let admin = try connection.connect()
            let tree = "load-\(ProcessInfo.processInfo.processIdentifier)-\(Int(Date().timeIntervalSince1970))"
            let children: [JSON] = (0..<leaves).map { i in
                [
                    "id": .string("leaf\(i)"), "type": "Text",
                    "modifiers": [["kind": "preference", "key": "Total", "value": 1]],
                ]
            }
            let root: JSON = [
                "id": "root", "type": "VStack", "modifiers": [["kind": "onPreferenceChange", "key": "Total"]],
                "children": .array(children),
            ]
            try admin.request([
                "type": "createTree", "tree": .string(tree),
                "keys": [["key": "Total", "reducer": "sum", "default": 0]], "root": root,
            ])
            defer { _ = try? admin.request(["type": "deleteTree", "tree": .string(tree)]) }

            let url = try WebSocketURL(parsing: connection.url ?? ProcessInfo.processInfo.environment["CANOPY_URL"] ?? "ws://127.0.0.1:7700/ws")
            let token = connection.token ?? ProcessInfo.processInfo.environment["CANOPY_TOKEN"]
            let driver = LoadDriver(
                tree: tree, leaves: leaves, writers: writers, subscribers: subscribers, inFlight: inFlight,
                warmup: warmup, duration: duration, token: token)
            let loop = try ClientLoop(handler: driver)
            driver.loop = loop
            for _ in 0..<(writers + subscribers) { driver.add(loop.connect(url)) }
            let banner =
                "load: \(writers) writer(s) × \(inFlight) in flight, \(subscribers) subscriber(s), tree \(tree) "
                + "(\(leaves + 1) nodes); warm-up \(warmup) s, measuring \(duration) s"
            if connection.json { printError(banner) } else { emit(banner) }  // --json: stdout is the report only
            loop.run()
            if let failure = driver.failure { throw CLIError(failure) }
            let report = driver.report()
            emit(connection.json ? report.json.encoded() : report.text)
        }
    }
}

/// Drives the load run on the client loop's thread (every `handle` call happens there).
final class LoadDriver: ClientHandler, @unchecked Sendable {  // used on the loop's thread only
    private enum Role { case writer, subscriber }

    private struct Peer {
        var role: Role
        var name = ""
        var ready = false
        var outstanding = 0
        var nextSeq = 1
    }

    let tree: String
    let leaves: Int
    let writerCount: Int
    let subscriberCount: Int
    let inFlight: Int
    let warmup: Double
    let duration: Double
    let token: String?
    weak var loop: ClientLoop?
    private(set) var failure: String?

    private var peers: [ConnectionID: Peer] = [:]
    private var readyCount = 0
    private var startedAt: Double?
    private var measureFrom = 0.0
    private var measureTo = 0.0
    private var stopping = false
    /// Send time of each outstanding edit, by "writer name/seq".
    private var sentAt: [String: Double] = [:]
    private var deliveriesLeft: [String: Int] = [:]
    private var roundTrips: [Double] = []
    private var deliveries: [Double] = []
    private var editsMeasured = 0
    private var deliveriesMeasured = 0
    private var rejected = 0
    private var closedEarly = 0
    private var random = SplitMix64(seed: 42)

    init(
        tree: String, leaves: Int, writers: Int, subscribers: Int, inFlight: Int, warmup: Double, duration: Double,
        token: String?
    ) {
        self.tree = tree
        self.leaves = leaves
        writerCount = writers
        subscriberCount = subscribers
        self.inFlight = inFlight
        self.warmup = warmup
        self.duration = duration
        self.token = token
    }

    func add(_ id: ConnectionID) {
        peers[id] = Peer(role: peers.count < writerCount ? .writer : .subscriber)
    }

    private static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    private func send(_ id: ConnectionID, _ message: JSON) -> TransportAction {
        var bytes: [UInt8] = []
        message.write(into: &bytes)
        return .send(id, OutgoingMessage(bytes: bytes))
    }

    func handle(_ id: ConnectionID, _ event: ClientEvent) -> [TransportAction] {
        switch event {
        case .opened:
            // A name per connection: the daemon treats a repeated (client, seq) as a resubmission of the same batch.
            var hello: JSONObject = ["type": "hello", "client": .string("canopy-load-\(getpid())-\(id)")]
            if let token { hello["token"] = .string(token) }
            return [send(id, .object(hello))]
        case .message(let bytes):
            guard let message = try? JSONParser.parse(bytes: bytes, maxDepth: 4096) else { return fail("the daemon sent bad JSON") }
            return received(id, message)
        case .closed(let code, let reason):
            if !stopping {
                closedEarly += 1
                return fail("a connection closed during the run (\(code.map(String.init) ?? "no code") \(reason))")
            }
            return []
        case .failed(let why):
            return fail(why)
        }
    }

    private func fail(_ why: String) -> [TransportAction] {
        if failure == nil { failure = why }
        stopping = true
        loop?.stop()
        return []
    }

    private func received(_ id: ConnectionID, _ message: JSON) -> [TransportAction] {
        guard let role = peers[id]?.role else { return [] }
        switch message["type"]?.string ?? "" {
        case "welcome":
            peers[id]!.name = message["session"]?.string ?? ""
            if role == .subscriber { return [send(id, ["type": "subscribe", "tree": .string(tree)])] }
            return markReady(id)
        case "snapshot":
            return markReady(id)
        case "diff":
            let author = message["author"]?.string ?? ""
            let key = "\(author)/\(Int(message["seq"]?.number ?? -1))"
            let now = Self.now()
            guard let sent = sentAt[key] else { return [] }
            let measured = sent >= measureFrom && sent < measureTo
            if role == .subscriber {
                if measured {
                    deliveries.append(now - sent)
                    deliveriesMeasured += 1
                }
            } else if author == peers[id]!.name {
                if measured {
                    roundTrips.append(now - sent)
                    editsMeasured += 1
                }
                peers[id]!.outstanding -= 1
            } else {
                return []
            }
            deliveriesLeft[key, default: 0] -= 1
            if deliveriesLeft[key] == 0 {
                deliveriesLeft[key] = nil
                sentAt[key] = nil
            }
            return role == .writer ? nextEdits(id, now: now) : finishIfDone()
        case "rejected":
            rejected += 1
            peers[id]!.outstanding -= 1
            return nextEdits(id, now: Self.now())
        case "error":
            return fail("the daemon answered with an error: \(message.encoded())")
        default:
            return []
        }
    }

    private func markReady(_ id: ConnectionID) -> [TransportAction] {
        peers[id]!.ready = true
        readyCount += 1
        guard readyCount == peers.count else { return [] }
        let start = Self.now()
        startedAt = start
        measureFrom = start + warmup
        measureTo = measureFrom + duration
        return peers.filter { $0.value.role == .writer }.keys.sorted().flatMap { nextEdits($0, now: start) }
    }

    /// Tops `peer` up to `inFlight` outstanding edits while the run lasts.
    private func nextEdits(_ id: ConnectionID, now: Double) -> [TransportAction] {
        var out: [TransportAction] = []
        guard var peer = peers[id] else { return [] }
        defer { peers[id] = peer }
        while now < measureTo && !stopping && peer.outstanding < inFlight {
            let seq = peer.nextSeq
            peer.nextSeq += 1
            peer.outstanding += 1
            let key = "\(peer.name)/\(seq)"
            sentAt[key] = Self.now()
            deliveriesLeft[key] = subscriberCount + 1
            let leaf = Int(random.next() % UInt64(leaves))
            let value = Int64(random.next() % 1000)
            out.append(
                send(
                    id,
                    [
                        "type": "edit", "tree": .string(tree), "seq": .int(Int64(seq)),
                        "ops": [["op": "setPreference", "node": .string("leaf\(leaf)"), "key": "Total", "value": .int(value)]],
                    ]))
        }
        if out.isEmpty { return finishIfDone() }
        return out
    }

    private func finishIfDone() -> [TransportAction] {
        guard startedAt != nil, Self.now() >= measureTo, sentAt.isEmpty || Self.now() >= measureTo + 10 else { return [] }
        if !stopping {
            stopping = true
            loop?.stop()
        }
        return []
    }

    struct Report {
        var text: String
        var json: JSON
    }

    func report() -> Report {
        func percentile(_ sorted: [Double], _ p: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
        }
        let trips = roundTrips.sorted()
        let delivered = deliveries.sorted()
        let ps: [(String, Double)] = [("p50", 0.5), ("p90", 0.9), ("p99", 0.99), ("p99.9", 0.999), ("max", 1)]
        func line(_ name: String, _ values: [Double]) -> String {
            name + ps.map { String(format: " %@ %.3f ms", $0.0, percentile(values, $0.1) * 1000) }.joined(separator: ",")
        }
        let editsPerSecond = Double(editsMeasured) / duration
        let deliveriesPerSecond = Double(deliveriesMeasured) / duration
        let text = [
            String(format: "edits/s %.0f   diffs delivered/s %.0f   rejected %d", editsPerSecond, deliveriesPerSecond, rejected),
            line("round trip ", trips),
            subscriberCount > 0 ? line("delivery   ", delivered) : "delivery    (no subscribers)",
        ].joined(separator: "\n")
        func stats(_ values: [Double]) -> JSON {
            var o = JSONObject()
            o["count"] = .int(Int64(values.count))
            for (name, p) in ps { o[name + "_ms"] = .double(percentile(values, p) * 1000) }
            return .object(o)
        }
        let json: JSON = [
            "writers": .int(Int64(writerCount)), "subscribers": .int(Int64(subscriberCount)),
            "inFlight": .int(Int64(inFlight)), "duration_s": .double(duration),
            "edits_per_s": .double(editsPerSecond), "deliveries_per_s": .double(deliveriesPerSecond),
            "rejected": .int(Int64(rejected)), "round_trip": stats(trips), "delivery": stats(delivered),
        ]
        return Report(text: text, json: json)
    }
}
