/// A `/metrics` response being written in Prometheus's text exposition format 0.0.4: per metric a `# HELP` and a
/// `# TYPE` line, then its samples (`name{labels} value`). Built per request, on the service thread.
public struct MetricsExposition: Sendable {
    /// The content type of format 0.0.4.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// The exposition so far.
    public private(set) var text = ""

    public init() {}

    /// A counter (only ever grows while the process runs).
    public mutating func counter(_ name: String, _ help: String, _ value: Int) {
        header(name, help, "counter")
        sample(name, value: String(value))
    }

    /// A counter of seconds (or another fractional unit).
    public mutating func counter(_ name: String, _ help: String, _ value: Double) {
        header(name, help, "counter")
        sample(name, value: Self.format(value))
    }

    /// A counter with one label: one sample per `(label value, count)`, in the order given.
    public mutating func counter(_ name: String, _ help: String, label: String, _ samples: [(String, Int)]) {
        header(name, help, "counter")
        for (value, count) in samples { sample(name, labels: "\(label)=\"\(value)\"", value: String(count)) }
    }

    /// A gauge (a value now).
    public mutating func gauge(_ name: String, _ help: String, _ value: Int) {
        header(name, help, "gauge")
        sample(name, value: String(value))
    }

    public mutating func gauge(_ name: String, _ help: String, _ value: Double) {
        header(name, help, "gauge")
        sample(name, value: Self.format(value))
    }

    /// A histogram of durations in seconds: cumulative `_bucket{le=…}` samples ending with `+Inf`, `_sum`, `_count`.
    public mutating func histogram(_ name: String, _ help: String, _ histogram: DurationHistogram) {
        header(name, help, "histogram")
        var cumulative: UInt64 = 0
        for (index, bound) in DurationHistogram.bounds.enumerated() {
            cumulative += histogram.counts[index]
            sample(name + "_bucket", labels: "le=\"\(bound.label)\"", value: String(cumulative))
        }
        sample(name + "_bucket", labels: "le=\"+Inf\"", value: String(histogram.count))
        sample(name + "_sum", value: Self.format(Double(histogram.sumNanoseconds) / 1e9))
        sample(name + "_count", value: String(histogram.count))
    }

    private mutating func header(_ name: String, _ help: String, _ type: String) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
    }

    private mutating func sample(_ name: String, labels: String? = nil, value: String) {
        text += name
        if let labels { text += "{\(labels)}" }
        text += " \(value)\n"
    }

    /// A float as Prometheus parses it (Swift's shortest round-tripping form, e.g. `0.25`, `1e-05`).
    static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        return value.description
    }
}
