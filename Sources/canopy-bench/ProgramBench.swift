import CanopyCore
import CanopyViews
import Glibc

/// `canopy-bench --programs`: a program tree of the generated form (`FormProgram`), driven by keystrokes (`setText`
/// on a random field) through `ProgramInstance.handle`, as the daemon runs them, before anything is encoded or sent.
/// Reports the creation of the tree, each keystroke's transaction time by what it changed, and which bodies ran.
enum ProgramBench {
    struct Settings {
        var fields = 1000
        var perSection = 50
        var keystrokes = 5000
        var creations = 3
        var binding = false
        /// The key carries message counts (`Int`) instead of the messages (`[String]`).
        var counts = false
        /// A `CountLabel` view shows the count, so the form's body does not read it.
        var label = false
        var seed: UInt64 = 0x00C0_FFEE
    }

    /// What a keystroke changed, from its transaction: the form's count, only its field's message, or nothing the
    /// form sees (the field's preference value stayed the same).
    enum Kind: String, CaseIterable {
        case countChanged = "count changes"
        case messageChanged = "message only"
        case unchanged = "no preference change"
    }

    struct Keystroke {
        var field: Int
        var text: String
    }

    static func run(_ s: Settings) {
        let source = FormProgram.source(
            fields: s.fields, perSection: s.perSection, binding: s.binding, counts: s.counts,
            label: s.label)
        let fieldText =
            s.binding ? "its own @State text, passed as $text to a FieldRow's @Binding" : "its own @State text"
        let keyText =
            s.counts
            ? "its number of messages in the FieldMessages preference key (Int, summed)"
            : "its message in the FieldMessages preference key ([String], appended)"
        say("canopy-bench --programs — a \(s.fields)-field form as a program tree (release build, single thread)")
        say("""
            program: FormProgram.swift, \(s.fields) fields in sections of \(s.perSection); each field a view struct \
            with \(fieldText), two validation \
            rules, \(keyText); \
            the form counts them in onPreferenceChange into @State messageCount and shows the count\
            \(s.label ? " through a CountLabel view given $messageCount" : "").
            method: keystrokes = setText on a random field, each ProgramInstance.handle(…, trace: false) timed alone \
            (CLOCK_MONOTONIC; thread CPU time read just outside); a field's text cycles "" → a → ab → abc → \
            abcd → abcde → "" (fixed seed \(s.seed)). A second run of the same keystrokes on a fresh tree with \
            trace: true counts the bodies that ran. The daemon's encoding, storing and fan-out are not included.
            """)
        say()
        let runtime = ViewRuntime()
        let spec = ProgramSpec(source: source, view: "BigForm")

        // Creation: the first start compiles (and caches) the source; later ones only build the tree.
        var creation: [UInt64] = []
        var first: UInt64 = 0
        var start: ProgramStart?
        for i in 0...s.creations {
            Memory.trim()
            let t0 = nowNanos()
            do {
                start = try runtime.start(spec, cells: [], version: 0, limits: .default, trace: false)
            } catch {
                say("canopy-bench: the form program does not start: \(error)")
                exit(1)
            }
            let ns = nowNanos() - t0
            if i == 0 { first = ns } else { creation.append(ns) }
        }
        guard var timed = start else { return }
        let fields = textFields(timed.tree.root)
        guard fields.count == s.fields else {
            say("canopy-bench: expected \(s.fields) text fields, found \(fields.count)")
            exit(1)
        }
        say("tree: \(timed.tree.nodeCount) nodes, \(fields.count) text fields, "
            + "\(timed.program.cells.count) state cells")
        say("create: first start (compile + build) \(fmt(millis(first))) ms; build from the cached compile, median of "
            + "\(s.creations): \(fmt(Stats(creation).medianNs / 1e6)) ms")
        // One more tree, kept alive while memory is sampled: what a program tree of this form costs.
        let m0 = Memory.sample()
        let extra = try? runtime.start(spec, cells: [], version: 0, limits: .default, trace: false)
        let m1 = Memory.sample()
        let nodes = Double(extra?.tree.nodeCount ?? 1)
        say("memory of one more tree (after malloc_trim): \(fmt(Double(m1.rss - m0.rss) / 1_048_576, 2)) MiB RSS "
            + "(\(fmt(Double(m1.rss - m0.rss) / nodes)) B/node), \(fmt(Double(m1.heap - m0.heap) / 1_048_576, 2)) MiB "
            + "malloc (\(fmt(Double(m1.heap - m0.heap) / nodes)) B/node)")
        withExtendedLifetime(extra) {}
        say()

        let plan = keystrokes(s)
        var rows: [Kind: Bucket] = [:]
        var tree = timed.tree
        let cpuStart = threadCPUNanos()
        let wallStart = nowNanos()
        for k in plan {
            let event = ProgramEvent(node: fields[k.field], event: "setText", value: .string(k.text))
            let c0 = threadCPUNanos()
            let t0 = nowNanos()
            let t: ProgramTransaction
            do { t = try timed.program.handle(event, tree: &tree, trace: false) } catch {
                say("canopy-bench: keystroke on \(fields[k.field]) failed: \(error)")
                exit(1)
            }
            let wall = nowNanos() - t0
            let cpu = threadCPUNanos() - c0
            rows[kind(t), default: Bucket()].add(wall: wall, cpu: cpu, ops: t.diff.ops.count)
        }
        let onCPU = Double(threadCPUNanos() - cpuStart) / Double(max(1, nowNanos() - wallStart))
        timed.tree = tree

        // The same keystrokes on a fresh tree, traced: which bodies ran.
        let traced = bodiesRun(runtime, spec, fields, plan)
        report(rows, traced: traced, onCPU: onCPU)

        let same = traced.tree.root == timed.tree.root
        let expected = expectedCount(plan, s.fields)
        let label = s.label ? "BigForm/0:Form/0:Section/0:CountLabel/0:Text" : "BigForm/0:Form/0:Section/0:Text"
        let shown = timed.tree.node(label)?.props["text"]?.string
        let countOK = shown == "\(expected) fields need attention"
        // A tree built afresh from the cells equals the one the keystrokes' ops made.
        let fresh = try? runtime.start(spec, state: timed.program.state, version: 0, limits: .default, trace: false)
        let rebuilt = fresh?.tree.root == timed.tree.root
        say()
        say("verification: traced and untraced runs give the same tree: \(same ? "yes" : "NO"); the form shows "
            + "\"\(shown ?? "?")\", expected \(expected): \(countOK ? "ok" : "MISMATCH"); rebuilt from the cells: "
            + (rebuilt ? "same tree" : "DIFFERENT"))
        if !same || !countOK || !rebuilt { exit(1) }
    }

