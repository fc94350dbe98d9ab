import CanopyScript
import Foundation

// canopy-difftest: the CanopyScript side of the differential test (docs/differential.md). Runs every program of the
// corpus through Script.compile and run, and compares what it printed and how it ended with what swiftc's build did
// (Tests/Differential/expected.json, written by scripts/difftest.py).

let usage = """
    usage: canopy-difftest [--only PATH-SUBSTRING] [--json] [--jobs N] [--fuel N] [--root DIR]

      --only S     only the corpus programs whose path (relative to the corpus folder) contains S
      --json       one JSON document on stdout instead of the report
      --jobs N     worker processes (default: the number of cores)
      --fuel N     fuel per program (default 10,000,000, the daemon's default)
      --root DIR   the repository (default: the current folder); the corpus is DIR/Tests/Differential/corpus

    Classes: pass (same lines, same trap or none), rejected (outside the subset: compile_error, allowed), mismatch.
    Exits 1 on a mismatch not listed in Tests/Differential/known-mismatches.txt, or a listed one that now passes
    or is rejected (the list must stay exact), or a program without an expectation.
    """

struct Options {
    var only: String?
    var json = false
    var jobs = max(1, ProcessInfo.processInfo.activeProcessorCount)
    var fuel = 10_000_000
    var root = FileManager.default.currentDirectoryPath
    var worker = false
    var corpus: String?
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("canopy-difftest: \(message)\n\n\(usage)\n".utf8))
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
    while i < args.count {
        switch args[i] {
        case "--only": opt.only = value()
        case "--json": opt.json = true
        case "--jobs":
            guard let n = Int(value()), n > 0 else { fail("--jobs needs a positive number") }
            opt.jobs = n
        case "--fuel":
            guard let n = Int(value().filter { $0 != "_" }), n > 0 else { fail("--fuel needs a positive number") }
            opt.fuel = n
        case "--root": opt.root = value()
        case "--worker": opt.worker = true
        case "--corpus": opt.corpus = value()
        case "-h", "--help":
            print(usage)
            exit(0)
        default: fail("unknown argument \(args[i])")
        }
        i += 1
    }
    return opt
}

/// One program's expectation in expected.json.
struct Expectation: Decodable {
    var path: String
    var stdout: [String]
    var newline_at_end: Bool?
    var trap: Bool?
    var trap_kind: String?
    var trap_message: String?

    var outcome: Outcome {
        Outcome(
            lines: stdout, newlineAtEnd: newline_at_end ?? true, trapKind: trap == true ? trap_kind ?? "trap" : nil,
            trapMessage: trap_message)
    }
}

struct ExpectedFile: Decodable {
    var programs: [String: Expectation]
}

/// One program's verdict, as the report and --json show it.
struct Report: Encodable {
    var path: String
    var verdict: Verdict
    var known: Bool?
    var reason: String?
    var diagnostic: String?
    var diff: [String]?
    /// For a mismatch, with --json: both whole outcomes (lines, then the markers of `Outcome.comparable`).
    var expected: [String]?
    var actual: [String]?
    var lines: Int
    var seconds: Double
}

struct Summary: Encodable {
    var programs = 0
    var lines = 0
    var pass = 0
    var rejected = 0
    var mismatch = 0
    var knownMismatch = 0
    var seconds = 0.0
    var failures: [String] = []
}

struct JSONReport: Encodable {
    var summary: Summary
    var programs: [Report]
}

func corpusPaths(_ corpus: String) -> [String] {
    guard let e = FileManager.default.enumerator(atPath: corpus) else { fail("no corpus at \(corpus)") }
    var out: [String] = []
    while let p = e.nextObject() as? String {
        if p.hasSuffix(".swift") { out.append(p) }
    }
    return out.sorted()
}

/// known-mismatches.txt: corpus path → reason (`path  # reason`, blank lines and `#` lines ignored).
func knownMismatches(_ file: String) -> [String: String] {
    guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return [:] }
    var out: [String: String] = [:]
    for raw in text.split(separator: "\n") {
        let parts = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let path = parts[0].trimmingCharacters(in: .whitespaces)
        if path.isEmpty { continue }
        out[path] = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
    }
    return out
}

let options = parseOptions(Array(CommandLine.arguments.dropFirst()))
let differential = options.root + "/Tests/Differential"
let corpus = options.corpus ?? differential + "/corpus"
if options.worker { runWorker(corpus: corpus, fuel: options.fuel) }

