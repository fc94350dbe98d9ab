/// One step of an evaluation, in execution order (PROTOCOL.md, "Trace"), with the nesting `depth` it ran at.
public struct TraceEvent: Sendable, Equatable {
    /// What happened. `modifier` is the index of the modifier whose stage the event concerns (a writer, transform,
    /// background or overlay); `nil` means the node's children fold.
    public enum Kind: Sendable, Equatable {
        /// A stage was computed (not taken from the cache).
        case eval(node: String, key: String, modifier: Int?)
        /// A reduce call; `next` is `nil` when the reducer did not call `nextValue`.
        case reduce(node: String, key: String, modifier: Int?, value: JSON, next: JSON?, result: JSON)
        /// A stage's value was reused from the cache.
        case cached(node: String, key: String, modifier: Int?, value: JSON)
        /// A present value that was never evaluated because `nextValue` was not called for it.
        case skip(node: String, key: String, modifier: Int?)
        /// A reader fired; `value` is `nil` when its content became absent.
        case fire(reader: String, node: String, key: String, value: JSON?)
        /// A step of a program tree's transaction (PROGRAMS.md §7): `action`, `body`, `perform`, `onChange`,
        /// `state`; the object is the event as sent, `e` included.
        case program(JSONObject)
    }

    public var kind: Kind
    /// How many stage computations were under way: a stage's `eval`/`cached` carries the depth of its own
    /// computation (1 for the ones a reader asks for, one more for each stage computed inside another); a `reduce`
    /// that of the stage reducing; a `skip` the depth its operand would have had; a `fire` 0 (docs/engine.md).
    public var depth: Int

    public init(_ kind: Kind, depth: Int) {
        self.kind = kind
        self.depth = depth
    }

    public var json: JSON {
        var o = JSONObject()
        func common(_ e: String, _ node: String, _ key: String, _ modifier: Int?) {
            o["e"] = .string(e)
            o["node"] = .string(node)
            o["key"] = .string(key)
            if let modifier { o["modifier"] = .int(Int64(modifier)) }
        }
        switch kind {
        case .eval(let n, let k, let m):
            common("eval", n, k, m)
        case .reduce(let n, let k, let m, let value, let next, let result):
            common("reduce", n, k, m)
            o["value"] = value
            if let next { o["next"] = next }
            o["nextEvaluated"] = .bool(next != nil)
            o["result"] = result
        case .cached(let n, let k, let m, let value):
            common("cached", n, k, m)
            o["value"] = value
        case .skip(let n, let k, let m):
            common("skip", n, k, m)
        case .fire(let reader, let node, let key, let value):
            o["e"] = "fire"
            o["reader"] = .string(reader)
            o["node"] = .string(node)
            o["key"] = .string(key)
            o["present"] = .bool(value != nil)
            if let value { o["value"] = value }
        case .program(let fields):
            o = fields
        }
        o["depth"] = .int(Int64(depth))
        return .object(o)
    }
}

/// Counts of an evaluation; kept for every batch, traced or not.
public struct TraceSummary: Sendable, Equatable {
    public var evaluated = 0
    public var cached = 0
    public var skipped = 0
    public var reduces = 0

    public init() {}

    public var json: JSON {
        ["evaluated": .int(Int64(evaluated)), "cached": .int(Int64(cached)), "skipped": .int(Int64(skipped)),
         "reduces": .int(Int64(reduces))]
    }
}

/// The events of one evaluation with its summary.
public struct Trace: Sendable, Equatable {
    public var events: [TraceEvent]
    public var summary: TraceSummary

    public init(events: [TraceEvent] = [], summary: TraceSummary = TraceSummary()) {
        self.events = events
        self.summary = summary
    }

    public var json: JSON {
        ["events": .array(events.map(\.json)), "summary": summary.json]
    }

    /// The reduce calls as `(value, next)` pairs, `next == nil` for a call that did not evaluate `nextValue`.
    public var reduceCalls: [(value: JSON, next: JSON?)] {
        events.compactMap {
            if case .reduce(_, _, _, let v, let n, _) = $0.kind { return (v, n) }
            return nil
        }
    }
}
