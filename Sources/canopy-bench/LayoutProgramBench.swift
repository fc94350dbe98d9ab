import CanopyCore
import CanopyViews
import Glibc

/// `canopy-bench --layout-programs`: what layout adds to program trees' transactions (issue 26), beyond the time
/// `--programs` reports: (1) the 1,000-field form's keystrokes, with the frames each diff carries and what encoding
/// them costs; (2) `scroll` events on a collapsing-header program (config/examples/collapsing-header.swift with N
/// rows), each `ProgramInstance.handle` timed alone as the daemon runs it: the scroll view's content moves, the
/// GeometryReader at its top reads a new minY, its preference changes, the `onPreferenceChange` closure writes the
/// offset, the header's height changes (while collapsing), layout again.
enum LayoutProgramBench {
    struct Settings {
        var fields = 1000
        var keystrokes = 2000
        var rows = 1000
        var events = 2000
        /// Points per scroll event: a fling at 60 Hz.
        var step = 16.0
    }

    /// The diff's "frames" built and encoded as the daemon does (ProtocolMachine+Programs.swift); its bytes.
    static func encodeFrames(_ frames: [FrameChange]) -> Int {
        let json: JSON = .array(frames.map(\.json))
        return json.encoded().utf8.count
    }

    static func run(_ s: Settings) {
        say("canopy-bench --layout-programs — layout in program trees' transactions (release build, single thread)")
        say()
        runForm(s)
        say()
        runScrollHeader(s)
        say()
        for rows in [100, 1000] { CustomLayoutBench.run(rows: rows, events: min(s.events, 200)) }
    }

    // MARK: The form's keystrokes

    static func runForm(_ s: Settings) {
        var settings = ProgramBench.Settings()
        settings.fields = s.fields
        settings.keystrokes = s.keystrokes
        let spec = ProgramSpec(
            source: FormProgram.source(fields: s.fields, perSection: settings.perSection, binding: false),
            view: "BigForm")
        say("""
            == Form keystrokes: frames in the diff (the --programs form, \(s.fields) fields, \(s.keystrokes) keystrokes, \
            same plan) ==
            frames = nodes whose frame changed (the diff's "frames"); encode = building and encoding that array as the \
            daemon does, outside the transaction's time; µs are the transaction's (wall), for reference.
            """)
        let runtime = ViewRuntime()
        guard let start = try? runtime.start(spec, cells: [], version: 0, limits: .default, trace: false) else {
            say("canopy-bench: the form program does not start")
            exit(1)
        }
        let fields = ProgramBench.textFields(start.tree.root)
        say("tree: \(start.tree.nodeCount) nodes, \(start.program.frameTable?.frames.count ?? 0) frames")
        var tree = start.tree
        var buckets: [String: Bucket] = [:]
        for k in ProgramBench.keystrokes(settings) {
            let event = ProgramEvent(node: fields[k.field], event: "setText", value: .string(k.text))
            let t0 = nowNanos()
            guard let t = try? start.program.handle(event, tree: &tree, trace: false) else {
                say("canopy-bench: keystroke on \(fields[k.field]) failed")
                exit(1)
            }
            let wall = nowNanos() - t0
            let e0 = nowNanos()
            let bytes = encodeFrames(t.frames)
            let encode = nowNanos() - e0
            for kind in [ProgramBench.kind(t).rawValue, "all"] {
                buckets[kind, default: Bucket()].wall.append(wall)
                buckets[kind, default: Bucket()].frames.append(UInt64(t.frames.count))
                buckets[kind, default: Bucket()].encode.append(encode)
                buckets[kind, default: Bucket()].encodedBytes.append(UInt64(bytes))
            }
        }
        say(row([
            ("keystroke", 22), ("count", 6), ("median", 8), ("frames med", 10), ("frames max", 10), ("enc µs", 7),
            ("enc KB", 7),
        ]))
        for kind in ProgramBench.Kind.allCases.map(\.rawValue) + ["all"] {
            guard let b = buckets[kind] else { continue }
            let frames = Stats(b.frames)
            say(row([
                (kind, 22), (String(b.wall.count), 6), (fmt(Stats(b.wall).medianNs / 1e3), 8),
                (fmt(frames.medianNs, 0), 10), (fmt(frames.maxNs, 0), 10), (fmt(Stats(b.encode).medianNs / 1e3), 7),
                (fmt(Stats(b.encodedBytes).medianNs / 1e3), 7),
            ]))
        }
    }

