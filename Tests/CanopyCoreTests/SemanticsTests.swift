import Testing
@testable import CanopyCore

// Tests of /work/shared/SEMANTICS.md: one test per worked case of §7 (case number in a comment), then the rules
// of §1–§6 the table does not cover. Every test asserts the reader values, which readers fire on creation and on
// each edit, and the reduce calls `(value, next-or-nil)` from the trace, from scratch and incrementally. After every
// edit the incremental reader values must equal a from-scratch evaluation.

// MARK: - Helpers

/// One reduce call as SEMANTICS.md writes it: `r(value, next)`; `next == nil` is `r(value, —)`.
private struct Call: Equatable, Sendable, CustomStringConvertible {
    var value: JSON
    var next: JSON?
    var description: String { "r(\(value.encoded()), \(next?.encoded() ?? "—"))" }
}

/// `r(value, next)`: a reduce call that evaluated `nextValue`.
private func r(_ value: JSON, _ next: JSON) -> Call { Call(value: value, next: next) }

/// `r(value, —)`: a reduce call that did not evaluate `nextValue`.
private func rNoNext(_ value: JSON) -> Call { Call(value: value, next: nil) }

private func calls(_ trace: Trace?) -> [Call] {
    (trace?.reduceCalls ?? []).map { Call(value: $0.value, next: $0.next) }
}

/// A reader `NODE#INDEX` of `key` reporting `value`.
private func fired(_ reader: String, _ value: JSON, key: String = "K") -> ReaderValue {
    ReaderValue(reader: reader, node: String(reader.split(separator: "#")[0]), key: key, value: value)
}

/// A reader `NODE#INDEX` of `key` whose content is absent (`present: false`).
private func absent(_ reader: String, key: String = "K") -> ReaderValue {
    ReaderValue(reader: reader, node: String(reader.split(separator: "#")[0]), key: key, value: nil)
}

/// The readers that fired in a trace, in order.
private func fires(_ trace: Trace?) -> [ReaderValue] {
    (trace?.events ?? []).compactMap {
        if case .fire(let reader, let node, let key, let value) = $0.kind {
            return ReaderValue(reader: reader, node: node, key: key, value: value)
        }
        return nil
    }
}

extension TraceEvent.Kind {
    /// The node an event concerns.
    fileprivate var nodeID: String {
        switch self {
        case .eval(let n, _, _), .reduce(let n, _, _, _, _, _), .cached(let n, _, _, _), .skip(let n, _, _),
            .fire(_, let n, _, _):
            return n
        case .program: return ""
        }
    }

    fileprivate var keyName: String {
        switch self {
        case .eval(_, let k, _), .reduce(_, let k, _, _, _, _), .cached(_, let k, _, _), .skip(_, let k, _),
            .fire(_, _, let k, _):
            return k
        case .program: return ""
        }
    }

    /// Whether the event shows the value of `node`'s modifier `modifier` being computed or read.
    fileprivate func evaluates(_ node: String, modifier: Int?) -> Bool {
        switch self {
        case .eval(let n, _, let m), .reduce(let n, _, let m, _, _, _): return n == node && m == modifier
        default: return false
        }
    }
}

/// A from-scratch evaluation: what creating the tree computes and fires.
private struct Scratch {
    var readers: [ReaderValue]
    var fires: [ReaderValue]
    var calls: [Call]
    var events: [TraceEvent.Kind]
    var summary: TraceSummary
}

/// Also checks that exactly the readers with a present value fire when the tree is created (§4).
private func scratch(_ tree: Tree, sourceLocation: SourceLocation = #_sourceLocation) -> Scratch {
    let (readers, trace, summary) = tree.evaluateFromScratch(trace: true)
    #expect(fires(trace) == readers.filter(\.present), "on creation exactly the present readers fire",
            sourceLocation: sourceLocation)
    return Scratch(readers: readers, fires: fires(trace), calls: calls(trace),
                   events: trace?.events.map(\.kind) ?? [], summary: summary)
}

/// What an incremental edit fired and computed.
private struct Edit {
    var changes: [ReaderValue]
    var calls: [Call]
    var events: [TraceEvent.Kind]
    var summary: TraceSummary
}

/// Applies `ops` with a trace and checks the incremental readers against a from-scratch evaluation.
private func edit(_ tree: inout Tree, _ ops: [Op], sourceLocation: SourceLocation = #_sourceLocation) throws -> Edit {
    let diff = try tree.apply(ops, trace: true)
    #expect(tree.readers == tree.evaluateFromScratch().readers, "incremental readers differ from a from-scratch evaluation",
            sourceLocation: sourceLocation)
    #expect(fires(diff.trace) == diff.changes, "the trace's fire events differ from the diff's changes",
            sourceLocation: sourceLocation)
    return Edit(changes: diff.changes, calls: calls(diff.trace), events: diff.trace?.events.map(\.kind) ?? [],
                summary: diff.summary)
}

/// `.preference(K, value)`.
private func pref(_ value: JSON, key: String = "K") -> Modifier { .preference(key: key, value: value) }

/// `.transformPreference(K, transform)`.
private func transform(_ t: Transform, key: String = "K") -> Modifier { .transformPreference(key: key, transform: t) }

/// Any modifier that does not concern preferences (`hidden`, `padding`, …).
private func other(_ kind: String) -> Modifier { .other(kind: kind, args: [:]) }

/// A plain leaf: no writer.
private func leaf(_ type: String = "V", id: String, _ modifiers: Modifier...) -> Node {
    Node(id: id, type: type, modifiers: modifiers)
}

/// A leaf with writer `.preference(K, value)` followed by `more` modifiers.
private func writer(_ value: JSON, id: String, type: String = "V", _ more: Modifier...) -> Node {
    Node(id: id, type: type, modifiers: [pref(value)] + more)
}

/// A priority message `{priority, content}`.
private func msg(_ priority: Int64, _ content: String) -> JSON {
    ["priority": .int(priority), "content": .string(content)]
}

/// A default value and two values of each reducer's type.
private func sample(_ reducer: Reducer) -> (defaultValue: JSON, a: JSON, b: JSON) {
    switch reducer {
    case .last, .first, .sum, .max, .min: return (0, 1, 2)
    case .firstNonNull: return (.null, 1, 2)
    case .and: return (true, true, false)
    case .or: return (false, false, true)
    case .append: return ([], [1], [2])
    case .merge: return ([:], ["a": 1], ["b": 2])
    case .priority: return (.null, msg(1, "A"), msg(2, "B"))
    case .nest: return ("", "a", "b")
    }
}

// MARK: - Worked cases (§7)

@Suite struct SemanticsTests {

    // MARK: Case 1

    // Case 1: VStack{V("R1");V("R2");V("R3");V("R4")}.R, LAST ("Default") → "R4", fires once; r(R1,R2) r(R2,R3) r(R3,R4).
    @Test func caseOneLastReducerSeesTheLastWriterAndFoldsLeftToRight() throws {
        let content = T.stack(
            id: "s", [writer("R1", id: "v1"), writer("R2", id: "v2"), writer("R3", id: "v3"), writer("R4", id: "v4")],
            modifiers: [T.reader()])
        let tree = try T.tree([T.key(.last, "Default")], content)
        #expect(tree.readers == [fired("s#0", "R4")])
        let s = scratch(tree)
        #expect(s.readers == tree.readers)
        #expect(s.fires == [fired("s#0", "R4")])
        #expect(s.calls == [r("R1", "R2"), r("R2", "R3"), r("R3", "R4")])
    }

    // MARK: Case 2

    // Case 2: VStack{V("a");V("b");V("c")}.R, NEST → "((a b) c)"; r(a,b) r((a b),c).
    @Test func caseTwoNestShowsTheFoldIsLeftAssociative() throws {
        let content = T.stack(id: "s", [writer("a", id: "a"), writer("b", id: "b"), writer("c", id: "c")],
                              modifiers: [T.reader()])
        let tree = try T.tree([T.key(.nest, "")], content)
        #expect(tree.readers == [fired("s#0", "((a b) c)")])
        let s = scratch(tree)
        #expect(s.fires == [fired("s#0", "((a b) c)")])
        #expect(s.calls == [r("a", "b"), r("(a b)", "c")])
    }

    // MARK: Case 3

    // Case 3: VStack{V(1);V}.R, SUM → 1; no reduce call (the absent child is skipped, the default is not involved).
    @Test func caseThreeAnAbsentSiblingIsSkippedSoOneValuePassesThroughWithoutReduce() throws {
        let content = T.stack(id: "s", [writer(1, id: "one"), leaf(id: "plain")], modifiers: [T.reader()])
        let tree = try T.tree([T.key(.sum, 0)], content)
        #expect(tree.readers == [fired("s#0", 1)])
        let s = scratch(tree)
        #expect(s.fires == [fired("s#0", 1)])
        #expect(s.calls == [])
        #expect(s.summary.reduces == 0)
    }

    // MARK: Case 4

    // Case 4: VStack{V;V}.R, SUM → never fires; no reduce call.
    @Test func caseFourAStackOfPlainLeavesIsAbsentAndItsReaderNeverFires() throws {
        let content = T.stack(id: "s", [leaf(id: "p1"), leaf(id: "p2")], modifiers: [T.reader()])
        let tree = try T.tree([T.key(.sum, 0)], content)
        #expect(tree.readers == [absent("s#0")])
        let s = scratch(tree)
        #expect(s.fires == [])
        #expect(s.calls == [])
        #expect(s.summary.reduces == 0)
    }

    // MARK: Case 5

    // Case 5: VStack{V(1);V(2)}.R, KEEP → 1; r(1,—): the second child is skipped, its writer never read.
    @Test func caseFiveKeepNeverAsksForTheNextValueSoTheSecondChildIsSkipped() throws {
        let content = T.stack(id: "s", [writer(1, id: "one"), writer(2, id: "two")], modifiers: [T.reader()])
        let tree = try T.tree([T.key(.first, 0)], content)
        #expect(tree.readers == [fired("s#0", 1)])
        let s = scratch(tree)
        #expect(s.fires == [fired("s#0", 1)])
        #expect(s.calls == [rNoNext(1)])
        #expect(s.events.contains(.skip(node: "two", key: "K", modifier: nil)))
        #expect(!s.events.contains { $0.evaluates("two", modifier: 0) })
    }

    // MARK: Case 6

    // Case 6: VStack{V("a");Group{V("b");V("c")}}.R, NEST → "(a (b c))"; r(a, ⟦r(b,c)⟧): the inner fold runs inside
    // the outer reduce's nextValue, so it completes (and is traced) first.
    @Test func caseSixANestedGroupFoldsSeparatelyInsideTheOuterNextValue() throws {
        let group = T.stack("Group", id: "g", [writer("b", id: "b"), writer("c", id: "c")])
        let content = T.stack(id: "s", [writer("a", id: "a"), group], modifiers: [T.reader()])
        let tree = try T.tree([T.key(.nest, "")], content)
        #expect(tree.readers == [fired("s#0", "(a (b c))")])
        let s = scratch(tree)
        #expect(s.fires == [fired("s#0", "(a (b c))")])
        #expect(s.calls == [r("b", "c"), r("a", "(b c)")])
        let reduces = s.events.compactMap { e -> String? in
            if case .reduce(let n, _, _, _, _, _) = e { return n }
            return nil
        }
        #expect(reduces == ["g", "s"])
        // The group is evaluated lazily: after the outer fold has read its first child.
        let aIndex = try #require(s.events.firstIndex { $0.evaluates("a", modifier: 0) })
        let gIndex = try #require(s.events.firstIndex { $0.evaluates("g", modifier: nil) })
        #expect(aIndex < gIndex)
    }

    // MARK: Case 7

