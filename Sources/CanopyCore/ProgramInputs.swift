import Synchronization

/// What a program-tree transaction reads that is not in the source (PROGRAMS.md §2, "Sandbox"): the time it happens
/// at and a seed for its random draws. The caller (the daemon) gives them; the diff records them, so a restart, a
/// replay or another daemon computes the same values. `{"time":seconds since 1970,"seed":integer below 2^53}`.
public struct ProgramInputs: Sendable, Equatable {
    /// Seconds since 00:00:00 UTC on 1 January 1970, what `Date()` reads.
    public var time: Double
    /// Below 2^53, so it crosses JSON (and JavaScript) exactly.
    public var seed: UInt64

    public static let seedLimit: UInt64 = 1 << 53

    public init(time: Double, seed: UInt64) {
        self.time = time
        self.seed = seed % Self.seedLimit
    }

    public var json: JSON { ["time": .double(time), "seed": .int(Int64(seed))] }

    public init(json: JSON) throws(CanopyError) {
        guard let time = json["time"]?.number, time.isFinite, case .int(let seed)? = json["seed"], seed >= 0,
            UInt64(seed) < Self.seedLimit
        else {
            throw CanopyError(.badMessage, "inputs need a finite \"time\" and an integer \"seed\" in 0..<2^53")
        }
        self.init(time: time, seed: UInt64(seed))
    }
}

/// The inputs one view body ran with, kept while its view exists so that running the body again when the tree is
/// restored (a restart, a rollback, a cluster follower) sees the same time and draws: `{"node","time","seed"}`, or
/// `{"node","dropped":true}` in a diff when its view went away.
public struct RecordedInputs: Sendable, Equatable {
    /// The view instance's node id; "" for the root's construction (`#Preview`, preview modifiers).
    public var node: String
    public var inputs: ProgramInputs
    public var dropped: Bool

    public init(node: String, inputs: ProgramInputs, dropped: Bool = false) {
        self.node = node
        self.inputs = inputs
        self.dropped = dropped
    }

    public var json: JSON {
        if dropped { return ["node": .string(node), "dropped": true] }
        return ["node": .string(node), "time": .double(inputs.time), "seed": .int(Int64(inputs.seed))]
    }

    public init(json: JSON) throws(CanopyError) {
        guard let node = json["node"]?.string else { throw CanopyError(.badMessage, "recorded inputs need a \"node\"") }
        if json["dropped"]?.bool == true {
            self.init(node: node, inputs: ProgramInputs(time: 0, seed: 0), dropped: true)
        } else {
            self.init(node: node, inputs: try ProgramInputs(json: json))
        }
    }
}

/// Where a program tree's transactions get their inputs: the daemon's wall clock and a random seed, or, in tests
/// and tools, `SteppedInputs`.
public protocol ProgramInputSource: Sendable {
    /// The inputs of the next transaction.
    func next() -> ProgramInputs
}

/// Deterministic inputs: `start` (2026-01-01 00:00:00 UTC unless given) plus one second per transaction, seeds from
/// SplitMix64. What a program tree uses when its caller gives no source.
public final class SteppedInputs: ProgramInputSource {
    private let state: Mutex<(time: Double, generator: SplitMix64)>

    public init(start: Double = 1_767_225_600, seed: UInt64 = 0) {
        state = Mutex((start, SplitMix64(seed: seed)))
    }

    public func next() -> ProgramInputs {
        state.withLock { s in
            let inputs = ProgramInputs(time: s.time, seed: s.generator.next() >> 11)
            s.time += 1
            return inputs
        }
    }
}