    // MARK: The collapsing header's scroll events

    /// `headerView`: the header is a view of its own given `$offset`, so the big body does not read the offset and
    /// does not run again on a scroll (as `--count-label` does for the form).
    static func source(rows: Int, headerView: Bool) -> String {
        let header = """
                    ZStack(alignment: .bottomLeading) {
                        Color.indigo
                        Text(headerHeight > 100 ? "Field notes" : "Notes")
                            .font(headerHeight > 100 ? .largeTitle : .headline)
                            .padding()
                    }
                    .frame(height: headerHeight)
            """
        let headerStruct = """


            struct Header: View {
                @Binding var offset: CGFloat

                var headerHeight: CGFloat { max(60, 200 + min(0, offset)) }

                var body: some View {
            \(header)
                }
            }
            """
        return """
            // canopy: view=CollapsingHeader title="Collapsing header, \(rows) rows" description="canopy-bench --layout-programs"
            import SwiftUI

            struct ScrollOffsetKey: PreferenceKey {
                static var defaultValue: CGFloat = 0
                static func reduce(value: inout CGFloat, nextValue: () -> CGFloat) {
                    value += nextValue()
                }
            }\(headerView ? headerStruct : "")

            struct CollapsingHeader: View {
                @State private var offset: CGFloat = 0
            \(headerView ? "" : "\n    var headerHeight: CGFloat { max(60, 200 + min(0, offset)) }\n")
                var body: some View {
                    VStack(spacing: 0) {
            \(headerView ? "            Header(offset: $offset)" : header)
                        ScrollView {
                            VStack(spacing: 8) {
                                GeometryReader { proxy in
                                    Color.clear.preference(key: ScrollOffsetKey.self, value: proxy.frame(in: .named("scroll")).minY)
                                }
                                .frame(height: 0)
                                ForEach(1...\(rows), id: \\.self) { i in
                                    Color.gray.opacity(0.2)
                                        .frame(height: 44)
                                        .overlay(Text("Entry \\(i)"), alignment: .leading)
                                }
                            }
                            .padding(.horizontal, 16)
                        }
                        .coordinateSpace(name: "scroll")
                        .onPreferenceChange(ScrollOffsetKey.self) { offset = $0 }
                    }
                }
            }

            """
    }

    struct Bucket {
        var wall: [UInt64] = []
        var cpu: [UInt64] = []
        var frames: [UInt64] = []
        var encode: [UInt64] = []
        var encodedBytes: [UInt64] = []
    }

    static func runScrollHeader(_ s: Settings) {
        say("== Scroll events on a \(s.rows)-row collapsing header ==")
        say("""
            program: config/examples/collapsing-header.swift with ForEach(1...\(s.rows)): a GeometryReader at the top of a \
            ScrollView's VStack sends proxy.frame(in: .named("scroll")).minY up through ScrollOffsetKey; \
            onPreferenceChange writes @State offset; the header is max(60, 200 + min(0, offset)) high. "inline": \
            the header in the root's body (the body with the \(s.rows) rows runs again on every offset); "header view": \
            a Header view given $offset (only its body runs again). Canvas: iPhone 15 (393 × 852 @3x).
            method: scroll events on the ScrollView, y going 0 → \(fmt(s.step, 0)) → … (\(fmt(s.step, 0)) pt per event, a \
            60 Hz fling) to 4,000 and back, each ProgramInstance.handle(…, trace: false) timed alone (CLOCK_MONOTONIC; \
            thread CPU read outside). "collapsing": the offset before the event was under 140 (the header's height \
            changes); "collapsed": the header stays 60 high. frames = nodes whose frame changed (the diff's \
            "frames"); encode = building and encoding that "frames" array as the daemon does (not in the \
            transaction's time). A traced run of the same events counts bodies and layout steps.
            """)
        say()
        for headerView in [false, true] {
            runVariant(s, headerView: headerView)
            say()
        }
    }

