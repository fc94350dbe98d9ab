import CanopyNATS

/// What the lease keeper saw of the bucket's leases through its watch: each key's holder and when its last write was
/// seen (monotonic seconds). It tells which trees' leases may be free, so that only those are asked about: a lease
/// whose holder renewed it within the lease time is not. Without a watch every lease may be free.
struct LeaseSightings {
    private var keys: [String: (holder: [UInt8]?, seen: Double)] = [:]
    /// True while a watch feeds these sightings.
    private(set) var watching = false

    /// A watch was opened: what it reads from now on is complete.
    mutating func started() { watching = true }

    /// The watch failed: what was seen may be stale.
    mutating func lost() {
        watching = false
        keys = [:]
    }

    mutating func saw(_ change: KeyValueChange, at now: Double) {
        keys[change.key] = (change.value, now)
    }

    /// Whether `tree`'s lease may be free for the daemon `name`: no watch, no write of it seen, a delete, an empty
    /// value, this daemon's own name (a previous life's), or no renewal seen for `leaseSeconds` (it expires then).
    func mayBeFree(_ tree: String, name: [UInt8], leaseSeconds: Double, now: Double) -> Bool {
        guard watching, let key = keys[tree], let holder = key.holder, !holder.isEmpty else { return true }
        return holder == name || now - key.seen >= leaseSeconds
    }
}
