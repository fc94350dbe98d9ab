import CanopyCore
import Histogram

/// A latency distribution in microseconds (HdrHistogram, 3 significant digits).
public struct LatencyStats: Sendable {
    private(set) var histogram = Histogram<UInt64>(numberOfSignificantValueDigits: .three)

    public init() {}

    public mutating func record(nanoseconds: UInt64) {
        histogram.record(max(1, nanoseconds / 1000))
    }

    mutating func reset() { histogram.reset() }

    public var count: UInt64 { histogram.totalCount }

    /// The value at `percentile` (0–100) in milliseconds; 0 when nothing was recorded.
    public func milliseconds(atPercentile percentile: Double) -> Double {
        count == 0 ? 0 : Double(histogram.valueAtPercentile(percentile)) / 1000
    }

    public var maxMilliseconds: Double { count == 0 ? 0 : Double(histogram.max) / 1000 }

    /// The percentiles the report shows: name, percentile.
    public static let shown: [(name: String, percentile: Double)] = [
        ("p50", 50), ("p90", 90), ("p99", 99), ("p999", 99.9),
    ]

    /// `{"p50":ms,"p90":…,"p99":…,"p999":…,"max":…,"count":…}`.
    public var json: JSON {
        var o = JSONObject()
        for (name, p) in Self.shown { o[name] = .double(Self.rounded(milliseconds(atPercentile: p))) }
        o["max"] = .double(Self.rounded(maxMilliseconds))
        o["count"] = .int(Int64(count))
        return .object(o)
    }

    static func rounded(_ ms: Double) -> Double { (ms * 1000).rounded() / 1000 }
}

/// Counts keyed by a code (rejections by error code, disconnects by close code).
public typealias CodeCounts = [String: Int]

/// What a load run measured. The measurement window holds the edits whose (scheduled) send time falls after the
/// warm-up and before its end; `totals` counts the whole run, for comparison with what the daemon saw.
public struct LoadReport: Sendable {
    public var configuration: LoadConfiguration
    /// Seconds the window lasted (the configured duration unless the run was interrupted).
    public var windowSeconds = 0.0
    /// Edits of the window the daemon accepted (the author got its diff).
    public var accepted = 0
    public var rejected: CodeCounts = [:]
    /// Diffs of the window's edits received by the full-speed connections (authors included).
    public var delivered = 0
    /// Send (or scheduled send, in the open loop) → the author's diff.
    public var ack = LatencyStats()
    /// Send → the diff at each other full-speed subscriber of the tree.
    public var delivery = LatencyStats()
    /// Connections closed by the daemon or lost, by close code (`none`: closed without a code).
    public var disconnects: CodeCounts = [:]
    public var opened = 0
    public var failed = 0
    public var peak = 0
    /// Connections open when the run ended (with `--hold`: held to the end).
    public var connectedAtEnd = 0
    /// Whole run: edit batches sent, accepted, rejected; diffs received by every connection (slow readers too).
    public var totalSent = 0
    public var totalAccepted = 0
    public var totalRejected = 0
    public var totalDiffs = 0
    /// Edit batches that created the scratch trees (not in the totals above; the daemon counts them).
    public var setupBatches = 0
    /// Edits sent whose answer never came (their connection closed, or the drain timed out).
    public var unanswered = 0
    public var trees: [String] = []
    public var nodesPerTree = 0

    public var editsPerSecond: Double { windowSeconds > 0 ? Double(accepted) / windowSeconds : 0 }
    public var diffsPerSecond: Double { windowSeconds > 0 ? Double(delivered) / windowSeconds : 0 }
}
