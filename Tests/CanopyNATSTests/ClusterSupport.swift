import CanopyNATS
import Foundation
import Testing

/// Waits until `condition` holds, polling; fails with `what` at the deadline. Never sleeps and hopes.
func eventually(_ what: String, timeout: Duration = .seconds(20), poll: Duration = .milliseconds(20),
                _ condition: () throws -> Bool) throws
{
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while clock.now < deadline {
        if try condition() { return }
        Thread.sleep(forTimeInterval: Double(poll.components.attoseconds) / 1e18 + Double(poll.components.seconds))
    }
    throw TestCluster.Failure("not within \(timeout): \(what)")
}

/// Connects to every server of the cluster (the client picks one), or to one server only.
func connect(_ cluster: TestCluster, server: Int? = nil, name: String = "canopy-test",
             jetStreamTimeout: Duration = .seconds(5)) throws -> NATSConnection
{
    let urls = server.map { [cluster.servers[$0].url] } ?? cluster.urls
    return try NATSConnection(NATSConnectionOptions(servers: urls, name: name, jetStreamTimeout: jetStreamTimeout))
}

/// The tree log of the tests: one stream, one subject per tree, R3 on file storage. Returns once a publish to
/// the stream is acknowledged through every server of the cluster (a probe message on `tree.probe.<server>`), so
/// that the test's own publishes meet a stream whose leader's interest has reached every server.
func treeStream(_ jetStream: JetStream, cluster: TestCluster, name: String = "TREES",
                subjects: [String] = ["tree.>"]) throws
{
    let config = StreamConfig(name: name, subjects: subjects, replicas: 3, storage: .file,
                              duplicateWindow: .seconds(120))
    try untilNotTransient("create stream \(name)") { try jetStream.ensureStream(config) }
    let prefix = subjects[0].hasSuffix(">") ? String(subjects[0].dropLast()) : subjects[0] + "."
    for index in cluster.servers.indices {
        let probe = try JetStream(connect(cluster, server: index, name: "probe"))
        _ = try publishUntilAcknowledged(probe, stream: name, subject: prefix + "probe.\(index)",
                                         payload: bytes("probe"), msgID: "probe/\(index)", expected: nil,
                                         timeout: .seconds(1), deadline: .seconds(30))
    }
}

/// Calls `body` until it does not fail with a transient error: a JetStream API call in the first moments of a
/// cluster or after a server died (meta leader election: timeouts; peers not yet known to the meta leader: "no
/// suitable peers", 10005; a new stream without a leader yet).
@discardableResult
func untilNotTransient<R>(_ what: String, timeout: Duration = .seconds(30), _ body: () throws -> R) throws -> R {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while true {
        do { return try body() } catch let error as NATSError
            where clock.now < deadline
            && (error.isTransient || error.jetStreamCode == 10005 || error.detail.contains("no leader"))
        {
            Thread.sleep(forTimeInterval: 0.05)
        }
    }
}

/// Every message of a subject from a sequence, retrying a transient failure to start the reader: a reader is a
/// consumer the meta leader assigns, which can time out during a meta election (and, rarely, on a healthy cluster).
func readAll(_ jetStream: JetStream, stream: String, subject: String, from sequence: UInt64) throws -> [NATSMessage] {
    try untilNotTransient("read \(subject) of \(stream)") {
        try jetStream.messages(stream: stream, subject: subject, from: sequence)
    }
}

func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

/// Milliseconds between two instants of the continuous clock.
func milliseconds(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant) -> Double {
    let (seconds, attoseconds) = (end - start).components
    return Double(seconds) * 1000 + Double(attoseconds) / 1e15
}

/// Publishes like an owner daemon would: retries a `.retryable` failure unchanged (same message ID, same expected
/// sequence) until it is acknowledged, and after an ambiguous failure accepts a `.fenced` answer whose cause is
/// its own earlier attempt (the subject's last message carries its message ID). Returns the ack and the attempts.
func publishUntilAcknowledged(
    _ jetStream: JetStream, stream: String, subject: String, payload: [UInt8], headers: NATSHeaders = NATSHeaders(),
    msgID: String, expected: UInt64?, timeout: Duration, deadline: Duration = .seconds(60)
) throws -> (ack: PubAck, attempts: Int) {
    let clock = ContinuousClock()
    let end = clock.now + deadline
    var attempts = 0
    var ambiguous = false
    while true {
        attempts += 1
        let result = Result { () throws(PublishError) -> PubAck in
            try jetStream.publish(subject, payload: payload, headers: headers, msgID: msgID,
                                  expectedLastSubjectSequence: expected, timeout: timeout)
        }
        switch result {
        case .success(let ack):
            return (ack, attempts)
        case .failure(let failure) where failure.isRetryable:
            ambiguous = true
            guard clock.now < end else { throw failure }
            Thread.sleep(forTimeInterval: 0.02)
        case .failure(let failure) where failure.isFenced && ambiguous:
            // An earlier attempt may have been stored after all: then it is the subject's last message.
            let last = try jetStream.lastMessage(stream: stream, subject: subject)
            guard let last, last.headers["Nats-Msg-Id"] == msgID else { throw failure }
            return (PubAck(stream: stream, sequence: last.sequence, duplicate: true), attempts)
        case .failure(let failure):
            throw failure
        }
    }
}

/// Waits until a write to the bucket goes through this connection's server (a probe key): a new bucket's leader
/// interest takes a moment to reach every server.
func writable(_ bucket: KeyValue, probe: String) throws {
    try eventually("bucket \(bucket.bucket) writable") {
        switch Result(catching: { () throws(KeyValueError) -> UInt64 in try bucket.create(probe, value: []) }) {
        case .success, .failure(.exists): return true
        case .failure(.retryable): return false
        case .failure(let error): throw error
        }
    }
}
