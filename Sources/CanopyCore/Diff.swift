/// A reader's observed value: its value after a batch, or a change it reports.
public struct ReaderValue: Sendable, Equatable {
    /// `NODE#INDEX`: the node id and the reader's position in that node's modifiers.
    public var reader: String
    public var node: String
    public var key: String
    /// `nil` when the reader's content is absent.
    public var value: JSON?

    public init(reader: String, node: String, key: String, value: JSON?) {
        self.reader = reader
        self.node = node
        self.key = key
        self.value = value
    }

    public var present: Bool { value != nil }

    public var json: JSON {
        var o: JSONObject = ["reader": .string(reader), "node": .string(node), "key": .string(key),
                             "present": .bool(value != nil)]
        if let value { o["value"] = value }
        return .object(o)
    }
}

/// The result of one accepted batch: what the daemon broadcasts, minus the envelope (tree, version, author, seq).
public struct Diff: Sendable, Equatable {
    /// The ops as applied, normalized: positions resolved to indexes, nodes and declarations in full form.
    public var ops: [Op]
    /// The readers that fired, in tree order.
    public var changes: [ReaderValue]
    /// The evaluation trace, when it was asked for.
    public var trace: Trace?
    /// Counts of the evaluation, always kept.
    public var summary: TraceSummary

    public init(ops: [Op], changes: [ReaderValue], trace: Trace?, summary: TraceSummary) {
        self.ops = ops
        self.changes = changes
        self.trace = trace
        self.summary = summary
    }
}