    // Case 7: V.preference(K,1).preference(K,2).R, any reducer → 2; no reduce call; the inner writer is never read.
    @Test(arguments: Reducer.allCases)
    func caseSevenTheOuterWriterWinsAndTheInnerWriterIsNeverRead(reducer: Reducer) throws {
        let (d, a, b) = sample(reducer)
        let content = Node(id: "v", type: "V", modifiers: [pref(a), pref(b), T.reader()])
        let tree = try T.tree([T.key(reducer, d)], content)
        #expect(tree.readers == [fired("v#2", b)])
        let s = scratch(tree)
        #expect(s.fires == [fired("v#2", b)])
        #expect(s.calls == [])
        #expect(s.events.contains { $0.evaluates("v", modifier: 1) })
        #expect(!s.events.contains { $0.evaluates("v", modifier: 0) })
    }

    // MARK: Case 8

    // Case 8: VStack{V(1)}.preference(K,2).R, SUM → 2; no reduce call; nothing inside the writer is evaluated.
    @Test func caseEightAWriterOnAStackReplacesItsContentWhichIsNotEvaluated() throws {
        let content = T.stack(id: "s", [writer(1, id: "one")], modifiers: [pref(2), T.reader()])
        let tree = try T.tree([T.key(.sum, 0)], content)
        #expect(tree.readers == [fired("s#1", 2)])
        let s = scratch(tree)
        #expect(s.fires == [fired("s#1", 2)])
        #expect(s.calls == [])
        #expect(!s.events.contains { $0.nodeID == "one" })
        #expect(!s.events.contains { $0.evaluates("s", modifier: nil) })
    }

    // MARK: Case 9

    // Case 9: V("c").background(V("b")).R, NEST → "(b c)"; r(b,c): the background is `value`, the content `nextValue`.
    @Test func caseNineBackgroundIsValueAndContentIsNext() throws {
        let content = Node(id: "c", type: "V", modifiers: [pref("c"), .background(writer("b", id: "b")), T.reader()])
        let tree = try T.tree([T.key(.nest, "")], content)
        #expect(tree.readers == [fired("c#2", "(b c)")])
        let s = scratch(tree)
        #expect(s.fires == [fired("c#2", "(b c)")])
        #expect(s.calls == [r("b", "c")])
    }

    // MARK: Case 10

    // Case 10: V("c").overlay(V("o")).R, NEST → "(c o)"; r(c,o): the content is `value`, the overlay `nextValue`.
    @Test func caseTenContentIsValueAndOverlayIsNext() throws {
        let content = Node(id: "c", type: "V", modifiers: [pref("c"), .overlay(writer("o", id: "o")), T.reader()])
        let tree = try T.tree([T.key(.nest, "")], content)
        #expect(tree.readers == [fired("c#2", "(c o)")])
        let s = scratch(tree)
        #expect(s.fires == [fired("c#2", "(c o)")])
        #expect(s.calls == [r("c", "o")])
    }

    // MARK: Case 11

    // Case 11: V("c").background(V("b")).overlay(V("o")).R, NEST → "((b c) o)"; r(b,c) r((b c),o).
    @Test func caseElevenBackgroundThenOverlayApplyInnermostFirst() throws {
        let content = Node(
            id: "c", type: "V",
            modifiers: [pref("c"), .background(writer("b", id: "b")), .overlay(writer("o", id: "o")), T.reader()])
        let tree = try T.tree([T.key(.nest, "")], content)
        #expect(tree.readers == [fired("c#3", "((b c) o)")])
        let s = scratch(tree)
        #expect(s.fires == [fired("c#3", "((b c) o)")])
        #expect(s.calls == [r("b", "c"), r("(b c)", "o")])
    }

    // MARK: Cases 12 and 13

    private func overlayOfEmptyIf(_ reducer: Reducer) throws -> Tree {
        let ifNode = T.stack("If", id: "if", [leaf("Color", id: "color")])
        let content = Node(id: "v", type: "V", modifiers: [pref("non-default"), .overlay(ifNode), T.reader()])
        return try T.tree([T.key(reducer, "default")], content)
    }

    // Case 12: V("non-default").overlay(If{Color}).R, LAST ("default") → "default"; r(non-default, default): an If
    // with no present child is present with the key's default.
    @Test func caseTwelveAnIfWithoutWritersInAnOverlayContributesTheDefault() throws {
        let tree = try overlayOfEmptyIf(.last)
        #expect(tree.readers == [fired("v#2", "default")])
        let s = scratch(tree)
        #expect(s.fires == [fired("v#2", "default")])
        #expect(s.calls == [r("non-default", "default")])
    }

    // Case 13: same tree, KEEP → "non-default"; r(non-default, —): the overlay is skipped.
    @Test func caseThirteenKeepSkipsTheOverlayOfAnEmptyIf() throws {
        let tree = try overlayOfEmptyIf(.first)
        #expect(tree.readers == [fired("v#2", "non-default")])
        let s = scratch(tree)
        #expect(s.fires == [fired("v#2", "non-default")])
        #expect(s.calls == [rNoNext("non-default")])
        #expect(s.events.contains(.skip(node: "if", key: "K", modifier: nil)))
        #expect(!s.events.contains { $0.evaluates("if", modifier: nil) })
    }

    // MARK: Case 14

    // Case 14 (first variant): VStack{V(1); If{}}.R, LAST (0) → 0; r(1,0): an empty If is the default.
    @Test func caseFourteenAnEmptyIfFoldsAsTheDefault() throws {
        let content = T.stack(id: "s", [writer(1, id: "one"), T.stack("If", id: "if", [])], modifiers: [T.reader()])
        let tree = try T.tree([T.key(.last, 0)], content)
        #expect(tree.readers == [fired("s#0", 0)])
        let s = scratch(tree)
        #expect(s.fires == [fired("s#0", 0)])
        #expect(s.calls == [r(1, 0)])
    }

    // Case 14 (second variant): VStack{V(1); If{V(2)}}.R, LAST (0) → 2; r(1,2): a non-empty If is its content.
    @Test func caseFourteenAnIfWithAWriterFoldsAsThatWriter() throws {
        let content = T.stack(
            id: "s", [writer(1, id: "one"), T.stack("If", id: "if", [writer(2, id: "two")])], modifiers: [T.reader()])
        let tree = try T.tree([T.key(.last, 0)], content)
        #expect(tree.readers == [fired("s#0", 2)])
        let s = scratch(tree)
        #expect(s.fires == [fired("s#0", 2)])
        #expect(s.calls == [r(1, 2)])
    }

    // MARK: Case 15

    // Case 15: VStack{If{V(1)}}.R, SUM; remove V(1), then add it back → fires 1, then 0, then 1; no reduce call.
    @Test func caseFifteenRemovingTheOnlyWriterOfAnIfFallsBackToTheDefaultAndBack() throws {
        let content = T.stack(id: "s", [T.stack("If", id: "if", [writer(1, id: "one")])], modifiers: [T.reader()])
        var tree = try T.tree([T.key(.sum, 0)], content)
        #expect(tree.readers == [fired("s#0", 1)])
        let s = scratch(tree)
        #expect(s.fires == [fired("s#0", 1)])
        #expect(s.calls == [])

        let removed = try edit(&tree, [.remove(node: "one")])
        #expect(removed.changes == [fired("s#0", 0)])
        #expect(removed.calls == [])
        #expect(tree.readers == [fired("s#0", 0)])

        let added = try edit(&tree, [.insert(parent: "if", node: writer(1, id: "one"), position: .end)])
        #expect(added.changes == [fired("s#0", 1)])
        #expect(added.calls == [])
        #expect(tree.readers == [fired("s#0", 1)])
    }

    // MARK: Case 16

    // Case 16: V(1).R, any reducer → fires 1; no reduce call.
    @Test(arguments: Reducer.allCases)
    func caseSixteenAReaderOnAWriterFiresItsValueOnCreation(reducer: Reducer) throws {
        let (d, a, _) = sample(reducer)
        let tree = try T.tree([T.key(reducer, d)], writer(a, id: "v", T.reader()))
        #expect(tree.readers == [fired("v#1", a)])
        let s = scratch(tree)
        #expect(s.fires == [fired("v#1", a)])
        #expect(s.calls == [])
    }

    // MARK: Case 17

    // Case 17: VStack{V(1);V(2)}.R⟨in⟩.preference(K,9).R⟨out⟩, SUM → in: 3, out: 9; r(1,2), for `in` only.
    @Test func caseSeventeenAReaderInsideAWriterSeesTheContentAndTheOuterReaderSeesTheWriter() throws {
        let content = T.stack(
            id: "s", [writer(1, id: "one"), writer(2, id: "two")], modifiers: [T.reader(), pref(9), T.reader()])
        var tree = try T.tree([T.key(.sum, 0)], content)
        #expect(tree.readers == [fired("s#0", 3), fired("s#2", 9)])
        let s = scratch(tree)
        #expect(s.fires == [fired("s#0", 3), fired("s#2", 9)])
        #expect(s.calls == [r(1, 2)])
        #expect(s.events.filter { if case .reduce = $0 { return true } else { return false } }.map(\.nodeID) == ["s"])

        // An edit inside reaches `in` only.
        let inner = try edit(&tree, [.setPreference(node: "one", key: "K", value: 5)])
        #expect(inner.changes == [fired("s#0", 7)])
        #expect(inner.calls == [r(5, 2)])

        // An edit of the writer reaches `out` only (setPreference edits the node's outermost writer of K).
        let outer = try edit(&tree, [.setPreference(node: "s", key: "K", value: 10)])
        #expect(outer.changes == [fired("s#2", 10)])
        #expect(outer.calls == [])
        #expect(tree.readers == [fired("s#0", 7), fired("s#2", 10)])
    }

    // MARK: Case 18

    // Case 18: Color.transformPreference(K,{add:10}).R, SUM → 10: a transform of absent content starts from the default.
    @Test func caseEighteenATransformOnAPlainLeafAppliesToTheDefault() throws {
        let content = leaf("Color", id: "color", transform(.add(10)), T.reader())
        let tree = try T.tree([T.key(.sum, 0)], content)
        #expect(tree.readers == [fired("color#1", 10)])
        let s = scratch(tree)
        #expect(s.fires == [fired("color#1", 10)])
        #expect(s.calls == [])
    }

    // MARK: Case 19

    // Case 19: V.transformPreference(K,{add:10}).preference(K,1).R, SUM → 1; the transform never runs.
    @Test func caseNineteenAWriterOutsideATransformMeansTheTransformNeverRuns() throws {
        let content = leaf(id: "v", transform(.add(10)), pref(1), T.reader())
        var tree = try T.tree([T.key(.sum, 0)], content)
        #expect(tree.readers == [fired("v#2", 1)])
        let s = scratch(tree)
        #expect(s.fires == [fired("v#2", 1)])
        #expect(s.calls == [])
        #expect(!s.events.contains { $0.evaluates("v", modifier: 0) })
        #expect(!s.events.contains { $0.evaluates("v", modifier: nil) })

        // Changing the transform does nothing either.
        let e = try edit(&tree, [.setModifiers(node: "v", modifiers: [transform(.add(20)), pref(1), T.reader()])])
        #expect(e.changes == [])
        #expect(e.calls == [])
        #expect(!e.events.contains { $0.evaluates("v", modifier: 0) })
    }

    // MARK: Case 20

    // Case 20: VStack{V(1).hidden();V(2)}.R, SUM → 3; r(1,2): hidden views still propagate.
    @Test func caseTwentyHiddenViewsStillPropagate() throws {
        let content = T.stack(id: "s", [writer(1, id: "one", other("hidden")), writer(2, id: "two")],
                              modifiers: [T.reader()])
        let tree = try T.tree([T.key(.sum, 0)], content)
        #expect(tree.readers == [fired("s#0", 3)])
        let s = scratch(tree)
        #expect(s.fires == [fired("s#0", 3)])
        #expect(s.calls == [r(1, 2)])
    }

    // MARK: Case 21

