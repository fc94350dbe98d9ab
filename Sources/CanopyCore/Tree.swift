/// A view tree with its key declarations and its incremental preference evaluation.
///
/// `apply` takes a batch of ops atomically and returns the batch's `Diff`: the normalized ops and the readers that
/// fired. A value type: copies are cheap until one of them is edited.
public struct Tree: Sendable {
    var store: NodeStore
    var evaluator = Evaluator()
    /// Number of batches applied; the tree as created is version 0.
    public private(set) var version = 0

    /// Creates a tree; every reader receives its initial value (see `readers`). `version` is the version the
    /// tree starts at (a tree restored from a snapshot continues its numbering). `compiler` compiles Swift keys
    /// (`{"key","swift"}`) given here or declared later; a fault of Swift code in the first evaluation throws.
    public init(
        keys: [KeyDeclaration] = [], root: Node = Node(id: "root", type: "Root"), limits: Limits = .default,
        version: Int = 0, compiler: (any KeyCompiler)? = nil
    ) throws(CanopyError) {
        var store = try Self.declaring(keys, limits: limits, compiler: compiler)
        try store.validateNew(root, depth: 0)
        store.reserve(root.subtreeCount)
        store.setRoot(store.build(root, parent: -1, attachment: -1))
        try self.init(built: store, version: version)
    }

    /// A tree over a store just built (keys declared, nodes in place), evaluated for the first time.
    init(built store: NodeStore, version: Int) throws(CanopyError) {
        precondition(version >= 0, "a tree's version is never negative")
        self.version = version
        self.store = store
        try evaluateBuilt()
    }

    /// An empty store with `keys` declared (validated and compiled).
    static func declaring(_ keys: [KeyDeclaration], limits: Limits, compiler: (any KeyCompiler)?)
        throws(CanopyError) -> NodeStore
    {
        var store = NodeStore(limits: limits, compiler: compiler)
        for (i, given) in keys.enumerated() {
            let d: KeyDeclaration
            do {
                try given.validate()
                d = try given.compiled(with: compiler)
            } catch {
                throw CanopyError(error.code, "key \(i): \(error.message)", details: error.details)
            }
            guard store.keys.id(of: d.key) == nil else {
                throw CanopyError(.badKey, "key \"\(d.key)\" is declared twice")
            }
            _ = store.keys.declare(d)
        }
        return store
    }

    /// The first evaluation of a tree just built: every reader receives its initial value.
    private mutating func evaluateBuilt() throws(CanopyError) {
        store.builtSlots = []
        store.compiledTransforms = [:]
        evaluator.initialize(store)
        _ = evaluator.evaluatePending(store, trace: false)
        if let fault = evaluator.fault { throw fault }
        checkInvariantsInDebug()
    }

    /// Applies `ops` atomically and re-evaluates what they dirtied. On failure nothing changes and the error
    /// carries the index of the failing op; a fault of Swift code while evaluating undoes the whole batch.
    /// `advancing: false` keeps the version: a program's transaction applies several batches as one version.
    public mutating func apply(_ ops: [Op], trace: Bool = false, advancing: Bool = true) throws(CanopyError) -> Diff {
        let batch = try store.apply(ops)
        evaluator.process(store, batch.changes, built: batch.built)
        let (changes, recorded) = evaluator.evaluatePending(store, trace: trace)
        if let fault = evaluator.fault {
            // The dead subtrees are still in their slots, so the undo log replays exactly.
            store.undo(batch)
            recoverFromFault()
            throw fault
        }
        for s in batch.dead { store.release(s) }
        if advancing { version += 1 }
        checkInvariantsInDebug()
        return Diff(ops: batch.normalized, changes: changes, trace: recorded, summary: evaluator.summary)
    }

    /// Counts a program transaction whose batches were applied with `advancing: false` as one version.
    public mutating func advanceVersion() { version += 1 }

    /// Every reader with its current value, in tree order.
    public var readers: [ReaderValue] { evaluator.readerValues(store) }

    /// The output of `node` for `key`, evaluated on demand; `nil` when absent. Creates no reader.
    public mutating func probe(node: String, key: String) throws(CanopyError) -> JSON? {
        guard let s = store.slot(of: node) else { throw CanopyError(.noSuchNode, "no node \"\(node)\" in this tree") }
        guard let k = store.keys.id(of: key) else { throw CanopyError(.badKey, "key \"\(key)\" is not declared") }
        let value = evaluator.probe(store, s, k)
        if let fault = evaluator.fault {
            recoverFromFault()
            throw fault
        }
        return value
    }

    /// After a fault the evaluator's caches hold values computed with Swift code cut short, and the batch's
    /// bookkeeping is applied: rebuild it from scratch over the tree as it is (restored). O(tree), but faults are
    /// rare and the normal path keeps no copy to restore. The tree evaluated before, so this reproduces the
    /// readers' values; its fuel is unbounded since the incremental evaluations that led here spread their work.
    private mutating func recoverFromFault() {
        var fresh = Evaluator()
        fresh.fuelOverride = .max
        fresh.initialize(store)
        _ = fresh.evaluatePending(store, trace: false)
        fresh.fuelOverride = nil
        fresh.fault = nil
        evaluator = fresh
        checkInvariantsInDebug()
    }

    /// The whole tree in value form.
    public var root: Node { store.node(store.root) }

    /// The subtree at `id`, if there is such a node.
    public func node(_ id: String) -> Node? { store.slot(of: id).map { store.node($0) } }

    public var keys: [KeyDeclaration] { store.keys.declarations }

    public var nodeCount: Int { store.liveCount }

    public var limits: Limits { store.limits }

    /// Evaluates every reader from scratch on a fresh evaluator, leaving this tree's caches alone. A fault of
    /// Swift code stops Swift code for the rest of that evaluation (the values are then partial).
    public func evaluateFromScratch(trace: Bool = false) -> (readers: [ReaderValue], trace: Trace?, summary: TraceSummary)
    {
        var fresh = Evaluator()
        fresh.initialize(store)
        let (_, recorded) = fresh.evaluatePending(store, trace: trace)
        return (fresh.readerValues(store), recorded, fresh.summary)
    }

    /// Verifies the tree's structural invariants and the evaluator's bookkeeping; traps on a violation.
    public func checkInvariants() {
        store.checkInvariants()
        evaluator.checkInvariants(store)
    }

    @inline(__always)
    private func checkInvariantsInDebug() {
        #if DEBUG
            checkInvariants()
        #endif
    }
}
