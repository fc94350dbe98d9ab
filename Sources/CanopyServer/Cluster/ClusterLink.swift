import CanopyCore
import CanopyNATS
import CanopyProtocol
import CanopySupport
import CanopyWebSocket
import Foundation
import Dispatch
import Logging
import Synchronization

/// A daemon's part of a cluster (docs/cluster.md): its NATS connection, the tree stream it publishes to as an owner
/// and reads as a follower, the leases, forwarded batches and snapshots. The runner hands it the machine's writes
/// (`persist`), forwarded batches and snapshots; what comes back is fed to the machine on the service thread.
///
/// Threads: the state below `Service thread` is touched on the service thread only; the reader and the lease keeper
/// run on threads of their own and share `shared`; NATS calls that block run on `io` or `forwarding`.
final class ClusterLink: @unchecked Sendable {
    let settings: ClusterSettings
    /// This process among all the daemons that ever published: its name and a number drawn at start.
    let instance: String
    let connection: NATSConnection
    let jetStream: JetStream
    let leases: KeyValue
    let logger: Logger
    /// Set by `start`: the runner whose machine this link feeds, and how to run a job on the service thread.
    private(set) weak var runner: ProtocolRunner?
    private(set) var post: (@Sendable (@escaping @Sendable () -> [TransportAction]) -> Void)?

    /// What the reader, the lease keeper and the service thread share.
    struct Shared {
        /// Trees the machine holds (the lease keeper tries to own them).
        var held: Set<String> = []
        /// The stream sequence of the last tree-stream message the machine was fed.
        var position: UInt64 = 0
        /// Leases this daemon holds: their revision and when they were last renewed.
        var owned: [String: (revision: UInt64, renewed: Double)] = [:]
        /// Leases whose renewal is under way (one at a time per lease: each expects the previous one's revision).
        var renewing: Set<String> = []
        var stopped = false
    }
    let shared = Mutex(Shared())

    // Service thread
    struct TreeLink {
        /// The stream sequence of the machine's durable version of the tree (what its next batch or deletion
        /// expects as the subject's last): set only by what the machine holds, so a daemon whose replica is behind
        /// the subject — deposed, or refusing a batch — is fenced, never accepted on top of a history it lacks.
        var durableSequence: UInt64 = 0
        /// The sequence of the subject's last deletion (0: none): a creation of the id expects it.
        var deletedAt: UInt64 = 0
        /// The sequence of the current life's creation (0: none known); snapshots carry it.
        var created: UInt64 = 0
        /// A publish is under way (one at a time per tree: each expects the previous one's sequence).
        var busy = false
        /// The highest sequence JetStream acknowledged to this daemon on the subject.
        var acknowledged: UInt64 = 0
        /// The message ID of the publish under way.
        var inFlightID: String?
        /// Where each version of the tree's current life is in the stream (history reads).
        var versions = VersionIndex()
        /// The machine's writes to publish, in order; the first is under way while `busy`.
        var queue: [(ticket: CommitTicket, write: PersistWrite)] = []
    }
    var trees: [String: TreeLink] = [:]
    /// Forwarded batches this daemon, as an owner, answers: their request by the session the machine has for them.
    var answering: [SessionID: NATSRequest] = [:]
    var nextForwardedSession: SessionID = 1 << 62
    var responders: [String: Responder] = [:]

    /// Blocking NATS calls off the service thread: a creation's lease, snapshots, lease releases.
    let io = DispatchQueue(label: "canopyd.cluster.io")
    /// Forwarded batches waiting for their owner's answer (each blocks a thread).
    let forwarding = DispatchQueue(label: "canopyd.cluster.forwards", attributes: .concurrent)

    /// A publish answered `retryable` is tried again every `retryPause` until it has taken `publishGiveUpSeconds`.
    static let retryPause = DispatchTimeInterval.milliseconds(25)
    static let publishGiveUpSeconds = 10.0

