import Testing

@testable import CanopyCore

// The `depth` of trace events (docs/engine.md, "Trace"): exact depths for worked cases of SEMANTICS.md §7, from
// scratch and incrementally, and for random trees the rule a client relies on to nest reduce calls: the operand a
// reduce's `nextValue` evaluated starts at the last `eval`/`cached` one level deeper than the reduce, with nothing at
// the reduce's level or above in between.

// MARK: - Helpers

/// A value as SEMANTICS.md writes it: strings bare, anything else as JSON.
private func shown(_ value: JSON) -> String { value.string ?? value.encoded() }

/// Each event as `depth e node[#modifier]`, a reduce with its call `r(value, next)` (`—`: next not evaluated), a
/// cached stage with its value and a fire with the reader's value.
private func steps(_ trace: Trace?) -> [String] {
    func site(_ node: String, _ modifier: Int?) -> String { modifier.map { "\(node)#\($0)" } ?? node }
    return (trace?.events ?? []).map { event in
        let what: String
        switch event.kind {
        case .eval(let n, _, let m): what = "eval \(site(n, m))"
        case .cached(let n, _, let m, let v): what = "cached \(site(n, m)) = \(shown(v))"
        case .skip(let n, _, let m): what = "skip \(site(n, m))"
        case .reduce(let n, _, let m, let v, let next, _):
            what = "reduce \(site(n, m)) r(\(shown(v)), \(next.map(shown) ?? "—"))"
        case .fire(let r, _, _, let v): what = "fire \(r) = \(v.map(shown) ?? "absent")"
        case .program: what = "program"
        }
        return "\(event.depth) \(what)"
    }
}

/// A leaf with writer `.preference(K, value)` followed by `more` modifiers.
private func writer(_ value: JSON, id: String, _ more: Modifier...) -> Node {
    Node(id: id, type: "V", modifiers: [.preference(key: "K", value: value)] + more)
}

/// Checks traces against the depth rule; the differential test runs it on every traced batch too.
enum TraceDepth {
    /// What a check of one trace found: the rule's violations, and how many reduces it checked and found nesting
    /// other reduces between their operand's first event and themselves.
    struct Report {
        var violations: [String] = []
        var checkedReduces = 0
        var nestingReduces = 0
    }

    /// Checks every event of `trace`, which evaluated `tree` in its current state: `fire` at depth 0, stages at 1 or
    /// deeper, a skip one level below the reduce right after it, and for every reduce whose `nextValue` evaluated an
    /// operand the marker search finds that operand's stage: a child for a fold, the host's inner stage for a
    /// background, the attached root for an overlay. A `{"reduce": v}` transform's `next` is its constant: no marker.
    static func check(_ trace: Trace, of tree: Tree) -> Report {
        var report = Report()
        let events = trace.events
        func fail(_ i: Int, _ why: String) {
            report.violations.append("event \(i) \(events[i].json.encoded()): \(why)")
        }
        for (i, event) in events.enumerated() {
            let d = event.depth
            switch event.kind {
            case .program: break
            case .fire:
                if d != 0 { fail(i, "a fire must be at depth 0") }
            case .eval, .cached:
                if d < 1 { fail(i, "a stage must be at depth 1 or deeper") }
            case .skip:
                if d < 2 { fail(i, "a skipped operand must be below a reducing stage, at depth 2 or deeper") }
            case .reduce(let n, let key, let m, _, let next, _):
                guard d >= 1, let node = tree.node(n) else {
                    fail(i, "a reduce must be at depth 1 or deeper, on a node of the tree")
                    continue
                }
                if let m, case .transformPreference = node.modifiers[m] { continue }
                report.checkedReduces += 1
                let operand = expectedOperand(node, key: key, modifier: m)
                guard next != nil else {
                    let previous = i > 0 ? events[i - 1] : nil
                    guard let previous, previous.depth == d + 1, case .skip(let s, _, let sm) = previous.kind,
                        operand.matches(node: s, modifier: sm)
                    else {
                        fail(i, "a reduce without nextValue must follow the skip of \(operand) at depth \(d + 1)")
                        continue
                    }
                    continue
                }
                // The marker search: back from the reduce, over deeper events only, to an eval/cached at d + 1.
                var j = i - 1
                var nested = false
                var marker: (node: String, modifier: Int?, cached: JSON?)? = nil
                while j >= 0 && events[j].depth > d {
                    switch (events[j].depth == d + 1, events[j].kind) {
                    case (true, .eval(let mn, _, let mm)): marker = (mn, mm, nil)
                    case (true, .cached(let mn, _, let mm, let v)): marker = (mn, mm, v)
                    case (_, .reduce): nested = true
                    default: break
                    }
                    if marker != nil { break }
                    j -= 1
                }
                guard let marker else {
                    fail(i, "no eval or cached at depth \(d + 1) before it without an event at depth ≤ \(d) between")
                    continue
                }
                if nested { report.nestingReduces += 1 }
                if !operand.matches(node: marker.node, modifier: marker.modifier) {
                    fail(i, "its marker, event \(j), must be \(operand)")
                }
                if let cached = marker.cached, cached != next {
                    fail(i, "its marker's cached value \(cached.encoded()) must be next")
                }
            }
        }
        return report
    }

