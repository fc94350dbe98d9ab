import CanopySupport

extension ProtocolRunner {
    /// The trees, edits, deliveries and store metrics. Walks the trees: meant for a scrape every few seconds.
    public func writeMetrics(into exposition: inout MetricsExposition) {
        let (trees, nodes, pending) = machine.statistics
        let c = machine.counters
        exposition.gauge("canopy_trees", "Trees held.", trees)
        exposition.gauge("canopy_nodes", "Nodes in all trees.", nodes)
        exposition.counter(
            "canopy_edits_total",
            "Edit batches: accepted (diff released after the durable commit), rejected (rejection sent), duplicate "
                + "(an accepted batch resubmitted, answered with its original diff).",
            label: "result",
            [("accepted", c.editsAccepted), ("rejected", c.editsRejected), ("duplicate", c.editsDuplicate)])
        exposition.counter("canopy_ops_total", "Ops in accepted edit batches.", c.ops)
        exposition.counter(
            "canopy_preview_contexts_total",
            "Preview modifiers' shared contexts of program trees started: computed, or reused from an earlier tree.",
            label: "result", [("computed", c.previewContextsComputed), ("reused", c.previewContextsReused)])
        exposition.counter(
            "canopy_diffs_delivered_total",
            "Diff messages of accepted batches queued to sessions (each subscriber's copy and the author's "
                + "acknowledgement count once).",
            c.diffsDelivered)
        exposition.histogram(
            "canopy_evaluation_seconds",
            "Time the protocol machine took for one applied edit batch (validate, apply, evaluate, encode).", evaluation
        )
        let statistics = storeStatistics
        // Without a store (tests) these stay 0: nothing waits for durability.
        exposition.counter("canopy_store_commits_total", "Store transactions committed.", statistics?.commits ?? 0)
        exposition.counter(
            "canopy_store_commit_seconds_total", "Time spent in committed store transactions (fsync included).",
            Double(statistics?.commitNanoseconds ?? 0) / 1e9)
        exposition.gauge("canopy_store_pending", "Edit batches applied and waiting for their durable commit.", pending)
    }
}