    static func runVariant(_ s: Settings, headerView: Bool) {
        let name = headerView ? "header view" : "inline"
        let spec = ProgramSpec(source: source(rows: s.rows, headerView: headerView), view: "CollapsingHeader",
                               canvas: CanvasSpec.standard)
        let runtime = ViewRuntime()
        var creation: [UInt64] = []
        var start: ProgramStart?
        for _ in 0..<3 {
            Memory.trim()
            let t0 = nowNanos()
            do { start = try runtime.start(spec, cells: [], version: 0, limits: .default, trace: false) } catch {
                say("canopy-bench: the scroll-header program does not start: \(error)")
                exit(1)
            }
            creation.append(nowNanos() - t0)
        }
        guard let started = start else { return }
        guard let scrollView = find(started.tree.root, type: "ScrollView") else {
            say("canopy-bench: no ScrollView in the scroll-header program")
            exit(1)
        }
        let frames = started.program.frameTable?.frames.count ?? 0
        say("[\(name)] tree: \(started.tree.nodeCount) nodes, \(frames) frames; created in "
            + "\(fmt(Stats(Array(creation.dropFirst())).medianNs / 1e6)) ms (median of 2, compile cached)")

        let plan = offsets(s)
        var tree = started.tree
        var buckets: [String: Bucket] = [:]
        var previous = 0.0
        let cpuStart = threadCPUNanos()
        let wallStart = nowNanos()
        for y in plan {
            let event = ProgramEvent(node: scrollView, event: "scroll", value: ["x": .double(0), "y": .double(y)])
            let c0 = threadCPUNanos()
            let t0 = nowNanos()
            let t: ProgramTransaction
            do { t = try started.program.handle(event, tree: &tree, trace: false) } catch {
                say("canopy-bench: scroll to \(y) failed: \(error)")
                exit(1)
            }
            let wall = nowNanos() - t0
            let cpu = threadCPUNanos() - c0
            // What the daemon adds for the frames: the diff's "frames" array built and encoded.
            let e0 = nowNanos()
            let bytes = encodeFrames(t.frames)
            let encode = nowNanos() - e0
            let kind = previous < 140 ? "collapsing" : "collapsed"
            previous = t.scroll.first?.offset?[1] ?? y
            buckets[kind, default: Bucket()].wall.append(wall)
            buckets[kind, default: Bucket()].cpu.append(cpu)
            buckets[kind, default: Bucket()].frames.append(UInt64(t.frames.count))
            buckets[kind, default: Bucket()].encode.append(encode)
            buckets[kind, default: Bucket()].encodedBytes.append(UInt64(bytes))
        }
        let onCPU = Double(threadCPUNanos() - cpuStart) / Double(max(1, nowNanos() - wallStart))
        let traced = tracedCounts(runtime, spec, scrollView, plan)

        say("[\(name)] == scroll transactions (µs; trace off) ==")
        say(row([
            ("events", 12), ("count", 6), ("median", 8), ("p90", 8), ("p99", 8), ("max", 9), ("cpu med", 8),
            ("cpu p99", 8), ("frames", 7), ("enc µs", 7), ("enc KB", 7), ("bodies", 7), ("geom", 5), ("sized", 6),
        ]))
        var all = Bucket()
        for kind in ["collapsing", "collapsed", "all"] {
            let b: Bucket
            if kind == "all" { b = all } else {
                guard let found = buckets[kind] else { continue }
                b = found
                all.wall += b.wall
                all.cpu += b.cpu
                all.frames += b.frames
                all.encode += b.encode
                all.encodedBytes += b.encodedBytes
            }
            let w = Stats(b.wall)
            let c = Stats(b.cpu)
            let t = traced[kind] ?? TracedCounts()
            say(row([
                (kind, 12), (String(w.count), 6), (fmt(w.medianNs / 1e3), 8), (fmt(w.p90Ns / 1e3), 8),
                (fmt(w.p99Ns / 1e3), 8), (fmt(w.maxNs / 1e3), 9), (fmt(c.medianNs / 1e3), 8), (fmt(c.p99Ns / 1e3), 8),
                (fmt(Stats(b.frames).medianNs, 0), 7), (fmt(Stats(b.encode).medianNs / 1e3), 7),
                (fmt(Stats(b.encodedBytes).medianNs / 1e3), 7), (fmt(Stats(t.bodies).medianNs, 0), 7),
                (fmt(Stats(t.geometry).medianNs, 0), 5), (fmt(Stats(t.layout).medianNs, 0), 6),
            ]))
        }
        say("on-cpu \(fmt(onCPU * 100, 0))%; medians of the traced run: bodies = body runs per event, geom = "
            + "closures run again because a frame they read changed (each adds a layout pass), sized = sizes computed "
            + "(\"layout\" trace steps)")
        for kind in ["collapsing", "collapsed"] {
            guard let views = traced[kind]?.views else { continue }
            let shown = views.sorted { $0.value > $1.value }.prefix(3).map { "\($0.key) ×\($0.value)" }
            say("  \(kind): " + shown.joined(separator: ", "))
        }
        let cpu = Stats(all.cpu)
        say("goal (issue 29): ≤ 100 µs of daemon CPU per scroll event: transaction CPU median "
            + "\(fmt(cpu.medianNs / 1e3)) µs, p99 \(fmt(cpu.p99Ns / 1e3)) µs, plus \(fmt(Stats(all.encode).medianNs / 1e3)) µs "
            + "to encode its frames → \(cpu.medianNs < 100_000 ? "met" : "NOT met") at the median")
    }

