import CanopyCore
import Foundation
import Testing

@testable import CanopyServer
@testable import CanopyWebSocket
@testable import CanopySupport

/// `GET /metrics` against a daemon in-process: after a known sequence of sessions and edits every counter shows exactly
/// what happened, the exposition parses as Prometheus text format 0.0.4, slow readers and failed hellos are counted by
/// reason, and with tokens the endpoint wants one of them as a bearer token.
@Suite struct MetricsTests {
    typealias Fixture = DaemonSocketTests.Fixture

    /// Three clients, one tree, two subscribers, five accepted batches (seven ops, one of them an insert) and one
    /// rejected, then a subscriber leaves. Every message the clients read is counted, so the sent totals are exact.
    @Test func aKnownSequenceShowsExactlyInTheMetrics() throws {
        let daemon = try DaemonUnderTest()
        defer { daemon.stop() }
        var traffic = Traffic()
        let author = try daemon.connect()
        let first = try daemon.connect()
        let second = try daemon.connect()

        #expect(try traffic.request(author, Fixture.create("t"))["type"] == "created")
        #expect(try traffic.request(first, ["type": "subscribe", "tree": "t"])["type"] == "snapshot")
        #expect(try traffic.next(first)["type"] == "clients")
        #expect(try traffic.request(second, ["type": "subscribe", "tree": "t"])["type"] == "snapshot")
        #expect(try traffic.next(second)["type"] == "clients")
        #expect(try traffic.next(first)["type"] == "clients")

        let batches: [[JSON]] = [
            [Fixture.setS("a", 5)],
            [Fixture.setS("a", 6), Fixture.setS("c", 7)],
            [["op": "insert", "parent": "root", "node": Fixture.leaf("x")]],
            [Fixture.setS("c", 8), ["op": "setProps", "node": "root", "props": ["k": 1]]],
            [Fixture.setS("a", 9)],
        ]
        for (index, ops) in batches.enumerated() {
            let diff = try traffic.request(author, Fixture.edit("t", seq: .int(Int64(index + 1)), ops))
            #expect(diff["type"] == "diff")
            for subscriber in [first, second] { #expect(try traffic.next(subscriber)["version"] == diff["version"]) }
        }
        let rejected = try traffic.request(author, Fixture.edit("t", seq: 99, [Fixture.setS("nowhere", 1)]))
        #expect(rejected["type"] == "rejected")

        try second.webSocket.sendClose(code: 1000)
        #expect(try second.nextEvent() == .close(code: 1000, reason: ""))
        #expect(try traffic.next(first)["type"] == "clients")  // the departure has been handled

        let response = try #require(try TestHTTP.get(port: daemon.port, path: "/metrics"))
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
        let metrics = try Exposition(response.text)

        #expect(metrics["canopy_connections"] == 2)
        #expect(metrics["canopy_connections_total"] == 3)
        #expect(metrics.disconnects == ["client": 1, "slow": 0, "too_large": 0, "unauthorized": 0, "shutdown": 0])
        #expect(metrics["canopy_trees"] == 1)
        #expect(metrics["canopy_nodes"] == 5)  // root, a, b, c and the inserted x
        #expect(metrics["canopy_edits_total{result=\"accepted\"}"] == 5)
        #expect(metrics["canopy_edits_total{result=\"rejected\"}"] == 1)
        #expect(metrics["canopy_edits_total{result=\"duplicate\"}"] == 0)
        #expect(metrics["canopy_ops_total"] == Double(batches.map(\.count).reduce(0, +)))
        // Each batch: one copy per subscriber and the acknowledgement to its author, who is not subscribed.
        #expect(metrics["canopy_diffs_delivered_total"] == 15)
        #expect(metrics["canopy_messages_received_total"] == Double(traffic.sentMessages))
        #expect(metrics["canopy_bytes_received_total"] == Double(traffic.sentBytes))
        #expect(metrics["canopy_messages_sent_total"] == Double(traffic.receivedMessages))
        #expect(metrics["canopy_bytes_sent_total"] == Double(traffic.receivedBytes))
        #expect(metrics["canopy_queue_bytes"] == 0)
        #expect(metrics["canopy_queue_bytes_max"] == 0)
        #expect(metrics["canopy_store_commits_total"] == 0)  // no store here
        #expect(metrics["canopy_store_pending"] == 0)

        let histogram = metrics.histogram("canopy_evaluation_seconds")
        #expect(histogram.count == 5)
        #expect(
            histogram.buckets.map { $0.bound } == [
                1e-5, 3e-5, 1e-4, 3e-4, 1e-3, 3e-3, 0.01, 0.03, 0.1, 0.3, 1, .infinity,
            ])
        #expect(zip(histogram.buckets, histogram.buckets.dropFirst()).allSatisfy { $0.count <= $1.count })
        #expect(histogram.buckets.last?.count == histogram.count)
        #expect(histogram.sum > 0 && histogram.sum < 5)

        #expect((metrics["process_cpu_seconds_total"] ?? 0) > 0)
        #expect((metrics["process_resident_memory_bytes"] ?? 0) > 1_000_000)
        let started = metrics["process_start_time_seconds"] ?? 0
        let now = Date().timeIntervalSince1970
        #expect(started > now - 24 * 3600 && started <= now + 1)
    }

