import CanopyCore
import Glibc

// canopy-bench: build cost, memory per node, from-scratch evaluation and per-edit incremental cost of CanopyCore.

let usage = """
    usage: canopy-bench [--sizes 10000,100000,1000000] [--shapes balanced,wide,chain] [--edits N] [--json FILE]
                        [--budget SECONDS] [--scratch-runs N] [--insert-build-max N] [--seed N]
           canopy-bench --parse   (only: JSONParser on an edit message and a 2.8 MB snapshot)
           canopy-bench --swift-keys [--sizes …] [--shapes …] [--edits N] [--scratch-runs N]
                                  (only: Swift PreferenceKeys next to the catalog reducers, side by side)
           canopy-bench --programs [--fields N] [--per-section N] [--keystrokes N] [--binding] [--count-key]
                                   [--count-label] [--seed N] [--write-source FILE]
                                  (only: keystrokes in a generated N-field form program tree; --write-source writes
                                   the form's Swift source to FILE and stops, for `canopy load --program`)
           canopy-bench --layout [--sizes 1000,10000,100000] [--shapes rows,chain,wide] [--changes N] [--scroll]
                                 [--scratch-runs N] [--budget SECONDS] [--seed N]
                                  (only: CanopyLayout alone: from scratch, one leaf's width changed, memory per node)
           canopy-bench --layout-programs [--fields N] [--keystrokes N] [--rows N] [--events N] [--step POINTS]
                                  (only: the form's keystrokes with the frames in their diffs, then scroll events on
                                   an N-row collapsing-header program tree)

      --sizes             tree sizes in nodes (default 10000,100000,1000000)
      --shapes            any of balanced, wide, chain (default all)
      --edits N           edits per op kind (default 2000 below 1M nodes, 1000 from 1M)
      --budget SECONDS    wall-clock cap per op kind and configuration (default 60); a capped op kind is flagged
      --scratch-runs N    from-scratch evaluations per configuration (default 5 below 1M nodes, 3 from 1M)
      --insert-build-max  also build trees up to this size through insert ops, for comparison (default 100000)
      --seed N            random seed (default 12648430)
      --json FILE         write all results as JSON to FILE
    """

func fail(_ message: String) -> Never {
    say("canopy-bench: \(message)\n\n\(usage)")
    exit(2)
}

func parseOptions(_ args: [String]) -> Options {
    var opt = Options()
    var i = 0
    func value() -> String {
        i += 1
        guard i < args.count else { fail("\(args[i - 1]) needs a value") }
        return args[i]
    }
    func positiveInt(_ s: String) -> Int {
        guard let n = Int(s.filter { $0 != "_" }), n > 0 else { fail("not a positive integer: \(s)") }
        return n
    }
    while i < args.count {
        switch args[i] {
        case "--sizes": opt.sizes = value().split(separator: ",").map { positiveInt(String($0)) }
        case "--shapes":
            opt.shapes = value().split(separator: ",").map {
                guard let s = Shape(rawValue: String($0)) else { fail("unknown shape \($0)") }
                return s
            }
        case "--edits": opt.edits = positiveInt(value())
        case "--budget":
            guard let b = Double(value()), b > 0 else { fail("--budget needs a positive number of seconds") }
            opt.budgetSeconds = b
        case "--scratch-runs": opt.scratchRuns = positiveInt(value())
        case "--insert-build-max":
            guard let n = Int(value()), n >= 0 else { fail("--insert-build-max needs a number") }
            opt.insertBuildMax = n
        case "--seed":
            guard let s = UInt64(value()) else { fail("--seed needs an unsigned integer") }
            opt.seed = s
        case "--json": opt.jsonPath = value()
        case "-h", "--help":
            say(usage)
            exit(0)
        default: fail("unknown argument \(args[i])")
        }
        i += 1
    }
    for s in opt.sizes where s < 100 { fail("sizes must be at least 100 nodes") }
    return opt
}