    /// What `nextValue` may evaluate for a reduce: one of `nodes`, and for a background's pair the host's inner stage
    /// (`stage`: its modifier index, nil for the fold).
    struct Operand: CustomStringConvertible {
        var nodes: Set<String>
        var checksStage = false
        var stage: Int? = nil

        var description: String {
            "\(nodes.sorted())" + (checksStage ? " at modifier \(stage.map(String.init) ?? "nil")" : "")
        }

        func matches(node: String, modifier: Int?) -> Bool {
            nodes.contains(node) && (!checksStage || stage == modifier)
        }
    }

    /// The operand of a reduce of `node` at `modifier` (nil: the fold): a child, the host's inner stage for a
    /// background, the attached root for an overlay.
    private static func expectedOperand(_ node: Node, key: String, modifier m: Int?) -> Operand {
        guard let m else { return Operand(nodes: Set(node.children.map(\.id))) }
        switch node.modifiers[m] {
        case .overlay(let attached):
            return Operand(nodes: [attached.id])
        case .background:
            let inner = node.modifiers[..<m].lastIndex { modifier in
                switch modifier {
                case .background, .overlay: return true
                case .preference(let k, _), .transformPreference(let k, _): return k == key
                default: return false
                }
            }
            return Operand(nodes: [node.id], checksStage: true, stage: inner)
        default:
            return Operand(nodes: [])
        }
    }
}

// MARK: - Tests

