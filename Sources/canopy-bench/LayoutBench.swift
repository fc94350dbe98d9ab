import CanopyCore
import CanopyLayout
import Glibc

/// `canopy-bench --layout`: CanopyLayout alone (issue 26). Trees of three shapes are declared to a `LayoutTree` and
/// laid out from scratch; then one leaf's frame width changes at a time and the tree is laid out again. Reports the
/// time per layout, the nodes laid out again (`laidOut.count`), the cost per re-laid-out node, what declaring every
/// node again unchanged costs (what `ProgramLayout.build` does every round), and resident memory per node.
enum LayoutBench {
    enum TreeShape: String, CaseIterable {
        case rows, chain, wide

        var summary: String {
            switch self {
            case .rows:
                "a VStack of rows, each an HStack of frame(width: 40, height: 40) around a shape, a Text, a Spacer "
                    + "and a shape (6 nodes a row)"
            case .chain:
                "a VStack of chains, each \(LayoutBench.chainDepth - 2) nested stacks (VStack and HStack "
                    + "alternating) around frame(width:height:) around a shape: depth \(LayoutBench.chainDepth) "
                    + "(LayoutTree.maxDepth is \(LayoutTree.maxDepth))"
            case .wide:
                "one VStack whose children are all frame(width: 40, height: 20) around a shape (2 nodes a child)"
            }
        }
    }

    /// Nodes from a chain's top stack down to its shape.
    static let chainDepth = 500

    struct Settings {
        var sizes = [1_000, 10_000, 100_000]
        var shapes = TreeShape.allCases
        var changes = 2_000
        /// From-scratch runs (fresh tree, declare + layout); nil: 5, 3 from 100k nodes.
        var scratchRuns: Int?
        /// Also lay the trees out inside a vertical ScrollView (rows proposed their ideal height).
        var scroll = false
        var budgetSeconds = 30.0
        var seed: UInt64 = 0x00C0_FFEE

        func scratchRunsFor(_ n: Int) -> Int { scratchRuns ?? (n >= 100_000 ? 3 : 5) }
    }

    /// One node's declaration, children first (as `ProgramLayout.build` declares them).
    struct Decl {
        var key: String
        var kind: LayoutKind
        var children: [String]
    }

    /// A tree as a list of declarations; `leaves` indexes the frames whose width the changes set.
    struct Plan {
        var decls: [Decl] = []
        var root = ""
        var leaves: [Int] = []

        mutating func add(_ key: String, _ kind: LayoutKind, _ children: [String] = []) {
            decls.append(Decl(key: key, kind: kind, children: children))
        }

        mutating func leaf(_ key: String, width: Double, height: Double) {
            add(key + "/s", .shape)
            leaves.append(decls.count)
            add(key, .frame(width: width, height: height, alignment: .center), [key + "/s"])
        }
    }

    static let canvas = LayoutTree.Canvas(
        width: 393, height: 852, safeArea: EdgeInsets(top: 59, leading: 0, bottom: 34, trailing: 0), scale: 3)

