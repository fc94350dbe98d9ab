/// Cluster mode's settings (`cluster` in the configuration file; docs/cluster.md).
public struct ClusterSettings: Sendable, Equatable {
    /// NATS server URLs; empty: a single daemon with its embedded store (the default).
    public var servers: [String] = []
    /// This daemon's name in the cluster: prefixes its sessions' names (`d1/s17`) and names it as a tree's owner.
    public var name = ""
    /// How long a tree's lease lasts without renewal: an owner that died is replaced after about this long.
    public var leaseSeconds = 3
    /// Replicas of the streams and the lease bucket (3 on a cluster of three or more NATS servers).
    public var replicas = 3

    public init() {}

    public var enabled: Bool { !servers.isEmpty }
}