@Suite struct TraceDepthTests {
    // Case 1: VStack{V("R1");V("R2");V("R3");V("R4")}.R, LAST: a flat fold. Every writer is read one level below the
    // stack's fold, which reduces at depth 1; the fire is at 0.
    @Test func aFlatFoldReadsEveryChildOneLevelBelowItsReduces() throws {
        let content = T.stack(
            id: "s", [writer("R1", id: "v1"), writer("R2", id: "v2"), writer("R3", id: "v3"), writer("R4", id: "v4")],
            modifiers: [T.reader()])
        let tree = try T.tree([T.key(.last, "Default")], content)
        let trace = tree.evaluateFromScratch(trace: true).trace
        #expect(
            steps(trace) == [
                "1 eval s",
                "2 eval v1#0",
                "2 eval v2#0", "1 reduce s r(R1, R2)",
                "2 eval v3#0", "1 reduce s r(R2, R3)",
                "2 eval v4#0", "1 reduce s r(R3, R4)",
                "0 fire s#0 = R4",
            ])
        #expect(trace?.json["events"]?[0] == ["e": "eval", "node": "s", "key": "K", "depth": 1])
        #expect(trace?.json["events"]?[8]?["depth"] == 0)
    }

    // Case 6: VStack{V("a");Group{V("b");V("c")}}.R, NEST → r(a, ⟦r(b,c)⟧): the group's fold is the operand of the
    // stack's reduce, so it and its reduce sit one level deeper, and its children two.
    @Test func aNestedGroupReducesOneLevelBelowTheReduceWhoseNextValueRanIt() throws {
        let group = T.stack("Group", id: "g", [writer("b", id: "b"), writer("c", id: "c")])
        let content = T.stack(id: "s", [writer("a", id: "a"), group], modifiers: [T.reader()])
        let tree = try T.tree([T.key(.nest, "")], content)
        let trace = try #require(tree.evaluateFromScratch(trace: true).trace)
        #expect(
            steps(trace) == [
                "1 eval s",
                "2 eval a#0",
                "2 eval g",
                "3 eval b#0",
                "3 eval c#0", "2 reduce g r(b, c)",
                "1 reduce s r(a, (b c))",
                "0 fire s#0 = (a (b c))",
            ])
        let report = TraceDepth.check(trace, of: tree)
        #expect(report.violations == [])
        #expect(report.checkedReduces == 2)
        #expect(report.nestingReduces == 1)
        #expect(trace.json["events"]?[5]?["depth"] == 2)
        #expect(trace.json["events"]?[6]?["depth"] == 1)
    }

    // Case 11: V("c").background(V("b")).overlay(V("o")).R, NEST → r(b,c) r((b c),o): the overlay's pair is the
    // reader's stage; the background's pair, its first operand, runs one level deeper, and its operands two.
    @Test func aBackgroundPairNestsInsideTheOverlayPairThatReadsIt() throws {
        let content = writer(
            "c", id: "c", .background(writer("b", id: "b")), .overlay(writer("o", id: "o")), T.reader())
        let tree = try T.tree([T.key(.nest, "")], content)
        let trace = try #require(tree.evaluateFromScratch(trace: true).trace)
        #expect(
            steps(trace) == [
                "1 eval c#2",
                "2 eval c#1",
                "3 eval b#0",
                "3 eval c#0", "2 reduce c#1 r(b, c)",
                "2 eval o#0", "1 reduce c#2 r((b c), o)",
                "0 fire c#3 = ((b c) o)",
            ])
        let report = TraceDepth.check(trace, of: tree)
        #expect(report.violations == [])
        #expect(report.checkedReduces == 2)
        #expect(report.nestingReduces == 0)
    }

    // Case 5: VStack{V(1);V(2)}.R, KEEP → r(1,—): the skipped child is at the depth its read would have had.
    @Test func aSkipIsAtTheDepthItsOperandWouldHaveHad() throws {
        let content = T.stack(id: "s", [writer(1, id: "one"), writer(2, id: "two")], modifiers: [T.reader()])
        let tree = try T.tree([T.key(.first, 0)], content)
        let trace = try #require(tree.evaluateFromScratch(trace: true).trace)
        #expect(steps(trace) == ["1 eval s", "2 eval one#0", "2 skip two", "1 reduce s r(1, —)", "0 fire s#0 = 1"])
        #expect(TraceDepth.check(trace, of: tree).violations == [])
    }

    // Case 26: VStack{Group{V(1);V(2)};V(3)}.R, SUM. Editing 3→4 re-runs the stack's fold, which finds the group
    // cached one level down. Editing 1→5 inside the group: verifying the stack's fold recomputes the group first, one
    // level down, before the stack's own eval; the fold then finds the group cached.
    @Test func incrementalEditsTraceCachedAndVerifiedOperandsAtTheirDepths() throws {
        let group = T.stack("Group", id: "g", [writer(1, id: "one"), writer(2, id: "two")])
        let content = T.stack(id: "s", [group, writer(3, id: "three")], modifiers: [T.reader()])
        var tree = try T.tree([T.key(.sum, 0)], content)
        #expect(
            steps(tree.evaluateFromScratch(trace: true).trace) == [
                "1 eval s",
                "2 eval g",
                "3 eval one#0",
                "3 eval two#0", "2 reduce g r(1, 2)",
                "2 eval three#0", "1 reduce s r(3, 3)",
                "0 fire s#0 = 6",
            ])

        let sibling = try tree.apply([.setPreference(node: "three", key: "K", value: 4)], trace: true)
        #expect(
            steps(sibling.trace) == [
                "1 eval s",
                "2 cached g = 3",
                "2 eval three#0", "1 reduce s r(3, 4)",
                "0 fire s#0 = 7",
            ])
        #expect(TraceDepth.check(try #require(sibling.trace), of: tree).violations == [])

        let inside = try tree.apply([.setPreference(node: "one", key: "K", value: 5)], trace: true)
        #expect(
            steps(inside.trace) == [
                "2 eval g",
                "3 eval one#0",
                "3 eval two#0", "2 reduce g r(5, 2)",
                "1 eval s",
                "2 cached g = 7",
                "2 eval three#0", "1 reduce s r(7, 4)",
                "0 fire s#0 = 11",
            ])
        #expect(TraceDepth.check(try #require(inside.trace), of: tree).violations == [])
    }

    // For random trees and edit batches (the differential test's generator), from scratch and after every accepted
    // batch, every reduce that evaluated its nextValue finds its operand by the marker search.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func theMarkerSearchFindsEveryReducesOperandInRandomTrees(seed: UInt64) throws {
        var gen = Differential.Gen(seed: seed)
        var total = TraceDepth.Report()
        func add(_ trace: Trace?, _ tree: Tree, _ label: String) {
            guard let trace else {
                Issue.record("\(label): no trace")
                return
            }
            let report = TraceDepth.check(trace, of: tree)
            total.violations += report.violations.map { "\(label): \($0)" }
            total.checkedReduces += report.checkedReduces
            total.nestingReduces += report.nestingReduces
        }
        for t in 0..<60 {
            let (keys, root) = gen.tree()
            var tree = try Tree(keys: keys, root: root)
            add(tree.evaluateFromScratch(trace: true).trace, tree, "tree \(t)")
            for b in 0..<10 {
                // Ops are drawn one by one against the state the previous ones leave, as the differential test does.
                var model = Differential.Model(root: tree.root, keys: tree.keys)
                gen.recent = []
                var ops: [Op] = []
                for _ in 0..<gen.rng.range(1...4) {
                    ops.append(gen.op(model))
                    _ = try? model.apply(ops.last!)
                }
                guard let diff = try? tree.apply(ops, trace: true) else { continue }
                add(diff.trace, tree, "tree \(t), batch \(b)")
            }
            if total.violations.count > 5 { break }
        }
        #expect(total.violations == [])
        // Not vacuous: many reduces checked, and nested reduces among them.
        #expect(total.checkedReduces > 500)
        #expect(total.nestingReduces > 50)
    }
}