    /// Every metric the other tools rely on is there from the start, with its type.
    @Test func everyMetricIsExposedWithItsTypeBeforeAnythingHappened() throws {
        let daemon = try DaemonUnderTest()
        defer { daemon.stop() }
        let metrics = try Exposition(try #require(try TestHTTP.get(port: daemon.port, path: "/metrics")).text)
        let expected: [String: String] = [
            "canopy_connections": "gauge", "canopy_connections_total": "counter",
            "canopy_disconnects_total": "counter", "canopy_trees": "gauge", "canopy_nodes": "gauge",
            "canopy_messages_received_total": "counter", "canopy_bytes_received_total": "counter",
            "canopy_messages_sent_total": "counter", "canopy_bytes_sent_total": "counter",
            "canopy_edits_total": "counter", "canopy_ops_total": "counter", "canopy_diffs_delivered_total": "counter",
            "canopy_preview_contexts_total": "counter",
            "canopy_evaluation_seconds": "histogram", "canopy_queue_bytes": "gauge", "canopy_queue_bytes_max": "gauge",
            "canopy_store_commits_total": "counter", "canopy_store_commit_seconds_total": "counter",
            "canopy_store_pending": "gauge", "process_cpu_seconds_total": "counter",
            "process_resident_memory_bytes": "gauge", "process_start_time_seconds": "gauge",
        ]
        #expect(metrics.types == expected)
        #expect(metrics.disconnects == ["client": 0, "slow": 0, "too_large": 0, "unauthorized": 0, "shutdown": 0])
        #expect(metrics.histogram("canopy_evaluation_seconds").buckets.allSatisfy { $0.count == 0 })
    }

    /// With the durable store, commits and their time are counted, and nothing is left waiting once acknowledged.
    @Test func storeCommitsAreCountedWithTheirTime() throws {
        let daemon = try DurableDaemon()
        defer { daemon.stop() }
        let client = try daemon.connect()
        #expect(try client.request(Fixture.create("t"))["type"] == "created")
        for round in 1...3 {
            #expect(
                try client.request(Fixture.edit("t", seq: .int(Int64(round)), [Fixture.setS("a", round)]))["type"]
                    == "diff")
        }
        let metrics = try Exposition(try #require(try TestHTTP.get(port: daemon.daemon.port, path: "/metrics")).text)
        #expect(metrics["canopy_edits_total{result=\"accepted\"}"] == 3)
        #expect((metrics["canopy_store_commits_total"] ?? 0) >= 1)  // at least one group; at most one per write
        #expect((metrics["canopy_store_commits_total"] ?? 0) <= 4)
        #expect((metrics["canopy_store_commit_seconds_total"] ?? 0) > 0)
        #expect(metrics["canopy_store_pending"] == 0)
    }

    /// The 1008 close of a subscriber whose queue overflowed counts as `slow`; a failed hello as `unauthorized`; an
    /// oversized message as `too_large`.
    @Test func closesAreCountedByReason() throws {
        let daemon = try DaemonUnderTest(service: {
            DaemonSocketTests.smallQueue(&$0)
            $0.maxMessageBytes = 64 << 10  // over the slow-subscriber edits (32 KiB)
        })
        defer { daemon.stop() }
        #expect(try Exposition(daemon.metricsText()).disconnects["slow"] == 0)
        _ = try DaemonSocketTests.overflowASlowSubscriber(daemon)  // its client is gone once this returns
        #expect(eventually { (try? Exposition(daemon.metricsText()).disconnects["slow"]) == 1 })

        let big = try daemon.connect()
        try big.send(text: String(repeating: " ", count: (64 << 10) + 1))
        #expect(try big.nextEvent() == .close(code: 1009, reason: "message too big"))
        try big.webSocket.sendClose(code: 1009)
        #expect(eventually { (try? Exposition(daemon.metricsText()).disconnects["too_large"]) == 1 })

        let tokens = try DaemonUnderTest(hub: { $0.tokens = DaemonSocketTests.grants })
        defer { tokens.stop() }
        let stranger = try tokens.connect()
        #expect(try stranger.request(["type": "listTrees"])["code"] == "unauthorized")
        #expect(try stranger.nextEvent() == .close(code: 1008, reason: "unauthorized"))
        try stranger.webSocket.sendClose(code: 1008)
        #expect(
            eventually {
                (try? Exposition(tokens.metricsText(bearer: "v-token")).disconnects)
                    == ["client": 0, "slow": 0, "too_large": 0, "unauthorized": 1, "shutdown": 0]
            })
    }