if CommandLine.arguments.dropFirst().first == "--parse" {
    ParseBench.run()
    exit(0)
}
if CommandLine.arguments.dropFirst().first == "--swift-keys" {
    let o = parseOptions(Array(CommandLine.arguments.dropFirst(2)))
    SwiftKeyBench.run(
        sizes: o.sizes, shapes: o.shapes.filter { $0 != .chain }, edits: o.edits ?? 1000, scratchRuns: o.scratchRuns ?? 3,
        seed: o.seed)
    exit(0)
}
if CommandLine.arguments.dropFirst().first == "--layout" {
    runLayout(Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
}
if CommandLine.arguments.dropFirst().first == "--layout-programs" {
    runLayoutPrograms(Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
}
if CommandLine.arguments.dropFirst().first == "--programs" {
    runPrograms(Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
}
let options = parseOptions(Array(CommandLine.arguments.dropFirst()))

say("""
    canopy-bench — CanopyCore engine benchmark (release build, single thread)
    keys: \(BenchKeys.declarations.map { "\($0.key) (\($0.reducer.name))" }.joined(separator: ", ")); \
    every leaf (Text) writes all four keys; readers for all four keys on the root/top container and a few
    intermediate containers. Shapes:
    \(options.shapes.map { "  \($0.rawValue): \($0.summary)" }.joined(separator: "\n"))
    method:
      build    = Node value construction (timed), then Tree(keys:root:) (timed; includes the initial evaluation of
                 every reader). Tree(keys:root:) from one Node value is the build path measured; building through
                 insert ops (parents first, batches of 1000) is timed for sizes <= \(options.insertBuildMax) for comparison.
      memory   = RSS from /proc/self/statm (and malloc'd bytes from mallinfo2) after malloc_trim(0): sampled before the
                 Node value exists and again after Tree.init with the Node value discarded; the growth / node count is
                 the tree's cost per node (store + evaluator caches). RSS counts whole pages, the heap figure is exact.
      scratch  = tree.evaluateFromScratch() (fresh evaluator, all readers), median of several runs.
      edits    = one op per tree.apply([op]) batch, each call timed alone with clock_gettime(CLOCK_MONOTONIC); op
                 construction and the bench's own bookkeeping stay outside the timed region. Phases run in order
                 setPreference (random leaf, random key, new value: random number, toggled bool, fresh string),
                 insert (new leaf with 4 writers at the end of a random container), remove (random leaf), move (random
                 leaf to the end of another random container). Fixed seed \(options.seed). ratio = scratch median /
                 edit median. Edits per op kind stop early if they exceed \(fmt(options.budgetSeconds, 0)) s (flagged CAPPED).
      contention = the machine is shared: each edit's thread CPU time (CLOCK_THREAD_CPUTIME_ID, read just outside
                 the wall-clock pair) is kept too ("cpu med"), and "on-cpu" is the thread's CPU time / wall time over
                 the whole phase (well below 100% = other processes took the core). Wall-clock stats are primary.
      honesty  = every diff's change/evaluation counts go into a checksum; after the edits the incremental reader
                 values are compared with a from-scratch evaluation.

    """)

var results: [ConfigResult] = []
let wallStart = nowNanos()
for shape in options.shapes {
    for size in options.sizes {
        do {
            results.append(try runConfig(shape, size, options))
        } catch {
            say("[\(shape.rawValue) \(size)] FAILED: \(error)")
        }
        Memory.trim()
        say()
    }
}

// MARK: Summary tables

say("== Build, memory, from-scratch ==")
let buildHeader: [(String, Int)] = [
    ("shape", 8), ("nodes", 8), ("leaves", 8), ("readers", 7), ("value ms", 9), ("init ms", 9), ("ins-ops ms", 10),
    ("B/node RSS", 10), ("B/node heap", 11), ("scratch ms", 10), ("stages", 9),
]
say(row(buildHeader))
for r in results {
    let n = Double(r.nodes)
    say(row([
        (r.shape.rawValue, 8), (String(r.nodes), 8), (String(r.leaves), 8), (String(r.readers), 7),
        (fmt(millis(r.valueNs)), 9), (fmt(millis(r.initNs)), 9), (r.insertBuild.map { fmt(millis($0.ns)) } ?? "-", 10),
        (fmt(Double(r.treeBytesRSS) / n), 10), (fmt(Double(r.treeBytesHeap) / n), 11),
        (fmt(r.scratchMedianNs / 1e6, 2), 10), (String(r.scratchSummary.evaluated), 9),
    ]))
}
say()
say("== Per-edit incremental cost (microseconds; one op per apply) ==")
let editHeader: [(String, Int)] = [
    ("shape", 8), ("nodes", 8), ("op", 16), ("edits", 6), ("median", 9), ("p90", 9), ("p99", 9), ("max", 10),
    ("mean", 9), ("cpu med", 9), ("on-cpu", 6), ("stages/ed", 9), ("scratch/med", 11),
]
say(row(editHeader, leftFirst: 3) + "  note")
for r in results {
    for e in r.edits {
        let s = e.stats
        var notes: [String] = []
        if e.capped { notes.append("CAPPED \(s.count)/\(e.requested) (time budget)") }
        if let note = e.note { notes.append(note) }
        say(row([
            (r.shape.rawValue, 8), (String(r.nodes), 8), (e.kind.rawValue, 16), (String(s.count), 6),
            (fmt(s.medianNs / 1e3), 9), (fmt(s.p90Ns / 1e3), 9), (fmt(s.p99Ns / 1e3), 9), (fmt(s.maxNs / 1e3), 10),
            (fmt(s.meanNs / 1e3), 9), (fmt(Stats(e.cpuSamples).medianNs / 1e3), 9), (fmt(e.cpuShare * 100, 0) + "%", 6),
            (fmt(Double(e.evaluated) / Double(max(1, s.count))), 9),
            (fmt(r.scratchMedianNs / s.medianNs, 0) + "x", 11),
        ], leftFirst: 3) + (notes.isEmpty ? "" : "  " + notes.joined(separator: "; ")))
        if e.kind == .setPreference {
            for (i, name) in BenchKeys.names.enumerated() {
                let k = Stats(r.setPrefPerKey[i])
                say(row([
                    ("", 8), ("", 8), ("  ." + name, 16), (String(k.count), 6), (fmt(k.medianNs / 1e3), 9),
                    (fmt(k.p90Ns / 1e3), 9), (fmt(k.p99Ns / 1e3), 9), (fmt(k.maxNs / 1e3), 10),
                    (fmt(k.meanNs / 1e3), 9), ("", 9), ("", 6), ("", 9), (fmt(r.scratchMedianNs / k.medianNs, 0) + "x", 11),
                ], leftFirst: 3))
            }
        }
    }
}
say()
var checksum: UInt64 = 0
for r in results { checksum &+= r.checksum }
let allVerified = results.allSatisfy(\.verified)
say("verification: \(allVerified ? "all configurations ok" : "MISMATCH in some configuration")   "
    + "checksum \(checksum)   total wall time \(fmt(Double(nowNanos() - wallStart) / 1e9, 1)) s")

if let path = options.jsonPath {
    let doc = obj([
        ("tool", "canopy-bench"),
        ("options", obj([
            ("sizes", .array(options.sizes.map { .int(Int64($0)) })),
            ("shapes", .array(options.shapes.map { .string($0.rawValue) })),
            ("editsPerKind", options.edits.map { .int(Int64($0)) } ?? "2000 (<1M) / 1000 (>=1M)"),
            ("budgetSecondsPerKind", .double(options.budgetSeconds)), ("seed", .int(Int64(bitPattern: options.seed))),
        ])),
        ("results", .array(results.map(resultJSON))),
        ("verified", .bool(allVerified)), ("checksum", .int(Int64(bitPattern: checksum))),
    ])
    if writeFile(path, doc.encoded() + "\n") {
        say("wrote \(path)")
    } else {
        say("canopy-bench: cannot write \(path)")
        exit(1)
    }
}
if !allVerified || results.count != options.shapes.count * options.sizes.count { exit(1) }
