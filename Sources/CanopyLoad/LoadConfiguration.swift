import CanopyCore
import CanopySupport
import CanopyWebSocket

/// What `canopy load` runs: who connects, what they edit, how fast, and for how long. Built from the command line
/// (or by tests); `validate()` names the flag of the first value that makes no sense.
public struct LoadConfiguration: Sendable {
    /// Subscriber-only connections in total, spread round-robin over the trees.
    public var clients = 10
    /// Connections that edit (and subscribe to their tree); nil: 1, or 0 with `hold`.
    public var writers: Int?
    /// Scratch trees to create (`load-PID-I`); ignored with `tree`.
    public var trees = 1
    /// An existing tree to edit instead of scratch trees.
    public var tree: String?
    /// Leave the scratch trees in place at the end.
    public var keepTrees = false
    public var shape = TreeShape.balanced
    /// Nodes of each scratch tree, the root included.
    public var nodes = 100
    /// Children per inner node of a balanced tree.
    public var fanout = 8
    /// Weights of the ops; nil: `set=100`.
    public var mix: OpMix?
    public var opsPerEdit = 1
    /// Open loop: edit batches per second across all writers. nil: closed loop.
    public var rate: Double?
    /// Closed loop: edits each writer keeps outstanding; nil: 1.
    public var inFlight: Int?
    /// Seconds measured (or held, with `hold`).
    public var duration = 10.0
    /// Seconds run before the measurement window opens.
    public var warmup = 2.0
    /// Subscribers (out of `clients`) that read slowly and resubscribe when the daemon closes them.
    public var slow = 0
    /// Connections opened per second at the start.
    public var connectRate = 2000.0
    /// How the load tool's own loop waits for its connections' events (see `EventLoopKind`).
    public var eventLoop = EventLoopKind.poll
    /// Connect and subscribe the clients, then hold them idle for `duration`.
    public var hold = false
    /// Client name prefix (each connection appends `-wI` / `-cI`); nil: `canopy-load-PID`.
    public var clientName: String?
    public var token: String?
    /// Seconds to wait for the daemon during setup and teardown.
    public var timeout = 30.0
    /// Seed of the op choices (runs with the same seed and the same replies make the same edits).
    public var seed: UInt64 = 42
    /// Swift source: the scratch trees are program trees made from it, driven by events (see `events`).
    public var program: String?
    /// The program's root view (nil: the daemon's default, the view `#Preview` shows).
    public var programView: String?
    /// Send `setText` events to the tree's text fields instead of edits (implied by `program`; with `tree`, an
    /// existing program tree).
    public var events = false

    public static let maxClients = 20_000
    public static let maxWriters = 10_000
    public static let maxTrees = 20_000

    public init() {}

    public var writerCount: Int { writers ?? (hold ? 0 : 1) }
    public var inFlightCount: Int { inFlight ?? 1 }
    public var opMix: OpMix { mix ?? OpMix() }
    public var treeCount: Int { tree == nil ? trees : 1 }
    /// Writers send events to program trees, not edits.
    public var sendsEvents: Bool { events || program != nil }

