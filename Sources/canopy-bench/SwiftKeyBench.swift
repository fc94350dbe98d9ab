import CanopyCore
import CanopyScript

/// `canopy-bench --swift-keys`: custom keys written in Swift next to their catalog reducers, side by side in one
/// run, on the same trees and edits: per-edit cost (setPreference on a random leaf) and from-scratch evaluation.
/// Also the compile time of a 200-line program.
enum SwiftKeyBench {
    static let sumSource = """
        struct Total: PreferenceKey {
            static var defaultValue = 0
            static func reduce(value: inout Int, nextValue: () -> Int) {
                value += nextValue()
            }
        }
        """

    static let prioritySource = """
        struct Message: Equatable {
            var priority: Double
            var content: String
        }
        struct Total: PreferenceKey {
            static var defaultValue: Message? = nil
            static func reduce(value: inout Message?, nextValue: () -> Message?) {
                guard let e = value, !e.content.isEmpty else {
                    value = nextValue()
                    return
                }
                guard let n = nextValue(), !n.content.isEmpty, n.priority > e.priority else { return }
                value = n
            }
        }
        """

    struct Flavor: Sendable {
        var name: String
        var catalog: KeyDeclaration
        var swiftSource: String
        var value: @Sendable (inout SplitMix64, String) -> JSON
    }

    static let flavors: [Flavor] = [
        Flavor(
            name: "sum", catalog: KeyDeclaration(key: "Total", reducer: .sum, defaultValue: 0), swiftSource: sumSource,
            value: { rng, _ in .int(Int64(rng.int(1000))) }),
        Flavor(
            name: "priority", catalog: KeyDeclaration(key: "Total", reducer: .priority, defaultValue: .null),
            swiftSource: prioritySource,
            value: { rng, id in ["priority": .int(Int64(rng.int(10))), "content": .string(id)] }),
    ]

    static func run(sizes: [Int], shapes: [Shape], edits: Int, scratchRuns: Int, seed: UInt64) {
        say("canopy-bench --swift-keys — catalog reducer vs the same reducer written as a Swift PreferenceKey")
        say("each leaf writes key Total; readers as in the main benchmark; edits = setPreference on a random leaf")
        say()
        compileTime()
        let header: [(String, Int)] = [
            ("shape", 8), ("nodes", 8), ("key", 9), ("impl", 8), ("init ms", 9), ("scratch ms", 10), ("edit med µs", 11),
            ("p90 µs", 9), ("p99 µs", 9), ("reduces/ed", 10),
        ]
        var lines: [String] = [row(header)]
        var ratios: [String] = []
        var ok = true
        for shape in shapes {
            for size in sizes {
                for flavor in flavors {
                    let base = shape.build(nodes: size, seed: seed)
                    var rng = SplitMix64(seed: seed &+ 7)
                    let root = rewrite(base, flavor, &rng)
                    var leaves: [String] = []
                    collectWriters(root, into: &leaves)
                    let swiftDecl = try! ScriptKeyCompiler().compileKey(named: "Total", source: flavor.swiftSource)
                    var results: [(String, Measured)] = []
                    for (impl, decl) in [("catalog", flavor.catalog), ("swift", KeyDeclaration(key: "Total", custom: swiftDecl))] {
                        let m = measure(root, decl, leaves, flavor, edits: edits, scratchRuns: scratchRuns, seed: seed)
                        ok = ok && m.verified
                        results.append((impl, m))
                        lines.append(
                            row([
                                (shape.rawValue, 8), (String(size), 8), (flavor.name, 9), (impl, 8), (fmt(m.initMs), 9),
                                (fmt(m.scratchMs, 2), 10), (fmt(m.edit.medianNs / 1e3, 2), 11), (fmt(m.edit.p90Ns / 1e3), 9),
                                (fmt(m.edit.p99Ns / 1e3), 9), (fmt(m.reducesPerEdit), 10),
                            ]))
                        say(lines.last!)
                    }
                    let c = results[0].1
                    let s = results[1].1
                    ratios.append(
                        "\(shape.rawValue) \(size) \(flavor.name): per edit \(fmt(s.edit.medianNs / c.edit.medianNs, 2))× "
                            + "(goal ≤ 3×), from scratch \(fmt(s.scratchMs / c.scratchMs, 2))× (goal ≤ 5×)")
                }
            }
        }
        say()
        say("== Swift key vs catalog ==")
        for l in lines { say(l) }
        say()
        for r in ratios { say(r) }
        say(ok ? "verification: Swift and catalog readers agree, incremental equals from scratch" : "verification: MISMATCH")
    }