    // Case 21: VStack{TF1;TF2}.preference(K,m1).preference(K,m2).R, m1 high "A", m2 medium "B", PRIO → m2 always; none.
    @Test func caseTwentyOneTheOutermostPriorityWriterWinsWhateverThePriorities() throws {
        let m1 = msg(2, "A")
        let m2 = msg(1, "B")
        let content = T.stack(id: "s", [leaf("TF1", id: "tf1"), leaf("TF2", id: "tf2")],
                              modifiers: [pref(m1), pref(m2), T.reader()])
        var tree = try T.tree([T.key(.priority, .null)], content)
        #expect(tree.readers == [fired("s#2", m2)])
        let s = scratch(tree)
        #expect(s.fires == [fired("s#2", m2)])
        #expect(s.calls == [])
        #expect(!s.events.contains { $0.evaluates("s", modifier: 0) })

        // Raising m1's priority changes nothing: m2 always.
        let e = try edit(&tree, [.setModifiers(node: "s", modifiers: [pref(msg(9, "A")), pref(m2), T.reader()])])
        #expect(e.changes == [])
        #expect(e.calls == [])
        #expect(tree.readers == [fired("s#2", m2)])
    }

    // MARK: Case 22

    private func twoTextFieldsAndAToggle(_ m1: JSON, _ m2: JSON) throws -> Tree {
        let content = T.stack(
            id: "s", [writer(m1, id: "tf1", type: "TF1"), writer(m2, id: "tf2", type: "TF2"), leaf("Toggle", id: "toggle")],
            modifiers: [T.reader()])
        return try T.tree([T.key(.priority, .null)], content)
    }

    // Case 22 (m1 non-empty): VStack{TF1.preference(K,m1);TF2.preference(K,m2);Toggle}.R, PRIO → m1; r(m1,m2).
    @Test func caseTwentyTwoAHighPriorityMessageWithContentWins() throws {
        let m1 = msg(2, "A")
        let m2 = msg(1, "B")
        let tree = try twoTextFieldsAndAToggle(m1, m2)
        #expect(tree.readers == [fired("s#0", m1)])
        let s = scratch(tree)
        #expect(s.fires == [fired("s#0", m1)])
        #expect(s.calls == [r(m1, m2)])
    }

    // Case 22 (m1 empty): same tree with m1's content empty → m2; r(m1,m2).
    @Test func caseTwentyTwoAnEmptyFirstMessageGivesWayToTheNext() throws {
        let m1 = msg(2, "")
        let m2 = msg(1, "B")
        let tree = try twoTextFieldsAndAToggle(m1, m2)
        #expect(tree.readers == [fired("s#0", m2)])
        let s = scratch(tree)
        #expect(s.fires == [fired("s#0", m2)])
        #expect(s.calls == [r(m1, m2)])
    }

    // Case 22 (edits): emptying m1's content switches to m2, filling it again switches back; each edit r(m1',m2).
    @Test func caseTwentyTwoEditingTheFirstMessagesContentSwitchesTheWinner() throws {
        let m1 = msg(2, "A")
        let m2 = msg(1, "B")
        var tree = try twoTextFieldsAndAToggle(m1, m2)
        let emptied = try edit(&tree, [.setPreference(node: "tf1", key: "K", value: msg(2, ""))])
        #expect(emptied.changes == [fired("s#0", m2)])
        #expect(emptied.calls == [r(msg(2, ""), m2)])
        let filled = try edit(&tree, [.setPreference(node: "tf1", key: "K", value: m1)])
        #expect(filled.changes == [fired("s#0", m1)])
        #expect(filled.calls == [r(m1, m2)])
    }

    // MARK: Case 23

    // Case 23: VStack{ForEach{V([1]);V([2]);V([3])}}.R, APP → [1,2,3]; r([1],[2]) r([1,2],[3]).
    @Test func caseTwentyThreeAForEachAppendsItsItemsInOrder() throws {
        let forEach = T.stack("ForEach", id: "fe", [writer([1], id: "i1"), writer([2], id: "i2"), writer([3], id: "i3")])
        let content = T.stack(id: "s", [forEach], modifiers: [T.reader()])
        let tree = try T.tree([T.key(.append, [])], content)
        #expect(tree.readers == [fired("s#0", [1, 2, 3])])
        let s = scratch(tree)
        #expect(s.fires == [fired("s#0", [1, 2, 3])])
        #expect(s.calls == [r([1], [2]), r([1, 2], [3])])
    }

    // MARK: Case 24

    // Case 24: VStack{V(a);V(b)}.R, KEEP; editing b re-runs nothing and fires nothing; editing a fires a' with r(a',—).
    @Test func caseTwentyFourAnEditInsideASkippedChildReRunsNothing() throws {
        let content = T.stack(id: "s", [writer("a", id: "a"), writer("b", id: "b")], modifiers: [T.reader()])
        var tree = try T.tree([T.key(.first, "")], content)
        #expect(tree.readers == [fired("s#0", "a")])
        let s = scratch(tree)
        #expect(s.fires == [fired("s#0", "a")])
        #expect(s.calls == [rNoNext("a")])

        let editB = try edit(&tree, [.setPreference(node: "b", key: "K", value: "b2")])
        #expect(editB.changes == [])
        #expect(editB.calls == [])
        #expect(editB.summary.reduces == 0)
        #expect(!editB.events.contains { $0.evaluates("s", modifier: nil) })

        let editA = try edit(&tree, [.setPreference(node: "a", key: "K", value: "a2")])
        #expect(editA.changes == [fired("s#0", "a2")])
        #expect(editA.calls == [rNoNext("a2")])
        #expect(tree.readers == [fired("s#0", "a2")])
    }

    // MARK: Case 25

    // Case 25: VStack{V(1);V(2);V(3)}.R, SUM, edit 3→4 → fires 7; the fold re-runs: r(1,2) r(3,4).
    @Test func caseTwentyFiveEditingTheLastChildReRunsTheWholeFold() throws {
        let content = T.stack(id: "s", [writer(1, id: "one"), writer(2, id: "two"), writer(3, id: "three")],
                              modifiers: [T.reader()])
        var tree = try T.tree([T.key(.sum, 0)], content)
        #expect(tree.readers == [fired("s#0", 6)])
        let s = scratch(tree)
        #expect(s.fires == [fired("s#0", 6)])
        #expect(s.calls == [r(1, 2), r(3, 3)])

        let e = try edit(&tree, [.setPreference(node: "three", key: "K", value: 4)])
        #expect(e.changes == [fired("s#0", 7)])
        #expect(e.calls == [r(1, 2), r(3, 4)])
    }

    // MARK: Case 26

    // Case 26: VStack{Group{V(1);V(2)};V(3)}.R, SUM, edit 3→4 → fires 7; only r(3,4): the inner pair is reused.
    @Test func caseTwentySixANestedGroupIsReusedWhenASiblingChanges() throws {
        let group = T.stack("Group", id: "g", [writer(1, id: "one"), writer(2, id: "two")])
        let content = T.stack(id: "s", [group, writer(3, id: "three")], modifiers: [T.reader()])
        var tree = try T.tree([T.key(.sum, 0)], content)
        #expect(tree.readers == [fired("s#0", 6)])
        let s = scratch(tree)
        #expect(s.fires == [fired("s#0", 6)])
        #expect(s.calls == [r(1, 2), r(3, 3)])

        let e = try edit(&tree, [.setPreference(node: "three", key: "K", value: 4)])
        #expect(e.changes == [fired("s#0", 7)])
        #expect(e.calls == [r(3, 4)])
        #expect(e.events.contains(.cached(node: "g", key: "K", modifier: nil, value: 3)))
    }

    // MARK: Case 27

    // Case 27: VStack{V(1);V(2)} with no reader anywhere, any reducer → zero reduce calls, from scratch and on edits.
    @Test(arguments: Reducer.allCases)
    func caseTwentySevenWritersWithoutAnyReaderDoZeroReduceCalls(reducer: Reducer) throws {
        let (d, a, b) = sample(reducer)
        let content = T.stack(id: "s", [writer(a, id: "one"), writer(b, id: "two")])
        var tree = try T.tree([T.key(reducer, d)], content)
        #expect(tree.readers == [])
        let s = scratch(tree)
        #expect(s.fires == [])
        #expect(s.calls == [])
        #expect(s.events == [])
        #expect(s.summary.reduces == 0)

        let e = try edit(&tree, [.setPreference(node: "one", key: "K", value: b), .remove(node: "two")])
        #expect(e.changes == [])
        #expect(e.calls == [])
        #expect(e.events == [])
        #expect(e.summary.reduces == 0)
    }

    // MARK: Case 28

    // Case 28: VStack{V(5);V(b)}.R, MAX, b edited 1→2 → fires 5 once; r(5,1), then r(5,2): an equal result is cut off.
    @Test func caseTwentyEightAnEqualRecomputedValueDoesNotFire() throws {
        let content = T.stack(id: "s", [writer(5, id: "five"), writer(1, id: "b")], modifiers: [T.reader()])
        var tree = try T.tree([T.key(.max, 0)], content)
        #expect(tree.readers == [fired("s#0", 5)])
        let s = scratch(tree)
        #expect(s.fires == [fired("s#0", 5)])
        #expect(s.calls == [r(5, 1)])

        let e = try edit(&tree, [.setPreference(node: "b", key: "K", value: 2)])
        #expect(e.changes == [])
        #expect(e.calls == [r(5, 2)])
        #expect(tree.readers == [fired("s#0", 5)])
    }

    // MARK: Case 29

    // Case 29: Text.R and VStack{}.R, any reducer → never fire; no reduce call.
    @Test(arguments: Reducer.allCases)
    func caseTwentyNineReadersOfEmptyContentNeverFire(reducer: Reducer) throws {
        let (d, _, _) = sample(reducer)
        let root = Node(
            id: "root", type: "Root",
            children: [leaf("Text", id: "text", T.reader()), T.stack(id: "s", [], modifiers: [T.reader()])])
        let tree = try Tree(keys: [T.key(reducer, d)], root: root)
        #expect(tree.readers == [absent("text#0"), absent("s#0")])
        let s = scratch(tree)
        #expect(s.fires == [])
        #expect(s.calls == [])
    }

    // MARK: Case 30

    // Case 30: VStack{VStack{If{}}; V(7)}.R, FNN (null) → 7; r(null, 7): the empty If is present with the default.
    @Test func caseThirtyAnEmptyIfNestedInAStackContributesTheNullDefault() throws {
        let inner = T.stack(id: "inner", [T.stack("If", id: "if", [])])
        let content = T.stack(id: "s", [inner, writer(7, id: "seven")], modifiers: [T.reader()])
        let tree = try T.tree([T.key(.firstNonNull, .null)], content)
        #expect(tree.readers == [fired("s#0", 7)])
        let s = scratch(tree)
        #expect(s.fires == [fired("s#0", 7)])
        #expect(s.calls == [r(.null, 7)])
    }
}

// MARK: - Rules of §1–§6 beyond the table

@Suite struct SemanticsTestsRules {

    // MARK: §2 Requested keys

    // §2: a tree with writers and no reader performs zero reduce calls, also with nested containers, transforms,
    // backgrounds and overlays, and on every kind of edit.
    @Test func writersWithNoReaderAboveDoZeroReduceCallsWhateverTheTreeAndEdits() throws {
        let group = T.stack("Group", id: "g", [writer(1, id: "one"), writer(2, id: "two", transform(.add(1)))])
        let host = Node(id: "host", type: "V", modifiers: [
            pref(3), .background(writer(4, id: "bg")), .overlay(T.stack("If", id: "if", [])), transform(.reduce(5)),
        ])
        let content = T.stack(id: "s", [group, host, T.stack("ForEach", id: "fe", [writer(6, id: "six")])])
        var tree = try T.tree([T.key(.sum, 0)], content)
        let s = scratch(tree)
        #expect(s.events == [])
        #expect(s.calls == [])
        let e = try edit(&tree, [
            .setPreference(node: "one", key: "K", value: 10), .insert(parent: "g", node: writer(7, id: "new"), position: .end),
            .remove(node: "six"), .move(node: "two", parent: "s", position: .index(0)),
        ])
        #expect(e.events == [])
        #expect(e.calls == [])
        #expect(e.summary.reduces == 0)
    }