    /// Throws the first problem, phrased with the flag's name.
    public func validate() throws(LoadError) {
        func check(_ ok: Bool, _ message: String) throws(LoadError) {
            if !ok { throw LoadError(.load, message) }
        }
        try check(
            (0...Self.maxClients).contains(clients),
            "--clients must be between 0 and \(Self.maxClients) (got \(clients))")
        if let writers {
            if hold {
                try check(writers == 0, "--hold connects idle subscribers only: leave out --writers (got \(writers))")
            } else {
                try check(
                    (1...Self.maxWriters).contains(writers),
                    "--writers must be between 1 and \(Self.maxWriters) (got \(writers))")
            }
        }
        try check((1...Self.maxTrees).contains(trees), "--trees must be between 1 and \(Self.maxTrees) (got \(trees))")
        if let tree {
            try check(!tree.isEmpty, "--tree needs a tree id")
            try check(trees == 1, "--tree edits one existing tree: leave out --trees")
            try check(!keepTrees, "--keep-trees applies to scratch trees, not to --tree")
        }
        try check(
            (1...Limits.default.maxNodes).contains(nodes),
            "--nodes must be between 1 and \(Limits.default.maxNodes) (got \(nodes))")
        try check((1...10_000).contains(fanout), "--fanout must be between 1 and 10000 (got \(fanout))")
        if tree == nil && shape == .balanced {
            let depth = LoadTreeModel.balancedDepth(nodes: nodes, fanout: fanout)
            try check(
                depth <= Limits.default.maxDepth,
                "--fanout \(fanout) makes a balanced tree of \(nodes) nodes \(depth) levels deep; the daemon allows "
                    + "\(Limits.default.maxDepth)")
        }
        try check((1...10_000).contains(opsPerEdit), "--ops-per-edit must be between 1 and 10000 (got \(opsPerEdit))")
        if let rate {
            try check(
                rate.isFinite && rate > 0 && rate <= 10_000_000,
                "--rate must be a positive number of edits per second (got \(rate))")
            try check(inFlight == nil, "--rate (open loop) and --in-flight (closed loop) exclude each other")
        }
        if let inFlight {
            try check((1...100_000).contains(inFlight), "--in-flight must be between 1 and 100000 (got \(inFlight))")
        }
        try check(
            duration.isFinite && duration > 0, "--duration must be a positive number of seconds (got \(duration))")
        try check(warmup.isFinite && warmup >= 0, "--warmup must be 0 or more seconds (got \(warmup))")
        try check(
            slow >= 0 && slow <= clients,
            "--slow must be between 0 and --clients (\(clients)): slow readers are some of the clients (got \(slow))")
        try check(
            connectRate.isFinite && connectRate > 0,
            "--connect-rate must be a positive number of connections per second")
        if hold {
            try check(rate == nil && inFlight == nil, "--hold sends no edits: leave out --rate and --in-flight")
            try check(mix == nil, "--hold sends no edits: leave out --mix")
            try check(slow == 0, "--hold keeps the clients idle: leave out --slow")
            try check(clients > 0, "--hold needs --clients > 0")
        }
        try check(!(timeout <= 0), "--timeout must be a positive number of seconds")
        if program != nil {
            try check(tree == nil, "--program creates scratch program trees: leave out --tree (use --events with it)")
        } else {
            try check(programView == nil, "--view names the root view of --program")
            try check(!events || tree != nil, "--events needs --tree (an existing program tree) or --program")
        }
        if sendsEvents {
            try check(mix == nil, "events are setText on text fields: leave out --mix")
            try check(opsPerEdit == 1, "each event is one transaction: leave out --ops-per-edit")
            try check(!hold, "--hold sends nothing: leave out --program and --events")
        }
    }

    /// The options as JSON (the report's `config`).
    public var json: JSON {
        var o: JSONObject = [
            "clients": .int(Int64(clients)), "writers": .int(Int64(writerCount)), "trees": .int(Int64(treeCount)),
        ]
        if let tree {
            o["tree"] = .string(tree)
        } else if program != nil {
            o["program"] = .string(programView ?? "(default view)")
            o["keepTrees"] = .bool(keepTrees)
        } else {
            o["shape"] = .string(shape.rawValue)
            o["nodes"] = .int(Int64(nodes))
            if shape == .balanced { o["fanout"] = .int(Int64(fanout)) }
            o["keepTrees"] = .bool(keepTrees)
        }
        if sendsEvents {
            o["events"] = "setText"
        } else {
            o["mix"] = .string(opMix.description)
            o["opsPerEdit"] = .int(Int64(opsPerEdit))
        }
        if let rate { o["rate"] = .double(rate) } else { o["inFlight"] = .int(Int64(inFlightCount)) }
        o["mode"] = .string(hold ? "hold" : rate == nil ? "closed" : "open")
        o["duration"] = .double(duration)
        o["warmup"] = .double(warmup)
        o["slow"] = .int(Int64(slow))
        o["connectRate"] = .double(connectRate)
        o["eventLoop"] = .string(eventLoop.rawValue)
        return .object(o)
    }
}

