import CanopyCore
import CanopyViews
import Glibc

extension ProgramBench {
    /// The traced run: per kind of keystroke, how often each set of bodies ran, and the traced times.
    struct Traced {
        var tree: Tree
        var bodies: [Kind: [String: Int]] = [:]
        var wall: [Kind: [UInt64]] = [:]
    }

    static func bodiesRun(_ runtime: ViewRuntime, _ spec: ProgramSpec, _ fields: [String], _ plan: [Keystroke])
        -> Traced
    {
        guard let start = try? runtime.start(spec, cells: [], version: 0, limits: .default, trace: true) else {
            say("canopy-bench: the form program does not start")
            exit(1)
        }
        var out = Traced(tree: start.tree)
        for k in plan {
            let event = ProgramEvent(node: fields[k.field], event: "setText", value: .string(k.text))
            let t0 = nowNanos()
            guard let t = try? start.program.handle(event, tree: &out.tree, trace: true) else {
                say("canopy-bench: traced keystroke on \(fields[k.field]) failed")
                exit(1)
            }
            let wall = nowNanos() - t0
            let views: [String] = (t.diff.trace?.events ?? []).compactMap {
                if case .program(let o) = $0.kind, o["e"] == "body" { return o["view"]?.string }
                return nil
            }
            let kind = kind(t)
            out.bodies[kind, default: [:]][views.isEmpty ? "none" : views.joined(separator: " + "), default: 0] += 1
            out.wall[kind, default: []].append(wall)
        }
        return out
    }

    static func report(_ rows: [Kind: Bucket], traced: Traced, onCPU: Double) {
        say("== Keystroke transactions (µs; ProgramInstance.handle, trace off) ==")
        let header: [(String, Int)] = [
            ("keystroke", 22), ("count", 6), ("median", 8), ("p90", 8), ("p99", 8), ("max", 9), ("cpu med", 8),
            ("cpu p99", 8), ("ops/ks", 7), ("traced med", 10),
        ]
        say(row(header, leftFirst: 1))
        var all = Bucket()
        for kind in Kind.allCases {
            guard let b = rows[kind] else { continue }
            all.wall += b.wall
            all.cpu += b.cpu
            all.ops += b.ops
            say(line(kind.rawValue, b, traced: traced.wall[kind] ?? []))
        }
        say(line("all", all, traced: Kind.allCases.flatMap { traced.wall[$0] ?? [] }))
        say("on-cpu \(fmt(onCPU * 100, 0))% (thread CPU / wall over the timed run; well below 100% = a busy machine)")
        say()
        say("== Bodies that ran per keystroke (trace on, same keystrokes) ==")
        for kind in Kind.allCases {
            guard let sets = traced.bodies[kind] else { continue }
            let shown = sets.sorted { $0.value > $1.value }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", ")
            say(pad(kind.rawValue, 22, right: false) + " " + shown)
        }
        let cpu = Stats(all.cpu)
        say()
        say("goal (issue 14): one field's body per keystroke (+ the form's when the count changes), under 200 µs of "
            + "server CPU before the fan-out: median CPU \(fmt(cpu.medianNs / 1e3)) µs, "
            + "p99 \(fmt(cpu.p99Ns / 1e3)) µs "
            + "→ \(cpu.medianNs < 200_000 ? "met at the median" : "MISSED at the median")"
            + (cpu.p99Ns < 200_000 ? ", met at p99" : ", missed at p99"))
    }

    private static func line(_ label: String, _ b: Bucket, traced: [UInt64]) -> String {
        let w = Stats(b.wall)
        let c = Stats(b.cpu)
        return row([
            (label, 22), (String(w.count), 6), (fmt(w.medianNs / 1e3), 8), (fmt(w.p90Ns / 1e3), 8),
            (fmt(w.p99Ns / 1e3), 8), (fmt(w.maxNs / 1e3), 9), (fmt(c.medianNs / 1e3), 8), (fmt(c.p99Ns / 1e3), 8),
            (fmt(Double(b.ops) / Double(max(1, w.count)), 2), 7), (fmt(Stats(traced).medianNs / 1e3), 10),
        ], leftFirst: 1)
    }
}
