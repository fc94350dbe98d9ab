import CanopyCore

// MARK: Options

struct Options {
    var sizes = [10_000, 100_000, 1_000_000]
    var shapes = Shape.allCases
    /// Edits per op kind; nil = 2000 below 1M nodes, 1000 from 1M on.
    var edits: Int? = nil
    /// Wall-clock budget per op kind and configuration; an op kind that exhausts it stops early (reported as capped).
    var budgetSeconds = 60.0
    /// From-scratch runs; nil = 5 below 1M nodes, 3 from 1M on.
    var scratchRuns: Int? = nil
    /// Largest size for which the tree is also built through insert ops, for comparison.
    var insertBuildMax = 100_000
    var seed: UInt64 = 0x00C0_FFEE
    var jsonPath: String? = nil

    func editsFor(_ size: Int) -> Int { edits ?? (size >= 1_000_000 ? 1000 : 2000) }
    func scratchRunsFor(_ size: Int) -> Int { scratchRuns ?? (size >= 1_000_000 ? 3 : 5) }
}

// MARK: Bookkeeping of the tree's leaves and containers (outside the timed region)

struct Registry {
    var leafIDs: [String] = []
    var leafParent: [String] = []
    var leafOK: [Bool] = []
    var leafPos: [String: Int] = [:]
    /// VStack containers: targets of insert and move.
    var internals: [String] = []
    var childCount: [String: Int] = [:]

    init(_ root: Node) {
        var stack: [(Node, String)] = [(root, "")]
        while let (n, parent) = stack.popLast() {
            if n.type == "Text" {
                var ok = true
                for m in n.modifiers {
                    if case .preference("allOK", let v) = m { ok = v.bool ?? true }
                }
                addLeaf(n.id, parent: parent, ok: ok)
            } else if n.type == "VStack" {
                internals.append(n.id)
            }
            childCount[n.id] = n.children.count
            for c in n.children { stack.append((c, n.id)) }
        }
    }

    mutating func addLeaf(_ id: String, parent: String, ok: Bool) {
        leafPos[id] = leafIDs.count
        leafIDs.append(id)
        leafParent.append(parent)
        leafOK.append(ok)
    }

    /// Swap-removes leaf `i`.
    mutating func removeLeaf(at i: Int) {
        let last = leafIDs.count - 1
        leafPos[leafIDs[i]] = nil
        if i != last {
            leafIDs[i] = leafIDs[last]
            leafParent[i] = leafParent[last]
            leafOK[i] = leafOK[last]
            leafPos[leafIDs[i]] = i
        }
        leafIDs.removeLast()
        leafParent.removeLast()
        leafOK.removeLast()
    }
}

// MARK: Results

enum EditKind: String, CaseIterable {
    case setPreference, insert, remove, move
}

struct EditResult {
    var kind: EditKind
    var requested: Int
    var samples: [UInt64]
    /// Thread CPU time of each edit (read just outside the wall-clock pair): robust to other processes.
    var cpuSamples: [UInt64] = []
    var stats: Stats { Stats(samples) }
    /// Process-wide CPU time / wall time over the whole phase; well below 100% means the machine was contended.
    var cpuShare = 1.0
    var capped: Bool { samples.count < requested }
    /// Sums over the edits of the diff's counts (work done), for means per edit.
    var evaluated = 0
    var reduces = 0
    var fired = 0
    var note: String? = nil
}

struct ConfigResult {
    var shape: Shape
    var size: Int
    var nodes = 0
    var leaves = 0
    var internals = 0
    var readers = 0
    var valueNs: UInt64 = 0
    var initNs: UInt64 = 0
    var insertBuild: (ns: UInt64, batches: Int, batchSize: Int)? = nil
    var mem0 = Memory.Sample(rss: 0, heap: 0)
    var memNode = Memory.Sample(rss: 0, heap: 0)
    var memBoth = Memory.Sample(rss: 0, heap: 0)
    var memTree = Memory.Sample(rss: 0, heap: 0)
    var scratch: [UInt64] = []
    var scratchSummary = (evaluated: 0, cached: 0, skipped: 0, reduces: 0)
    var edits: [EditResult] = []
    var setPrefPerKey: [[UInt64]] = Array(repeating: [], count: BenchKeys.names.count)
    var verified = false
    var checksum: UInt64 = 0

    var treeBytesRSS: Int { memTree.rss - mem0.rss }
    var treeBytesHeap: Int { memTree.heap - mem0.heap }
    var nodeBytesRSS: Int { memNode.rss - mem0.rss }
    var scratchMedianNs: Double { Stats(scratch).medianNs }
}