    /// Keys look like a program tree's node ids (`List/0:Row/12:HStack`), so hashing and comparing them costs what
    /// it costs there.
    static func plan(_ shape: TreeShape, nodes: Int, scroll: Bool) -> Plan {
        var p = Plan()
        var top: [String] = []
        let rootKey = "Bench/0:VStack"
        switch shape {
        case .rows:
            let rows = max(1, (nodes - 1) / 6)
            for i in 0..<rows {
                let row = "Bench/0:VStack/\(i):HStack"
                p.leaf(row + "/0:Image", width: 40, height: 40)
                p.add(row + "/1:Text", .text(TextSpec("Row \(i + 1) of the list")))
                p.add(row + "/2:Spacer", .spacer(minLength: nil))
                p.add(row + "/3:Circle", .shape)
                p.add(
                    row, .stack(.horizontal, spacing: nil, alignment: .center),
                    [row + "/0:Image", row + "/1:Text", row + "/2:Spacer", row + "/3:Circle"])
                top.append(row)
            }
        case .chain:
            let chains = max(1, nodes / chainDepth)
            for c in 0..<chains {
                var key = "Bench/0:VStack/\(c):Chain"
                let leafKey = key + "/leaf"
                p.leaf(leafKey, width: 40, height: 20)
                var child = leafKey
                for level in stride(from: chainDepth - 2, to: 0, by: -1) {
                    key = "Bench/0:VStack/\(c):Chain/\(level)"
                    let axis: Axis = level % 2 == 0 ? .horizontal : .vertical
                    p.add(key, .stack(axis, spacing: nil, alignment: .center), [child])
                    child = key
                }
                top.append(child)
            }
        case .wide:
            let children = max(1, (nodes - 1) / 2)
            for i in 0..<children {
                let key = "Bench/0:VStack/\(i):Color"
                p.leaf(key, width: 40, height: 20)
                top.append(key)
            }
        }
        p.add(rootKey, .stack(.vertical, spacing: nil, alignment: .center), top)
        p.root = rootKey
        if scroll {
            p.add("Bench", .scrollView(horizontal: false, vertical: true), [rootKey])
            p.root = "Bench"
        }
        return p
    }

    /// Declares every node, then the root.
    static func declare(_ p: Plan, into tree: LayoutTree) {
        for d in p.decls { tree.set(d.key, kind: d.kind, children: d.children) }
        tree.setRoot(p.root)
    }

    struct Result {
        var shape: TreeShape
        var scroll: Bool
        var nodes = 0
        var declareNs: [UInt64] = []
        var scratchNs: [UInt64] = []
        var scratchLaidOut = 0
        var redeclareNs: [UInt64] = []
        var redeclareLayoutNs: [UInt64] = []
        var rssBytes = 0
        var heapBytes = 0
        var rssDeclaredBytes = 0
        var heapDeclaredBytes = 0
        /// After a layout with nothing to do: the last layout's trace (`laidOut`) and changed keys are gone.
        var heapIdleBytes = 0
        var setNs: [UInt64] = []
        var layoutNs: [UInt64] = []
        var layoutCPU: [UInt64] = []
        var laidOut: [Int] = []
        var perNodeNs: [UInt64] = []
        /// The nodes a change makes the layout look at: the changed leaf and, for each node on its path to the root,
        /// its children (a stack reads every child's cached size again to share its proposal out).
        var touched: [Int] = []
        var perTouchedNs: [UInt64] = []
        var framesChanged: [Int] = []
        var requested = 0
        var onCPU = 1.0
        var verified = false
    }

    static func run(_ s: Settings) {
        say("canopy-bench --layout — CanopyLayout alone (release build, single thread)")
        say("""
            shapes:
            \(s.shapes.map { "  \($0.rawValue): \($0.summary)" }.joined(separator: "\n"))
            canvas: 393 × 852 at @3x with a 59/34 safe area (the root is proposed 393 × 759)\
            \(s.scroll ? "; each shape also inside a vertical ScrollView (its content proposed a nil height)" : "").
            method:
              declare  = LayoutTree.set for every node (children first) and setRoot on a fresh tree; scratch = its first
                         layout(). Median of several fresh trees.
              memory   = RSS from /proc/self/statm and malloc'd bytes (mallinfo2) after malloc_trim(0), sampled with the
                         declarations (keys, kinds, child key lists) already built, after declaring, after the first
                         layout and (idle) after a layout with nothing to do, which drops the first one's trace
                         (laidOut) and changed keys; growth / nodes. The keys' storage is not counted (a program tree
                         owns it already).
              redeclare = set for every node again with the same kind and children, then layout(): what
                         ProgramLayout.build and run cost each round when nothing changed. Median of 5.
              change   = one random leaf's frame width set to a new value (20…60) with set, then layout(), each timed
                         alone (CLOCK_MONOTONIC; thread CPU time read outside). laid out = laidOut.count (sizes computed,
                         not found in a cache); ns/node = layout time / laid out; touched = the changed leaf plus the
                         children of every node on its path to the root (a stack reads each child's cached size
                         again), ns/t = layout time / touched; medians over changes. Fixed seed \
            \(s.seed); at most \(fmt(s.budgetSeconds, 0)) s of changes per configuration.
              honesty  = after the changes, a fresh tree declared with the final widths is laid out from scratch and
                         every frame compared with the incremental tree's.

            """)
        var results: [Result] = []
        for scroll in s.scroll ? [false, true] : [false] {
            for shape in s.shapes {
                for n in s.sizes {
                    results.append(runConfig(shape, n, scroll: scroll, s))
                    Memory.trim()
                }
            }
        }
        report(results)
        if !results.allSatisfy(\.verified) { exit(1) }
    }

