import Testing
@testable import CanopyCore

// Custom (Swift-written) reducers through the engine's hook, with reducers written here: laziness and read-once
// `nextValue`, faults and fuel undoing a batch, the `{"key","swift"}` wire form, compile errors, Swift transforms.

// MARK: - Test reducers

/// A sum whose body calls `nextValue()` twice: `value += next() + next()`.
private final class TwiceSum: CustomReducer {
    let source = "twice"
    let defaultValue: JSON = 0
    let reduceLine: Int? = nil
    func reduce(_ value: inout JSON, context: ReducerContext, next: () -> JSON) throws(CanopyError) {
        let a = next().number ?? 0
        let b = next().number ?? 0
        value = .double((value.number ?? 0) + a + b)
    }
    func mismatch(_ value: JSON) -> String? { value.isNumber ? nil : "needs a number" }
    func compileTransform(_ source: String) throws(CanopyError) -> any CustomTransform {
        throw CanopyError(.compileError, "no transforms")
    }
}

/// A sum that faults (`runtime_error` with a line) when the next value is 13.
private final class Unlucky: CustomReducer {
    let source = "unlucky"
    let defaultValue: JSON = 0
    let reduceLine: Int? = 3
    func reduce(_ value: inout JSON, context: ReducerContext, next: () -> JSON) throws(CanopyError) {
        let n = next()
        if n == 13 { throw CanopyError(.runtimeError, "13 is unlucky", details: ["line": 3, "column": 9]) }
        value = SwiftCatalogKey.add(value, n)
    }
    func mismatch(_ value: JSON) -> String? { value.isNumber ? nil : "needs a number" }
    func compileTransform(_ source: String) throws(CanopyError) -> any CustomTransform {
        throw CanopyError(.compileError, "no transforms")
    }
}

private func swiftKey(_ reducer: Reducer, _ defaultValue: JSON, name: String = "K") -> KeyDeclaration {
    let d = KeyDeclaration(key: name, reducer: reducer, defaultValue: defaultValue)
    return KeyDeclaration(key: name, custom: SwiftCatalogKey(d, source: SwiftCatalog.source(d)))
}

private func root(_ children: [Node], reader: Bool = true) -> Node {
    Node(id: "root", type: "Root", modifiers: reader ? [.onPreferenceChange(key: "K")] : [], children: children)
}

private func leaf(_ id: String, _ value: JSON) -> Node { T.V(value, id: id) }

private func rootValue(_ tree: Tree) -> JSON? { tree.readers.first { $0.node == "root" }?.value ?? nil }

private func evalCount(_ trace: Trace?, node: String) -> Int {
    (trace?.events ?? []).filter { if case .eval(node, _, _) = $0.kind { true } else { false } }.count
}

private func failure(_ body: () throws(CanopyError) -> Void) -> CanopyError? {
    do throws(CanopyError) {
        try body()
        return nil
    } catch {
        return error
    }
}

// MARK: - Tests

@Suite struct CustomReducerTests {
    @Test("a reducer calling nextValue twice reads the sibling once and gets the same value")
    func nextValueTwice() throws {
        let tree = try Tree(
            keys: [KeyDeclaration(key: "K", custom: TwiceSum())], root: root([leaf("a", 1), leaf("b", 2)]))
        #expect(rootValue(tree) == 5)
        let trace = tree.evaluateFromScratch(trace: true).trace
        #expect(evalCount(trace, node: "b") == 1)
        #expect(trace?.reduceCalls.count == 1)
        #expect(trace?.reduceCalls.first?.next == 2)
    }

    @Test("a first-style reducer never reads its sibling: a skip, and edits inside that sibling fire nothing")
    func lazyFirst() throws {
        let inner = T.stack(id: "box", [leaf("c", "c")])
        var tree = try Tree(keys: [swiftKey(.first, "")], root: root([leaf("a", "a"), inner]))
        #expect(rootValue(tree) == "a")
        let trace = try #require(tree.evaluateFromScratch(trace: true).trace)
        #expect(trace.events.contains { $0.kind == .skip(node: "box", key: "K", modifier: nil) })
        #expect(evalCount(trace, node: "c") == 0)
        #expect(trace.reduceCalls.count == 1 && trace.reduceCalls[0].next == nil)
        let diff = try tree.apply([.setPreference(node: "c", key: "K", value: "changed")], trace: true)
        #expect(diff.changes.isEmpty)
        #expect(diff.summary == TraceSummary())
        #expect(diff.trace?.events.isEmpty == true)
        #expect(rootValue(tree) == "a")
    }