// MARK: Running one configuration

struct BenchError: Error, CustomStringConvertible {
    var description: String
}

func runConfig(_ shape: Shape, _ size: Int, _ opt: Options) throws -> ConfigResult {
    var r = ConfigResult(shape: shape, size: size)
    let tag = "[\(shape.rawValue) \(size)]"
    say("\(tag) start (1-min load average \(loadAverage()))")
    let seed = opt.seed &+ UInt64(size) &* 31 &+ UInt64(Shape.allCases.firstIndex(of: shape)!) &* 1_000_003
    var checksum: UInt64 = 0

    // --- Build: value construction, then Tree.init (which runs the initial evaluation of every reader). ---
    r.mem0 = Memory.sample()
    var tree: Tree
    do {
        var t0 = nowNanos()
        var node: Node? = shape.build(nodes: size, seed: seed)
        r.valueNs = nowNanos() - t0
        r.memNode = Memory.sample()
        say("\(tag) value built: \(node!.subtreeCount) nodes in \(fmt(millis(r.valueNs))) ms")
        t0 = nowNanos()
        tree = try Tree(keys: BenchKeys.declarations, root: node!)
        r.initNs = nowNanos() - t0
        r.memBoth = Memory.sample()
        node = nil
    }
    r.memTree = Memory.sample()
    r.nodes = tree.nodeCount
    say(
        "\(tag) Tree.init: \(fmt(millis(r.initNs))) ms; tree memory \(fmt(Double(r.treeBytesRSS) / 1_048_576)) MiB RSS "
            + "(\(fmt(Double(r.treeBytesRSS) / Double(r.nodes))) B/node), "
            + "\(fmt(Double(r.treeBytesHeap) / Double(r.nodes))) B/node malloc'd")

    var reg = Registry(tree.root)
    r.leaves = reg.leafIDs.count
    r.internals = reg.internals.count
    let initialReaders = tree.readers
    r.readers = initialReaders.count
    for rv in initialReaders { checksum &+= UInt64(rv.value?.encoded().utf8.count ?? 0) }

    // --- From scratch: a fresh evaluator over the whole tree. ---
    for _ in 0..<opt.scratchRunsFor(size) {
        let t0 = nowNanos()
        let result = tree.evaluateFromScratch()
        let dt = nowNanos() - t0
        r.scratch.append(dt)
        checksum &+= UInt64(result.readers.count &+ result.summary.evaluated)
        r.scratchSummary = (result.summary.evaluated, result.summary.cached, result.summary.skipped,
                            result.summary.reduces)
    }
    say("\(tag) from scratch: median \(fmt(r.scratchMedianNs / 1e6, 2)) ms over \(r.scratch.count) runs "
        + "(\(r.scratchSummary.evaluated) stages evaluated, \(r.scratchSummary.reduces) reduces)")

    // --- Incremental edits, one op per batch, each apply timed on its own. ---
    var rng = SplitMix64(seed: seed ^ 0x5EED_0000_0000_0001)
    var fresh = 0
    let budgetNs = UInt64(opt.budgetSeconds * 1e9)
    for kind in EditKind.allCases {
        let requested = opt.editsFor(size)
        var e = EditResult(kind: kind, requested: requested, samples: [])
        e.samples.reserveCapacity(requested)
        e.cpuSamples.reserveCapacity(requested)
        let phaseStart = nowNanos()
        let phaseCPUStart = threadCPUNanos()
        for _ in 0..<requested {
            if nowNanos() - phaseStart > budgetNs { break }
            let op: Op
            var keyIndex = -1
            switch kind {
            case .setPreference:
                let i = rng.int(reg.leafIDs.count)
                keyIndex = rng.int(BenchKeys.names.count)
                let value: JSON
                switch keyIndex {
                case 0: value = .int(Int64(rng.int(1000)))
                case 1: value = .int(Int64(rng.int(1_000_000)))
                case 2:
                    reg.leafOK[i].toggle()
                    value = .bool(reg.leafOK[i])
                default:
                    fresh += 1
                    value = .string("s\(fresh)")
                }
                op = .setPreference(node: reg.leafIDs[i], key: BenchKeys.names[keyIndex], value: value)
            case .insert:
                let parent = reg.internals[rng.int(reg.internals.count)]
                fresh += 1
                let id = "x\(fresh)"
                op = .insert(parent: parent, node: BenchKeys.leaf(id, &rng), position: .end)
                reg.addLeaf(id, parent: parent, ok: true)
                reg.childCount[parent, default: 0] += 1
            case .remove:
                let i = rng.int(reg.leafIDs.count)
                op = .remove(node: reg.leafIDs[i])
                reg.childCount[reg.leafParent[i], default: 1] -= 1
                reg.removeLeaf(at: i)
            case .move:
                let i = rng.int(reg.leafIDs.count)
                let from = reg.leafParent[i]
                if reg.internals.count == 1 {
                    // Only one container (wide): a move is a reorder to a random index among its children.
                    let others = reg.childCount[from, default: 1] - 1
                    op = .move(node: reg.leafIDs[i], parent: from, position: .index(rng.int(others + 1)))
                    e.note = "single container: moves reorder the leaf to a random index within \"\(from)\""
                } else {
                    var to = from
                    while to == from { to = reg.internals[rng.int(reg.internals.count)] }
                    op = .move(node: reg.leafIDs[i], parent: to, position: .end)
                    reg.childCount[from, default: 1] -= 1
                    reg.childCount[to, default: 0] += 1
                    reg.leafParent[i] = to
                }
            }
            let c0 = threadCPUNanos()
            let t0 = nowNanos()
            let diff = try tree.apply([op])
            let t1 = nowNanos()
            let c1 = threadCPUNanos()
            let dt = t1 - t0
            e.samples.append(dt)
            e.cpuSamples.append(c1 - c0)
            if keyIndex >= 0 { r.setPrefPerKey[keyIndex].append(dt) }
            e.evaluated += diff.summary.evaluated
            e.reduces += diff.summary.reduces
            e.fired += diff.changes.count
            checksum &+= UInt64(diff.changes.count &+ diff.summary.evaluated &+ diff.ops.count)
        }
        e.cpuShare = Double(threadCPUNanos() - phaseCPUStart) / Double(Swift.max(1, nowNanos() - phaseStart))
        let s = e.stats
        var line = "\(tag) \(kind.rawValue): \(s.count) edits, median \(fmt(s.medianNs / 1e3, 1)) us, "
            + "p90 \(fmt(s.p90Ns / 1e3, 1)), p99 \(fmt(s.p99Ns / 1e3, 1)), max \(fmt(s.maxNs / 1e3, 1)) us "
            + "(cpu median \(fmt(Stats(e.cpuSamples).medianNs / 1e3, 1)) us; on-cpu \(fmt(e.cpuShare * 100, 0))% of "
            + "the phase, load \(loadAverage()))"
        if e.capped {
            line += "  [CAPPED at \(s.count) of \(requested): \(fmt(opt.budgetSeconds, 0)) s budget per op kind]"
        }
        say(line)
        r.edits.append(e)
    }

    // --- Honesty check: incremental reader values equal a from-scratch evaluation after all edits. ---
    r.verified = tree.readers == tree.evaluateFromScratch().readers
    say("\(tag) verify incremental == from scratch after \(r.edits.reduce(0) { $0 + $1.samples.count }) edits: "
        + (r.verified ? "ok" : "MISMATCH"))
    checksum &+= UInt64(tree.nodeCount)
    tree = try Tree()  // drop the big tree before the comparison build

    // --- Comparison: building the same tree through insert ops (parents first, batches of 1000). ---
    if size <= opt.insertBuildMax {
        let root = shape.build(nodes: size, seed: seed)
        var rootOnly = root
        rootOnly.children = []
        var ops: [Op] = []
        ops.reserveCapacity(size)
        var stack: [(Node, String)] = root.children.reversed().map { ($0, root.id) }
        while let (n, parent) = stack.popLast() {
            var bare = n
            bare.children = []
            ops.append(.insert(parent: parent, node: bare, position: .end))
            for c in n.children.reversed() { stack.append((c, n.id)) }
        }
        let batchSize = 1000
        let t0 = nowNanos()
        var built = try Tree(keys: BenchKeys.declarations, root: rootOnly)
        var batches = 0
        var start = 0
        while start < ops.count {
            let end = Swift.min(start + batchSize, ops.count)
            let diff = try built.apply(Array(ops[start..<end]))
            checksum &+= UInt64(diff.changes.count)
            batches += 1
            start = end
        }
        let dt = nowNanos() - t0
        r.insertBuild = (dt, batches, batchSize)
        guard built.nodeCount == r.nodes else {
            throw BenchError(description: "insert-op build produced \(built.nodeCount) nodes, expected \(size)")
        }
        say("\(tag) build via insert ops (\(batches) batches of \(batchSize)): \(fmt(millis(dt))) ms "
            + "vs value+init \(fmt(millis(r.valueNs + r.initNs))) ms")
    }
    r.checksum = checksum
    return r
}

