import CanopyNATS
import Foundation
import Synchronization
import Testing

/// kill -9 of the stream's leader while an owner publishes acknowledged batches (in the serialized suite: the
/// time to resume should not be measured while another cluster runs).
extension JetStreamClusterTests {
    @Test("kill -9 of the stream leader while publishing: every acknowledged message survives, publishing resumes")
    func killStreamLeader() throws {
        let cluster = try TestCluster()
        defer { cluster.shutdown() }
        // A short publish timeout: an unanswered publish is retried after 1 s rather than 5.
        let jetStream = try JetStream(connect(cluster, name: "owner", jetStreamTimeout: .seconds(1)))
        try treeStream(jetStream, cluster: cluster, name: "FAILOVER", subjects: ["tree.>"])
        let leaderName = try jetStream.streamInfo("FAILOVER").leader
        let leader = try #require(cluster.index(ofServerNamed: leaderName), "stream leader \(leaderName)")

        let before = 100
        let after = 100
        var acknowledged: [(version: Int, sequence: UInt64)] = []
        var killedAt: ContinuousClock.Instant?
        var resumedAt: ContinuousClock.Instant?
        var retries = 0
        for version in 1...(before + after) {
            if version == before + 1 {
                cluster.kill9(leader)
                killedAt = .now
            }
            let (ack, attempts) = try publishUntilAcknowledged(
                jetStream, stream: "FAILOVER", subject: "tree.f", payload: bytes("batch \(version)"),
                headers: ["Canopy-Version": "\(version)"], msgID: "tree.f/v\(version)",
                expected: acknowledged.last?.sequence ?? 0, timeout: .seconds(1))
            retries += attempts - 1
            if version == before + 1 { resumedAt = .now }
            acknowledged.append((version, ack.sequence))
        }
        let resume = milliseconds(from: try #require(killedAt), to: try #require(resumedAt))
        let newLeader = try jetStream.streamInfo("FAILOVER").leader
        print("failover: killed stream leader \(leaderName) (kill -9); publishing resumed after \(Int(resume)) ms "
              + "(\(retries) retries), new leader \(newLeader)")
        #expect(newLeader != leaderName && !newLeader.isEmpty)

        // Every acknowledged batch is there, once, in order, with its payload and header. (A reader is a consumer,
        // which the meta leader assigns: if the killed server led the meta group too, that takes its own election.)
        let stored = try readAll(jetStream, stream: "FAILOVER", subject: "tree.f", from: 1)
        print("failover: read back \(Int(milliseconds(from: try #require(killedAt), to: .now))) ms after the kill")
        #expect(stored.count == before + after)
        #expect(stored.map(\.sequence) == acknowledged.map(\.sequence))
        #expect(stored.map { $0.headers["Canopy-Version"] } == acknowledged.map { "\($0.version)" })
        #expect(stored.map { text($0.payload) } == acknowledged.map { "batch \($0.version)" })

        // The killed server comes back, catches up, and the stream is whole on it too.
        try cluster.restart(leader)
        try eventually("every replica of the stream is current again") {
            let info = try jetStream.streamInfo("FAILOVER")
            return info.replicas.count == 2 && info.replicas.allSatisfy { $0.current && !$0.offline }
        }
    }
}

extension JetStreamClusterTests {
    @Test("connection events: kill -9 of the client's server reports disconnected, then reconnected elsewhere")
    func connectionEvents() throws {
        let cluster = try TestCluster()
        defer { cluster.shutdown() }
        let events = Mutex<[NATSConnectionEvent]>([])
        let connection = try NATSConnection(NATSConnectionOptions(servers: cluster.urls, name: "events") { event in
            events.withLock { $0.append(event) }
        })
        let url = try #require(connection.connectedURL)
        let server = try #require(cluster.servers.firstIndex { $0.url == url }, "connected to \(url)")
        cluster.kill9(server)
        try eventually("disconnected, then reconnected to another server") {
            events.withLock { $0.count >= 2 } && connection.isConnected
        }
        let seen = events.withLock { $0 }
        #expect(seen.first == .disconnected)
        guard case .reconnected(let other) = seen[1] else {
            Issue.record("expected .reconnected after .disconnected: \(seen)")
            return
        }
        #expect(other != url && cluster.urls.contains(other))
        #expect(connection.connectedURL == other)
        connection.close()
        try eventually("closed is reported last") { events.withLock { $0.last == .closed } }
        #expect(connection.isClosed)
    }
}