    struct Measured {
        var initMs = 0.0
        var scratchMs = 0.0
        var edit = Stats([])
        var reducesPerEdit = 0.0
        var verified = true
        var readers: [ReaderValue] = []
    }

    private static func measure(
        _ root: Node, _ decl: KeyDeclaration, _ leaves: [String], _ flavor: Flavor, edits: Int, scratchRuns: Int,
        seed: UInt64
    ) -> Measured {
        var m = Measured()
        let t0 = nowNanos()
        var tree = try! Tree(keys: [decl], root: root, compiler: ScriptKeyCompiler())
        m.initMs = millis(nowNanos() - t0)
        var scratch: [UInt64] = []
        for _ in 0..<scratchRuns {
            let s0 = nowNanos()
            _ = tree.evaluateFromScratch()
            scratch.append(nowNanos() - s0)
        }
        m.scratchMs = Stats(scratch).medianNs / 1e6
        var rng = SplitMix64(seed: seed &+ 99)
        var samples: [UInt64] = []
        var reduces = 0
        for _ in 0..<edits {
            let id = leaves[rng.int(leaves.count)]
            let op = Op.setPreference(node: id, key: "Total", value: flavor.value(&rng, id))
            let e0 = nowNanos()
            let diff = try! tree.apply([op])
            samples.append(nowNanos() - e0)
            reduces += diff.summary.reduces
        }
        m.edit = Stats(samples)
        m.reducesPerEdit = Double(reduces) / Double(max(1, edits))
        m.readers = tree.readers
        m.verified = tree.readers == tree.evaluateFromScratch().readers
        return m
    }

    /// Keeps only key `total`'s writers and readers, renamed `Total`, with the flavor's values.
    private static func rewrite(_ n: Node, _ flavor: Flavor, _ rng: inout SplitMix64) -> Node {
        var out = n
        out.modifiers = n.modifiers.compactMap { m in
            switch m {
            case .preference(key: "total", _): return .preference(key: "Total", value: flavor.value(&rng, n.id))
            case .onPreferenceChange(key: "total"): return .onPreferenceChange(key: "Total")
            default: return nil
            }
        }
        out.children = n.children.map { rewrite($0, flavor, &rng) }
        return out
    }

    private static func collectWriters(_ n: Node, into out: inout [String]) {
        if n.modifiers.contains(where: { if case .preference = $0 { return true } else { return false } }) {
            out.append(n.id)
        }
        for c in n.children { collectWriters(c, into: &out) }
    }

    /// Compile time of a 200-line program of keys and helpers (median of 5).
    private static func compileTime() {
        var lines: [String] = []
        var i = 0
        while lines.count < 200 {
            lines.append(contentsOf: [
                "struct Key\(i): PreferenceKey {",
                "    static var defaultValue: [Int: CGRect] = [:]",
                "    static func reduce(value: inout [Int: CGRect], nextValue: () -> [Int: CGRect]) {",
                "        value.merge(nextValue(), uniquingKeysWith: { a, b in a.union(b) })",
                "    }",
                "}",
                "enum Level\(i): Int, Comparable {",
                "    case low, medium, high",
                "    static func < (a: Level\(i), b: Level\(i)) -> Bool { a.rawValue < b.rawValue }",
                "}",
                "func helper\(i)(_ xs: [Double]) -> Double {",
                "    var best = 0.0",
                "    for x in xs where x > best { best = x }",
                "    return xs.isEmpty ? 0 : best",
                "}",
                "",
            ])
            i += 1
        }
        let source = lines.joined(separator: "\n")
        var samples: [UInt64] = []
        for _ in 0..<5 {
            let t0 = nowNanos()
            do { _ = try Script.compile(source) } catch {
                say("compile of the 200-line program failed: \(error)")
                return
            }
            samples.append(nowNanos() - t0)
        }
        say("compile time of a \(lines.count)-line program (\(i) keys, enums, helpers): median \(fmt(Stats(samples).medianNs / 1e6, 2)) ms")
        say()
    }
}