    /// `stop()` closes the open sessions with 1001: they count as `shutdown` (read after the loop finished).
    @Test func sessionsOpenAtStopCountAsShutdown() throws {
        let daemon = try DaemonUnderTest()
        let clients = [try daemon.connect(), try daemon.connect()]
        for client in clients { #expect(try client.answersListTrees()) }
        daemon.stop()
        #expect(daemon.loop.counters.disconnects[DisconnectReason.shutdown.rawValue] == 2)
        #expect(daemon.loop.counters.disconnects.reduce(0, +) == 2)
    }

    /// With tokens, `/metrics` wants `Authorization: Bearer` with any configured token (of any role); without one,
    /// or with a wrong one, it answers 401 with a Bearer challenge.
    @Test func withTokensMetricsNeedABearerToken() throws {
        let daemon = try DaemonUnderTest(hub: { $0.tokens = DaemonSocketTests.grants })
        defer { daemon.stop() }
        let cases: [([(String, String)], Int)] = [
            ([], 401), ([("Authorization", "Bearer guess")], 401), ([("Authorization", "Bearer v-toke")], 401),
            ([("Authorization", "Basic v-token")], 401), ([("Authorization", "v-token")], 401),
            ([("Authorization", "Bearer v-token")], 200), ([("Authorization", "bearer e-token")], 200),
            ([("Authorization", "Bearer a-token")], 200),
        ]
        for (headers, status) in cases {
            let response = try #require(try TestHTTP.get(port: daemon.port, path: "/metrics", headers: headers))
            #expect(response.status == status, "\(headers)")
            if status == 401 {
                #expect(response.headers["www-authenticate"] == "Bearer realm=\"canopyd\"", "\(headers)")
                #expect(!response.text.contains("canopy_"), "\(headers)")
            } else {
                #expect(try Exposition(response.text)["canopy_connections"] == 0, "\(headers)")
            }
        }
        #expect(try TestHTTP.get(port: daemon.port, path: "/healthz")?.status == 200)  // still open
    }

    @Test func theBearerTokenIsTakenFromTheHeader() {
        #expect(ServiceLoop.bearerToken("Bearer abc") == "abc")
        #expect(ServiceLoop.bearerToken("BEARER  abc ") == "abc")
        #expect(ServiceLoop.bearerToken("Bearer") == nil)
        #expect(ServiceLoop.bearerToken("Bearer   ") == nil)
        #expect(ServiceLoop.bearerToken("Basic abc") == nil)
        #expect(ServiceLoop.bearerToken(nil) == nil)
        #expect(ProtocolMachine.constantTimeEqual("abc", "abc"))
        #expect(!ProtocolMachine.constantTimeEqual("abc", "abd"))
        #expect(!ProtocolMachine.constantTimeEqual("abc", "ab"))
        #expect(!ProtocolMachine.constantTimeEqual("", "a"))
    }

    @Test func theHistogramCountsEachDurationInTheFirstBucketThatHoldsIt() throws {
        var histogram = DurationHistogram()
        for nanoseconds: UInt64 in [0, 10_000, 10_001, 999_999, 1_000_000_000, 1_000_000_001, 5_000_000_000] {
            histogram.observe(nanoseconds: nanoseconds)
        }
        #expect(histogram.counts == [2, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 2])
        #expect(histogram.count == 7)
        var exposition = MetricsExposition()
        exposition.histogram("h", "A test histogram.", histogram)
        let parsed = try Exposition(exposition.text).histogram("h")
        #expect(parsed.buckets.map { $0.count } == [2, 3, 3, 3, 4, 4, 4, 4, 4, 4, 5, 7])
        #expect(parsed.count == 7)
        #expect(abs(parsed.sum - 7.001020001) < 1e-9)
    }
}

/// Counts what the test's clients send and read, to compare with the daemon's message and byte counters.
struct Traffic {
    var sentMessages = 0
    var sentBytes = 0
    var receivedMessages = 0
    var receivedBytes = 0

