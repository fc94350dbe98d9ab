import CanopyCore
import CanopyScript

/// The time and random draws of a program tree's code (PROGRAMS.md §2, "Sandbox"). Each transaction gets its inputs
/// from the caller's source; handlers and closures draw from one generator seeded with them. A body draws from a
/// generator of its own, seeded from that one at its first draw, and its inputs are recorded by node: running the
/// body again to restore the tree (a restart, a rollback, a follower) uses the recorded ones, so it produces what it
/// produced then. A preview modifier's shared context draws from a seed of its own and has no time.
final class TreeInputs: InputSource {
    /// Who is drawing: the transaction's code, a body (by node; its generator once it drew), a shared context.
    private enum Frame {
        case transaction
        case body(node: String, inputs: ProgramInputs?, generator: SplitMix64)
        case shared(FixedInputs)
    }

    let source: any ProgramInputSource
    private(set) var transaction = ProgramInputs(time: 0, seed: 0)
    private var generator = SplitMix64(seed: 0)
    private var frames: [Frame] = []
    /// The inputs each body last ran with, by node.
    private(set) var recorded: [String: ProgramInputs] = [:]
    /// Bodies use their recorded inputs (the tree is being rebuilt from what is stored), not new ones.
    var replaying = false
    /// Nodes whose record changed in this transaction, in order, with the record they had before.
    private var undo: [(node: String, before: ProgramInputs?)] = []

    init(source: any ProgramInputSource, recorded: [RecordedInputs]) {
        self.source = source
        for r in recorded where !r.dropped { self.recorded[r.node] = r.inputs }
    }

    /// Starts a transaction with the source's next inputs.
    func begin() {
        transaction = source.next()
        generator = SplitMix64(seed: transaction.seed)
        frames = []
        undo = []
    }

    /// Puts every record back as it was before the transaction.
    func rollBack() {
        for (node, before) in undo.reversed() { recorded[node] = before }
        undo = []
    }

    /// The records the transaction changed: new inputs, or `dropped` for views that went away.
    var changes: [RecordedInputs] {
        var seen: Set<String> = []
        var out: [RecordedInputs] = []
        for (node, _) in undo where seen.insert(node).inserted {
            if let r = recorded[node] {
                out.append(RecordedInputs(node: node, inputs: r))
            } else {
                out.append(RecordedInputs(node: node, inputs: ProgramInputs(time: 0, seed: 0), dropped: true))
            }
        }
        return out
    }

    var all: [RecordedInputs] {
        recorded.keys.sorted().map { RecordedInputs(node: $0, inputs: recorded[$0]!) }
    }

    /// Runs `body` as the code of the body at `node` (the root's construction: "").
    func body<T>(_ node: String, _ body: () throws(ScriptFault) -> T) throws(ScriptFault) -> T {
        frames.append(.body(node: node, inputs: nil, generator: SplitMix64(seed: 0)))
        defer { frames.removeLast() }
        return try body()
    }

    /// Runs `body` as a preview modifier's shared context: draws from `seed`, no time.
    func shared<T>(seed: UInt64, _ body: () throws(ScriptFault) -> T) throws(ScriptFault) -> T {
        frames.append(
            .shared(
                FixedInputs(
                    time: nil, seed: seed,
                    refusal: "a preview modifier's shared context cannot read: every tree of the program shares it")))
        defer { frames.removeLast() }
        return try body()
    }

    /// The view at `node` went away: its record goes too.
    func drop(_ node: String) {
        guard recorded[node] != nil else { return }
        undo.append((node, recorded[node]))
        recorded[node] = nil
    }

    /// Drops the records of nodes `keep` does not accept (a new source's tree).
    func prune(keeping keep: (String) -> Bool) {
        for node in recorded.keys.sorted() where !keep(node) { drop(node) }
    }

    // MARK: InputSource

    func time(_ m: Machine) throws(ScriptFault) -> Double {
        switch frames.last {
        case .shared(let fixed)?: return try fixed.time(m)
        case .body?: return bodyInputs().time
        case .transaction?, nil: return transaction.time
        }
    }

    func randomWord(_ m: Machine) throws(ScriptFault) -> UInt64 {
        switch frames.last {
        case .shared(let fixed)?: return try fixed.randomWord(m)
        case .body?:
            _ = bodyInputs()
            guard case .body(let node, let inputs, var g) = frames[frames.count - 1] else { return 0 }
            let word = g.next()
            frames[frames.count - 1] = .body(node: node, inputs: inputs, generator: g)
            return word
        case .transaction?, nil: return generator.next()
        }
    }

    /// The running body's inputs, chosen at its first draw: its recorded ones when replaying, else the
    /// transaction's time and a seed drawn from the transaction's generator, recorded.
    private func bodyInputs() -> ProgramInputs {
        guard case .body(let node, let chosen, _) = frames[frames.count - 1] else { return transaction }
        if let chosen { return chosen }
        let inputs: ProgramInputs
        if replaying, let r = recorded[node] {
            inputs = r
        } else {
            inputs = ProgramInputs(time: transaction.time, seed: generator.next() >> 11)
            undo.append((node, recorded[node]))
            recorded[node] = inputs
        }
        frames[frames.count - 1] = .body(node: node, inputs: inputs, generator: SplitMix64(seed: inputs.seed))
        return inputs
    }
}
