/// Durations counted into fixed buckets, for a Prometheus histogram in seconds. Observing is a few integer
/// comparisons and increments (no allocation): cheap enough for once per edit batch.
public struct DurationHistogram: Sendable {
    /// An upper bound: in nanoseconds to compare against, and as the `le` label shows it (in seconds).
    struct Bound: Sendable {
        var nanoseconds: UInt64
        var label: String
    }

    /// 10 µs to 1 s in steps of about ×3; above the last one only `+Inf` counts.
    static let bounds: [Bound] = [
        Bound(nanoseconds: 10_000, label: "1e-05"), Bound(nanoseconds: 30_000, label: "3e-05"),
        Bound(nanoseconds: 100_000, label: "0.0001"), Bound(nanoseconds: 300_000, label: "0.0003"),
        Bound(nanoseconds: 1_000_000, label: "0.001"), Bound(nanoseconds: 3_000_000, label: "0.003"),
        Bound(nanoseconds: 10_000_000, label: "0.01"), Bound(nanoseconds: 30_000_000, label: "0.03"),
        Bound(nanoseconds: 100_000_000, label: "0.1"), Bound(nanoseconds: 300_000_000, label: "0.3"),
        Bound(nanoseconds: 1_000_000_000, label: "1"),
    ]

    /// Observations per bucket, not cumulative: `counts[i]` is over `bounds[i - 1]` and at most `bounds[i]`; the last
    /// entry counts those over every bound.
    private(set) var counts = [UInt64](repeating: 0, count: DurationHistogram.bounds.count + 1)
    public private(set) var count: UInt64 = 0
    private(set) var sumNanoseconds: UInt64 = 0

    public init() {}

    public mutating func observe(nanoseconds: UInt64) {
        var index = 0
        let bounds = Self.bounds
        while index < bounds.count && nanoseconds > bounds[index].nanoseconds { index += 1 }
        counts[index] += 1
        count += 1
        sumNanoseconds &+= nanoseconds
    }
}