    // §2: a reader of another key requests only that key.
    @Test func aReaderOfAnotherKeyDoesNotRequestThisKey() throws {
        let content = T.stack(id: "s", [writer(1, id: "one"), writer(2, id: "two")], modifiers: [T.reader("L")])
        var tree = try T.tree([T.key(.sum, 0), T.key(.sum, 0, name: "L")], content)
        #expect(tree.readers == [absent("s#0", key: "L")])
        let s = scratch(tree)
        #expect(s.fires == [])
        #expect(!s.events.contains { $0.keyName == "K" })
        #expect(s.calls == [])
        let e = try edit(&tree, [.setPreference(node: "one", key: "K", value: 5)])
        #expect(e.changes == [])
        #expect(e.events.allSatisfy { $0.keyName != "K" })
        #expect(e.calls == [])
    }

    // §2: a reader requests the key only for what it wraps: its siblings and its parent's fold stay unevaluated.
    @Test func aReaderOnOneLeafDoesNotRequestItsSiblingsOrItsParent() throws {
        let content = T.stack(id: "s", [writer(1, id: "a", T.reader()), writer(2, id: "b"), writer(3, id: "c")])
        var tree = try T.tree([T.key(.sum, 0)], content)
        #expect(tree.readers == [fired("a#1", 1)])
        let s = scratch(tree)
        #expect(s.fires == [fired("a#1", 1)])
        #expect(s.calls == [])
        #expect(s.events.allSatisfy { $0.nodeID == "a" })
        let e = try edit(&tree, [.setPreference(node: "b", key: "K", value: 20)])
        #expect(e.changes == [])
        #expect(e.events == [])
    }

    // §2: a writer removes the key for everything it wraps, however deep; edits there evaluate nothing.
    @Test func aWriterUnrequestsEverythingItWrapsSoEditsInsideDoNothing() throws {
        let group = T.stack("Group", id: "g", [writer(1, id: "one"), writer(2, id: "two")])
        let content = T.stack(id: "s", [group, writer(3, id: "three")], modifiers: [pref(9), T.reader()])
        var tree = try T.tree([T.key(.sum, 0)], content)
        #expect(tree.readers == [fired("s#1", 9)])
        let s = scratch(tree)
        #expect(s.calls == [])
        #expect(s.events.allSatisfy { $0.nodeID == "s" })
        let e = try edit(&tree, [.setPreference(node: "two", key: "K", value: 20), .remove(node: "three")])
        #expect(e.changes == [])
        #expect(e.events == [])
    }

    // §2: a reader inside a writer requests the key again for what it wraps (see also case 17).
    @Test func aReaderInsideAWriterRequestsTheKeyAgainForItsContent() throws {
        let inner = T.stack("Group", id: "g", [writer(1, id: "one"), writer(2, id: "two")], modifiers: [T.reader()])
        let content = T.stack(id: "s", [inner, writer(3, id: "three")], modifiers: [pref(9), T.reader()])
        var tree = try T.tree([T.key(.sum, 0)], content)
        #expect(tree.readers == [fired("s#1", 9), fired("g#0", 3)])
        let s = scratch(tree)
        #expect(s.fires == [fired("s#1", 9), fired("g#0", 3)])
        #expect(s.calls == [r(1, 2)])
        // "three" is outside the inner reader and inside the writer: not requested.
        #expect(!s.events.contains { $0.nodeID == "three" })
        let e = try edit(&tree, [.setPreference(node: "three", key: "K", value: 30)])
        #expect(e.events == [])
    }

    // MARK: §3 Folds

    // §3: one present child passes through unchanged: reduce is not called and the default is not involved.
    @Test func aSinglePresentChildPassesThroughWithoutTheDefault() throws {
        let content = T.stack(id: "s", [leaf(id: "p1"), writer(1, id: "one"), leaf(id: "p2")], modifiers: [T.reader()])
        let tree = try T.tree([T.key(.sum, 100)], content)
        #expect(tree.readers == [fired("s#0", 1)])
        let s = scratch(tree)
        #expect(s.fires == [fired("s#0", 1)])
        #expect(s.calls == [])
    }

    // §3: a static container with no present child is absent, whatever its nesting and the key's default.
    @Test func staticContainersWithoutPresentChildrenAreAbsentAndSkippedByTheirParent() throws {
        let content = T.stack(
            id: "s",
            [T.stack("Group", id: "g", [T.stack("HStack", id: "h", [leaf(id: "p")])]), writer(1, id: "one"),
             T.stack("MyView", id: "custom", [])],
            modifiers: [T.reader()])
        let tree = try T.tree([T.key(.sum, 100)], content)
        #expect(tree.readers == [fired("s#0", 1)])
        let s = scratch(tree)
        #expect(s.calls == [])
    }

    // §1/§3: custom node types are static containers and fold like stacks.
    @Test func aCustomTypeFoldsItsChildrenLikeAStack() throws {
        let content = T.stack("MyView", id: "m", [writer("a", id: "a"), writer("b", id: "b")], modifiers: [T.reader()])
        let tree = try T.tree([T.key(.nest, "")], content)
        #expect(tree.readers == [fired("m#0", "(a b)")])
        #expect(scratch(tree).calls == [r("a", "b")])
    }

    // §1/§3: ForEach, If and AnyView are all dynamic: empty they give the default, with one child they pass it through.
    @Test(arguments: ["ForEach", "If", "AnyView"])
    func everyDynamicContainerIsPresentWithTheDefaultWhenEmpty(type: String) throws {
        let empty = try T.tree([T.key(.sum, 100)], T.stack(type, id: "d", [], modifiers: [T.reader()]))
        #expect(empty.readers == [fired("d#0", 100)])
        #expect(scratch(empty).fires == [fired("d#0", 100)])
        #expect(scratch(empty).calls == [])

        let plain = try T.tree([T.key(.sum, 100)], T.stack(type, id: "d", [leaf(id: "p")], modifiers: [T.reader()]))
        #expect(plain.readers == [fired("d#0", 100)])

        let one = try T.tree([T.key(.sum, 100)], T.stack(type, id: "d", [writer(1, id: "one")], modifiers: [T.reader()]))
        #expect(one.readers == [fired("d#0", 1)])
        #expect(scratch(one).calls == [])

        let inStack = T.stack(id: "s", [writer(1, id: "one"), T.stack(type, id: "d", [])], modifiers: [T.reader()])
        let folded = try T.tree([T.key(.last, 0)], inStack)
        #expect(folded.readers == [fired("s#0", 0)])
        #expect(scratch(folded).calls == [r(1, 0)])
    }

    // §3: presence is structural: a dynamic container deep inside makes every static ancestor present.
    @Test func presenceIsStructuralThroughStaticAncestorsOfADynamicContainer() throws {
        let deep = T.stack(id: "s", [T.stack("Group", id: "g", [T.stack("HStack", id: "h", [T.stack("AnyView", id: "any", [])])])],
                           modifiers: [T.reader()])
        var tree = try T.tree([T.key(.nest, "none")], deep)
        #expect(tree.readers == [fired("s#0", "none")])
        // Removing the dynamic container makes everything absent.
        let e = try edit(&tree, [.remove(node: "any")])
        #expect(e.changes == [absent("s#0")])
        #expect(e.calls == [])
    }

    // MARK: §4 Cut-off

    // §4: a recomputed output equal to its previous value does not re-run what consumed it.
    @Test func anUnchangedInnerFoldDoesNotReRunTheOuterFold() throws {
        let inner = T.stack(id: "inner", [writer(5, id: "five"), writer(1, id: "b")])
        let content = T.stack(id: "s", [inner, writer(3, id: "three")], modifiers: [T.reader()])
        var tree = try T.tree([T.key(.max, 0)], content)
        #expect(tree.readers == [fired("s#0", 5)])
        #expect(scratch(tree).calls == [r(5, 1), r(5, 3)])
        let e = try edit(&tree, [.setPreference(node: "b", key: "K", value: 2)])
        #expect(e.changes == [])
        #expect(e.calls == [r(5, 2)])
        // And a change that does propagate re-runs the outer fold with the new inner value.
        let up = try edit(&tree, [.setPreference(node: "b", key: "K", value: 8)])
        #expect(up.changes == [fired("s#0", 8)])
        #expect(up.calls == [r(5, 8), r(8, 3)])
    }

    // §1/§4: readers of one key do not fire, and nothing is reduced, for edits of another key.
    @Test func editsOfOneKeyDoNotTouchReadersOfAnother() throws {
        let content = T.stack(
            id: "s",
            [Node(id: "a", type: "V", modifiers: [pref(1), pref("x", key: "L")]),
             Node(id: "b", type: "V", modifiers: [pref(2), pref("y", key: "L")])],
            modifiers: [T.reader(), T.reader("L")])
        var tree = try T.tree([T.key(.sum, 0), T.key(.nest, "", name: "L")], content)
        #expect(tree.readers == [fired("s#0", 3), fired("s#1", "(x y)", key: "L")])
        let s = scratch(tree)
        #expect(s.calls == [r(1, 2), r("x", "y")])
        let e = try edit(&tree, [.setPreference(node: "b", key: "L", value: "z")])
        #expect(e.changes == [fired("s#1", "(x z)", key: "L")])
        #expect(e.calls == [r("x", "z")])
    }

    // §1: re-declaring a key re-evaluates its readers with the new reducer and default.
    @Test func redeclaringAKeyReEvaluatesItsReadersWithTheNewReducer() throws {
        let content = T.stack(id: "s", [writer(1, id: "one"), writer(2, id: "two")], modifiers: [T.reader()])
        var tree = try T.tree([T.key(.last, 0)], content)
        #expect(tree.readers == [fired("s#0", 2)])
        let e = try edit(&tree, [.declareKey(T.key(.sum, 0))])
        #expect(e.changes == [fired("s#0", 3)])
        #expect(e.calls == [r(1, 2)])
    }

    // MARK: §5 Reducer catalog

    struct ReducerCase: Sendable, CustomTestStringConvertible {
        var reducer: Reducer
        var defaultValue: JSON
        var values: [JSON]
        var result: JSON
        fileprivate var calls: [Call]
        var testDescription: String { "\(reducer.rawValue) of \(values.map { $0.encoded() })" }
    }

    static let catalog: [ReducerCase] = [
        ReducerCase(reducer: .last, defaultValue: 0, values: [1, 2, 3], result: 3, calls: [r(1, 2), r(2, 3)]),
        ReducerCase(reducer: .first, defaultValue: 0, values: [1, 2, 3], result: 1, calls: [rNoNext(1), rNoNext(1)]),
        ReducerCase(reducer: .sum, defaultValue: 0, values: [1, 2.5, 3], result: 6.5, calls: [r(1, 2.5), r(3.5, 3)]),
        ReducerCase(reducer: .max, defaultValue: 0, values: [1, 3, 2], result: 3, calls: [r(1, 3), r(3, 2)]),
        ReducerCase(reducer: .min, defaultValue: 0, values: [2, 1, 3], result: 1, calls: [r(2, 1), r(1, 3)]),
        ReducerCase(reducer: .and, defaultValue: true, values: [true, true, false], result: false,
                    calls: [r(true, true), r(true, false)]),
        ReducerCase(reducer: .or, defaultValue: false, values: [false, false, true], result: true,
                    calls: [r(false, false), r(false, true)]),
        ReducerCase(reducer: .append, defaultValue: [], values: [[1], [2, 3], [4]], result: [1, 2, 3, 4],
                    calls: [r([1], [2, 3]), r([1, 2, 3], [4])]),
        ReducerCase(reducer: .merge, defaultValue: [:], values: [["a": 1, "b": 1], ["b": 2], ["c": 3]],
                    result: ["a": 1, "b": 2, "c": 3],
                    calls: [r(["a": 1, "b": 1], ["b": 2]), r(["a": 1, "b": 2], ["c": 3])]),
        ReducerCase(reducer: .firstNonNull, defaultValue: .null, values: [.null, 4, 5], result: 4,
                    calls: [r(.null, 4), rNoNext(4)]),
        ReducerCase(reducer: .priority, defaultValue: .null, values: [msg(1, "A"), msg(3, "C"), msg(2, "B")],
                    result: msg(3, "C"), calls: [r(msg(1, "A"), msg(3, "C")), r(msg(3, "C"), msg(2, "B"))]),
        ReducerCase(reducer: .nest, defaultValue: "", values: ["a", "b", "c"], result: "((a b) c)",
                    calls: [r("a", "b"), r("(a b)", "c")]),
    ]