    struct Bucket {
        var wall: [UInt64] = []
        var cpu: [UInt64] = []
        var ops = 0

        mutating func add(wall w: UInt64, cpu c: UInt64, ops o: Int) {
            wall.append(w)
            cpu.append(c)
            ops += o
        }
    }

    static func kind(_ t: ProgramTransaction) -> Kind {
        if t.state.contains(where: { $0.name == "messageCount" }) { return .countChanged }
        return t.diff.changes.isEmpty ? .unchanged : .messageChanged
    }

    /// Every field's text cycles through the lengths 0…5; each keystroke picks a random field.
    static func keystrokes(_ s: Settings) -> [Keystroke] {
        var rng = SplitMix64(seed: s.seed)
        var texts = Array(repeating: "", count: s.fields)
        var plan: [Keystroke] = []
        plan.reserveCapacity(s.keystrokes)
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        for _ in 0..<s.keystrokes {
            let f = rng.int(s.fields)
            texts[f] = texts[f].count >= 5 ? "" : texts[f] + String(letters[rng.int(letters.count)])
            plan.append(Keystroke(field: f, text: texts[f]))
        }
        return plan
    }

    /// Fields whose text is shorter than the minimum after the plan (each has one message).
    static func expectedCount(_ plan: [Keystroke], _ fields: Int) -> Int {
        var texts = Array(repeating: "", count: fields)
        for k in plan { texts[k.field] = k.text }
        return texts.filter { $0.count < FormProgram.minimumLength }.count
    }

    /// The ids of the tree's text fields, in tree order.
    static func textFields(_ root: Node) -> [String] {
        var out: [String] = []
        var stack = [root]
        while let n = stack.popLast() {
            if n.type == "TextField" { out.append(n.id) }
            stack.append(contentsOf: n.children.reversed())
        }
        return out
    }
}