    /// Connects (trying every server for `connectSeconds`) and makes sure the streams and the lease bucket exist.
    init(settings: ClusterSettings, logger: Logger, connectSeconds: Double = 30) throws(CanopyFailure) {
        self.settings = settings
        self.logger = logger
        var random = SystemRandomNumberGenerator()
        instance = "\(settings.name)#\(String(random.next() as UInt64, radix: 36))"
        let options = NATSConnectionOptions(servers: settings.servers, name: "canopyd \(settings.name)")
        let deadline = ProtocolRunner.monotonicSeconds() + connectSeconds
        connection = try Self.retrying("connect to the NATS servers \(settings.servers) (cluster.servers)", until: deadline) {
            () throws(NATSError) in try NATSConnection(options)
        }
        do throws(NATSError) {
            jetStream = try JetStream(connection)
        } catch {
            throw CanopyFailure(.start, "JetStream: \(error.description)")
        }
        leases = try Self.retrying("create the lease bucket on the NATS servers", until: deadline) { [jetStream, settings] () throws(NATSError) in
            try jetStream.keyValue(
                KeyValueConfig(
                    bucket: ClusterNames.leaseBucket, replicas: settings.replicas,
                    ttl: .seconds(settings.leaseSeconds)))
        }
        for (stream, subjects) in [
            (ClusterNames.treeStream, ClusterNames.treeSubjects),
            (ClusterNames.snapshotStream, ClusterNames.snapshotSubjects),
        ] {
            _ = try Self.retrying("create stream \(stream) on the NATS servers", until: deadline) { [jetStream, settings] () throws(NATSError) in
                try jetStream.ensureStream(
                    StreamConfig(name: stream, subjects: [subjects], replicas: settings.replicas))
            }
        }
    }

    /// Runs `body` until it succeeds or `deadline` passed (servers still starting, a cluster just started that
    /// refuses placements for a moment); then fails with "cannot `what`" and the last error.
    static func retrying<T>(_ what: String, until deadline: Double, _ body: () throws(NATSError) -> T)
        throws(CanopyFailure) -> T
    {
        while true {
            do throws(NATSError) {
                return try body()
            } catch {
                guard ProtocolRunner.monotonicSeconds() < deadline else {
                    throw CanopyFailure(.start, "cannot \(what): \(error.description)")
                }
                usleep(250_000)
            }
        }
    }

    /// Starts feeding `runner`'s machine: the reader from the message after `position` (what `load` read) and the
    /// lease keeper.
    func start(runner: ProtocolRunner, post: @escaping @Sendable (@escaping @Sendable () -> [TransportAction]) -> Void,
               loaded: ClusterLoad)
    {
        self.runner = runner
        self.post = post
        for (id, sequence) in loaded.durableSequences { trees[id, default: TreeLink()].durableSequence = sequence }
        for (id, sequence) in loaded.deletions { trees[id, default: TreeLink()].deletedAt = sequence }
        for (id, sequence) in loaded.created { trees[id, default: TreeLink()].created = sequence }
        for (id, index) in loaded.versions { trees[id, default: TreeLink()].versions = index }
        shared.withLock {
            $0.held = Set(loaded.records.map(\.id))
            $0.position = loaded.position
        }
        let reader = Thread { [self] in readStream(from: loaded.position + 1) }
        reader.name = "canopyd.cluster.reader"
        reader.start()
        let renewer = Thread { [self] in renewLeasesUntilStopped() }
        renewer.name = "canopyd.cluster.renewer"
        renewer.start()
        let keeper = Thread { [self] in keepLeases() }
        keeper.name = "canopyd.cluster.leases"
        keeper.start()
    }

    /// Stops the reader and the lease keeper and releases this daemon's leases (a clean stop hands trees over at
    /// once instead of after the lease time).
    func stop() {
        let owned = shared.withLock { state in
            state.stopped = true
            return state.owned
        }
        for (tree, lease) in owned { try? leases.delete(tree, revision: lease.revision) }
        for responder in responders.values { responder.stop() }
        connection.close()
        jetStream.failPendingPublishes()
    }

    /// Feeds the machine on the service thread (call there).
    func feed(_ input: (inout ProtocolMachine, Double) -> [ProtocolAction]) -> [TransportAction] {
        runner?.feed(input) ?? []
    }
}