    static func runConfig(_ shape: TreeShape, _ size: Int, scroll: Bool, _ s: Settings) -> Result {
        var r = Result(shape: shape, scroll: scroll)
        let tag = "[\(shape.rawValue)\(scroll ? " in ScrollView" : "") \(size)]"
        say("\(tag) start (1-min load average \(loadAverage()))")
        var p = plan(shape, nodes: size, scroll: scroll)
        r.nodes = p.decls.count

        // The first tree: memory, then kept for the changes.
        let mem0 = Memory.sample()
        var t0 = nowNanos()
        let tree = LayoutTree(canvas: canvas)
        declare(p, into: tree)
        r.declareNs.append(nowNanos() - t0)
        let memDeclared = Memory.sample()
        t0 = nowNanos()
        do { try tree.layout() } catch { fail("\(tag) layout failed: \(error)") }
        r.scratchNs.append(nowNanos() - t0)
        r.scratchLaidOut = tree.laidOut.count
        let memLaidOut = Memory.sample()
        r.rssDeclaredBytes = memDeclared.rss - mem0.rss
        r.rssBytes = memLaidOut.rss - mem0.rss
        r.heapBytes = memLaidOut.heap - mem0.heap
        r.heapDeclaredBytes = memDeclared.heap - mem0.heap
        say("\(tag) \(r.nodes) nodes: declared in \(fmt(millis(r.declareNs[0]))) ms, first layout "
            + "\(fmt(millis(r.scratchNs[0]))) ms (\(r.scratchLaidOut) sizes computed); memory "
            + "\(fmt(Double(r.rssBytes) / Double(r.nodes))) B/node RSS, \(fmt(Double(r.heapBytes) / Double(r.nodes))) "
            + "B/node malloc")

        // More fresh trees for the from-scratch medians.
        for _ in 1..<s.scratchRunsFor(r.nodes) {
            Memory.trim()
            let t0 = nowNanos()
            let fresh = LayoutTree(canvas: canvas)
            declare(p, into: fresh)
            let t1 = nowNanos()
            do { try fresh.layout() } catch { fail("\(tag) layout failed: \(error)") }
            r.scratchNs.append(nowNanos() - t1)
            r.declareNs.append(t1 - t0)
        }

        // Every node declared again, unchanged, and laid out: the floor of a program tree's layout round.
        for _ in 0..<5 {
            let t0 = nowNanos()
            declare(p, into: tree)
            let t1 = nowNanos()
            do { try tree.layout() } catch { fail("\(tag) layout failed: \(error)") }
            r.redeclareLayoutNs.append(nowNanos() - t1)
            r.redeclareNs.append(t1 - t0)
        }
        r.heapIdleBytes = Memory.sample().heap - mem0.heap

        // How many nodes each leaf's change touches (see Result.touched), from the declarations.
        var keyIndex: [String: Int] = [:]
        for (i, d) in p.decls.enumerated() { keyIndex[d.key] = i }
        var parentOf = [Int](repeating: -1, count: p.decls.count)
        for (i, d) in p.decls.enumerated() {
            for c in d.children { if let ci = keyIndex[c] { parentOf[ci] = i } }
        }
        func touched(_ leaf: Int) -> Int {
            var n = 1
            var at = parentOf[leaf]
            while at >= 0 {
                n += p.decls[at].children.count
                at = parentOf[at]
            }
            return n
        }

        // One change at a time.
        var rng = SplitMix64(seed: s.seed &+ UInt64(size) &* 31 &+ UInt64(TreeShape.allCases.firstIndex(of: shape)!) &* 1_000_003)
        r.requested = s.changes
        let budget = UInt64(s.budgetSeconds * 1e9)
        let phaseStart = nowNanos()
        let cpuStart = threadCPUNanos()
        for _ in 0..<s.changes {
            if nowNanos() - phaseStart > budget { break }
            let index = p.leaves[rng.int(p.leaves.count)]
            guard case .frame(let old, let height, let alignment) = p.decls[index].kind else { continue }
            var width = Double(20 + rng.int(41))
            if width == old { width += 1 }
            p.decls[index].kind = .frame(width: width, height: height, alignment: alignment)
            let d = p.decls[index]
            let c0 = threadCPUNanos()
            let t0 = nowNanos()
            tree.set(d.key, kind: d.kind, children: d.children)
            let t1 = nowNanos()
            let changed: [String]
            do { changed = try tree.layout() } catch { fail("\(tag) layout failed: \(error)") }
            let t2 = nowNanos()
            let c1 = threadCPUNanos()
            r.setNs.append(t1 - t0)
            r.layoutNs.append(t2 - t1)
            r.layoutCPU.append(c1 - c0)
            let count = tree.laidOut.count
            r.laidOut.append(count)
            r.perNodeNs.append((t2 - t1) / UInt64(max(1, count)))
            let look = touched(index)
            r.touched.append(look)
            r.perTouchedNs.append((t2 - t1) / UInt64(max(1, look)))
            r.framesChanged.append(changed.count)
        }
        r.onCPU = Double(threadCPUNanos() - cpuStart) / Double(max(1, nowNanos() - phaseStart))

        // Honesty: the same final tree from scratch gives the same frames.
        let check = LayoutTree(canvas: canvas)
        declare(p, into: check)
        do { try check.layout() } catch { fail("\(tag) layout failed: \(error)") }
        r.verified = p.decls.allSatisfy { tree.unroundedFrame(of: $0.key) == check.unroundedFrame(of: $0.key) }
        say("\(tag) \(r.layoutNs.count) changes: layout median \(fmt(Stats(r.layoutNs).medianNs / 1e3)) µs, "
            + "\(Stats(r.laidOut.map { UInt64($0) }).medianNs) laid out; frames "
            + (r.verified ? "equal to a fresh layout" : "DIFFER from a fresh layout"))
        return r
    }