    // §5: every reducer folds three writers exactly as its SwiftUI body does, calling nextValue only where it does.
    @Test(arguments: SemanticsTestsRules.catalog)
    func everyReducerFoldsAsItsSwiftUIBody(c: ReducerCase) throws {
        let children = c.values.enumerated().map { writer($0.element, id: "v\($0.offset)") }
        let tree = try T.tree([T.key(c.reducer, c.defaultValue)], T.stack(id: "s", children, modifiers: [T.reader()]))
        #expect(tree.readers == [fired("s#0", c.result)])
        let s = scratch(tree)
        #expect(s.fires == [fired("s#0", c.result)])
        #expect(s.calls == c.calls)
    }

    // §5: merge lets the later value win on a shared key (`{ $1 }`).
    @Test func mergeLetsTheLaterValueWinOnASharedMember() throws {
        let content = T.stack(id: "s", [writer(["k": "old", "a": 1], id: "a"), writer(["k": "new"], id: "b")],
                              modifiers: [T.reader()])
        let tree = try T.tree([T.key(.merge, [:])], content)
        #expect(tree.readers == [fired("s#0", ["k": "new", "a": 1])])
    }

    // §5: a value whose type does not fit its key's reducer is rejected when the edit arrives; nothing changes.
    @Test func aValueOfTheWrongTypeIsRejectedAndLeavesTheTreeUnchanged() throws {
        let content = T.stack(id: "s", [writer(1, id: "one"), writer(2, id: "two")], modifiers: [T.reader()])
        var tree = try T.tree([T.key(.sum, 0)], content)
        let before = tree.readers
        let error = #expect(throws: CanopyError.self) {
            _ = try tree.apply([.setPreference(node: "one", key: "K", value: 5), .setPreference(node: "two", key: "K", value: "x")])
        }
        #expect(error?.code == .typeMismatch)
        #expect(error?.op == 1)
        #expect(tree.readers == before)
        #expect(tree.version == 0)
        let badTransform = #expect(throws: CanopyError.self) {
            _ = try tree.apply([.setModifiers(node: "one", modifiers: [transform(.append([1]))])])
        }
        #expect(badTransform?.code == .typeMismatch)
        let badTree = #expect(throws: CanopyError.self) {
            _ = try T.tree([T.key(.priority, .null)], writer(["priority": 1], id: "v", T.reader()))
        }
        #expect(badTree?.code == .typeMismatch)
    }

    // MARK: §5 priority

    struct PriorityCase: Sendable, CustomTestStringConvertible {
        var rule: String
        var values: [JSON]
        var result: JSON
        fileprivate var calls: [Call]
        var testDescription: String { rule }
    }

    static let priorityRules: [PriorityCase] = [
        PriorityCase(rule: "a null value takes the next", values: [.null, msg(1, "A")], result: msg(1, "A"),
                     calls: [r(.null, msg(1, "A"))]),
        PriorityCase(rule: "an empty value takes the next even with a lower priority", values: [msg(5, ""), msg(1, "B")],
                     result: msg(1, "B"), calls: [r(msg(5, ""), msg(1, "B"))]),
        PriorityCase(rule: "an empty value takes even a null next", values: [msg(5, ""), .null], result: .null,
                     calls: [r(msg(5, ""), .null)]),
        PriorityCase(rule: "a null next is ignored", values: [msg(1, "A"), .null], result: msg(1, "A"),
                     calls: [r(msg(1, "A"), .null)]),
        PriorityCase(rule: "an empty next is ignored even with a higher priority", values: [msg(1, "A"), msg(9, "")],
                     result: msg(1, "A"), calls: [r(msg(1, "A"), msg(9, ""))]),
        PriorityCase(rule: "an equal priority keeps the current", values: [msg(1, "A"), msg(1, "B")], result: msg(1, "A"),
                     calls: [r(msg(1, "A"), msg(1, "B"))]),
        PriorityCase(rule: "a lower priority keeps the current", values: [msg(2, "A"), msg(1, "B")], result: msg(2, "A"),
                     calls: [r(msg(2, "A"), msg(1, "B"))]),
        PriorityCase(rule: "a strictly higher priority wins", values: [msg(1, "A"), msg(2, "B")], result: msg(2, "B"),
                     calls: [r(msg(1, "A"), msg(2, "B"))]),
        PriorityCase(rule: "the highest of three wins", values: [msg(2, "A"), msg(1, "B"), msg(3, "C")],
                     result: msg(3, "C"), calls: [r(msg(2, "A"), msg(1, "B")), r(msg(2, "A"), msg(3, "C"))]),
        PriorityCase(rule: "fractional priorities compare by value", values: [msg(1, "A"), ["priority": 1.5, "content": "B"]],
                     result: ["priority": 1.5, "content": "B"], calls: [r(msg(1, "A"), ["priority": 1.5, "content": "B"])]),
    ]

    // §5: the priority reducer follows the article's body rule by rule.
    @Test(arguments: SemanticsTestsRules.priorityRules)
    func priorityReducerFollowsTheArticlesBody(c: PriorityCase) throws {
        let children = c.values.enumerated().map { writer($0.element, id: "tf\($0.offset)", type: "TF") }
        let tree = try T.tree([T.key(.priority, .null)], T.stack(id: "s", children, modifiers: [T.reader()]))
        #expect(tree.readers == [fired("s#0", c.result)])
        let s = scratch(tree)
        #expect(s.fires == [fired("s#0", c.result)])
        #expect(s.calls == c.calls)
    }

    // §5/§3: a priority key whose only content is an empty dynamic container reads the null default.
    @Test func priorityOfAnEmptyDynamicContainerIsTheNullDefault() throws {
        let tree = try T.tree([T.key(.priority, .null)], T.stack("If", id: "if", [], modifiers: [T.reader()]))
        #expect(tree.readers == [fired("if#0", .null)])
    }

    // MARK: §4/§5 and, or, firstNonNull laziness

    // §5: `and` stops asking once the value is false; the rest is skipped (skip events) and never read.
    @Test func andSkipsEveryLaterChildOnceTheValueIsFalse() throws {
        let content = T.stack(id: "s", [writer(true, id: "a"), writer(false, id: "b"), writer(true, id: "c"), writer(true, id: "d")],
                              modifiers: [T.reader()])
        let tree = try T.tree([T.key(.and, true)], content)
        #expect(tree.readers == [fired("s#0", false)])
        let s = scratch(tree)
        #expect(s.calls == [r(true, false), rNoNext(false), rNoNext(false)])
        #expect(s.events.contains(.skip(node: "c", key: "K", modifier: nil)))
        #expect(s.events.contains(.skip(node: "d", key: "K", modifier: nil)))
        #expect(!s.events.contains(.skip(node: "b", key: "K", modifier: nil)))
        #expect(!s.events.contains { $0.nodeID == "c" && $0 != .skip(node: "c", key: "K", modifier: nil) })
        #expect(s.summary.skipped == 2)
    }

    // §5: `or` stops asking once the value is true.
    @Test func orSkipsEveryLaterChildOnceTheValueIsTrue() throws {
        let content = T.stack(id: "s", [writer(false, id: "a"), writer(true, id: "b"), writer(false, id: "c")],
                              modifiers: [T.reader()])
        let tree = try T.tree([T.key(.or, false)], content)
        #expect(tree.readers == [fired("s#0", true)])
        let s = scratch(tree)
        #expect(s.calls == [r(false, true), rNoNext(true)])
        #expect(s.events.contains(.skip(node: "c", key: "K", modifier: nil)))
        #expect(!s.events.contains { $0.evaluates("c", modifier: 0) })
    }

    // §5: `firstNonNull` asks only while the value is null.
    @Test func firstNonNullAsksOnlyWhileTheValueIsNull() throws {
        let content = T.stack(id: "s", [writer(.null, id: "a"), writer(.null, id: "b"), writer(3, id: "c"), writer(4, id: "d")],
                              modifiers: [T.reader()])
        let tree = try T.tree([T.key(.firstNonNull, .null)], content)
        #expect(tree.readers == [fired("s#0", 3)])
        let s = scratch(tree)
        #expect(s.calls == [r(.null, .null), r(.null, 3), rNoNext(3)])
        #expect(s.events.contains(.skip(node: "d", key: "K", modifier: nil)))
        #expect(!s.events.contains { $0.evaluates("d", modifier: 0) })
    }

    // §4: a skipped subtree is skipped whole: none of its writers is read, and a skip event names the subtree.
    @Test func aSkippedSubtreeIsNeverEvaluated() throws {
        let skipped = T.stack("Group", id: "g", [writer(true, id: "x"), T.stack("ForEach", id: "fe", [writer(false, id: "y")])])
        let content = T.stack(id: "s", [writer(true, id: "a"), skipped], modifiers: [T.reader()])
        let tree = try T.tree([T.key(.or, false)], content)
        #expect(tree.readers == [fired("s#0", true)])
        let s = scratch(tree)
        #expect(s.calls == [rNoNext(true)])
        #expect(s.events.contains(.skip(node: "g", key: "K", modifier: nil)))
        #expect(!s.events.contains { ["x", "fe", "y"].contains($0.nodeID) })
        #expect(!s.events.contains { $0.evaluates("g", modifier: nil) })
    }

    // §4: edits inside a child that `and` did not ask for re-run nothing; once it is asked for, it is tracked.
    @Test func andTracksOnlyTheChildrenItAskedFor() throws {
        let content = T.stack(id: "s", [writer(false, id: "a"), writer(true, id: "b")], modifiers: [T.reader()])
        var tree = try T.tree([T.key(.and, true)], content)
        #expect(tree.readers == [fired("s#0", false)])
        #expect(scratch(tree).calls == [rNoNext(false)])

        let skippedEdit = try edit(&tree, [.setPreference(node: "b", key: "K", value: false)])
        #expect(skippedEdit.changes == [])
        #expect(skippedEdit.calls == [])
        #expect(skippedEdit.summary.reduces == 0)

        let firstEdit = try edit(&tree, [.setPreference(node: "a", key: "K", value: true)])
        #expect(firstEdit.changes == [])  // true && false is still false
        #expect(firstEdit.calls == [r(true, false)])

        let nowTracked = try edit(&tree, [.setPreference(node: "b", key: "K", value: true)])
        #expect(nowTracked.changes == [fired("s#0", true)])
        #expect(nowTracked.calls == [r(true, true)])
    }

    // §4: the same for `or`.
    @Test func orTracksOnlyTheChildrenItAskedFor() throws {
        let content = T.stack(id: "s", [writer(true, id: "a"), writer(false, id: "b")], modifiers: [T.reader()])
        var tree = try T.tree([T.key(.or, false)], content)
        #expect(scratch(tree).calls == [rNoNext(true)])
        let skippedEdit = try edit(&tree, [.setPreference(node: "b", key: "K", value: true)])
        #expect(skippedEdit.changes == [])
        #expect(skippedEdit.calls == [])
        let flip = try edit(&tree, [.setPreference(node: "a", key: "K", value: false)])
        #expect(flip.changes == [])  // false || true is still true
        #expect(flip.calls == [r(false, true)])
        let off = try edit(&tree, [.setPreference(node: "b", key: "K", value: false)])
        #expect(off.changes == [fired("s#0", false)])
        #expect(off.calls == [r(false, false)])
    }

    // §4: the same for `firstNonNull`.
    @Test func firstNonNullTracksOnlyTheChildrenItAskedFor() throws {
        let content = T.stack(id: "s", [writer(1, id: "a"), writer(2, id: "b")], modifiers: [T.reader()])
        var tree = try T.tree([T.key(.firstNonNull, .null)], content)
        #expect(tree.readers == [fired("s#0", 1)])
        #expect(scratch(tree).calls == [rNoNext(1)])
        let skippedEdit = try edit(&tree, [.setPreference(node: "b", key: "K", value: 20)])
        #expect(skippedEdit.changes == [])
        #expect(skippedEdit.calls == [])
        let toNull = try edit(&tree, [.setPreference(node: "a", key: "K", value: .null)])
        #expect(toNull.changes == [fired("s#0", 20)])
        #expect(toNull.calls == [r(.null, 20)])
    }

    // MARK: §6 Transforms

    struct TransformCase: Sendable, CustomTestStringConvertible {
        var reducer: Reducer
        var defaultValue: JSON
        /// The content's writer value; nil for a plain leaf (absent content).
        var content: JSON?
        var transform: Transform
        var result: JSON
        fileprivate var calls: [Call]
        var testDescription: String {
            "\(transform.json.encoded()) on \(content?.encoded() ?? "absent") (\(reducer.rawValue), default \(defaultValue.encoded()))"
        }
    }

    static let transforms: [TransformCase] = [
        TransformCase(reducer: .sum, defaultValue: 100, content: 2, transform: .add(3), result: 5, calls: []),
        TransformCase(reducer: .sum, defaultValue: 100, content: nil, transform: .add(3), result: 103, calls: []),
        TransformCase(reducer: .max, defaultValue: 0, content: 2, transform: .add(0.5), result: 2.5, calls: []),
        TransformCase(reducer: .sum, defaultValue: 100, content: 2, transform: .multiply(3), result: 6, calls: []),
        TransformCase(reducer: .sum, defaultValue: 100, content: nil, transform: .multiply(3), result: 300, calls: []),
        TransformCase(reducer: .append, defaultValue: [0], content: [1], transform: .append([2, 3]), result: [1, 2, 3],
                      calls: []),
        TransformCase(reducer: .append, defaultValue: [0], content: nil, transform: .append([2]), result: [0, 2],
                      calls: []),
        TransformCase(reducer: .merge, defaultValue: ["d": 0], content: ["a": 1, "b": 1], transform: .merge(["b": 2]),
                      result: ["a": 1, "b": 2], calls: []),
        TransformCase(reducer: .merge, defaultValue: ["d": 0], content: nil, transform: .merge(["b": 2]),
                      result: ["d": 0, "b": 2], calls: []),
        TransformCase(reducer: .last, defaultValue: 0, content: 2, transform: .set(7), result: 7, calls: []),
        TransformCase(reducer: .last, defaultValue: 0, content: nil, transform: .set(7), result: 7, calls: []),
        TransformCase(reducer: .nest, defaultValue: "d", content: "a", transform: .set("s"), result: "s", calls: []),
        TransformCase(reducer: .sum, defaultValue: 100, content: 2, transform: .reduce(5), result: 7, calls: [r(2, 5)]),
        TransformCase(reducer: .sum, defaultValue: 100, content: nil, transform: .reduce(5), result: 105,
                      calls: [r(100, 5)]),
        TransformCase(reducer: .nest, defaultValue: "d", content: "a", transform: .reduce("b"), result: "(a b)",
                      calls: [r("a", "b")]),
        TransformCase(reducer: .append, defaultValue: [], content: [1], transform: .reduce([2]), result: [1, 2],
                      calls: [r([1], [2])]),
        TransformCase(reducer: .firstNonNull, defaultValue: .null, content: nil, transform: .reduce(3), result: 3,
                      calls: [r(.null, 3)]),
        TransformCase(reducer: .priority, defaultValue: .null, content: msg(1, "A"), transform: .reduce(msg(2, "B")),
                      result: msg(2, "B"), calls: [r(msg(1, "A"), msg(2, "B"))]),
    ]

    // §6: every transform form applies to the content's value, or to the key's default when the content is absent;
    // `reduce` runs the key's own reducer with the given value as nextValue.
    @Test(arguments: SemanticsTestsRules.transforms)
    func everyTransformFormAppliesToTheContentOrTheDefault(c: TransformCase) throws {
        let node = c.content.map { writer($0, id: "v", transform(c.transform), T.reader()) }
            ?? leaf("Color", id: "v", transform(c.transform), T.reader())
        let readerID = c.content == nil ? "v#1" : "v#2"
        let tree = try T.tree([T.key(c.reducer, c.defaultValue)], node)
        #expect(tree.readers == [fired(readerID, c.result)])
        let s = scratch(tree)
        #expect(s.fires == [fired(readerID, c.result)])
        #expect(s.calls == c.calls)
    }

    static let lazyReduceTransforms: [TransformCase] = [
        TransformCase(reducer: .first, defaultValue: 0, content: 1, transform: .reduce(2), result: 1, calls: [rNoNext(1)]),
        TransformCase(reducer: .and, defaultValue: true, content: false, transform: .reduce(true), result: false,
                      calls: [rNoNext(false)]),
        TransformCase(reducer: .or, defaultValue: false, content: true, transform: .reduce(false), result: true,
                      calls: [rNoNext(true)]),
        TransformCase(reducer: .firstNonNull, defaultValue: .null, content: 1, transform: .reduce(3), result: 1,
                      calls: [rNoNext(1)]),
    ]

    // §6 with §5: a `reduce` transform whose reducer does not call nextValue is a call r(value, —).
    @Test(arguments: SemanticsTestsRules.lazyReduceTransforms)
    func aReduceTransformWhoseReducerSkipsNextValueTracesNoNext(c: TransformCase) throws {
        let node = writer(c.content!, id: "v", transform(c.transform), T.reader())
        let tree = try T.tree([T.key(c.reducer, c.defaultValue)], node)
        #expect(tree.readers == [fired("v#2", c.result)])
        #expect(scratch(tree).calls == c.calls)
    }

    // §6: chained transforms apply innermost first.
    @Test func chainedTransformsApplyInnermostFirst() throws {
        let addThenMultiply = try T.tree(
            [T.key(.sum, 0)], writer(2, id: "v", transform(.add(3)), transform(.multiply(10)), T.reader()))
        #expect(addThenMultiply.readers == [fired("v#3", 50)])
        let multiplyThenAdd = try T.tree(
            [T.key(.sum, 0)], writer(2, id: "v", transform(.multiply(10)), transform(.add(3)), T.reader()))
        #expect(multiplyThenAdd.readers == [fired("v#3", 23)])
        let setThenAppend = try T.tree(
            [T.key(.append, [])], leaf(id: "v", transform(.set([1])), transform(.append([2])), T.reader()))
        #expect(setThenAppend.readers == [fired("v#2", [1, 2])])

        let reduces = try T.tree(
            [T.key(.nest, "")], writer("a", id: "v", transform(.reduce("b")), transform(.reduce("c")), T.reader()))
        #expect(reduces.readers == [fired("v#3", "((a b) c)")])
        #expect(scratch(reduces).calls == [r("a", "b"), r("(a b)", "c")])
    }

    // §6: readers along a transform chain each see the value at their position.
    @Test func readersAlongATransformChainSeeTheValueAtTheirPosition() throws {
        let node = writer(1, id: "v", T.reader(), transform(.add(10)), T.reader(), transform(.multiply(2)), T.reader())
        var tree = try T.tree([T.key(.sum, 0)], node)
        #expect(tree.readers == [fired("v#1", 1), fired("v#3", 11), fired("v#5", 22)])
        #expect(scratch(tree).fires == [fired("v#1", 1), fired("v#3", 11), fired("v#5", 22)])
        // Editing the writer (index 0) re-runs the chain.
        let e = try edit(&tree, [.setPreference(node: "v", key: "K", value: 2)])
        #expect(e.changes == [fired("v#1", 2), fired("v#3", 12), fired("v#5", 24)])
        #expect(e.calls == [])
    }

    // §6/§3: a transform applies to a container's whole fold, and makes an otherwise absent leaf present in a fold.
    @Test func transformsApplyToWholeFoldsAndMakeAbsentContentPresent() throws {
        let onFold = T.stack(id: "s", [writer(1, id: "one"), writer(2, id: "two")],
                             modifiers: [transform(.multiply(10)), T.reader()])
        let folded = try T.tree([T.key(.sum, 0)], onFold)
        #expect(folded.readers == [fired("s#1", 30)])
        #expect(scratch(folded).calls == [r(1, 2)])

        let inFold = T.stack(id: "s", [leaf("Color", id: "color", transform(.add(10))), writer(1, id: "one")],
                             modifiers: [T.reader()])
        let present = try T.tree([T.key(.sum, 0)], inFold)
        #expect(present.readers == [fired("s#0", 11)])
        #expect(scratch(present).calls == [r(10, 1)])
    }

    // §6/§4: editing the content under a transform re-runs the transform; a transform edit re-runs it too.
    @Test func editsUnderAndOfATransformReRunIt() throws {
        let content = T.stack(id: "s", [writer(1, id: "one"), writer(2, id: "two")],
                              modifiers: [transform(.reduce(4)), T.reader()])
        var tree = try T.tree([T.key(.sum, 0)], content)
        #expect(tree.readers == [fired("s#1", 7)])
        #expect(scratch(tree).calls == [r(1, 2), r(3, 4)])
        let inner = try edit(&tree, [.setPreference(node: "two", key: "K", value: 5)])
        #expect(inner.changes == [fired("s#1", 10)])
        #expect(inner.calls == [r(1, 5), r(6, 4)])
        let outer = try edit(&tree, [.setModifiers(node: "s", modifiers: [transform(.reduce(0)), T.reader()])])
        #expect(outer.changes == [fired("s#1", 6)])
        #expect(outer.calls.last == r(6, 0))
    }

    // §6: a transform over content that becomes absent falls back to the default.
    @Test func aTransformFallsBackToTheDefaultWhenItsContentGoesAway() throws {
        let content = T.stack(id: "s", [writer(1, id: "one")], modifiers: [transform(.add(10)), T.reader()])
        var tree = try T.tree([T.key(.sum, 100)], content)
        #expect(tree.readers == [fired("s#1", 11)])
        let e = try edit(&tree, [.remove(node: "one")])
        #expect(e.changes == [fired("s#1", 110)])
        #expect(e.calls == [])
    }

    // MARK: §3 background / overlay with absent operands

    // §3: pair with one absent operand passes the other through without reduce; both absent is absent.
    @Test func backgroundAndOverlayWithAbsentOperandsPassThroughOrStayAbsent() throws {
        func check(_ node: Node, _ readerID: String, _ expected: JSON?, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let tree = try T.tree([T.key(.nest, "")], node)
            let want = expected.map { fired(readerID, $0) } ?? absent(readerID)
            #expect(tree.readers == [want], sourceLocation: sourceLocation)
            let s = scratch(tree)
            #expect(s.fires == (expected == nil ? [] : [want]), sourceLocation: sourceLocation)
            #expect(s.calls == [], sourceLocation: sourceLocation)
        }
        try check(writer("c", id: "c", .background(leaf("Color", id: "b")), T.reader()), "c#2", "c")
        try check(leaf("Color", id: "c", .background(writer("b", id: "b")), T.reader()), "c#1", "b")
        try check(leaf("Color", id: "c", .background(leaf("Color", id: "b")), T.reader()), "c#1", nil)
        try check(writer("c", id: "c", .overlay(leaf("Color", id: "o")), T.reader()), "c#2", "c")
        try check(leaf("Color", id: "c", .overlay(writer("o", id: "o")), T.reader()), "c#1", "o")
        try check(leaf("Color", id: "c", .overlay(leaf("Color", id: "o")), T.reader()), "c#1", nil)
        try check(
            leaf("Color", id: "c", .background(T.stack(id: "bs", [leaf(id: "p")])), .overlay(T.stack("Group", id: "og", [])),
                 T.reader()),
            "c#2", nil)
    }

    // §3: an absent background/overlay host is skipped by its parent's fold; a present one takes part.
    @Test func backgroundsAndOverlaysDecideWhetherALeafTakesPartInAFold() throws {
        let content = T.stack(
            id: "s",
            [writer("a", id: "a"), leaf("Color", id: "none", .background(leaf("Color", id: "nb"))),
             leaf("Color", id: "some", .overlay(writer("o", id: "o")))],
            modifiers: [T.reader()])
        let tree = try T.tree([T.key(.nest, "")], content)
        #expect(tree.readers == [fired("s#0", "(a o)")])
        #expect(scratch(tree).calls == [r("a", "o")])
    }

    // §3: an attached subtree is folded like any node, inside the pair's operand.
    @Test func anAttachedContainerFoldsBeforeThePair() throws {
        let bg = T.stack(id: "bg", [writer("b1", id: "b1"), writer("b2", id: "b2")])
        let tree = try T.tree([T.key(.nest, "")], writer("c", id: "c", .background(bg), T.reader()))
        #expect(tree.readers == [fired("c#2", "((b1 b2) c)")])
        #expect(scratch(tree).calls == [r("b1", "b2"), r("(b1 b2)", "c")])
    }

    // §3/§4: with KEEP, a background pair never asks for the content; edits of the content do nothing.
    @Test func keepWithABackgroundSkipsTheContent() throws {
        var tree = try T.tree([T.key(.first, "")], writer("c", id: "c", .background(writer("b", id: "b")), T.reader()))
        #expect(tree.readers == [fired("c#2", "b")])
        let s = scratch(tree)
        #expect(s.calls == [rNoNext("b")])
        #expect(s.events.contains(.skip(node: "c", key: "K", modifier: 0)))
        #expect(!s.events.contains { $0.evaluates("c", modifier: 0) })
        let e = try edit(&tree, [.setPreference(node: "c", key: "K", value: "c2")])
        #expect(e.changes == [])
        #expect(e.calls == [])
        let b = try edit(&tree, [.setPreference(node: "b", key: "K", value: "b2")])
        #expect(b.changes == [fired("c#2", "b2")])
        #expect(b.calls == [rNoNext("b2")])
    }

    // §3/§4: an attached operand that goes absent and comes back switches the pair between pass-through and reduce.
    @Test func anAttachedOperandGoingAbsentAndBackSwitchesThePair() throws {
        let bg = T.stack("Group", id: "bg", [writer("b", id: "b")])
        var tree = try T.tree([T.key(.nest, "")], writer("c", id: "c", .background(bg), T.reader()))
        #expect(tree.readers == [fired("c#2", "(b c)")])
        #expect(scratch(tree).calls == [r("b", "c")])
        let gone = try edit(&tree, [.removePreference(node: "b", key: "K")])
        #expect(gone.changes == [fired("c#2", "c")])
        #expect(gone.calls == [])
        let back = try edit(&tree, [.setPreference(node: "b", key: "K", value: "b")])
        #expect(back.changes == [fired("c#2", "(b c)")])
        #expect(back.calls == [r("b", "c")])
        let overlayEdit = try edit(&tree, [.setModifiers(node: "c", modifiers: [pref("c"), .overlay(writer("o", id: "o")), T.reader()])])
        #expect(overlayEdit.changes == [fired("c#2", "(c o)")])
        #expect(overlayEdit.calls == [r("c", "o")])
    }

    // MARK: Readers inside attached subtrees

    // A reader inside a background sees the attached subtree's value; the host's reader sees the pair. Both fire on
    // creation and on an edit inside, in tree order (the background's modifier index comes before the host's reader).
    @Test func aReaderInsideABackgroundFiresWithTheHostsReader() throws {
        let bg = T.stack(id: "bg", [writer("b1", id: "b1"), writer("b2", id: "b2")], modifiers: [T.reader()])
        var tree = try T.tree([T.key(.nest, "")], writer("c", id: "c", .background(bg), T.reader()))
        #expect(tree.readers == [fired("bg#0", "(b1 b2)"), fired("c#2", "((b1 b2) c)")])
        let s = scratch(tree)
        #expect(s.fires == [fired("bg#0", "(b1 b2)"), fired("c#2", "((b1 b2) c)")])
        #expect(s.calls == [r("b1", "b2"), r("(b1 b2)", "c")])

        let e = try edit(&tree, [.setPreference(node: "b2", key: "K", value: "x")])
        #expect(e.changes == [fired("bg#0", "(b1 x)"), fired("c#2", "((b1 x) c)")])
        #expect(e.calls == [r("b1", "x"), r("(b1 x)", "c")])

        let host = try edit(&tree, [.setPreference(node: "c", key: "K", value: "h")])
        #expect(host.changes == [fired("c#2", "((b1 x) h)")])
        #expect(host.calls == [r("(b1 x)", "h")])
    }

    // A reader inside an attached subtree requests the key there even when nothing outside reads it, or a writer
    // outside hides it.
    @Test func aReaderInsideAnAttachedSubtreeWorksWhetherOrNotTheHostIsRequested() throws {
        let unrequested = try T.tree(
            [T.key(.sum, 0)], leaf("Color", id: "host", .overlay(writer(5, id: "o", T.reader()))))
        #expect(unrequested.readers == [fired("o#1", 5)])
        #expect(scratch(unrequested).calls == [])
        #expect(scratch(unrequested).events.allSatisfy { $0.nodeID == "o" })

        let bg = T.stack(id: "bg", [writer(1, id: "one"), writer(2, id: "two")], modifiers: [T.reader()])
        var hidden = try T.tree([T.key(.sum, 0)], leaf(id: "host", .background(bg), pref(9), T.reader()))
        #expect(hidden.readers == [fired("bg#0", 3), fired("host#2", 9)])
        let s = scratch(hidden)
        #expect(s.fires == [fired("bg#0", 3), fired("host#2", 9)])
        #expect(s.calls == [r(1, 2)])
        let e = try edit(&hidden, [.setPreference(node: "two", key: "K", value: 3)])
        #expect(e.changes == [fired("bg#0", 4)])
        #expect(e.calls == [r(1, 3)])
    }

    // A reader inside an overlay that the host's reducer never asks for still gets its value, and edits there fire
    // it without re-running the host's pair.
    @Test func aReaderInsideASkippedOverlayStillFires() throws {
        var tree = try T.tree([T.key(.first, "")], writer("c", id: "c", .overlay(writer("o", id: "o", T.reader())), T.reader()))
        #expect(tree.readers == [fired("o#1", "o"), fired("c#2", "c")])
        let s = scratch(tree)
        #expect(s.fires == [fired("o#1", "o"), fired("c#2", "c")])
        #expect(s.calls == [rNoNext("c")])
        let e = try edit(&tree, [.setPreference(node: "o", key: "K", value: "o2")])
        #expect(e.changes == [fired("o#1", "o2")])
        #expect(e.calls == [])
    }

    // MARK: §4 present: false

    // §4 (choice): content going from present to absent is reported with present: false; when it comes back the
    // reader fires again, even with the same value as before.
    @Test func aReaderReportsAbsenceAndFiresAgainWhenContentReturns() throws {
        let content = T.stack(id: "s", [writer(1, id: "a")], modifiers: [T.reader()])
        var tree = try T.tree([T.key(.sum, 0)], content)
        #expect(tree.readers == [fired("s#0", 1)])

        let gone = try edit(&tree, [.removePreference(node: "a", key: "K")])
        #expect(gone.changes == [absent("s#0")])
        #expect(gone.changes.first?.present == false)
        #expect(gone.calls == [])
        #expect(tree.readers == [absent("s#0")])

        let still = try edit(&tree, [.setProps(node: "a", props: ["label": "x"])])
        #expect(still.changes == [])

        let back = try edit(&tree, [.setPreference(node: "a", key: "K", value: 1)])
        #expect(back.changes == [fired("s#0", 1)])
        #expect(back.calls == [])
        #expect(tree.readers == [fired("s#0", 1)])
    }

    // §4: the same through structural edits: removing the last writer's node, then inserting it again.
    @Test func removingAndReinsertingTheLastWriterReportsAbsenceThenTheValue() throws {
        let content = T.stack(id: "s", [writer(1, id: "a"), writer(2, id: "b")], modifiers: [T.reader()])
        var tree = try T.tree([T.key(.sum, 0)], content)
        #expect(tree.readers == [fired("s#0", 3)])
        let one = try edit(&tree, [.remove(node: "a")])
        #expect(one.changes == [fired("s#0", 2)])
        #expect(one.calls == [])
        let none = try edit(&tree, [.remove(node: "b")])
        #expect(none.changes == [absent("s#0")])
        let again = try edit(&tree, [.insert(parent: "s", node: writer(2, id: "b"), position: .end)])
        #expect(again.changes == [fired("s#0", 2)])
        let two = try edit(&tree, [.insert(parent: "s", node: writer(1, id: "a"), position: .index(0))])
        #expect(two.changes == [fired("s#0", 3)])
        #expect(two.calls == [r(1, 2)])
    }

    // §4: an absent reader that stays absent never fires, whatever the edit.
    @Test func aReaderWhoseContentStaysAbsentNeverFires() throws {
        let content = T.stack(id: "s", [leaf(id: "p")], modifiers: [T.reader()])
        var tree = try T.tree([T.key(.sum, 0)], content)
        #expect(tree.readers == [absent("s#0")])
        let e = try edit(&tree, [.insert(parent: "s", node: T.stack("Group", id: "g", [leaf(id: "q")]), position: .end),
                                 .setModifiers(node: "p", modifiers: [other("hidden")])])
        #expect(e.changes == [])
        #expect(tree.readers == [absent("s#0")])
    }

    // MARK: §4 readers created by edits

    // §4: a reader added by setModifiers fires its initial value.
    @Test func aReaderAddedByAnEditFiresItsInitialValue() throws {
        let content = T.stack(id: "s", [writer(1, id: "one"), writer(2, id: "two")])
        var tree = try T.tree([T.key(.sum, 0)], content)
        #expect(tree.readers == [])
        #expect(scratch(tree).calls == [])
        let e = try edit(&tree, [.setModifiers(node: "s", modifiers: [T.reader()])])
        #expect(e.changes == [fired("s#0", 3)])
        #expect(e.calls == [r(1, 2)])
        #expect(tree.readers == [fired("s#0", 3)])
    }

    // §4: a reader in an inserted subtree fires its initial value; an existing reader fires only if its value changed.
    @Test func aReaderInAnInsertedSubtreeFiresItsInitialValue() throws {
        let content = T.stack(id: "s", [writer(1, id: "one"), writer(2, id: "two")], modifiers: [T.reader()])
        var tree = try T.tree([T.key(.sum, 0)], content)
        #expect(tree.readers == [fired("s#0", 3)])

        let inserted = T.stack("Group", id: "g", [writer(4, id: "four"), writer(5, id: "five")], modifiers: [T.reader()])
        let e = try edit(&tree, [.insert(parent: "s", node: inserted, position: .end)])
        #expect(e.changes == [fired("s#0", 12), fired("g#0", 9)])
        #expect(e.calls == [r(4, 5), r(1, 2), r(3, 9)] || e.calls == [r(1, 2), r(4, 5), r(3, 9)])
        #expect(e.calls.count == 3)

        // A new reader whose value happens to equal the unchanged outer value: only the new one fires.
        let zero = writer(0, id: "zero", T.reader())
        let z = try edit(&tree, [.insert(parent: "s", node: zero, position: .index(0))])
        #expect(z.changes == [fired("zero#1", 0)])
    }

    // §4: a new reader over absent content does not fire.
    @Test func aReaderAddedOverAbsentContentDoesNotFire() throws {
        var tree = try T.tree([T.key(.sum, 0)], T.stack(id: "s", []))
        let e = try edit(&tree, [.insert(parent: "s", node: T.stack(id: "new", [leaf("Color", id: "c")], modifiers: [T.reader()]),
                                         position: .end)])
        #expect(e.changes == [])
        #expect(tree.readers == [absent("new#0")])
    }

    // §4: a reader removed and then added back is a new reader: it fires its value again.
    @Test func aReaderRemovedAndAddedBackFiresAgain() throws {
        let content = T.stack(id: "s", [writer(1, id: "one"), writer(2, id: "two")], modifiers: [T.reader()])
        var tree = try T.tree([T.key(.sum, 0)], content)
        let removed = try edit(&tree, [.setModifiers(node: "s", modifiers: [])])
        #expect(removed.changes == [])
        #expect(tree.readers == [])
        let added = try edit(&tree, [.setModifiers(node: "s", modifiers: [T.reader()])])
        #expect(added.changes == [fired("s#0", 3)])
    }

    // MARK: §1 other modifiers

    // §1: hidden, padding, font and other modifiers are kept and have no effect on preferences.
    @Test func otherModifiersHaveNoEffectOnPreferences() throws {
        let content = T.stack(
            id: "s",
            [writer(1, id: "one", other("padding"), other("hidden")), writer(2, id: "two", other("font"))],
            modifiers: [other("padding"), T.reader(), other("hidden")])
        var tree = try T.tree([T.key(.sum, 0)], content)
        #expect(tree.readers == [fired("s#1", 3)])
        let s = scratch(tree)
        #expect(s.fires == [fired("s#1", 3)])
        #expect(s.calls == [r(1, 2)])
        #expect(tree.node("one")?.modifiers == [pref(1), other("padding"), other("hidden")])

        let chain = try T.tree(
            [T.key(.sum, 0)], writer(2, id: "v", transform(.add(1)), other("hidden"), other("opacity"), transform(.multiply(10)), T.reader()))
        #expect(chain.readers == [fired("v#5", 30)])

        // Adding or removing them fires nothing.
        let e = try edit(&tree, [.setModifiers(node: "two", modifiers: [pref(2)]),
                                 .setModifiers(node: "one", modifiers: [pref(1), other("hidden"), other("blur")])])
        #expect(e.changes == [])
        #expect(tree.readers == [fired("s#1", 3)])
    }

    // Known deviation: Group does not distribute its modifiers over its children.
    @Test func groupDoesNotDistributeItsModifiers() throws {
        let group = T.stack("Group", id: "g", [writer(1, id: "one"), writer(2, id: "two")], modifiers: [transform(.add(10))])
        let content = T.stack(id: "s", [group, writer(5, id: "five")], modifiers: [T.reader()])
        let tree = try T.tree([T.key(.sum, 0)], content)
        #expect(tree.readers == [fired("s#0", 18)])
        #expect(scratch(tree).calls == [r(1, 2), r(13, 5)])
    }

    // Known deviation: zIndex does not reorder the fold.
    @Test func zIndexDoesNotReorderTheFold() throws {
        let content = T.stack(
            id: "s", [writer("a", id: "a", .other(kind: "zIndex", args: ["value": 1])), writer("b", id: "b")],
            modifiers: [T.reader()])
        let tree = try T.tree([T.key(.nest, "")], content)
        #expect(tree.readers == [fired("s#0", "(a b)")])
        #expect(scratch(tree).calls == [r("a", "b")])
    }

    // MARK: More incremental dependencies

    // §4: a skipped child that goes absent leaves a single present child: no reduce at all, and no fire.
    @Test func aSkippedChildGoingAbsentOrComingBackChangesNoValue() throws {
        let content = T.stack(id: "s", [writer("a", id: "a"), writer("b", id: "b")], modifiers: [T.reader()])
        var tree = try T.tree([T.key(.first, "")], content)
        let gone = try edit(&tree, [.removePreference(node: "b", key: "K")])
        #expect(gone.changes == [])
        #expect(gone.calls == [])
        let back = try edit(&tree, [.setPreference(node: "b", key: "K", value: "b")])
        #expect(back.changes == [])
        #expect(back.calls == [rNoNext("a")])
        #expect(tree.readers == [fired("s#0", "a")])
    }

    // §4: edits inside an overlay that KEEP skipped (case 13's tree) re-run nothing and fire nothing.
    @Test func editsInsideASkippedOverlayDoNothing() throws {
        let ifNode = T.stack("If", id: "if", [leaf("Color", id: "color")])
        let content = Node(id: "v", type: "V", modifiers: [pref("non-default"), .overlay(ifNode), T.reader()])
        var tree = try T.tree([T.key(.first, "default")], content)
        let e = try edit(&tree, [.insert(parent: "if", node: writer("x", id: "x"), position: .end),
                                 .remove(node: "color")])
        #expect(e.changes == [])
        #expect(e.calls == [])
        #expect(e.summary.reduces == 0)
        let host = try edit(&tree, [.setPreference(node: "v", key: "K", value: "changed")])
        #expect(host.changes == [fired("v#2", "changed")])
        #expect(host.calls == [rNoNext("changed")])
    }

    // §4: `and` in a pair: a false content skips the overlay, whose edits then do nothing.
    @Test func andInAPairSkipsTheOverlayWhenTheContentIsFalse() throws {
        var tree = try T.tree([T.key(.and, true)], writer(false, id: "c", .overlay(writer(true, id: "o")), T.reader()))
        #expect(tree.readers == [fired("c#2", false)])
        let s = scratch(tree)
        #expect(s.calls == [rNoNext(false)])
        #expect(s.events.contains(.skip(node: "o", key: "K", modifier: nil)))
        let e = try edit(&tree, [.setPreference(node: "o", key: "K", value: false)])
        #expect(e.changes == [])
        #expect(e.calls == [])
        let c = try edit(&tree, [.setPreference(node: "c", key: "K", value: true)])
        #expect(c.changes == [])  // true && false
        #expect(c.calls == [r(true, false)])
    }

    // §4: cut-off through a pair: an attached fold recomputed to an equal value does not re-run the host's pair.
    @Test func anUnchangedAttachedFoldDoesNotReRunThePair() throws {
        let overlay = T.stack(id: "ov", [writer(5, id: "five"), writer(1, id: "b")])
        var tree = try T.tree([T.key(.max, 0)], writer(3, id: "c", .overlay(overlay), T.reader()))
        #expect(tree.readers == [fired("c#2", 5)])
        #expect(scratch(tree).calls == [r(5, 1), r(3, 5)])
        let e = try edit(&tree, [.setPreference(node: "b", key: "K", value: 2)])
        #expect(e.changes == [])
        #expect(e.calls == [r(5, 2)])
    }

    // §4: a reader added inside a child its parent's reducer skipped evaluates that child alone.
    @Test func aReaderAddedInsideASkippedChildEvaluatesOnlyThatChild() throws {
        let group = T.stack("Group", id: "g", [writer(2, id: "two"), writer(3, id: "three")])
        let content = T.stack(id: "s", [writer(1, id: "one"), group], modifiers: [T.reader()])
        var tree = try T.tree([T.key(.first, 0)], content)
        #expect(scratch(tree).calls == [rNoNext(1)])
        let e = try edit(&tree, [.setModifiers(node: "g", modifiers: [T.reader()])])
        #expect(e.changes == [fired("g#0", 2)])
        #expect(e.calls == [rNoNext(2)])
        let inner = try edit(&tree, [.setPreference(node: "two", key: "K", value: 20)])
        #expect(inner.changes == [fired("g#0", 20)])
        #expect(inner.calls == [rNoNext(20)])
        #expect(tree.readers == [fired("s#0", 1), fired("g#0", 20)])
    }

    // §4: a batch is evaluated as a whole: edits that cancel out fire nothing.
    @Test func editsThatCancelOutWithinABatchFireNothing() throws {
        let content = T.stack(id: "s", [writer(1, id: "a"), writer(2, id: "b")], modifiers: [T.reader()])
        var tree = try T.tree([T.key(.sum, 0)], content)
        let e = try edit(&tree, [.removePreference(node: "a", key: "K"), .setPreference(node: "b", key: "K", value: 7),
                                 .setPreference(node: "a", key: "K", value: 1), .setPreference(node: "b", key: "K", value: 2)])
        #expect(e.changes == [])
        #expect(tree.readers == [fired("s#0", 3)])
    }

    // §4: moving a writer between containers updates the readers of both.
    @Test func movingAWriterUpdatesTheReadersOfBothContainers() throws {
        let root = Node(id: "root", type: "Root", children: [
            T.stack(id: "s1", [writer(1, id: "a"), writer(2, id: "b")], modifiers: [T.reader()]),
            T.stack(id: "s2", [writer(10, id: "c")], modifiers: [T.reader()]),
        ])
        var tree = try Tree(keys: [T.key(.sum, 0)], root: root)
        #expect(tree.readers == [fired("s1#0", 3), fired("s2#0", 10)])
        let e = try edit(&tree, [.move(node: "b", parent: "s2", position: .end)])
        #expect(e.changes == [fired("s1#0", 1), fired("s2#0", 12)])
        #expect(e.calls == [r(10, 2)])
    }

    // §1: re-declaring a key's default changes what dynamic containers contribute.
    @Test func redeclaringADefaultChangesWhatEmptyDynamicContainersGive() throws {
        let content = T.stack(id: "s", [T.stack("If", id: "if", [])], modifiers: [T.reader()])
        var tree = try T.tree([T.key(.last, 0)], content)
        #expect(tree.readers == [fired("s#0", 0)])
        let e = try edit(&tree, [.declareKey(T.key(.last, 5))])
        #expect(e.changes == [fired("s#0", 5)])
        #expect(e.calls == [])
    }

    // §3: readers before and after a background each see the value at their position.
    @Test func readersBeforeAndAfterABackgroundSeeTheirOwnStage() throws {
        var tree = try T.tree(
            [T.key(.nest, "")], writer("c", id: "c", T.reader(), .background(writer("b", id: "b")), T.reader()))
        #expect(tree.readers == [fired("c#1", "c"), fired("c#3", "(b c)")])
        #expect(scratch(tree).calls == [r("b", "c")])
        let e = try edit(&tree, [.setPreference(node: "b", key: "K", value: "x")])
        #expect(e.changes == [fired("c#3", "(x c)")])
        #expect(e.calls == [r("x", "c")])
    }

    // §4: turning a writer into a transform re-runs the fold with the transform's value.
    @Test func replacingAWriterWithATransformReRunsTheFold() throws {
        let content = T.stack(id: "s", [writer(1, id: "a"), writer(2, id: "b")], modifiers: [T.reader()])
        var tree = try T.tree([T.key(.sum, 0)], content)
        let e = try edit(&tree, [.setModifiers(node: "a", modifiers: [transform(.add(5))])])
        #expect(e.changes == [fired("s#0", 7)])
        #expect(e.calls == [r(5, 2)])
    }

    // §4: inserting a writer before the first child of a KEEP fold changes the value to it.
    @Test func insertingAWriterFirstChangesAKeepFold() throws {
        let content = T.stack(id: "s", [writer("a", id: "a")], modifiers: [T.reader()])
        var tree = try T.tree([T.key(.first, "")], content)
        #expect(scratch(tree).calls == [])
        let e = try edit(&tree, [.insert(parent: "s", node: writer("z", id: "z"), position: .index(0))])
        #expect(e.changes == [fired("s#0", "z")])
        #expect(e.calls == [rNoNext("z")])
    }

    // §1/§4: values compare by deep JSON equality: 2 and 2.0 are equal, object member order does not matter.
    @Test func aValueEqualByJSONEqualityDoesNotFire() throws {
        let sum = T.stack(id: "s", [writer(1, id: "a"), writer(1, id: "b")], modifiers: [T.reader()])
        var numbers = try T.tree([T.key(.sum, 0)], sum)
        #expect(numbers.readers == [fired("s#0", 2)])
        let n = try edit(&numbers, [.setPreference(node: "a", key: "K", value: 1.5),
                                    .setPreference(node: "b", key: "K", value: 0.5)])
        #expect(n.changes == [])  // 2.0 == 2
        #expect(n.calls == [r(1.5, 0.5)])
        #expect(numbers.readers == [fired("s#0", 2)])

        let merge = T.stack(id: "s", [writer(["x": 1, "y": 2], id: "a"), writer(["z": 3], id: "b")], modifiers: [T.reader()])
        var objects = try T.tree([T.key(.merge, [:])], merge)
        let o = try edit(&objects, [.setPreference(node: "a", key: "K", value: ["y": 2, "x": 1])])
        #expect(o.changes == [])
        #expect(objects.readers == [fired("s#0", ["x": 1, "y": 2, "z": 3])])
    }
}
