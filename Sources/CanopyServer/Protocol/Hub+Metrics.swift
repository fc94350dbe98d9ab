/// What the Hub counts for `/metrics`, on the service thread: plain integers and one histogram, a few increments per
/// edit batch.
struct HubCounters {
    /// Batches whose diff was released (after their durable commit).
    var editsAccepted = 0
    /// `rejected` messages sent.
    var editsRejected = 0
    /// Resubmissions of an accepted (client, seq) answered with the original diff marked `duplicate`.
    var editsDuplicate = 0
    /// Ops (as sent) in accepted batches.
    var ops = 0
    /// Diff messages of released batches queued to subscribers and authors (one per copy).
    var diffsDelivered = 0
    /// Time to apply and evaluate each accepted batch.
    var evaluation = DurationHistogram()

    /// Appends the Hub's metrics: trees and nodes now, the counters, and the store's.
    func write(
        into exposition: inout MetricsExposition, trees: Int, nodes: Int, pending: Int, store: StoreStatistics?
    ) {
        exposition.gauge("canopy_trees", "Trees held.", trees)
        exposition.gauge("canopy_nodes", "Nodes in all trees.", nodes)
        exposition.counter(
            "canopy_edits_total",
            "Edit batches: accepted (diff released after the durable commit), rejected (rejection sent), duplicate "
                + "(an accepted batch resubmitted, answered with its original diff).",
            label: "result", [("accepted", editsAccepted), ("rejected", editsRejected), ("duplicate", editsDuplicate)])
        exposition.counter("canopy_ops_total", "Ops in accepted edit batches.", ops)
        exposition.counter(
            "canopy_diffs_delivered_total",
            "Diff messages of accepted batches queued to sessions (each subscriber's copy and the author's "
                + "acknowledgement count once).",
            diffsDelivered)
        exposition.histogram(
            "canopy_evaluation_seconds", "Time to apply and incrementally evaluate one accepted edit batch.",
            evaluation)
        // Without a store (tests) these stay 0: nothing waits for durability.
        exposition.counter("canopy_store_commits_total", "Store transactions committed.", store?.commits ?? 0)
        exposition.counter(
            "canopy_store_commit_seconds_total", "Time spent in committed store transactions (fsync included).",
            Double(store?.commitNanoseconds ?? 0) / 1e9)
        exposition.gauge("canopy_store_pending", "Edit batches applied and waiting for their durable commit.", pending)
    }
}

extension Hub {
    /// Without tokens anyone may read `/metrics`; with tokens, only a request bearing one of them (any role): the
    /// metrics reveal activity, and a daemon with tokens may listen beyond loopback.
    public func allowsMetrics(bearerToken: String?) -> Bool {
        guard !configuration.tokens.isEmpty else { return true }
        return bearerToken.flatMap(grant(of:)) != nil
    }

    /// The first configured grant of `token`, for `hello` and `/metrics`. Every token is compared in full, so the
    /// time taken does not tell how much of a guess was right, or which token it was near.
    func grant(of token: String) -> TokenGrant? {
        var found: TokenGrant?
        for grant in configuration.tokens {
            let equal = Hub.constantTimeEqual(grant.token, token)
            if equal && found == nil { found = grant }
        }
        return found
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        var difference = x.count ^ y.count
        for i in 0..<max(x.count, y.count) {
            difference |= Int((i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0))
        }
        return difference == 0
    }
}
