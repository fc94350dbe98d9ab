import CanopyNATS

/// What the lease keeper saw of the bucket's leases through its watch: each key's holder and when its last write was
/// seen (monotonic seconds). It tells which trees' leases may be free, and from when, so that only those are asked
/// about, when they may have become free: a lease whose holder renewed it within the lease time is not. Without a
/// watch every lease may be free.
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

    /// From when `tree`'s lease may be free for the daemon `name` (monotonic seconds): `-infinity` — at any time —
    /// with no watch, no write of it seen, or this daemon's own name (a previous life's); when it was seen deleted or
    /// emptied; else when its last renewal seen is `leaseSeconds` old (it expires then: in the future while its
    /// holder renews it).
    func freeFrom(_ tree: String, name: [UInt8], leaseSeconds: Double) -> Double {
        guard watching, let key = keys[tree] else { return -.infinity }
        guard let holder = key.holder, !holder.isEmpty else { return key.seen }
        return holder == name ? -.infinity : key.seen + leaseSeconds
    }
}