    struct TracedCounts {
        var bodies: [UInt64] = []
        var geometry: [UInt64] = []
        var layout: [UInt64] = []
        /// Which views' bodies ran, by how often.
        var views: [String: Int] = [:]
    }

    static func tracedCounts(_ runtime: ViewRuntime, _ spec: ProgramSpec, _ scrollView: String, _ plan: [Double])
        -> [String: TracedCounts]
    {
        guard let start = try? runtime.start(spec, cells: [], version: 0, limits: .default, trace: true) else {
            say("canopy-bench: the scroll-header program does not start traced")
            exit(1)
        }
        var tree = start.tree
        var out: [String: TracedCounts] = [:]
        var previous = 0.0
        for y in plan {
            let event = ProgramEvent(node: scrollView, event: "scroll", value: ["x": .double(0), "y": .double(y)])
            guard let t = try? start.program.handle(event, tree: &tree, trace: true) else {
                say("canopy-bench: traced scroll to \(y) failed")
                exit(1)
            }
            var bodies: UInt64 = 0
            var geometry: UInt64 = 0
            var layout: UInt64 = 0
            var views: [String] = []
            for e in t.diff.trace?.events ?? [] {
                guard case .program(let o) = e.kind, let kind = o["e"]?.string else { continue }
                switch kind {
                case "body":
                    bodies += 1
                    views.append(o["view"]?.string ?? "?")
                case "geometry":
                    geometry += 1
                    views.append((o["view"]?.string ?? "?") + " (geometry)")
                case "layout": layout += 1
                default: break
                }
            }
            let kind = previous < 140 ? "collapsing" : "collapsed"
            previous = t.scroll.first?.offset?[1] ?? y
            for k in [kind, "all"] {
                out[k, default: TracedCounts()].bodies.append(bodies)
                out[k, default: TracedCounts()].geometry.append(geometry)
                out[k, default: TracedCounts()].layout.append(layout)
                out[k, default: TracedCounts()].views[views.isEmpty ? "none" : views.joined(separator: " + "), default: 0] += 1
            }
        }
        return out
    }

    /// 0 → 4,000 → 0 in steps, repeated.
    static func offsets(_ s: Settings) -> [Double] {
        var out: [Double] = []
        var y = 0.0
        var down = true
        while out.count < s.events {
            y += down ? s.step : -s.step
            if y >= 4000 { down = false }
            if y <= 0 {
                y = 0
                down = true
            }
            out.append(y)
        }
        return out
    }

    static func find(_ node: Node, type: String) -> String? {
        if node.type == type { return node.id }
        for c in node.children {
            if let id = find(c, type: type) { return id }
        }
        return nil
    }
}

/// `--layout-programs`' own flags.
func runLayoutPrograms(_ args: [String]) {
    var s = LayoutProgramBench.Settings()
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
        case "--fields": s.fields = positiveInt(value())
        case "--keystrokes": s.keystrokes = positiveInt(value())
        case "--rows": s.rows = positiveInt(value())
        case "--events": s.events = positiveInt(value())
        case "--step":
            guard let step = Double(value()), step > 0 else { fail("--step needs a positive number") }
            s.step = step
        default: fail("unknown argument for --layout-programs: \(args[i])")
        }
        i += 1
    }
    guard s.fields % ProgramBench.Settings().perSection == 0 else { fail("--fields must be a multiple of 50") }
    LayoutProgramBench.run(s)
}