    mutating func request(_ client: DaemonClient, _ message: JSON) throws -> JSON {
        let text = message.encoded()
        try client.send(text: text)
        sentMessages += 1
        sentBytes += text.utf8.count
        return try next(client)
    }

    mutating func next(_ client: DaemonClient) throws -> JSON {
        let text = try client.nextText()
        receivedMessages += 1
        receivedBytes += text.utf8.count
        return try JSONParser.parse(text)
    }
}

/// A parsed Prometheus text exposition. Parsing checks the format: every line is `# HELP name text`,
/// `# TYPE name type` or `name{labels} value`; each metric has one HELP and one TYPE line before its samples; a
/// sample belongs to the metric typed last (histogram samples with `_bucket`, `_sum`, `_count`); no sample repeats.
struct Exposition {
    struct ParseError: Error, CustomStringConvertible {
        var description: String
    }

    /// Sample values by `name{labels}` (as written).
    private(set) var samples: [String: Double] = [:]
    /// Metric types by name.
    private(set) var types: [String: String] = [:]

    init(_ text: String) throws {
        var helped = Set<String>()
        var current: (name: String, type: String)?
        func fail(_ why: String, _ line: Substring) -> ParseError { ParseError(description: "\(why): \(line)") }
        guard text.hasSuffix("\n") else { throw ParseError(description: "no final newline") }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            if line.hasPrefix("# HELP ") {
                let parts = line.dropFirst(7).split(separator: " ", maxSplits: 1)
                guard parts.count == 2, helped.insert(String(parts[0])).inserted else {
                    throw fail("bad or repeated HELP", line)
                }
            } else if line.hasPrefix("# TYPE ") {
                let parts = line.dropFirst(7).split(separator: " ")
                let name = String(parts.first ?? "")
                guard parts.count == 2, ["counter", "gauge", "histogram"].contains(parts[1]), helped.contains(name),
                    types[name] == nil
                else { throw fail("bad or repeated TYPE (or no HELP before it)", line) }
                types[name] = String(parts[1])
                current = (name, String(parts[1]))
            } else {
                let space = try line.lastIndex(of: " ").unwrap(fail("no value", line))
                let key = String(line[..<space])
                let value = try Self.value(line[line.index(after: space)...]).unwrap(fail("bad value", line))
                let name = String(key.prefix { $0 != "{" })
                guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" }), !name.isEmpty,
                    key == name || (key.hasPrefix(name + "{") && key.hasSuffix("}"))
                else { throw fail("bad sample name", line) }
                guard let current,
                    name == current.name
                        || (current.type == "histogram"
                            && ["_bucket", "_sum", "_count"].contains { name == current.name + $0 })
                else { throw fail("sample of no typed metric", line) }
                guard samples.updateValue(value, forKey: key) == nil else { throw fail("repeated sample", line) }
            }
        }
    }

    static func value(_ text: Substring) -> Double? {
        switch text {
        case "+Inf": .infinity
        case "-Inf": -.infinity
        case "NaN": .nan
        default: Double(text)
        }
    }

    subscript(_ key: String) -> Double? { samples[key] }

    /// `canopy_disconnects_total` by reason.
    var disconnects: [String: Int] {
        var out: [String: Int] = [:]
        let prefix = "canopy_disconnects_total{reason=\""
        for (key, value) in samples where key.hasPrefix(prefix) {
            out[String(key.dropFirst(prefix.count).dropLast(2))] = Int(value)
        }
        return out
    }

    /// A histogram's buckets in order of their bounds, its sum and its count.
    func histogram(_ name: String) -> (buckets: [(bound: Double, count: Double)], sum: Double, count: Double) {
        let prefix = name + "_bucket{le=\""
        let buckets = samples.compactMap { key, value -> (bound: Double, count: Double)? in
            guard key.hasPrefix(prefix), let bound = Self.value(key.dropFirst(prefix.count).dropLast(2)) else {
                return nil
            }
            return (bound, value)
        }
        return (buckets.sorted { $0.bound < $1.bound }, samples[name + "_sum"] ?? -1, samples[name + "_count"] ?? -1)
    }
}

extension Optional {
    fileprivate func unwrap(_ error: @autoclosure () -> some Error) throws -> Wrapped {
        guard let self else { throw error() }
        return self
    }
}

extension DaemonUnderTest {
    /// The daemon's `/metrics` text (with a bearer token if given); empty if it did not answer 200.
    func metricsText(bearer: String? = nil) throws -> String {
        let headers = bearer.map { [("Authorization", "Bearer \($0)")] } ?? []
        let response = try TestHTTP.get(port: port, path: "/metrics", headers: headers)
        return response?.status == 200 ? response?.text ?? "" : ""
    }
}