    @Test("the catalog body and the custom body give the same value and reduce calls for every reducer")
    func everyCatalogReducer() throws {
        let samples: [Reducer: [JSON]] = [
            .last: [1, "x", .null], .first: [1, 2], .sum: [1, 2.5, 3], .max: [1, 7, 3], .min: [4, 2, 9],
            .and: [true, false, true], .or: [false, true, false], .append: [[1], [2, 3]], .merge: [["a": 1], ["b": 2]],
            .firstNonNull: [.null, 2, 3], .nest: ["a", "b", "c"],
            .priority: [.null, ["priority": 1, "content": "x"], ["priority": 2, "content": "y"]],
        ]
        for r in Reducer.allCases {
            let values = try #require(samples[r])
            let kids = values.enumerated().map { leaf("n\($0.offset)", $0.element) }
            let d = KeyDeclaration(key: "K", reducer: r, defaultValue: values[0])
            let catalog = try Tree(keys: [d], root: root(kids)).evaluateFromScratch(trace: true)
            let custom = try Tree(keys: [swiftKey(r, values[0])], root: root(kids)).evaluateFromScratch(trace: true)
            #expect(catalog.readers == custom.readers, "\(r)")
            #expect(catalog.trace?.events == custom.trace?.events, "\(r)")
        }
    }

    @Test("a fault in reduce rejects the batch and leaves tree, readers and version as they were")
    func faultRollsBack() throws {
        var tree = try Tree(
            keys: [KeyDeclaration(key: "K", custom: Unlucky())],
            root: root([leaf("a", 1), T.stack(id: "box", [leaf("b", 2), leaf("c", 3)])]))
        _ = try tree.apply([.setPreference(node: "a", key: "K", value: 4)])
        let before = (tree.root, tree.readers, tree.version)
        #expect(rootValue(tree) == 9)
        // A removal (its slots must survive until the batch evaluated), an insert and a faulting value.
        let ops: [Op] = [
            .remove(node: "box"), .insert(parent: "root", node: leaf("d", 5), position: .end),
            .insert(parent: "root", node: leaf("e", 13), position: .end),
        ]
        let error = try #require(failure { () throws(CanopyError) in _ = try tree.apply(ops, trace: true) })
        #expect(error.code == .runtimeError)
        #expect(error.details == ["line": 3, "column": 9])
        #expect(tree.root == before.0 && tree.readers == before.1 && tree.version == before.2)
        tree.checkInvariants()
        // The tree works on: the removed subtree is back, the ids of the undone inserts are free.
        let diff = try tree.apply([.remove(node: "b"), .insert(parent: "root", node: leaf("d", 5), position: .end)])
        #expect(diff.changes.map(\.value) == [12])
        #expect(tree.readers == tree.evaluateFromScratch().readers)
        #expect(tree.version == before.2 + 1)
    }

    @Test("a faulting initial evaluation makes Tree.init throw; a faulting probe throws and changes nothing")
    func faultOnCreationAndProbe() throws {
        let error = failure { () throws(CanopyError) in
            _ = try Tree(keys: [KeyDeclaration(key: "K", custom: Unlucky())], root: root([leaf("a", 1), leaf("b", 13)]))
        }
        #expect(error?.code == .runtimeError)
        var tree = try Tree(
            keys: [KeyDeclaration(key: "K", custom: Unlucky())],
            root: root([leaf("a", 1), T.stack(id: "box", [leaf("b", 2), leaf("c", 13)])], reader: false))
        let probe = failure { () throws(CanopyError) in _ = try tree.probe(node: "box", key: "K") }
        #expect(probe?.code == .runtimeError)
        tree.checkInvariants()
        #expect(try tree.probe(node: "a", key: "K") == 1)
    }

    @Test("running out of fuel is too_expensive and undoes the batch; fuel is per evaluation")
    func fuel() throws {
        let limits = Limits(fuel: 4)
        let kids = (0..<5).map { leaf("n\($0)", .int(Int64($0))) }  // 4 reduce calls
        var tree = try Tree(keys: [swiftKey(.sum, 0)], root: root(kids), limits: limits)
        #expect(rootValue(tree) == 10)
        // Each batch gets its own fuel: four reduces again.
        _ = try tree.apply([.setPreference(node: "n0", key: "K", value: 100)])
        #expect(rootValue(tree) == 110)
        let error = failure { () throws(CanopyError) in
            _ = try tree.apply([.insert(parent: "root", node: leaf("n5", 1), position: .end)])
        }
        #expect(error?.code == .tooExpensive)
        #expect(rootValue(tree) == 110 && tree.nodeCount == 6 && tree.version == 1)
        let creation = failure { () throws(CanopyError) in
            _ = try Tree(keys: [swiftKey(.sum, 0)], root: root(kids + [leaf("n5", 1)]), limits: limits)
        }
        #expect(creation?.code == .tooExpensive)
    }
}
