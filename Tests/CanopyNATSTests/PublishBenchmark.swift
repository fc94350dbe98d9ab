import CanopyNATS
import Foundation
import Synchronization
import Testing

/// Publish → acknowledgement latency on the R3 loopback cluster with `sync_interval: always`, the way an owner
/// commits: each publish carries a message ID and the expected last subject sequence, and a tree has one publish in
/// flight at a time; "in flight" runs several trees (subjects) at once. Not a test: run it with
///
///     CANOPY_NATS_BENCH=1 swift test --filter PublishBenchmark
///
/// (docs/cluster.md has the numbers). CANOPY_NATS_BENCH_COUNT sets the publishes per run (default 2000).
extension JetStreamClusterTests {
    @Test("benchmark: publish → ack latency, one at a time and with several in flight",
          .enabled(if: ProcessInfo.processInfo.environment["CANOPY_NATS_BENCH"] == "1"))
    func publishBenchmark() throws {
        let count = Int(ProcessInfo.processInfo.environment["CANOPY_NATS_BENCH_COUNT"] ?? "") ?? 2000
        let cluster = try TestCluster()
        defer { cluster.shutdown() }
        let jetStream = try JetStream(connect(cluster, name: "bench"))
        try treeStream(jetStream, cluster: cluster, name: "BENCH")
        let payload = [UInt8](repeating: 0x61, count: 256)  // a small edit batch
        let leader = try jetStream.streamInfo("BENCH").leader
        print("bench: \(count) publishes of \(payload.count) B per run, R3 file storage, sync_interval: always, "
              + "stream leader \(leader), client on \(jetStream.connection.connectedURL ?? "?")")

        // One at a time: the next publish starts when the previous one is acknowledged.
        // A .retryable answer (10164, see PublishError) is retried unchanged, as an owner would; its latency counts
        // from the first attempt.
        var latencies: [Double] = []
        var last: UInt64 = 0
        var retries = 0
        let started = ContinuousClock.now
        for version in 1...count {
            let before = ContinuousClock.now
            let (ack, attempts) = try publishUntilAcknowledged(
                jetStream, stream: "BENCH", subject: "tree.bench", payload: payload, msgID: "tree.bench/v\(version)",
                expected: last, timeout: .seconds(5))
            latencies.append(milliseconds(from: before, to: .now))
            last = ack.sequence
            retries += attempts - 1
        }
        report("1 in flight", latencies, retries: retries, elapsed: milliseconds(from: started, to: .now))

        for inFlight in [4, 16] { try inFlightRun(jetStream, inFlight: inFlight, count: count, payload: payload) }
    }

    /// `inFlight` trees publish at once, each its next batch as soon as its previous one is acknowledged.
    private func inFlightRun(_ jetStream: JetStream, inFlight: Int, count: Int, payload: [UInt8]) throws {
        struct State {
            var latencies: [Double] = []
            var lastSequence: [UInt64]
            var published = 0
            var retries = 0
            var failures: [String] = []
        }
        let state = Mutex(State(lastSequence: Array(repeating: 0, count: inFlight)))
        let done = DispatchSemaphore(value: 0)
        let started = ContinuousClock.now

        @Sendable func publishNext(_ tree: Int) {
            let version = state.withLock { s -> Int? in
                guard s.published < count else { return nil }
                s.published += 1
                return s.published
            }
            guard let version else {
                done.signal()
                return
            }
            let expected = state.withLock { $0.lastSequence[tree] }
            attempt(tree, version, expected, since: ContinuousClock.now)
        }

        @Sendable func attempt(_ tree: Int, _ version: Int, _ expected: UInt64, since before: ContinuousClock.Instant) {
            do {
                try jetStream.publishAsync(
                    "tree.flight\(inFlight).\(tree)", payload: payload, msgID: "flight\(inFlight)/\(version)",
                    expectedLastSubjectSequence: expected
                ) { result in
                    switch result {
                    case .success(let ack):
                        let latency = milliseconds(from: before, to: .now)
                        state.withLock {
                            $0.latencies.append(latency)
                            $0.lastSequence[tree] = ack.sequence
                        }
                        publishNext(tree)
                    case .failure(let error) where error.isRetryable:
                        state.withLock { $0.retries += 1 }
                        attempt(tree, version, expected, since: before)
                    case .failure(let error):
                        state.withLock { $0.failures.append("\(error)") }
                        done.signal()
                    }
                }
            } catch {
                state.withLock { $0.failures.append("\(error)") }
                done.signal()
            }
        }

        for tree in 0..<inFlight { publishNext(tree) }
        for _ in 0..<inFlight { #expect(done.wait(timeout: .now() + 120) == .success) }
        let result = state.withLock { $0 }
        #expect(result.failures.isEmpty, "\(result.failures.prefix(3))")
        report("\(inFlight) in flight", result.latencies, retries: result.retries,
               elapsed: milliseconds(from: started, to: .now))
    }

    private func report(_ label: String, _ latencies: [Double], retries: Int, elapsed: Double) {
        let sorted = latencies.sorted()
        func at(_ q: Double) -> String {
            guard !sorted.isEmpty else { return "-" }
            return String(format: "%.2f", sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))])
        }
        let rate = Double(sorted.count) / (elapsed / 1000)
        print("bench: \(label): publish → ack ms p50 \(at(0.5)) p90 \(at(0.9)) p99 \(at(0.99)) max \(at(1.0)); "
              + String(format: "%.0f acks/s", rate) + ", \(retries) retries")
    }
}
