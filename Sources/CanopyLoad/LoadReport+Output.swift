import CanopyCore

extension LoadReport {
    /// The report for scripts: one JSON object (see docs/cli.md).
    public var json: JSON {
        func counts(_ c: CodeCounts) -> JSON {
            .object(JSONObject(c.sorted { $0.key < $1.key }.map { (key: $0.key, value: JSON.int(Int64($0.value))) }))
        }
        return [
            "edits": [
                "accepted": .int(Int64(accepted)), "perSecond": .double(Self.rounded(editsPerSecond)),
                "rejected": counts(rejected),
            ],
            "diffs": ["delivered": .int(Int64(delivered)), "perSecond": .double(Self.rounded(diffsPerSecond))],
            "ack": ack.json,
            "delivery": delivery.json,
            "disconnects": counts(disconnects),
            "connections": [
                "opened": .int(Int64(opened)), "failed": .int(Int64(failed)), "peak": .int(Int64(peak)),
                "connectedAtEnd": .int(Int64(connectedAtEnd)),
            ],
            "totals": [
                "sent": .int(Int64(totalSent)), "accepted": .int(Int64(totalAccepted)),
                "rejected": .int(Int64(totalRejected)), "diffs": .int(Int64(totalDiffs)),
                "unanswered": .int(Int64(unanswered)), "setupBatches": .int(Int64(setupBatches)),
            ],
            "trees": [
                "count": .int(Int64(trees.count)), "nodes": .int(Int64(nodesPerTree)),
                "ids": .array(trees.prefix(10).map { .string($0) }),
            ],
            "config": configuration.json,
            "window": ["seconds": .double(Self.rounded(windowSeconds))],
        ]
    }

    private static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

    /// The report for people: a table.
    public var text: String {
        let c = configuration
        var lines: [String] = []
        func row(_ label: String, _ cells: [String]) {
            lines.append(label.padding(18) + cells.map { $0.leftPadding(11) }.joined())
        }
        func codes(_ counts: CodeCounts) -> String {
            counts.isEmpty
                ? "none" : counts.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", ")
        }
        if c.hold {
            lines.append("held \(connectedAtEnd) of \(c.clients) client(s) for \(String(windowSeconds, decimals: 1)) s")
        } else {
            lines.append(
                "window \(String(windowSeconds, decimals: 1)) s after \(LoadRunner.number(c.warmup)) s warm-up")
            row("", ["count", "per second"])
            let what = c.sendsEvents ? "events" : "edits"
            row("\(what) accepted", ["\(accepted)", String(editsPerSecond, decimals: 1)])
            row("\(what) rejected", ["\(rejected.values.reduce(0, +))", ""])
            row("diffs delivered", ["\(delivered)", String(diffsPerSecond, decimals: 1)])
            lines.append("")
            row("latency (ms)", ["p50", "p90", "p99", "p99.9", "max", "count"])
            for (name, stats) in [("ack", ack), ("delivery", delivery)] {
                let ps = LatencyStats.shown.map { String(stats.milliseconds(atPercentile: $0.percentile), decimals: 3) }
                row(name, ps + [String(stats.maxMilliseconds, decimals: 3), "\(stats.count)"])
            }
            lines.append("")
            lines.append("rejected by code".padding(18) + codes(rejected))
        }
        lines.append("disconnects".padding(18) + codes(disconnects))
        lines.append(
            "connections".padding(18)
                + "opened \(opened), failed \(failed), peak \(peak), open at end \(connectedAtEnd)")
        if !c.hold {
            lines.append(
                "whole run".padding(18)
                    + "sent \(totalSent), accepted \(totalAccepted), rejected \(totalRejected), diffs \(totalDiffs)"
                    + (unanswered > 0 ? ", unanswered \(unanswered)" : ""))
        }
        return lines.joined(separator: "\n")
    }
}

extension String {
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }

    fileprivate func leftPadding(_ width: Int) -> String {
        count >= width ? " " + self : String(repeating: " ", count: width - count) + self
    }
}