    static func report(_ results: [Result]) {
        say()
        say("== From scratch, redeclared, memory (ms unless noted; medians) ==")
        let head: [(String, Int)] = [
            ("shape", 16), ("nodes", 7), ("declare", 8), ("scratch", 8), ("µs/node", 8), ("redecl", 8),
            ("relayout", 8), ("B/node RSS", 10), ("(declared)", 10), ("B/node heap", 11), ("(declared)", 10),
            ("(idle)", 8),
        ]
        say(row(head))
        for r in results {
            let n = Double(r.nodes)
            let scratch = Stats(r.scratchNs).medianNs
            say(row([
                (r.shape.rawValue + (r.scroll ? "+scroll" : ""), 16), (String(r.nodes), 7),
                (fmt(Stats(r.declareNs).medianNs / 1e6, 2), 8), (fmt(scratch / 1e6, 2), 8),
                (fmt(scratch / 1e3 / n, 3), 8), (fmt(Stats(r.redeclareNs).medianNs / 1e6, 2), 8),
                (fmt(Stats(r.redeclareLayoutNs).medianNs / 1e6, 3), 8), (fmt(Double(r.rssBytes) / n), 10),
                (fmt(Double(r.rssDeclaredBytes) / n), 10), (fmt(Double(r.heapBytes) / n), 11),
                (fmt(Double(r.heapDeclaredBytes) / n), 10), (fmt(Double(r.heapIdleBytes) / n), 8),
            ]))
        }
        say()
        say("== One leaf's frame width changed, then layout() (µs unless noted) ==")
        let head2: [(String, Int)] = [
            ("shape", 16), ("nodes", 7), ("changes", 7), ("set med", 8), ("layout med", 10), ("p90", 8), ("p99", 8),
            ("max", 9), ("cpu med", 8), ("on-cpu", 6), ("laid out", 8), ("ns/node", 8), ("touched", 7),
            ("ns/t", 5), ("frames", 7), ("scratch/med", 11),
        ]
        say(row(head2))
        for r in results {
            let l = Stats(r.layoutNs)
            let laid = Stats(r.laidOut.map { UInt64($0) })
            let frames = Stats(r.framesChanged.map { UInt64($0) })
            var note = r.layoutNs.count < r.requested ? "  CAPPED \(r.layoutNs.count)/\(r.requested)" : ""
            if !r.verified { note += "  FRAMES DIFFER" }
            say(row([
                (r.shape.rawValue + (r.scroll ? "+scroll" : ""), 16), (String(r.nodes), 7),
                (String(r.layoutNs.count), 7), (fmt(Stats(r.setNs).medianNs / 1e3, 2), 8),
                (fmt(l.medianNs / 1e3), 10), (fmt(l.p90Ns / 1e3), 8), (fmt(l.p99Ns / 1e3), 8),
                (fmt(l.maxNs / 1e3), 9), (fmt(Stats(r.layoutCPU).medianNs / 1e3), 8),
                (fmt(r.onCPU * 100, 0) + "%", 6), (fmt(laid.medianNs, 0), 8),
                (fmt(Stats(r.perNodeNs).medianNs, 0), 8),
                (fmt(Stats(r.touched.map { UInt64($0) }).medianNs, 0), 7), (fmt(Stats(r.perTouchedNs).medianNs, 0), 5),
                (fmt(frames.medianNs, 0), 7),
                (fmt(Stats(r.scratchNs).medianNs / l.medianNs, 0) + "x", 11),
            ]) + note)
        }
        say()
        say("verification: " + (results.allSatisfy(\.verified)
            ? "every configuration's frames equal a fresh layout's" : "FRAMES DIFFER in some configuration"))
    }
}