// MARK: JSON output

func obj(_ pairs: [(String, JSON)]) -> JSON {
    .object(JSONObject(uniqueMembers: pairs.map { (key: $0.0, value: $0.1) }))
}

func statsJSON(_ s: Stats) -> JSON {
    obj([
        ("count", .int(Int64(s.count))), ("medianUs", .double(s.medianNs / 1e3)), ("p90Us", .double(s.p90Ns / 1e3)),
        ("p99Us", .double(s.p99Ns / 1e3)), ("maxUs", .double(s.maxNs / 1e3)), ("meanUs", .double(s.meanNs / 1e3)),
        ("minUs", .double(s.minNs / 1e3)),
    ])
}

func resultJSON(_ r: ConfigResult) -> JSON {
    let scratchMedian = r.scratchMedianNs
    var edits: [(String, JSON)] = []
    for e in r.edits {
        let s = e.stats
        var fields: [(String, JSON)] = [
            ("requested", .int(Int64(e.requested))), ("capped", .bool(e.capped)), ("stats", statsJSON(s)),
            ("threadCPU", statsJSON(Stats(e.cpuSamples))), ("onCPUShare", .double(e.cpuShare)),
            ("fromScratchOverMedian", .double(scratchMedian / s.medianNs)),
            ("meanStagesEvaluated", .double(Double(e.evaluated) / Double(Swift.max(1, s.count)))),
            ("meanReduces", .double(Double(e.reduces) / Double(Swift.max(1, s.count)))),
            ("meanReadersFired", .double(Double(e.fired) / Double(Swift.max(1, s.count)))),
        ]
        if e.kind == .setPreference {
            var perKey: [(String, JSON)] = []
            for (i, name) in BenchKeys.names.enumerated() { perKey.append((name, statsJSON(Stats(r.setPrefPerKey[i])))) }
            fields.append(("perKey", obj(perKey)))
        }
        if let note = e.note { fields.append(("note", .string(note))) }
        edits.append((e.kind.rawValue, obj(fields)))
    }
    var build: [(String, JSON)] = [
        ("valueMs", .double(millis(r.valueNs))), ("treeInitMs", .double(millis(r.initNs))),
        ("method", "Node value + Tree(keys:root:)"),
    ]
    if let ib = r.insertBuild {
        build.append(
            ("insertOps", obj([("ms", .double(millis(ib.ns))), ("batches", .int(Int64(ib.batches))),
                               ("batchSize", .int(Int64(ib.batchSize)))])))
    }
    let n = Double(r.nodes)
    return obj([
        ("shape", .string(r.shape.rawValue)), ("size", .int(Int64(r.size))), ("nodes", .int(Int64(r.nodes))),
        ("leaves", .int(Int64(r.leaves))), ("containers", .int(Int64(r.internals))),
        ("readers", .int(Int64(r.readers))), ("keys", .array(BenchKeys.declarations.map { .string("\($0.key):\($0.reducer.name)") })),
        ("build", obj(build)),
        ("memory", obj([
            ("baselineRSS", .int(Int64(r.mem0.rss))), ("afterValueRSS", .int(Int64(r.memNode.rss))),
            ("afterInitRSS", .int(Int64(r.memBoth.rss))), ("treeOnlyRSS", .int(Int64(r.memTree.rss))),
            ("treeBytesRSS", .int(Int64(r.treeBytesRSS))), ("treeBytesPerNodeRSS", .double(Double(r.treeBytesRSS) / n)),
            ("treeBytesPerNodeHeap", .double(Double(r.treeBytesHeap) / n)),
            ("valueBytesPerNodeRSS", .double(Double(r.nodeBytesRSS) / n)),
        ])),
        ("fromScratch", obj([
            ("stats", statsJSON(Stats(r.scratch))), ("stagesEvaluated", .int(Int64(r.scratchSummary.evaluated))),
            ("reduces", .int(Int64(r.scratchSummary.reduces))), ("skipped", .int(Int64(r.scratchSummary.skipped))),
        ])),
        ("edits", obj(edits)),
        ("verified", .bool(r.verified)), ("checksum", .int(Int64(bitPattern: r.checksum))),
    ])
}