let clock = ContinuousClock()
let started = clock.now
func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }

let expected: [String: Expectation]
do {
    let data = try Data(contentsOf: URL(fileURLWithPath: differential + "/expected.json"))
    expected = try JSONDecoder().decode(ExpectedFile.self, from: data).programs
} catch {
    fail("cannot read \(differential)/expected.json: \(error) (run python3 scripts/difftest.py)")
}
let known = knownMismatches(differential + "/known-mismatches.txt")
let paths = corpusPaths(corpus).filter { options.only == nil || $0.contains(options.only!) }
let results = runInWorkers(paths, corpus: corpus, fuel: options.fuel, jobs: min(options.jobs, max(1, paths.count)))

var summary = Summary()
var reports: [Report] = []
for path in paths {
    let source = FileManager.default.contents(atPath: corpus + "/" + path) ?? Data()
    let hash = SHA256.hex(source)
    guard let want = expected[hash] else {
        summary.failures.append("\(path): no expectation for this source (run python3 scripts/difftest.py)")
        continue
    }
    let r = results[path] ?? WorkerResult(path: path, crash: "no result from the workers", seconds: 0)
    summary.programs += 1
    summary.lines += want.stdout.count
    var report = Report(path: path, verdict: .pass, lines: want.stdout.count, seconds: r.seconds)
    if let crash = r.crash {
        report.verdict = .mismatch
        report.reason = "CanopyScript crashed: \(crash)"
    } else if let diagnostics = r.diagnostics {
        report.verdict = .rejected
        report.diagnostic = diagnostics.first.map { diagnostics.count > 1 ? "\($0) (and \(diagnostics.count - 1) more)" : $0 }
    } else {
        let got = Outcome(output: r.output ?? "", trapKind: r.trapKind, trapMessage: r.trapMessage)
        let exp = want.outcome
        if exp.comparable != got.comparable {
            report.verdict = .mismatch
            report.reason = mismatchReason(expected: exp, actual: got)
            report.diff = unifiedDiff(expected: exp.comparable, actual: got.comparable)
            if options.json {
                report.expected = exp.comparable
                report.actual = got.comparable
            }
        }
    }
    switch report.verdict {
    case .pass: summary.pass += 1
    case .rejected: summary.rejected += 1
    case .mismatch: summary.mismatch += 1
    }
    if known[path] != nil {
        report.known = true
        if report.verdict == .mismatch {
            summary.knownMismatch += 1
        } else {
            summary.failures.append(
                "\(path): listed in known-mismatches.txt but now \(report.verdict.rawValue): remove it from the list")
        }
    } else if report.verdict == .mismatch {
        summary.failures.append("\(path): mismatch not in known-mismatches.txt: \(report.reason ?? "")")
    }
    reports.append(report)
}
let allPaths = Set(corpusPaths(corpus))
for path in known.keys.sorted() where !allPaths.contains(path) {
    summary.failures.append("\(path): listed in known-mismatches.txt but not in the corpus")
}
summary.seconds = seconds(clock.now - started)

if options.json {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let data = (try? encoder.encode(JSONReport(summary: summary, programs: reports))) ?? Data()
    FileHandle.standardOutput.write(data + Data("\n".utf8))
} else {
    var out = ""
    let mismatches = reports.filter { $0.verdict == .mismatch }
    if !mismatches.isEmpty { out += "== mismatches\n" }
    for r in mismatches {
        out += "\n\(r.path): \(r.reason ?? "")\(r.known == true ? "  [known: \(known[r.path] ?? "")]" : "")\n"
        for line in r.diff ?? [] { out += "    \(line)\n" }
    }
    let rejected = reports.filter { $0.verdict == .rejected }
    if !rejected.isEmpty { out += "\n== rejected (outside the subset)\n" }
    for r in rejected { out += "\(r.path): \(r.diagnostic ?? "")\n" }
    if !summary.failures.isEmpty { out += "\n== failures\n" + summary.failures.map { $0 + "\n" }.joined() }
    out += String(
        format: "\ncanopy-difftest: %d programs, %d expected lines: %d pass, %d rejected, %d mismatch (%d known), %.1f s\n",
        summary.programs, summary.lines, summary.pass, summary.rejected, summary.mismatch, summary.knownMismatch,
        summary.seconds)
    FileHandle.standardOutput.write(Data(out.utf8))
}
exit(summary.failures.isEmpty ? 0 : 1)