extension LoadConfiguration {
    /// `--event-loop`: `poll` or `libuv`.
    public static func eventLoop(parsing text: String) throws(LoadError) -> EventLoopKind {
        guard let kind = EventLoopKind(rawValue: text) else {
            throw LoadError(.load, "--event-loop must be poll or libuv (got \"\(text)\")")
        }
        return kind
    }
}

/// How a scratch tree is laid out (inner nodes read `Total`, leaves write `Total = 1`).
public enum TreeShape: String, Sendable, CaseIterable {
    /// Every inner node has `fanout` children: leaves sit log_fanout(nodes) deep.
    case balanced
    /// The root holds every other node.
    case wide
    /// A chain of up to 200 inner nodes; the leaves hang off its deepest tenth.
    case deep

    public init(parsing text: String) throws(LoadError) {
        guard let shape = TreeShape(rawValue: text) else {
            throw LoadError(.load, "--shape must be one of balanced, wide, deep (got \"\(text)\")")
        }
        self = shape
    }
}

/// The kinds of op an edit batch is made of.
public enum LoadOp: String, Sendable, CaseIterable {
    case set, insert, remove, move
}

/// Relative weights of the op kinds, written `set=90,insert=4,remove=3,move=3`.
public struct OpMix: Sendable, Equatable, CustomStringConvertible {
    public var weights: [LoadOp: Int]

    public init(weights: [LoadOp: Int] = [.set: 100]) { self.weights = weights }

    public init(parsing text: String) throws(LoadError) {
        var weights: [LoadOp: Int] = [:]
        let names = LoadOp.allCases.map(\.rawValue).joined(separator: ", ")
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = pieces[0].trimmingWhitespace
            guard pieces.count == 2 else {
                throw LoadError(
                    .load,
                    "--mix: \"\(part)\" is not OP=WEIGHT (ops: \(names); e.g. set=90,insert=4,remove=3,move=3)")
            }
            guard let op = LoadOp(rawValue: name) else {
                throw LoadError(.load, "--mix: unknown op \"\(name)\" (ops: \(names))")
            }
            guard let weight = Int(pieces[1].trimmingWhitespace), weight >= 0, weight <= 1_000_000 else {
                throw LoadError(
                    .load,
                    "--mix: the weight of \(name) must be a whole number from 0 to 1000000 (got \"\(pieces[1])\")")
            }
            guard weights[op] == nil else { throw LoadError(.load, "--mix: \(name) is given twice") }
            weights[op] = weight
        }
        guard weights.values.contains(where: { $0 > 0 }) else {
            throw LoadError(.load, "--mix: at least one weight must be positive (got \"\(text)\")")
        }
        self.weights = weights
    }

    public func weight(_ op: LoadOp) -> Int { weights[op] ?? 0 }

    public var total: Int { LoadOp.allCases.reduce(0) { $0 + weight($1) } }

    /// The op a uniform draw in 0..<total stands for.
    public func op(at draw: Int) -> LoadOp {
        var left = draw
        for op in LoadOp.allCases {
            left -= weight(op)
            if left < 0 { return op }
        }
        return .set
    }

    public var description: String {
        LoadOp.allCases.filter { weight($0) > 0 }.map { "\($0.rawValue)=\(weight($0))" }.joined(separator: ",")
    }
}

extension Substring {
    fileprivate var trimmingWhitespace: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

/// A load run that cannot start or could not finish: a bad option, an unreachable daemon, a daemon error.
public typealias LoadError = CanopyFailure