/// `--layout`'s own flags.
func runLayout(_ args: [String]) {
    var s = LayoutBench.Settings()
    var i = 0
    func value() -> String {
        i += 1
        guard i < args.count else { fail("\(args[i - 1]) needs a value") }
        return args[i]
    }
    func positiveInt(_ text: String) -> Int {
        guard let n = Int(text.filter { $0 != "_" }), n > 0 else { fail("not a positive integer: \(text)") }
        return n
    }
    while i < args.count {
        switch args[i] {
        case "--sizes": s.sizes = value().split(separator: ",").map { positiveInt(String($0)) }
        case "--shapes":
            s.shapes = value().split(separator: ",").map {
                guard let shape = LayoutBench.TreeShape(rawValue: String($0)) else { fail("unknown layout shape \($0)") }
                return shape
            }
        case "--changes": s.changes = positiveInt(value())
        case "--scratch-runs": s.scratchRuns = positiveInt(value())
        case "--scroll": s.scroll = true
        case "--budget":
            guard let b = Double(value()), b > 0 else { fail("--budget needs a positive number of seconds") }
            s.budgetSeconds = b
        case "--seed":
            guard let seed = UInt64(value()) else { fail("--seed needs an unsigned integer") }
            s.seed = seed
        default: fail("unknown argument for --layout: \(args[i])")
        }
        i += 1
    }
    for n in s.sizes where n < 100 { fail("--layout sizes must be at least 100 nodes") }
    LayoutBench.run(s)
}
