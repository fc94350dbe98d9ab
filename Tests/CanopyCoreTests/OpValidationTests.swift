import Testing
@testable import CanopyCore

// Op application and validation (PROTOCOL.md "Ops" and "Errors", SEMANTICS.md §5–§6, DESIGN.md "Security and
// limits"): every op kind applied with its exact result and normalized form, every error code the core produces
// with the tree left exactly as it was, and rollback of batches that fail after earlier ops succeeded.

// MARK: - Fixture and helpers

private let sumK = KeyDeclaration(key: "K", reducer: .sum, defaultValue: 0)

/// A leaf `V` with `.preference(key, value)`, or a plain leaf.
private func leaf(_ id: String, _ value: JSON? = nil, key: String = "K") -> Node {
    Node(id: id, type: "V", modifiers: value.map { [.preference(key: key, value: $0)] } ?? [])
}

/// The fixture every test starts from (9 nodes, key K sums):
///
///     root
///       s: VStack  modifiers [background(bg: Color { bgc: V(10) }), onPreferenceChange(K)]
///         a: V(1)   b: V(2)   c: V
///       o: VStack
///         d: V
///
/// Its one reader, `s#1`, sees pair(out(bg), fold(a, b, c)) = 10 + (1 + 2) = 13. Depths: s, o = 1; a, b, c, d, bg = 2;
/// bgc = 3 (an attached root is one below its host).
private func fixtureRoot() -> Node {
    let bg = Node(id: "bg", type: "Color", children: [leaf("bgc", 10)])
    let s = Node(
        id: "s", type: "VStack", modifiers: [.background(bg), .onPreferenceChange(key: "K")],
        children: [leaf("a", 1), leaf("b", 2), leaf("c")])
    let o = Node(id: "o", type: "VStack", children: [leaf("d")])
    return Node(id: "root", type: "Root", children: [s, o])
}

private func fixture(_ limits: Limits = .default, keys extra: [KeyDeclaration] = []) throws -> Tree {
    try Tree(keys: [sumK] + extra, root: fixtureRoot(), limits: limits)
}

/// `node` with the node `id` (attached subtrees included) changed by `body`.
private func edited(_ node: Node, _ id: String, _ body: (inout Node) -> Void) -> Node {
    var n = node
    if !edit(&n, id, body) { Issue.record("the expected tree has no node \(id)") }
    return n
}

private func edit(_ n: inout Node, _ id: String, _ body: (inout Node) -> Void) -> Bool {
    if n.id == id {
        body(&n)
        return true
    }
    for i in n.children.indices {
        if edit(&n.children[i], id, body) { return true }
    }
    for i in n.modifiers.indices {
        switch n.modifiers[i] {
        case .background(var a):
            if edit(&a, id, body) {
                n.modifiers[i] = .background(a)
                return true
            }
        case .overlay(var a):
            if edit(&a, id, body) {
                n.modifiers[i] = .overlay(a)
                return true
            }
        default: break
        }
    }
    return false
}

/// The ids of a tree in a compact form, `id[attached…](children…)`: the fixture is `root(s[bg(bgc)](a b c) o(d))`.
private func shape(_ n: Node) -> String {
    var s = n.id
    let attached = n.modifiers.compactMap(\.attached)
    if !attached.isEmpty { s += "[" + attached.map(shape).joined(separator: " ") + "]" }
    if !n.children.isEmpty { s += "(" + n.children.map(shape).joined(separator: " ") + ")" }
    return s
}

/// A reader value; the node is the part of the reader name before `#`.
private func rv(_ reader: String, _ value: JSON?, key: String = "K") -> ReaderValue {
    ReaderValue(reader: reader, node: String(reader.split(separator: "#")[0]), key: key, value: value)
}

/// Everything a rejected batch must leave as it was.
private struct Observable: Equatable {
    let root: Node
    let keys: [KeyDeclaration]
    let readers: [ReaderValue]
    let version: Int
    let nodeCount: Int

    init(_ tree: Tree) {
        root = tree.root
        keys = tree.keys
        readers = tree.readers
        version = tree.version
        nodeCount = tree.nodeCount
    }
}

/// Ops that succeed on the fixture and touch nodes, props and keys; put before a failing op so that the rejection
/// must also undo them.
private let standardPrelude: [Op] = [
    .insert(parent: "root", node: leaf("prelude", 100), position: .end),
    .setProps(node: "root", props: ["touched": true]),
    .declareKey(KeyDeclaration(key: "PreludeKey", reducer: .sum, defaultValue: 0)),
]

/// A prelude that adds no node, for tests at the node-count limit.
private let nodelessPrelude: [Op] = [
    .setProps(node: "root", props: ["touched": true]),
    .declareKey(KeyDeclaration(key: "PreludeKey", reducer: .sum, defaultValue: 0)),
    .setPreference(node: "a", key: "K", value: 41),
]

/// Applies `prelude + [failing]` and expects the batch to be rejected with `code` at the failing op's index, with the
/// tree exactly as before (root, keys, readers, version, node count) and consistent.
@discardableResult
private func expectRejected(
    _ tree: inout Tree, _ failing: Op, _ code: ErrorCode, prelude: [Op] = standardPrelude,
    sourceLocation: SourceLocation = #_sourceLocation
) -> CanopyError? {
    // The earlier ops must succeed on their own, or the test would not exercise the rollback.
    var probe = tree
    do { _ = try probe.apply(prelude) } catch {
        Issue.record("the prelude itself fails: \(error)", sourceLocation: sourceLocation)
    }
    let before = Observable(tree)
    do {
        let diff = try tree.apply(prelude + [failing])
        Issue.record(
            "expected \(code.rawValue) at op \(prelude.count), but the batch applied: \(diff.ops)",
            sourceLocation: sourceLocation)
        return nil
    } catch {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        #expect(error.op == prelude.count, "\(error)", sourceLocation: sourceLocation)
        #expect(!error.message.isEmpty, sourceLocation: sourceLocation)
        let after = Observable(tree)
        #expect(after.root == before.root, sourceLocation: sourceLocation)
        #expect(after.keys == before.keys, sourceLocation: sourceLocation)
        #expect(after.readers == before.readers, sourceLocation: sourceLocation)
        #expect(after.version == before.version, sourceLocation: sourceLocation)
        #expect(after.nodeCount == before.nodeCount, sourceLocation: sourceLocation)
        tree.checkInvariants()
        return error
    }
}

/// Expects `Tree(keys:root:limits:)` to throw `code` (with no op index) and returns the error.
@discardableResult
private func expectTreeRejected(
    keys: [KeyDeclaration], root: Node, limits: Limits = .default, _ code: ErrorCode,
    sourceLocation: SourceLocation = #_sourceLocation
) -> CanopyError? {
    do {
        let tree = try Tree(keys: keys, root: root, limits: limits)
        Issue.record("expected \(code.rawValue), but the tree was created: \(shape(tree.root))", sourceLocation: sourceLocation)
        return nil
    } catch {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        #expect(error.op == nil, sourceLocation: sourceLocation)
        return error
    }
}

/// One key per reducer, named after it, with a default of the reducer's type.
private let typedKeys: [KeyDeclaration] = Reducer.allCases.map { r in
    let d: JSON
    switch r.valueType {
    case .any, .priorityMessage: d = .null
    case .number: d = 0
    case .bool: d = .bool(r == .and)
    case .array: d = []
    case .object: d = [:]
    case .string: d = ""
    }
    return KeyDeclaration(key: r.rawValue, reducer: r, defaultValue: d)
}

/// Values that do not fit a reducer's value type (SEMANTICS.md §5).
private let misfits: [(Reducer, JSON)] = [
    (.sum, "1"), (.sum, true), (.sum, .null), (.sum, [1]),
    (.max, "9"), (.max, .null), (.max, ["value": 1]),
    (.min, false), (.min, [:]),
    (.and, 1), (.and, "true"), (.and, .null),
    (.or, 0), (.or, .null), (.or, [true]),
    (.append, 1), (.append, ["a": 1]), (.append, "x"), (.append, .null),
    (.merge, [1]), (.merge, "x"), (.merge, .null), (.merge, 3),
    (.nest, 1), (.nest, .null), (.nest, ["a"]), (.nest, true),
    (.priority, "x"), (.priority, 1), (.priority, [:]),
    (.priority, ["priority": 1]), (.priority, ["content": "x"]),
    (.priority, ["priority": "high", "content": "x"]), (.priority, ["priority": 1, "content": 2]),
    (.priority, [["priority": 1, "content": "x"]]),
]

/// Values that fit.
private let fits: [(Reducer, JSON)] = [
    (.last, "anything"), (.last, .null), (.first, [1, "x"]), (.firstNonNull, ["a": .null]),
    (.sum, 1), (.sum, 2.5), (.sum, -3), (.max, 7), (.min, -0.5),
    (.and, true), (.and, false), (.or, true), (.or, false),
    (.append, []), (.append, [1, "x", .null]), (.merge, [:]), (.merge, ["a": 1, "b": [2]]),
    (.nest, ""), (.nest, "x"),
    (.priority, .null), (.priority, ["priority": 1, "content": "x"]), (.priority, ["priority": 0.5, "content": ""]),
]

@Suite("Op validation") struct OpValidationTests {
    @Test("the fixture has the documented shape, reader value and node count")
    func fixtureIsAsDocumented() throws {
        let tree = try fixture()
        #expect(shape(tree.root) == "root(s[bg(bgc)](a b c) o(d))")
        #expect(tree.root == fixtureRoot())
        #expect(tree.readers == [rv("s#1", 13)])
        #expect(tree.nodeCount == 9)
        #expect(tree.version == 0)
        #expect(tree.keys == [sumK])
    }
}

// MARK: - insert

extension OpValidationTests {
    @Suite("insert") struct Insert {
        @Test("insert at an index puts the node at that index and reports that index")
        func atIndex() throws {
            var tree = try fixture()
            let n = leaf("n", 5)
            let diff = try tree.apply([.insert(parent: "s", node: n, position: .index(1))])
            #expect(diff.ops == [.insert(parent: "s", node: n, position: .index(1))])
            #expect(tree.root == edited(fixtureRoot(), "s") { $0.children.insert(n, at: 1) })
            #expect(shape(tree.root) == "root(s[bg(bgc)](a n b c) o(d))")
            #expect(tree.node("n") == n)
            #expect(tree.nodeCount == 10)
            #expect(tree.version == 1)
            #expect(diff.changes == [rv("s#1", 18)])
        }

        @Test("insert at the index equal to the child count appends")
        func atIndexEqualToCount() throws {
            var tree = try fixture()
            let n = leaf("n")
            let diff = try tree.apply([.insert(parent: "s", node: n, position: .index(3))])
            #expect(diff.ops == [.insert(parent: "s", node: n, position: .index(3))])
            #expect(tree.root == edited(fixtureRoot(), "s") { $0.children.append(n) })
            #expect(diff.changes == [])
        }

        @Test("insert after a sibling goes right after it and is normalized to an index")
        func afterSibling() throws {
            var tree = try fixture()
            let n = leaf("n", 5)
            let diff = try tree.apply([.insert(parent: "s", node: n, position: .after("b"))])
            #expect(diff.ops == [.insert(parent: "s", node: n, position: .index(2))])
            #expect(tree.root == edited(fixtureRoot(), "s") { $0.children.insert(n, at: 2) })
            #expect(shape(tree.root) == "root(s[bg(bgc)](a b n c) o(d))")
        }

        @Test("insert after the last sibling is normalized to the child count")
        func afterLastSibling() throws {
            var tree = try fixture()
            let n = leaf("n")
            let diff = try tree.apply([.insert(parent: "o", node: n, position: .after("d"))])
            #expect(diff.ops == [.insert(parent: "o", node: n, position: .index(1))])
            #expect(shape(tree.root) == "root(s[bg(bgc)](a b c) o(d n))")
        }

        @Test("insert before a sibling goes right before it and is normalized to an index")
        func beforeSibling() throws {
            var tree = try fixture()
            let n = leaf("n", 5)
            let diff = try tree.apply([.insert(parent: "s", node: n, position: .before("a"))])
            #expect(diff.ops == [.insert(parent: "s", node: n, position: .index(0))])
            #expect(tree.root == edited(fixtureRoot(), "s") { $0.children.insert(n, at: 0) })
            #expect(shape(tree.root) == "root(s[bg(bgc)](n a b c) o(d))")
            #expect(diff.changes == [rv("s#1", 18)])
        }

        @Test("insert with no position appends and is normalized to the child count")
        func atEnd() throws {
            var tree = try fixture()
            let n = leaf("n", 5)
            let diff = try tree.apply([.insert(parent: "s", node: n, position: .end)])
            #expect(diff.ops == [.insert(parent: "s", node: n, position: .index(3))])
            #expect(tree.root == edited(fixtureRoot(), "s") { $0.children.append(n) })
        }

        @Test("insert at the end of a node without children is normalized to index 0")
        func atEndOfLeaf() throws {
            var tree = try fixture()
            let n = leaf("n", 5)
            let diff = try tree.apply([.insert(parent: "c", node: n, position: .end)])
            #expect(diff.ops == [.insert(parent: "c", node: n, position: .index(0))])
            #expect(shape(tree.root) == "root(s[bg(bgc)](a b c(n)) o(d))")
            #expect(diff.changes == [rv("s#1", 18)])
        }

        @Test("insert takes a whole subtree: children, props, other modifiers and attached subtrees, exactly as sent")
        func wholeSubtree() throws {
            var tree = try fixture()
            let n = Node(
                id: "n", type: "HStack", props: ["spacing": 4, "label": "row"],
                modifiers: [
                    .overlay(Node(id: "n-ov", type: "Color", children: [leaf("n-ov-1", 7)])),
                    .other(kind: "padding", args: ["all": 8]),
                ],
                children: [leaf("n1", 3), Node(id: "n2", type: "Text", props: ["text": "hi"])])
            let diff = try tree.apply([.insert(parent: "o", node: n, position: .before("d"))])
            #expect(diff.ops == [.insert(parent: "o", node: n, position: .index(0))])
            #expect(tree.node("n") == n)
            #expect(tree.node("n-ov-1") == leaf("n-ov-1", 7))
            #expect(tree.node("n2") == Node(id: "n2", type: "Text", props: ["text": "hi"]))
            #expect(tree.root == edited(fixtureRoot(), "o") { $0.children.insert(n, at: 0) })
            #expect(tree.nodeCount == 9 + 5)
        }

        @Test("insert under a node of an attached subtree")
        func intoAttachedSubtree() throws {
            var tree = try fixture()
            let n = leaf("n", 4)
            let diff = try tree.apply([.insert(parent: "bg", node: n, position: .before("bgc"))])
            #expect(diff.ops == [.insert(parent: "bg", node: n, position: .index(0))])
            #expect(shape(tree.root) == "root(s[bg(n bgc)](a b c) o(d))")
            #expect(tree.root == edited(fixtureRoot(), "bg") { $0.children.insert(n, at: 0) })
            #expect(diff.changes == [rv("s#1", 17)])
        }

        @Test("insert of a reader whose content is absent: the reader has no value and does not fire")
        func readerOfAbsentContent() throws {
            var tree = try fixture()
            let p = Node(id: "p", type: "VStack", modifiers: [.onPreferenceChange(key: "K")], children: [leaf("x")])
            let diff = try tree.apply([.insert(parent: "root", node: p, position: .end)])
            #expect(diff.changes == [])
            #expect(tree.readers == [rv("s#1", 13), rv("p#0", nil)])
        }

        @Test("a key declared earlier in the batch can be used by a node inserted later in it")
        func usesKeyDeclaredInSameBatch() throws {
            var tree = try fixture()
            let nestN = KeyDeclaration(key: "N", reducer: .nest, defaultValue: "")
            let p = Node(
                id: "p", type: "VStack", modifiers: [.onPreferenceChange(key: "N")],
                children: [leaf("x", "x", key: "N"), leaf("y", "y", key: "N")])
            let diff = try tree.apply([.declareKey(nestN), .insert(parent: "root", node: p, position: .end)])
            #expect(diff.ops == [.declareKey(nestN), .insert(parent: "root", node: p, position: .index(2))])
            #expect(tree.keys == [sumK, nestN])
            #expect(diff.changes == [rv("p#0", "(x y)", key: "N")])
            #expect(tree.readers == [rv("s#1", 13), rv("p#0", "(x y)", key: "N")])
        }

        @Test("a node inserted and removed in the same batch leaves the tree as it was, one version later")
        func insertThenRemove() throws {
            var tree = try fixture()
            let n = leaf("n", 5)
            let diff = try tree.apply([.insert(parent: "s", node: n, position: .end), .remove(node: "n")])
            #expect(diff.ops == [.insert(parent: "s", node: n, position: .index(3)), .remove(node: "n")])
            #expect(tree.root == fixtureRoot())
            #expect(tree.nodeCount == 9)
            #expect(tree.version == 1)
            #expect(diff.changes == [])
            #expect(tree.readers == tree.evaluateFromScratch().readers)
        }

        @Test("an id removed earlier in the batch can be inserted again later in it")
        func reuseRemovedIdInSameBatch() throws {
            var tree = try fixture()
            let b = leaf("b", 4)
            let diff = try tree.apply([.remove(node: "b"), .insert(parent: "o", node: b, position: .end)])
            #expect(diff.ops == [.remove(node: "b"), .insert(parent: "o", node: b, position: .index(1))])
            #expect(shape(tree.root) == "root(s[bg(bgc)](a c) o(d b))")
            #expect(tree.node("b") == b)
            #expect(diff.changes == [rv("s#1", 11)])
        }
    }
}

// MARK: - remove

extension OpValidationTests {
    @Suite("remove") struct Remove {
        @Test("remove takes a leaf out of its parent")
        func leafNode() throws {
            var tree = try fixture()
            let diff = try tree.apply([.remove(node: "b")])
            #expect(diff.ops == [.remove(node: "b")])
            #expect(tree.root == edited(fixtureRoot(), "s") { $0.children.remove(at: 1) })
            #expect(tree.node("b") == nil)
            #expect(tree.nodeCount == 8)
            #expect(diff.changes == [rv("s#1", 11)])
        }

        @Test("remove takes the whole subtree, attached subtrees and readers included")
        func wholeSubtree() throws {
            var tree = try fixture()
            let diff = try tree.apply([.remove(node: "s")])
            #expect(diff.ops == [.remove(node: "s")])
            #expect(shape(tree.root) == "root(o(d))")
            #expect(tree.root == edited(fixtureRoot(), "root") { $0.children.remove(at: 0) })
            for id in ["s", "a", "b", "c", "bg", "bgc"] { #expect(tree.node(id) == nil) }
            #expect(tree.nodeCount == 3)
            #expect(tree.readers == [])
        }

        @Test("remove may take a node inside an attached subtree (not its root)")
        func insideAttachedSubtree() throws {
            var tree = try fixture()
            let diff = try tree.apply([.remove(node: "bgc")])
            #expect(diff.ops == [.remove(node: "bgc")])
            #expect(shape(tree.root) == "root(s[bg](a b c) o(d))")
            #expect(tree.nodeCount == 8)
            #expect(diff.changes == [rv("s#1", 3)])
        }
    }
}

// MARK: - move

extension OpValidationTests {
    @Suite("move") struct Move {
        @Test("move forward by index counts among the siblings once the node is taken out")
        func forwardByIndex() throws {
            var tree = try fixture()
            // a b c → without a: b c → index 1: b a c
            let diff = try tree.apply([.move(node: "a", parent: "s", position: .index(1))])
            #expect(diff.ops == [.move(node: "a", parent: "s", position: .index(1))])
            #expect(shape(tree.root) == "root(s[bg(bgc)](b a c) o(d))")
            #expect(tree.root == edited(fixtureRoot(), "s") { $0.children.swapAt(0, 1) })
            #expect(diff.changes == [])
        }

        @Test("move forward to the last index once the node is taken out puts it last")
        func forwardToLastIndex() throws {
            var tree = try fixture()
            let diff = try tree.apply([.move(node: "a", parent: "s", position: .index(2))])
            #expect(diff.ops == [.move(node: "a", parent: "s", position: .index(2))])
            #expect(shape(tree.root) == "root(s[bg(bgc)](b c a) o(d))")
        }

        @Test("move forward after a sibling is normalized to the index among the remaining siblings")
        func forwardAfterSibling() throws {
            var tree = try fixture()
            // a was at 0, c at 2; without a, c is at 1, so after c is index 2.
            let diff = try tree.apply([.move(node: "a", parent: "s", position: .after("c"))])
            #expect(diff.ops == [.move(node: "a", parent: "s", position: .index(2))])
            #expect(shape(tree.root) == "root(s[bg(bgc)](b c a) o(d))")
        }

        @Test("move forward before a sibling is normalized to the index among the remaining siblings")
        func forwardBeforeSibling() throws {
            var tree = try fixture()
            let diff = try tree.apply([.move(node: "a", parent: "s", position: .before("c"))])
            #expect(diff.ops == [.move(node: "a", parent: "s", position: .index(1))])
            #expect(shape(tree.root) == "root(s[bg(bgc)](b a c) o(d))")
        }

        @Test("move forward to the end is normalized to the last index")
        func forwardToEnd() throws {
            var tree = try fixture()
            let diff = try tree.apply([.move(node: "a", parent: "s", position: .end)])
            #expect(diff.ops == [.move(node: "a", parent: "s", position: .index(2))])
            #expect(shape(tree.root) == "root(s[bg(bgc)](b c a) o(d))")
        }

        @Test("move backward by index")
        func backwardByIndex() throws {
            var tree = try fixture()
            let diff = try tree.apply([.move(node: "c", parent: "s", position: .index(0))])
            #expect(diff.ops == [.move(node: "c", parent: "s", position: .index(0))])
            #expect(shape(tree.root) == "root(s[bg(bgc)](c a b) o(d))")
            #expect(tree.root == edited(fixtureRoot(), "s") { $0.children = [leaf("c"), leaf("a", 1), leaf("b", 2)] })
        }

        @Test("move backward after a sibling")
        func backwardAfterSibling() throws {
            var tree = try fixture()
            let diff = try tree.apply([.move(node: "c", parent: "s", position: .after("a"))])
            #expect(diff.ops == [.move(node: "c", parent: "s", position: .index(1))])
            #expect(shape(tree.root) == "root(s[bg(bgc)](a c b) o(d))")
        }

        @Test("move backward before a sibling")
        func backwardBeforeSibling() throws {
            var tree = try fixture()
            let diff = try tree.apply([.move(node: "c", parent: "s", position: .before("b"))])
            #expect(diff.ops == [.move(node: "c", parent: "s", position: .index(1))])
            #expect(shape(tree.root) == "root(s[bg(bgc)](a c b) o(d))")
        }

        @Test("move to the place the node already has changes nothing but the version")
        func toSamePlace() throws {
            var tree = try fixture()
            let diff = try tree.apply([.move(node: "b", parent: "s", position: .after("a"))])
            #expect(diff.ops == [.move(node: "b", parent: "s", position: .index(1))])
            #expect(tree.root == fixtureRoot())
            #expect(tree.version == 1)
            #expect(diff.changes == [])
        }

        @Test("move to another parent before a sibling")
        func toAnotherParent() throws {
            var tree = try fixture()
            let diff = try tree.apply([.move(node: "b", parent: "o", position: .before("d"))])
            #expect(diff.ops == [.move(node: "b", parent: "o", position: .index(0))])
            #expect(shape(tree.root) == "root(s[bg(bgc)](a c) o(b d))")
            let expected = edited(edited(fixtureRoot(), "s") { $0.children.remove(at: 1) }, "o") {
                $0.children.insert(leaf("b", 2), at: 0)
            }
            #expect(tree.root == expected)
            #expect(tree.nodeCount == 9)
            #expect(diff.changes == [rv("s#1", 11)])
        }

        @Test("move to the end of another parent counts that parent's children")
        func toEndOfAnotherParent() throws {
            var tree = try fixture()
            let diff = try tree.apply([.move(node: "b", parent: "o", position: .end)])
            #expect(diff.ops == [.move(node: "b", parent: "o", position: .index(1))])
            #expect(shape(tree.root) == "root(s[bg(bgc)](a c) o(d b))")
        }

        @Test("move a whole subtree, attached subtree included, keeps it intact")
        func wholeSubtree() throws {
            var tree = try fixture()
            let diff = try tree.apply([.move(node: "s", parent: "o", position: .index(1))])
            #expect(diff.ops == [.move(node: "s", parent: "o", position: .index(1))])
            #expect(shape(tree.root) == "root(o(d s[bg(bgc)](a b c)))")
            #expect(tree.node("s") == fixtureRoot().children[0])
            #expect(tree.nodeCount == 9)
            #expect(tree.readers == [rv("s#1", 13)])
        }

        @Test("move into an attached (background) subtree")
        func intoAttachedSubtree() throws {
            var tree = try fixture()
            let diff = try tree.apply([.move(node: "b", parent: "bg", position: .end)])
            #expect(diff.ops == [.move(node: "b", parent: "bg", position: .index(1))])
            #expect(shape(tree.root) == "root(s[bg(bgc b)](a c) o(d))")
            // bg now folds 10 + 2, the content only 1: the sum is 13 again, so the reader does not fire.
            #expect(diff.changes == [])
            #expect(tree.readers == [rv("s#1", 13)])
            #expect(tree.readers == tree.evaluateFromScratch().readers)
        }

        @Test("move into an attached (overlay) subtree of another node")
        func intoOverlaySubtree() throws {
            var tree = try fixture()
            _ = try tree.apply([.setModifiers(node: "o", modifiers: [.overlay(Node(id: "ov", type: "Color"))])])
            let diff = try tree.apply([.move(node: "a", parent: "ov", position: .index(0))])
            #expect(diff.ops == [.move(node: "a", parent: "ov", position: .index(0))])
            #expect(shape(tree.root) == "root(s[bg(bgc)](b c) o[ov(a)](d))")
            #expect(diff.changes == [rv("s#1", 12)])
        }

        @Test("move a node out of an attached subtree")
        func outOfAttachedSubtree() throws {
            var tree = try fixture()
            let diff = try tree.apply([.move(node: "bgc", parent: "o", position: .index(0))])
            #expect(diff.ops == [.move(node: "bgc", parent: "o", position: .index(0))])
            #expect(shape(tree.root) == "root(s[bg](a b c) o(bgc d))")
            #expect(diff.changes == [rv("s#1", 3)])
        }
    }
}

// MARK: - setProps, setModifiers, setPreference, removePreference, declareKey

extension OpValidationTests {
    @Suite("setProps") struct SetProps {
        @Test("setProps merges: new props are added, existing ones replaced, null deletes")
        func mergeAndDelete() throws {
            var tree = try fixture()
            _ = try tree.apply([.setProps(node: "c", props: ["title": "Hello", "size": 12, "bold": true])])
            #expect(tree.node("c")?.props == ["title": "Hello", "size": 12, "bold": true])
            let op = Op.setProps(node: "c", props: ["size": 14, "title": .null, "color": "red", "missing": .null])
            let diff = try tree.apply([op])
            #expect(diff.ops == [op])
            #expect(tree.node("c")?.props == ["size": 14, "bold": true, "color": "red"])
            #expect(tree.root == edited(fixtureRoot(), "c") { $0.props = ["size": 14, "bold": true, "color": "red"] })
            #expect(diff.changes == [])
        }

        @Test("setProps with a null value deletes that prop rather than storing null")
        func nullDeletes() throws {
            var tree = try fixture()
            _ = try tree.apply([.setProps(node: "c", props: ["title": "Hello"])])
            _ = try tree.apply([.setProps(node: "c", props: ["title": .null])])
            #expect(tree.node("c")?.props == [:])
            #expect(tree.node("c")?.props["title"] == nil)
        }

        @Test("setProps with a nested object replaces the prop's value whole (the merge is one level deep)")
        func nestedValueIsReplaced() throws {
            var tree = try fixture()
            _ = try tree.apply([.setProps(node: "bgc", props: ["style": ["a": 1, "b": 2]])])
            _ = try tree.apply([.setProps(node: "bgc", props: ["style": ["b": 3]])])
            #expect(tree.node("bgc")?.props == ["style": ["b": 3]])
        }
    }

    @Suite("setModifiers") struct SetModifiers {
        @Test("setModifiers replaces the whole chain and its attached subtrees")
        func replacesChain() throws {
            var tree = try fixture()
            let chain: [Modifier] = [
                .overlay(Node(id: "ov", type: "Color", modifiers: [.preference(key: "K", value: 20)])),
                .onPreferenceChange(key: "K"),
                .other(kind: "padding", args: ["all": 4]),
            ]
            let diff = try tree.apply([.setModifiers(node: "s", modifiers: chain)])
            #expect(diff.ops == [.setModifiers(node: "s", modifiers: chain)])
            #expect(tree.node("s")?.modifiers == chain)
            #expect(tree.root == edited(fixtureRoot(), "s") { $0.modifiers = chain })
            #expect(shape(tree.root) == "root(s[ov](a b c) o(d))")
            #expect(tree.node("bg") == nil)
            #expect(tree.node("bgc") == nil)
            #expect(tree.nodeCount == 9 - 2 + 1)
            #expect(diff.changes == [rv("s#1", 23)])
        }

        @Test("setModifiers may reuse ids of the attached subtree it replaces")
        func reusesOldAttachedIds() throws {
            var tree = try fixture()
            // bg and bgc swap roles: the old attached subtree leaves before the new one arrives.
            let chain: [Modifier] = [
                .background(Node(id: "bgc", type: "Color", children: [leaf("bg", 4)])),
                .onPreferenceChange(key: "K"),
            ]
            let diff = try tree.apply([.setModifiers(node: "s", modifiers: chain)])
            #expect(diff.ops == [.setModifiers(node: "s", modifiers: chain)])
            #expect(shape(tree.root) == "root(s[bgc(bg)](a b c) o(d))")
            #expect(tree.node("bgc") == Node(id: "bgc", type: "Color", children: [leaf("bg", 4)]))
            #expect(tree.node("bg") == leaf("bg", 4))
            #expect(tree.nodeCount == 9)
            #expect(diff.changes == [rv("s#1", 7)])
            #expect(tree.readers == tree.evaluateFromScratch().readers)
        }

        @Test("setModifiers with the identical chain (same attached ids) succeeds and changes nothing")
        func identicalChain() throws {
            var tree = try fixture()
            let chain = fixtureRoot().children[0].modifiers
            let diff = try tree.apply([.setModifiers(node: "s", modifiers: chain)])
            #expect(diff.ops == [.setModifiers(node: "s", modifiers: chain)])
            #expect(tree.root == fixtureRoot())
            #expect(diff.changes == [])
        }

        @Test("setModifiers with an empty chain drops writers, readers and attached subtrees")
        func emptyChain() throws {
            var tree = try fixture()
            let diff = try tree.apply([.setModifiers(node: "s", modifiers: []), .setModifiers(node: "a", modifiers: [])])
            #expect(diff.ops == [.setModifiers(node: "s", modifiers: []), .setModifiers(node: "a", modifiers: [])])
            #expect(tree.node("s")?.modifiers == [])
            #expect(tree.node("a") == leaf("a"))
            #expect(shape(tree.root) == "root(s(a b c) o(d))")
            #expect(tree.readers == [])
            #expect(tree.nodeCount == 7)
        }

        @Test("setModifiers on a node inside an attached subtree")
        func insideAttachedSubtree() throws {
            var tree = try fixture()
            let chain: [Modifier] = [.preference(key: "K", value: 1), .background(leaf("deep", 5))]
            let diff = try tree.apply([.setModifiers(node: "bgc", modifiers: chain)])
            #expect(diff.ops == [.setModifiers(node: "bgc", modifiers: chain)])
            #expect(shape(tree.root) == "root(s[bg(bgc[deep])](a b c) o(d))")
            // bgc's writer now yields 1, then the background pairs 5 with it: 6, plus 3.
            #expect(diff.changes == [rv("s#1", 9)])
        }
    }

    @Suite("setPreference") struct SetPreference {
        /// root → p: VStack [onPreferenceChange(K)] → w: V with `mods`
        private func tree(_ mods: [Modifier], keys: [KeyDeclaration] = [sumK], limits: Limits = .default) throws -> Tree {
            let w = Node(id: "w", type: "V", modifiers: mods)
            let p = Node(id: "p", type: "VStack", modifiers: [.onPreferenceChange(key: "K")], children: [w])
            return try Tree(keys: keys, root: Node(id: "root", type: "Root", children: [p]), limits: limits)
        }

        @Test("setPreference replaces the outermost writer of the key; an inner writer of it stays")
        func replacesOutermostWriter() throws {
            let lastM = KeyDeclaration(key: "M", reducer: .last, defaultValue: .null)
            var t = try tree(
                [
                    .preference(key: "K", value: 1), .other(kind: "hidden", args: [:]),
                    .preference(key: "K", value: 2), .preference(key: "M", value: "m"),
                ], keys: [sumK, lastM])
            #expect(t.readers == [rv("p#0", 2)])
            let op = Op.setPreference(node: "w", key: "K", value: 5)
            let diff = try t.apply([op])
            #expect(diff.ops == [op])
            #expect(
                t.node("w")?.modifiers == [
                    .preference(key: "K", value: 1), .other(kind: "hidden", args: [:]),
                    .preference(key: "K", value: 5), .preference(key: "M", value: "m"),
                ])
            #expect(diff.changes == [rv("p#0", 5)])
        }

        @Test("setPreference replaces the only writer of the key in place, before a reader on the same node")
        func replacesWriterBeforeReader() throws {
            var t = try tree([.preference(key: "K", value: 1), .onPreferenceChange(key: "K")])
            let diff = try t.apply([.setPreference(node: "w", key: "K", value: 9)])
            #expect(t.node("w")?.modifiers == [.preference(key: "K", value: 9), .onPreferenceChange(key: "K")])
            // Tree order: a node's readers come before those of its children.
            #expect(diff.changes == [rv("p#0", 9), rv("w#1", 9)])
        }

        @Test("setPreference appends a writer (outermost) when the node has none of that key")
        func appendsWhenNone() throws {
            var f = try fixture()
            let diff = try f.apply([.setPreference(node: "c", key: "K", value: 7)])
            #expect(diff.ops == [.setPreference(node: "c", key: "K", value: 7)])
            #expect(f.root == edited(fixtureRoot(), "c") { $0.modifiers = [.preference(key: "K", value: 7)] })
            #expect(diff.changes == [rv("s#1", 20)])
        }

        @Test("setPreference appends outside an existing reader, which then does not see it")
        func appendsOutsideReader() throws {
            var f = try fixture()
            let diff = try f.apply([.setPreference(node: "s", key: "K", value: 100)])
            #expect(
                f.node("s")?.modifiers == fixtureRoot().children[0].modifiers + [.preference(key: "K", value: 100)])
            #expect(diff.changes == [])
            #expect(f.readers == [rv("s#1", 13)])
        }

        @Test("setPreference appends when the node only has writers of other keys")
        func appendsBesideOtherKeys() throws {
            let lastM = KeyDeclaration(key: "M", reducer: .last, defaultValue: .null)
            var t = try tree([.preference(key: "M", value: "m")], keys: [sumK, lastM])
            let diff = try t.apply([.setPreference(node: "w", key: "K", value: 3)])
            #expect(t.node("w")?.modifiers == [.preference(key: "M", value: "m"), .preference(key: "K", value: 3)])
            #expect(diff.changes == [rv("p#0", 3)])
        }

        @Test("setPreference with the value the writer already has succeeds and fires nothing")
        func sameValue() throws {
            var f = try fixture()
            let diff = try f.apply([.setPreference(node: "a", key: "K", value: 1)])
            #expect(diff.ops == [.setPreference(node: "a", key: "K", value: 1)])
            #expect(f.root == fixtureRoot())
            #expect(diff.changes == [])
            #expect(f.version == 1)
        }
    }

    @Suite("removePreference") struct RemovePreference {
        @Test("removePreference removes every writer of the key and nothing else")
        func removesEveryWriter() throws {
            let lastM = KeyDeclaration(key: "M", reducer: .last, defaultValue: .null)
            let w = Node(
                id: "w", type: "V",
                modifiers: [
                    .preference(key: "K", value: 1), .other(kind: "padding", args: [:]),
                    .preference(key: "K", value: 2), .preference(key: "M", value: "x"),
                    .preference(key: "K", value: 3), .transformPreference(key: "K", transform: .add(10)),
                ])
            let p = Node(id: "p", type: "VStack", modifiers: [.onPreferenceChange(key: "K")], children: [w])
            var t = try Tree(keys: [sumK, lastM], root: Node(id: "root", type: "Root", children: [p]))
            #expect(t.readers == [rv("p#0", 13)])
            let diff = try t.apply([.removePreference(node: "w", key: "K")])
            #expect(diff.ops == [.removePreference(node: "w", key: "K")])
            #expect(
                t.node("w")?.modifiers == [
                    .other(kind: "padding", args: [:]), .preference(key: "M", value: "x"),
                    .transformPreference(key: "K", transform: .add(10)),
                ])
            // The transform now applies to the default: 0 + 10.
            #expect(diff.changes == [rv("p#0", 10)])
        }

        @Test("removePreference of the only writers makes the reader's content absent (present: false)")
        func readerBecomesAbsent() throws {
            let w = Node(id: "w", type: "V", modifiers: [.preference(key: "K", value: 1), .preference(key: "K", value: 2)])
            let p = Node(id: "p", type: "VStack", modifiers: [.onPreferenceChange(key: "K")], children: [w])
            var t = try Tree(keys: [sumK], root: Node(id: "root", type: "Root", children: [p]))
            let diff = try t.apply([.removePreference(node: "w", key: "K")])
            #expect(t.node("w") == Node(id: "w", type: "V"))
            #expect(diff.changes == [rv("p#0", nil)])
        }

        @Test("removePreference on a node without writers of the key succeeds and changes nothing")
        func noWriter() throws {
            var f = try fixture()
            let diff = try f.apply([.removePreference(node: "c", key: "K")])
            #expect(diff.ops == [.removePreference(node: "c", key: "K")])
            #expect(f.root == fixtureRoot())
            #expect(diff.changes == [])
            #expect(f.version == 1)
        }
    }

    @Suite("declareKey") struct DeclareKey {
        @Test("declareKey adds a new key after the existing ones")
        func newKey() throws {
            var tree = try fixture()
            let nestN = KeyDeclaration(key: "N", reducer: .nest, defaultValue: "")
            let diff = try tree.apply([.declareKey(nestN)])
            #expect(diff.ops == [.declareKey(nestN)])
            #expect(tree.keys == [sumK, nestN])
            #expect(tree.root == fixtureRoot())
            #expect(diff.changes == [])
        }

        @Test("declareKey re-declares an existing key in place, and readers follow the new reducer")
        func redeclare() throws {
            var tree = try fixture(keys: [KeyDeclaration(key: "L", reducer: .last, defaultValue: .null)])
            let maxK = KeyDeclaration(key: "K", reducer: .max, defaultValue: 0)
            let diff = try tree.apply([.declareKey(maxK)])
            #expect(diff.ops == [.declareKey(maxK)])
            #expect(tree.keys == [maxK, KeyDeclaration(key: "L", reducer: .last, defaultValue: .null)])
            // max(out(bg) = 10, max(1, 2) = 2) = 10
            #expect(diff.changes == [rv("s#1", 10)])
            #expect(tree.readers == tree.evaluateFromScratch().readers)
        }

        @Test("declareKey re-declaring only the default keeps values that never use the default")
        func redeclareDefault() throws {
            var tree = try fixture()
            let k5 = KeyDeclaration(key: "K", reducer: .sum, defaultValue: 5)
            let diff = try tree.apply([.declareKey(k5)])
            #expect(tree.keys == [k5])
            #expect(diff.changes == [])
            #expect(tree.readers == [rv("s#1", 13)])
        }

        @Test("declareKey with the same declaration is accepted and changes nothing")
        func sameDeclaration() throws {
            var tree = try fixture()
            let diff = try tree.apply([.declareKey(sumK)])
            #expect(diff.ops == [.declareKey(sumK)])
            #expect(tree.keys == [sumK])
            #expect(diff.changes == [])
            #expect(tree.version == 1)
        }

        @Test("re-declaring a key to another type succeeds once the batch removed every writer of the old type")
        func redeclareAfterRemovingWriters() throws {
            let lastM = KeyDeclaration(key: "M", reducer: .last, defaultValue: .null)
            let s = Node(
                id: "s", type: "VStack",
                modifiers: [.background(leaf("bg", 1, key: "M")), .onPreferenceChange(key: "M")],
                children: [leaf("a", 2, key: "M"), leaf("b", 3, key: "M")])
            var tree = try Tree(keys: [lastM], root: Node(id: "root", type: "Root", children: [s]))
            #expect(tree.readers == [rv("s#1", 3, key: "M")])
            let nestM = KeyDeclaration(key: "M", reducer: .nest, defaultValue: "")
            let diff = try tree.apply([
                .remove(node: "a"),
                .removePreference(node: "b", key: "M"),
                .setModifiers(node: "s", modifiers: [.onPreferenceChange(key: "M")]),
                .declareKey(nestM),
                .setPreference(node: "b", key: "M", value: "now a string"),
            ])
            #expect(tree.keys == [nestM])
            #expect(shape(tree.root) == "root(s(b))")
            #expect(diff.changes == [rv("s#0", "now a string", key: "M")])
        }
    }
}

// MARK: - errors: no_such_node, duplicate_id, cycle, bad_index, bad_message

extension OpValidationTests {
    @Suite("no_such_node") struct NoSuchNode {
        @Test(
            "an op naming a node that does not exist is rejected with no_such_node",
            arguments: [
                Op.insert(parent: "ghost", node: leaf("n"), position: .end),
                .insert(parent: "s", node: leaf("n"), position: .after("ghost")),
                .insert(parent: "s", node: leaf("n"), position: .before("ghost")),
                .remove(node: "ghost"),
                .move(node: "ghost", parent: "o", position: .end),
                .move(node: "a", parent: "ghost", position: .end),
                .move(node: "a", parent: "o", position: .after("ghost")),
                .move(node: "a", parent: "o", position: .before("ghost")),
                .setProps(node: "ghost", props: ["x": 1]),
                .setModifiers(node: "ghost", modifiers: []),
                .setPreference(node: "ghost", key: "K", value: 1),
                .removePreference(node: "ghost", key: "K"),
            ])
        func missingNode(_ op: Op) throws {
            var tree = try fixture()
            let error = expectRejected(&tree, op, .noSuchNode)
            #expect(error?.message.contains("\"ghost\"") == true, "\(String(describing: error))")
        }

        @Test(
            "an op naming a node removed earlier in the same batch is no_such_node",
            arguments: [
                Op.setProps(node: "a", props: ["x": 1]),
                .insert(parent: "a", node: leaf("n"), position: .end),
                .move(node: "bgc", parent: "o", position: .end),
                .remove(node: "s"),
            ])
        func removedEarlierInBatch(_ op: Op) throws {
            var tree = try fixture()
            expectRejected(&tree, op, .noSuchNode, prelude: standardPrelude + [.remove(node: "s")])
        }

        @Test("an op naming a node of an attached subtree that setModifiers replaced earlier in the batch is no_such_node")
        func replacedAttachedSubtree() throws {
            var tree = try fixture()
            expectRejected(
                &tree, .setPreference(node: "bgc", key: "K", value: 3), .noSuchNode,
                prelude: standardPrelude + [.setModifiers(node: "s", modifiers: [.onPreferenceChange(key: "K")])])
        }
    }

    @Suite("duplicate_id") struct DuplicateID {
        @Test(
            "a node whose id is already used, or used twice in what arrives, is rejected with duplicate_id",
            arguments: [
                // an existing id
                (Op.insert(parent: "o", node: leaf("b"), position: .end), "b"),
                (.insert(parent: "o", node: leaf("root"), position: .end), "root"),
                // the id of a node inside an attached subtree
                (.insert(parent: "o", node: leaf("bgc"), position: .end), "bgc"),
                // an existing id deep inside the inserted subtree
                (.insert(parent: "o", node: Node(id: "n", type: "VStack", children: [leaf("n1"), leaf("d")]), position: .end), "d"),
                // the same id twice inside the inserted subtree
                (.insert(parent: "o", node: Node(id: "n", type: "VStack", children: [leaf("x"), leaf("x")]), position: .end), "x"),
                (.insert(parent: "o", node: Node(id: "n", type: "VStack", children: [leaf("n")]), position: .end), "n"),
                // inside an attached subtree of the inserted node
                (.insert(parent: "o", node: Node(id: "n", type: "V", modifiers: [.background(leaf("a"))]), position: .end), "a"),
                (.insert(parent: "o", node: Node(id: "n", type: "V", modifiers: [.background(leaf("x")), .overlay(leaf("x"))]), position: .end), "x"),
                (.insert(parent: "o", node: Node(id: "n", type: "V", modifiers: [.overlay(leaf("x"))], children: [leaf("x")]), position: .end), "x"),
                (.insert(parent: "o", node: Node(id: "n", type: "V", modifiers: [.overlay(leaf("n"))]), position: .end), "n"),
                // the node inserted earlier in the batch
                (.insert(parent: "o", node: leaf("prelude"), position: .end), "prelude"),
                // setModifiers attaching a subtree whose id exists elsewhere
                (.setModifiers(node: "c", modifiers: [.background(leaf("d"))]), "d"),
                (.setModifiers(node: "c", modifiers: [.background(leaf("c"))]), "c"),
                (.setModifiers(node: "o", modifiers: [.overlay(leaf("bgc"))]), "bgc"),
                (.setModifiers(node: "c", modifiers: [.overlay(Node(id: "n", type: "V", children: [leaf("prelude")]))]), "prelude"),
                (.setModifiers(node: "c", modifiers: [.background(leaf("x")), .overlay(leaf("x"))]), "x"),
                // the host's own id cannot be reused in its attached subtree
                (.setModifiers(node: "bgc", modifiers: [.overlay(leaf("bgc"))]), "bgc"),
            ])
        func duplicate(_ op: Op, _ id: String) throws {
            var tree = try fixture()
            let error = expectRejected(&tree, op, .duplicateID)
            #expect(error?.message.contains("\"\(id)\"") == true, "\(String(describing: error))")
        }
    }

    @Suite("cycle") struct Cycle {
        @Test(
            "moving a node into itself or anything inside it, attached subtrees included, is a cycle",
            arguments: [
                Op.move(node: "s", parent: "s", position: .end),
                .move(node: "s", parent: "a", position: .end),
                .move(node: "o", parent: "d", position: .index(0)),
                .move(node: "s", parent: "bg", position: .end),
                .move(node: "s", parent: "bgc", position: .end),
                .move(node: "bgc", parent: "bgc", position: .end),
                .move(node: "d", parent: "d", position: .end),
            ])
        func cycle(_ op: Op) throws {
            var tree = try fixture()
            expectRejected(&tree, op, .cycle)
        }

        @Test("moving a node into a node inserted inside it earlier in the batch is a cycle")
        func intoNodeInsertedInside() throws {
            var tree = try fixture()
            expectRejected(
                &tree, .move(node: "s", parent: "n", position: .end), .cycle,
                prelude: standardPrelude + [.insert(parent: "c", node: leaf("n"), position: .end)])
        }
    }

    @Suite("bad_index") struct BadIndex {
        @Test(
            "a position outside the parent's children is rejected with bad_index",
            arguments: [
                Op.insert(parent: "s", node: leaf("n"), position: .index(4)),
                .insert(parent: "s", node: leaf("n"), position: .index(-1)),
                .insert(parent: "c", node: leaf("n"), position: .index(1)),
                .insert(parent: "o", node: leaf("n"), position: .after("a")),
                .insert(parent: "o", node: leaf("n"), position: .before("o")),
                // an attached root is not a child of its host
                .insert(parent: "s", node: leaf("n"), position: .after("bg")),
                .insert(parent: "bg", node: leaf("n"), position: .before("s")),
                // s has 3 children, 2 once a is taken out: index 3 is out of range for the move
                .move(node: "a", parent: "s", position: .index(3)),
                .move(node: "a", parent: "s", position: .index(-1)),
                .move(node: "a", parent: "o", position: .index(2)),
                .move(node: "a", parent: "s", position: .before("d")),
                .move(node: "a", parent: "o", position: .after("b")),
                // core's choice: once taken out, the node is not a sibling of itself
                .move(node: "a", parent: "s", position: .after("a")),
                .move(node: "a", parent: "s", position: .before("a")),
            ])
        func outOfRange(_ op: Op) throws {
            var tree = try fixture()
            expectRejected(&tree, op, .badIndex)
        }

        @Test("a move rejected for its position leaves the node where it was, in the same place among its siblings")
        func moveRejectedKeepsPlace() throws {
            var tree = try fixture()
            expectRejected(&tree, .move(node: "b", parent: "s", position: .index(5)), .badIndex)
            #expect(shape(tree.root) == "root(s[bg(bgc)](a b c) o(d))")
            expectRejected(&tree, .move(node: "b", parent: "o", position: .after("c")), .badIndex)
            #expect(tree.root == fixtureRoot())
        }
    }

    @Suite("bad_message") struct BadMessage {
        @Test(
            "removing or moving the root or an attached root is rejected with bad_message",
            arguments: [
                Op.remove(node: "root"),
                .move(node: "root", parent: "o", position: .end),
                .remove(node: "bg"),
                .move(node: "bg", parent: "o", position: .end),
                .move(node: "bg", parent: "s", position: .end),
            ])
        func rootsStay(_ op: Op) throws {
            var tree = try fixture()
            expectRejected(&tree, op, .badMessage)
        }
    }
}

// MARK: - errors: bad_key, type_mismatch

extension OpValidationTests {
    @Suite("bad_key") struct BadKey {
        @Test(
            "a writer, reader or transform of an undeclared key is rejected with bad_key",
            arguments: [
                Op.insert(parent: "o", node: leaf("n", 1, key: "Q"), position: .end),
                .insert(parent: "o", node: Node(id: "n", type: "V", modifiers: [.onPreferenceChange(key: "Q")]), position: .end),
                .insert(parent: "o", node: Node(id: "n", type: "V", modifiers: [.transformPreference(key: "Q", transform: .add(1))]), position: .end),
                .insert(parent: "o", node: Node(id: "n", type: "VStack", children: [leaf("x", 1, key: "Q")]), position: .end),
                .insert(parent: "o", node: Node(id: "n", type: "V", modifiers: [.background(leaf("x", 1, key: "Q"))]), position: .end),
                .insert(parent: "o", node: leaf("n", 1, key: "k"), position: .end),  // keys are case-sensitive
                .setModifiers(node: "c", modifiers: [.preference(key: "Q", value: 1)]),
                .setModifiers(node: "c", modifiers: [.onPreferenceChange(key: "Q")]),
                .setModifiers(node: "c", modifiers: [.transformPreference(key: "Q", transform: .set(1))]),
                .setModifiers(node: "c", modifiers: [.overlay(Node(id: "x", type: "V", modifiers: [.onPreferenceChange(key: "Q")]))]),
                .setPreference(node: "c", key: "Q", value: 1),
                .removePreference(node: "a", key: "Q"),
            ])
        func undeclared(_ op: Op) throws {
            var tree = try fixture()
            let error = expectRejected(&tree, op, .badKey)
            #expect(error.map { $0.message.contains("\"Q\"") || $0.message.contains("\"k\"") } == true)
        }

        @Test("declareKey with an empty key is rejected with bad_key")
        func emptyKey() throws {
            var tree = try fixture()
            expectRejected(&tree, .declareKey(KeyDeclaration(key: "", reducer: .sum, defaultValue: 0)), .badKey)
        }

        @Test("a key declared by a rejected batch is not declared afterwards")
        func keyFromRejectedBatchIsGone() throws {
            var tree = try fixture()
            expectRejected(
                &tree, .remove(node: "root"), .badMessage,
                prelude: [.declareKey(KeyDeclaration(key: "Q", reducer: .sum, defaultValue: 0))])
            expectRejected(&tree, .setPreference(node: "c", key: "Q", value: 1), .badKey)
        }
    }

    @Suite("type_mismatch") struct TypeMismatch {
        @Test("setPreference with a value of the wrong type for the key's reducer is type_mismatch", arguments: misfits)
        func setPreferenceMisfit(_ reducer: Reducer, _ value: JSON) throws {
            var tree = try fixture(keys: typedKeys)
            let error = expectRejected(&tree, .setPreference(node: "c", key: reducer.rawValue, value: value), .typeMismatch)
            #expect(error?.message.contains(reducer.rawValue) == true, "\(String(describing: error))")
        }

        @Test("setPreference with a value of the reducer's type is accepted", arguments: fits)
        func setPreferenceFit(_ reducer: Reducer, _ value: JSON) throws {
            var tree = try fixture(keys: typedKeys)
            let diff = try tree.apply([.setPreference(node: "c", key: reducer.rawValue, value: value)])
            #expect(diff.ops == [.setPreference(node: "c", key: reducer.rawValue, value: value)])
            #expect(tree.node("c")?.modifiers == [.preference(key: reducer.rawValue, value: value)])
        }

        @Test("an inserted writer with a value of the wrong type is type_mismatch, also deep inside the subtree", arguments: misfits)
        func insertedWriterMisfit(_ reducer: Reducer, _ value: JSON) throws {
            var tree = try fixture(keys: typedKeys)
            let deep = Node(
                id: "n", type: "VStack",
                modifiers: [.overlay(Node(id: "ov", type: "Color", children: [leaf("x", value, key: reducer.rawValue)]))])
            expectRejected(&tree, .insert(parent: "o", node: leaf("n", value, key: reducer.rawValue), position: .end), .typeMismatch)
            expectRejected(&tree, .insert(parent: "o", node: deep, position: .end), .typeMismatch)
        }

        @Test("setModifiers with a writer of the wrong type is type_mismatch, also inside an attached subtree", arguments: misfits)
        func setModifiersMisfit(_ reducer: Reducer, _ value: JSON) throws {
            var tree = try fixture(keys: typedKeys)
            expectRejected(
                &tree, .setModifiers(node: "c", modifiers: [.preference(key: reducer.rawValue, value: value)]),
                .typeMismatch)
            expectRejected(
                &tree, .setModifiers(node: "s", modifiers: [.background(leaf("x", value, key: reducer.rawValue))]),
                .typeMismatch)
        }

        @Test("declaring a key whose default does not fit its reducer is type_mismatch", arguments: misfits)
        func defaultMisfit(_ reducer: Reducer, _ value: JSON) throws {
            var tree = try fixture()
            expectRejected(&tree, .declareKey(KeyDeclaration(key: "New", reducer: reducer, defaultValue: value)), .typeMismatch)
            // also when re-declaring an existing key (K has no writers of that kind to blame)
            expectRejected(&tree, .declareKey(KeyDeclaration(key: "K", reducer: reducer, defaultValue: value)), .typeMismatch)
        }

        @Test(
            "a transform that does not fit its key is type_mismatch, in an inserted node or in setModifiers",
            arguments: [
                (Reducer.append, Transform.add(1)), (.nest, .add(1)), (.and, .add(1)),
                (.append, .multiply(2)), (.merge, .multiply(2)),
                (.sum, .append([1])), (.merge, .append([1])),
                (.append, .merge(["a": 1])), (.sum, .merge(["a": 1])),
                (.sum, .set("x")), (.priority, .set(["priority": 1])), (.nest, .set(.null)),
                (.sum, .reduce(true)), (.append, .reduce(1)), (.merge, .reduce([1])),
            ] as [(Reducer, Transform)])
        func transformMisfit(_ reducer: Reducer, _ transform: Transform) throws {
            var tree = try fixture(keys: typedKeys)
            let mod = Modifier.transformPreference(key: reducer.rawValue, transform: transform)
            expectRejected(&tree, .insert(parent: "o", node: Node(id: "n", type: "Color", modifiers: [mod]), position: .end), .typeMismatch)
            expectRejected(&tree, .setModifiers(node: "c", modifiers: [mod]), .typeMismatch)
        }

        @Test(
            "a transform that fits its key is accepted",
            arguments: [
                (Reducer.sum, Transform.add(1)), (.max, .multiply(2.5)), (.append, .append([1])),
                (.merge, .merge(["a": 1])), (.last, .set("anything")), (.sum, .reduce(5)), (.nest, .set("x")),
                (.priority, .reduce(["priority": 1, "content": "x"])), (.and, .reduce(false)),
            ] as [(Reducer, Transform)])
        func transformFit(_ reducer: Reducer, _ transform: Transform) throws {
            var tree = try fixture(keys: typedKeys)
            let mod = Modifier.transformPreference(key: reducer.rawValue, transform: transform)
            _ = try tree.apply([.setModifiers(node: "c", modifiers: [mod])])
            #expect(tree.node("c")?.modifiers == [mod])
        }

        @Test("core's choice: add and multiply need a number key, so they are rejected on an any-typed key (last)")
        func addOnAnyTypedKey() throws {
            var tree = try fixture(keys: [KeyDeclaration(key: "L", reducer: .last, defaultValue: 0)])
            expectRejected(
                &tree, .setModifiers(node: "c", modifiers: [.transformPreference(key: "L", transform: .add(1))]),
                .typeMismatch)
        }

        @Test("re-declaring a key with a reducer whose type rejects existing writers is type_mismatch")
        func redeclareRejectsWriters() throws {
            var tree = try fixture()
            let error = expectRejected(&tree, .declareKey(KeyDeclaration(key: "K", reducer: .nest, defaultValue: "")), .typeMismatch)
            #expect(error?.message.contains("\"K\"") == true, "\(String(describing: error))")
            expectRejected(&tree, .declareKey(KeyDeclaration(key: "K", reducer: .and, defaultValue: true)), .typeMismatch)
            #expect(tree.keys == [sumK])
        }

        @Test("re-declaring a key is type_mismatch when the only misfit writer is inside an attached subtree")
        func redeclareRejectsAttachedWriter() throws {
            let lastM = KeyDeclaration(key: "M", reducer: .last, defaultValue: .null)
            var tree = try fixture(keys: [lastM])
            _ = try tree.apply([.setPreference(node: "bgc", key: "M", value: 1)])
            let error = expectRejected(&tree, .declareKey(KeyDeclaration(key: "M", reducer: .nest, defaultValue: "")), .typeMismatch)
            #expect(error?.message.contains("\"bgc\"") == true, "\(String(describing: error))")
        }

        @Test("re-declaring a key with a reducer whose type rejects an existing transform is type_mismatch")
        func redeclareRejectsTransform() throws {
            var tree = try fixture()
            _ = try tree.apply([.setModifiers(node: "d", modifiers: [.transformPreference(key: "K", transform: .add(1))])])
            // The number writers would block append too: the prelude removes them, so only the transform is in the way.
            let prelude: [Op] = [
                .setProps(node: "root", props: ["touched": true]),
                .removePreference(node: "a", key: "K"), .removePreference(node: "b", key: "K"),
                .removePreference(node: "bgc", key: "K"),
            ]
            let error = expectRejected(
                &tree, .declareKey(KeyDeclaration(key: "K", reducer: .append, defaultValue: [])), .typeMismatch,
                prelude: prelude)
            #expect(error?.message.contains("\"d\"") == true, "\(String(describing: error))")
        }

        @Test("re-declaring a key is type_mismatch when a writer set earlier in the same batch does not fit")
        func redeclareRejectsWriterFromSameBatch() throws {
            let lastM = KeyDeclaration(key: "M", reducer: .last, defaultValue: .null)
            var tree = try fixture(keys: [lastM])
            expectRejected(
                &tree, .declareKey(KeyDeclaration(key: "M", reducer: .sum, defaultValue: 0)), .typeMismatch,
                prelude: standardPrelude + [.setPreference(node: "d", key: "M", value: "text")])
        }
    }
}

// MARK: - errors: limits (too_deep, too_many)

extension OpValidationTests {
    @Suite("limits") struct LimitTests {
        // The fixture's deepest node is bgc at depth 3: background subtrees count one below their host.
        static let depth3 = Limits(maxDepth: 3)

        @Test("the fixture fits a depth limit of 3 exactly, and not 2")
        func fixtureDepth() throws {
            _ = try fixture(Self.depth3)
            expectTreeRejected(keys: [sumK], root: fixtureRoot(), limits: Limits(maxDepth: 2), .tooDeep)
        }

        @Test("insert reaching the depth limit exactly is accepted")
        func insertAtLimit() throws {
            var tree = try fixture(Self.depth3)
            _ = try tree.apply([.insert(parent: "a", node: leaf("n"), position: .end)])
            _ = try tree.apply([.insert(parent: "bg", node: leaf("m"), position: .end)])
            #expect(shape(tree.root) == "root(s[bg(bgc m)](a(n) b c) o(d))")
        }

        @Test(
            "insert of a chain exceeding the depth limit is too_deep; attached subtrees count one below their host",
            arguments: [
                Op.insert(parent: "a", node: Node(id: "n", type: "VStack", children: [leaf("n1")]), position: .end),
                .insert(parent: "o", node: Node(id: "n", type: "VStack", children: [Node(id: "n1", type: "VStack", children: [leaf("n2")])]), position: .end),
                .insert(parent: "bgc", node: leaf("n"), position: .end),
                .insert(parent: "a", node: Node(id: "n", type: "V", modifiers: [.background(leaf("n1"))]), position: .end),
                .insert(parent: "o", node: Node(id: "n", type: "V", modifiers: [.overlay(Node(id: "n1", type: "V", modifiers: [.background(leaf("n2"))]))]), position: .end),
                .setModifiers(node: "a", modifiers: [.background(Node(id: "n", type: "VStack", children: [leaf("n1")]))]),
                .setModifiers(node: "bgc", modifiers: [.overlay(leaf("n"))]),
            ])
        func insertTooDeep(_ op: Op) throws {
            var tree = try fixture(Self.depth3)
            expectRejected(&tree, op, .tooDeep)
        }

        @Test("the same attached subtree one level higher fits")
        func attachedAtLimit() throws {
            var tree = try fixture(Self.depth3)
            _ = try tree.apply([.setModifiers(node: "a", modifiers: [.background(leaf("n"))])])
            _ = try tree.apply([.insert(parent: "o", node: Node(id: "m", type: "V", modifiers: [.overlay(leaf("m1"))]), position: .end)])
            #expect(shape(tree.root) == "root(s[bg(bgc)](a[n] b c) o(d m[m1]))")
        }

        @Test(
            "move of a subtree whose deepest node would exceed the limit is too_deep",
            arguments: [
                // o (height 1) under a (depth 2): d would be at 4
                Op.move(node: "o", parent: "a", position: .end),
                // s's deepest node is bgc (inside its background): under o, bgc would be at 4
                .move(node: "s", parent: "o", position: .end),
                // into an attached subtree: bg is at depth 2
                .move(node: "o", parent: "bg", position: .end),
                .move(node: "d", parent: "bgc", position: .end),
            ])
        func moveTooDeep(_ op: Op) throws {
            var tree = try fixture(Self.depth3)
            expectRejected(&tree, op, .tooDeep)
        }

        @Test("move whose deepest node reaches the limit exactly is accepted")
        func moveAtLimit() throws {
            var tree = try fixture(Self.depth3)
            let diff = try tree.apply([
                .move(node: "d", parent: "a", position: .end),
                .move(node: "c", parent: "bg", position: .index(0)),
                .move(node: "o", parent: "s", position: .end),
            ])
            #expect(diff.ops == [
                .move(node: "d", parent: "a", position: .index(0)),
                .move(node: "c", parent: "bg", position: .index(0)),
                .move(node: "o", parent: "s", position: .index(2)),
            ])
            #expect(shape(tree.root) == "root(s[bg(c bgc)](a(d) b o))")
        }

        // The fixture has 9 nodes, attached ones included.
        static let nodes10 = Limits(maxNodes: 10)

        @Test("insert up to the node limit is accepted; one more node is too_many")
        func insertAtNodeLimit() throws {
            var tree = try fixture(Self.nodes10)
            _ = try tree.apply([.insert(parent: "o", node: leaf("n"), position: .end)])
            #expect(tree.nodeCount == 10)
            expectRejected(&tree, .insert(parent: "o", node: leaf("m"), position: .end), .tooMany, prelude: nodelessPrelude)
        }

        @Test(
            "insert or setModifiers beyond the node limit is too_many, attached subtrees counted",
            arguments: [
                Op.insert(parent: "o", node: Node(id: "n", type: "V", modifiers: [.background(leaf("n1"))]), position: .end),
                .insert(parent: "o", node: Node(id: "n", type: "VStack", children: [leaf("n1")]), position: .end),
                .setModifiers(node: "c", modifiers: [.background(leaf("n")), .overlay(leaf("m"))]),
                .setModifiers(node: "c", modifiers: [.background(Node(id: "n", type: "V", modifiers: [.overlay(leaf("m"))]))]),
                // s's old attached subtree (bg, bgc: 2 nodes) leaves; a 4-node one would make 11
                .setModifiers(node: "s", modifiers: [.background(Node(id: "n", type: "VStack", children: [leaf("n1"), leaf("n2"), leaf("n3")]))]),
            ])
        func tooManyNodes(_ op: Op) throws {
            var tree = try fixture(Self.nodes10)
            let error = expectRejected(&tree, op, .tooMany, prelude: nodelessPrelude)
            #expect(error?.message.contains("10") == true, "\(String(describing: error))")
        }

        @Test("setModifiers counts the attached subtree it replaces as gone")
        func setModifiersReplacingAtNodeLimit() throws {
            var tree = try fixture(Self.nodes10)
            let chain: [Modifier] = [.background(Node(id: "n", type: "VStack", children: [leaf("n1"), leaf("n2")]))]
            _ = try tree.apply([.setModifiers(node: "s", modifiers: chain)])
            #expect(tree.nodeCount == 10)
            #expect(shape(tree.root) == "root(s[n(n1 n2)](a b c) o(d))")
        }

        @Test("a removal earlier in the batch makes room for a later insert")
        func removalMakesRoom() throws {
            var tree = try fixture(Self.nodes10)
            _ = try tree.apply([
                .remove(node: "c"),
                .insert(parent: "o", node: leaf("n"), position: .end),
                .insert(parent: "o", node: leaf("m"), position: .end),
            ])
            #expect(tree.nodeCount == 10)
            #expect(shape(tree.root) == "root(s[bg(bgc)](a b) o(d n m))")
        }

        // s has 2 modifiers.
        static let mods2 = Limits(maxModifiers: 2)

        @Test(
            "more modifiers on one node than the limit is too_many",
            arguments: [
                Op.setPreference(node: "s", key: "K", value: 1),
                .setModifiers(node: "c", modifiers: [.other(kind: "a", args: [:]), .other(kind: "b", args: [:]), .other(kind: "c", args: [:])]),
                .insert(parent: "o", node: Node(id: "n", type: "V", modifiers: [.other(kind: "a", args: [:]), .other(kind: "b", args: [:]), .onPreferenceChange(key: "K")]), position: .end),
                .insert(parent: "o", node: Node(id: "n", type: "V", modifiers: [.background(Node(id: "x", type: "V", modifiers: [.other(kind: "a", args: [:]), .other(kind: "b", args: [:]), .other(kind: "c", args: [:])]))]), position: .end),
                .insert(parent: "o", node: Node(id: "n", type: "VStack", children: [Node(id: "x", type: "V", modifiers: [.other(kind: "a", args: [:]), .other(kind: "b", args: [:]), .other(kind: "c", args: [:])])]), position: .end),
                .setModifiers(node: "c", modifiers: [.overlay(Node(id: "x", type: "V", modifiers: [.other(kind: "a", args: [:]), .other(kind: "b", args: [:]), .other(kind: "c", args: [:])]))]),
            ])
        func tooManyModifiers(_ op: Op) throws {
            var tree = try fixture(Self.mods2)
            expectRejected(&tree, op, .tooMany)
        }

        @Test("setPreference at the modifier limit is accepted when it replaces a writer rather than appending one")
        func setPreferenceReplacingAtModifierLimit() throws {
            var tree = try fixture(Self.mods2)
            _ = try tree.apply([.setModifiers(node: "c", modifiers: [.preference(key: "K", value: 1), .other(kind: "hidden", args: [:])])])
            let diff = try tree.apply([.setPreference(node: "c", key: "K", value: 4), .setPreference(node: "a", key: "K", value: 5)])
            #expect(tree.node("c")?.modifiers == [.preference(key: "K", value: 4), .other(kind: "hidden", args: [:])])
            #expect(diff.changes == [rv("s#1", 21)])
        }

        @Test("Tree(keys:root:limits:) enforces the limits too")
        func treeCreationLimits() throws {
            expectTreeRejected(keys: [sumK], root: fixtureRoot(), limits: Limits(maxNodes: 8), .tooMany)
            expectTreeRejected(keys: [sumK], root: fixtureRoot(), limits: Limits(maxModifiers: 1), .tooMany)
            _ = try Tree(keys: [sumK], root: fixtureRoot(), limits: Limits(maxDepth: 3, maxNodes: 9, maxModifiers: 2))
        }
    }
}

// MARK: - atomicity and rollback

extension OpValidationTests {
    @Suite("rollback") struct Rollback {
        static let n = Node(
            id: "n", type: "VStack",
            modifiers: [
                .overlay(Node(id: "n-ov", type: "Color", modifiers: [.preference(key: "K", value: 7)])),
                .onPreferenceChange(key: "K"),
            ],
            children: [leaf("n1", 3)])

        /// Ops 0…10 succeed on the fixture and exercise every kind of op.
        static let valid: [Op] = [
            .insert(parent: "o", node: n, position: .index(0)),
            .remove(node: "b"),
            .move(node: "c", parent: "o", position: .after("d")),
            .setProps(node: "a", props: ["title": "A"]),
            // bg leaves; bgc is reused as the id of the new overlay
            .setModifiers(
                node: "s",
                modifiers: [
                    .overlay(Node(id: "bgc", type: "Color", modifiers: [.preference(key: "K", value: 20)])),
                    .onPreferenceChange(key: "K"),
                ]),
            .declareKey(KeyDeclaration(key: "N", reducer: .nest, defaultValue: "")),
            .insert(
                parent: "root",
                node: Node(
                    id: "nest", type: "VStack", modifiers: [.onPreferenceChange(key: "N")],
                    children: [leaf("x", "x", key: "N"), leaf("y", "y", key: "N")]),
                position: .end),
            .declareKey(KeyDeclaration(key: "K", reducer: .max, defaultValue: 0)),
            .setPreference(node: "a", key: "K", value: 50),
            .removePreference(node: "bgc", key: "K"),
            .move(node: "d", parent: "bgc", position: .end),
        ]

        @Test("a batch failing after every kind of op succeeded is rolled back exactly, and the tree stays usable")
        func everythingRolledBack() throws {
            var tree = try fixture()
            let before = Observable(tree)
            do {
                _ = try tree.apply(Self.valid + [.insert(parent: "s", node: leaf("a"), position: .end)])
                Issue.record("the batch should have been rejected")
            } catch {
                #expect(error.code == .duplicateID)
                #expect(error.op == 11)
            }
            #expect(Observable(tree) == before)
            #expect(tree.root == fixtureRoot())
            #expect(tree.keys == [sumK])
            #expect(tree.version == 0)
            #expect(tree.nodeCount == 9)
            #expect(tree.readers == [rv("s#1", 13)])
            for id in ["n", "n-ov", "n1", "nest", "x", "y"] { #expect(tree.node(id) == nil) }
            #expect(tree.node("bg") != nil)
            tree.checkInvariants()

            // The same ops without the failing one now apply, and incremental values equal a fresh evaluation.
            let diff = try tree.apply(Self.valid)
            #expect(diff.ops.count == 11)
            #expect(diff.ops[0] == .insert(parent: "o", node: Self.n, position: .index(0)))
            #expect(diff.ops[2] == .move(node: "c", parent: "o", position: .index(2)))
            #expect(diff.ops[10] == .move(node: "d", parent: "bgc", position: .index(0)))
            #expect(shape(tree.root) == "root(s[bgc(d)](a) o(n[n-ov](n1) c) nest(x y))")
            #expect(tree.node("a") == Node(id: "a", type: "V", props: ["title": "A"], modifiers: [.preference(key: "K", value: 50)]))
            #expect(tree.keys == [KeyDeclaration(key: "K", reducer: .max, defaultValue: 0), KeyDeclaration(key: "N", reducer: .nest, defaultValue: "")])
            #expect(tree.version == 1)
            #expect(tree.nodeCount == 13)
            let expected = [rv("s#1", 50), rv("n#1", 7), rv("nest#0", "(x y)", key: "N")]
            #expect(tree.readers == expected)
            #expect(diff.changes == expected)
            #expect(tree.readers == tree.evaluateFromScratch().readers)
            tree.checkInvariants()
        }

        @Test("after a rollback the tree accepts further batches touching the same nodes, and stays consistent")
        func usableAfterRollback() throws {
            var tree = try fixture()
            let failures: [(Op, ErrorCode)] = [
                (.remove(node: "root"), .badMessage),
                (.setPreference(node: "ghost", key: "K", value: 1), .noSuchNode),
                // after the prelude, bgc is the root of s's overlay
                (.move(node: "s", parent: "bgc", position: .end), .cycle),
                (.declareKey(KeyDeclaration(key: "", reducer: .sum, defaultValue: 0)), .badKey),
            ]
            for (op, code) in failures { expectRejected(&tree, op, code, prelude: Self.valid) }
            let diff = try tree.apply([
                .setPreference(node: "bgc", key: "K", value: 30),
                .insert(parent: "s", node: leaf("n", 5), position: .before("b")),
                .setModifiers(node: "c", modifiers: [.background(leaf("x", 1))]),
            ])
            #expect(shape(tree.root) == "root(s[bg(bgc)](a n b c[x]) o(d))")
            #expect(diff.changes == [rv("s#1", 39)])
            #expect(tree.readers == tree.evaluateFromScratch().readers)
            tree.checkInvariants()
        }

        @Test("the failing op's index is reported even when ops follow it, and none of them apply")
        func failureInTheMiddle() throws {
            var tree = try fixture()
            let before = Observable(tree)
            do {
                _ = try tree.apply([
                    .setPreference(node: "a", key: "K", value: 5),
                    .move(node: "s", parent: "a", position: .end),
                    .remove(node: "o"),
                ])
                Issue.record("the batch should have been rejected")
            } catch {
                #expect(error.code == .cycle)
                #expect(error.op == 1)
            }
            #expect(Observable(tree) == before)
        }

        @Test("a rejected batch that setModifiers twice on the same node restores the original attached subtree")
        func doubleSetModifiersRolledBack() throws {
            var tree = try fixture()
            expectRejected(
                &tree, .remove(node: "bg"), .noSuchNode,
                prelude: [
                    .setModifiers(node: "s", modifiers: [.background(Node(id: "bg", type: "Color", children: [leaf("q", 1)]))]),
                    .setModifiers(node: "s", modifiers: [.overlay(leaf("bgc", 2)), .onPreferenceChange(key: "K")]),
                ])
            #expect(tree.root == fixtureRoot())
            let diff = try tree.apply([.setPreference(node: "bgc", key: "K", value: 11)])
            #expect(diff.changes == [rv("s#1", 14)])
            #expect(tree.readers == tree.evaluateFromScratch().readers)
        }

        @Test("a rejected batch that reused freed slots leaves later batches consistent")
        func freedSlotsAfterRollback() throws {
            var tree = try fixture()
            // Free some slots, then fail a batch that builds nodes into them, then build again.
            _ = try tree.apply([.remove(node: "o")])
            expectRejected(
                &tree, .insert(parent: "root", node: leaf("a"), position: .end), .duplicateID,
                prelude: [
                    .insert(parent: "root", node: Node(id: "o2", type: "VStack", children: [leaf("d2", 4)]), position: .end),
                    .insert(parent: "s", node: leaf("e", 6), position: .end),
                ])
            let diff = try tree.apply([
                .insert(parent: "root", node: Node(id: "o3", type: "VStack", modifiers: [.onPreferenceChange(key: "K")], children: [leaf("d3", 8)]), position: .end),
                .insert(parent: "s", node: leaf("f", 1), position: .end),
            ])
            #expect(shape(tree.root) == "root(s[bg(bgc)](a b c f) o3(d3))")
            #expect(diff.changes == [rv("s#1", 14), rv("o3#0", 8)])
            #expect(tree.readers == tree.evaluateFromScratch().readers)
            tree.checkInvariants()
        }

        @Test("random batches: a rejected batch changes nothing, the ops before the failing one apply on their own, and readers always equal a fresh evaluation")
        func randomBatches() throws {
            var rng = SplitMix64(seed: 0xC0FFEE)
            var tree = try Tree(keys: [sumK], root: fixtureRoot(), limits: Limits(maxDepth: 6, maxNodes: 40, maxModifiers: 4))
            var accepted = 0
            var rejected: [ErrorCode: Int] = [:]
            var fresh = 0
            for _ in 0..<400 {
                let batch = (0..<Int.random(in: 1...5, using: &rng)).map { _ in randomOp(tree, &rng, &fresh) }
                let before = Observable(tree)
                var copy = tree
                do {
                    _ = try tree.apply(batch)
                    accepted += 1
                } catch {
                    rejected[error.code, default: 0] += 1
                    #expect(Observable(tree) == before, "batch \(batch) failed with \(error)")
                    guard let at = error.op else {
                        Issue.record("rejection without an op index: \(error)")
                        continue
                    }
                    do {
                        _ = try copy.apply(Array(batch[..<at]))
                    } catch {
                        Issue.record("ops before the failing one do not apply on their own: \(error)")
                    }
                    #expect(copy.readers == copy.evaluateFromScratch().readers)
                    copy.checkInvariants()
                    // Continue from one or the other, so both paths get exercised further.
                    if Bool.random(using: &rng) { tree = copy }
                }
                #expect(tree.readers == tree.evaluateFromScratch().readers, "after \(batch)")
                tree.checkInvariants()
            }
            #expect(accepted > 50)
            #expect(rejected.values.reduce(0, +) > 50)
            for code in [ErrorCode.noSuchNode, .duplicateID, .cycle, .badIndex, .badMessage, .typeMismatch, .badKey] {
                #expect(rejected[code, default: 0] > 0, "no batch was rejected with \(code.rawValue): \(rejected)")
            }
        }
    }
}

// MARK: - Tree(keys:root:)

extension OpValidationTests {
    @Suite("Tree creation") struct Creation {
        private func root(_ children: [Node], modifiers: [Modifier] = []) -> Node {
            Node(id: "root", type: "Root", modifiers: modifiers, children: children)
        }

        @Test("Tree(keys:root:) rejects duplicate ids, inside attached subtrees too, with duplicate_id")
        func duplicateIds() {
            for r in [
                root([leaf("x"), leaf("x")]),
                root([leaf("root")]),
                root([Node(id: "g", type: "VStack", children: [leaf("x")]), leaf("x")]),
                root([Node(id: "v", type: "V", modifiers: [.background(leaf("x"))]), leaf("x")]),
                root([], modifiers: [.overlay(leaf("root"))]),
            ] {
                let error = expectTreeRejected(keys: [sumK], root: r, .duplicateID)
                #expect(error.map { $0.message.contains("\"x\"") || $0.message.contains("\"root\"") } == true)
            }
        }

        @Test("Tree(keys:root:) rejects writers, readers and transforms of undeclared keys with bad_key")
        func undeclaredKeys() {
            for r in [
                root([leaf("v", 1, key: "Q")]),
                root([Node(id: "v", type: "V", modifiers: [.onPreferenceChange(key: "Q")])]),
                root([Node(id: "v", type: "V", modifiers: [.transformPreference(key: "Q", transform: .add(1))])]),
                root([Node(id: "v", type: "V", modifiers: [.background(leaf("w", 1, key: "Q"))])]),
            ] {
                let error = expectTreeRejected(keys: [sumK], root: r, .badKey)
                #expect(error?.message.contains("\"Q\"") == true)
            }
        }

        @Test("Tree(keys:root:) rejects values, defaults and transforms of the wrong type with type_mismatch")
        func wrongTypes() {
            expectTreeRejected(keys: [sumK], root: root([leaf("v", "1")]), .typeMismatch)
            expectTreeRejected(
                keys: typedKeys, root: root([leaf("v", ["priority": 1], key: "priority")]), .typeMismatch)
            expectTreeRejected(
                keys: [sumK], root: root([Node(id: "v", type: "V", modifiers: [.background(leaf("w", true))])]),
                .typeMismatch)
            expectTreeRejected(
                keys: [KeyDeclaration(key: "A", reducer: .append, defaultValue: [])],
                root: root([Node(id: "v", type: "V", modifiers: [.transformPreference(key: "A", transform: .add(1))])]),
                .typeMismatch)
            let error = expectTreeRejected(
                keys: [sumK, KeyDeclaration(key: "N", reducer: .nest, defaultValue: 0)], root: root([]), .typeMismatch)
            #expect(error?.message.contains("\"N\"") == true)
        }

        @Test("Tree(keys:root:) rejects a key declared twice and an empty key with bad_key")
        func badDeclarations() {
            let twice = expectTreeRejected(
                keys: [sumK, KeyDeclaration(key: "K", reducer: .max, defaultValue: 0)], root: root([]), .badKey)
            #expect(twice?.message.contains("\"K\"") == true)
            #expect(twice?.message.contains("twice") == true)
            expectTreeRejected(keys: [sumK, sumK], root: root([]), .badKey)
            expectTreeRejected(keys: [KeyDeclaration(key: "", reducer: .sum, defaultValue: 0)], root: root([]), .badKey)
        }

        @Test("Tree(keys:root:) accepts a valid tree as given and gives its readers their initial values")
        func validTree() throws {
            let tree = try Tree(keys: typedKeys + [sumK], root: fixtureRoot())
            #expect(tree.root == fixtureRoot())
            #expect(tree.keys == typedKeys + [sumK])
            #expect(tree.readers == [rv("s#1", 13)])
            #expect(tree.version == 0)
            #expect(tree.nodeCount == 9)
        }
    }
}

// MARK: - random ops

private func allIds(_ n: Node) -> [String] {
    [n.id] + n.modifiers.compactMap(\.attached).flatMap(allIds) + n.children.flatMap(allIds)
}

/// A plausible op on `tree`: mostly valid, sometimes naming missing nodes, reusing ids, or misfitting values.
private func randomOp(_ tree: Tree, _ rng: inout SplitMix64, _ fresh: inout Int) -> Op {
    let ids = allIds(tree.root)
    func anyId() -> String {
        Int.random(in: 0..<20, using: &rng) == 0 ? "ghost" : ids.randomElement(using: &rng)!
    }
    func newId() -> String {
        if Int.random(in: 0..<12, using: &rng) == 0 { return ids.randomElement(using: &rng)! }
        fresh += 1
        return "r\(fresh)"
    }
    func value() -> JSON {
        Int.random(in: 0..<15, using: &rng) == 0 ? "not a number" : .int(Int64.random(in: -5...9, using: &rng))
    }
    func key() -> String { Int.random(in: 0..<20, using: &rng) == 0 ? "Undeclared" : "K" }
    func position() -> Position {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return .end
        case 1: return .index(Int.random(in: -1...4, using: &rng))
        case 2: return .after(anyId())
        default: return .before(anyId())
        }
    }
    func modifiers(_ depth: Int) -> [Modifier] {
        (0..<Int.random(in: 0...3, using: &rng)).map { _ in
            switch Int.random(in: 0..<6, using: &rng) {
            case 0, 1: return .preference(key: key(), value: value())
            case 2: return .onPreferenceChange(key: key())
            case 3: return .transformPreference(key: key(), transform: .add(.int(Int64.random(in: 1...3, using: &rng))))
            case 4 where depth < 2: return .background(node(depth + 1))
            case 5 where depth < 2: return .overlay(node(depth + 1))
            default: return .other(kind: "padding", args: [:])
            }
        }
    }
    func node(_ depth: Int) -> Node {
        let types = ["VStack", "Group", "ForEach", "If", "V", "Color"]
        let children = depth < 2 ? (0..<Int.random(in: 0...2, using: &rng)).map { _ in node(depth + 1) } : []
        return Node(id: newId(), type: types.randomElement(using: &rng)!, modifiers: modifiers(depth), children: children)
    }
    switch Int.random(in: 0..<10, using: &rng) {
    case 0, 1: return .insert(parent: anyId(), node: node(0), position: position())
    case 2: return .remove(node: anyId())
    case 3: return .move(node: anyId(), parent: anyId(), position: position())
    case 4: return .setProps(node: anyId(), props: ["p": Bool.random(using: &rng) ? .null : value()])
    case 5: return .setModifiers(node: anyId(), modifiers: modifiers(0))
    case 6, 7: return .setPreference(node: anyId(), key: key(), value: value())
    case 8: return .removePreference(node: anyId(), key: key())
    default:
        let reducers: [Reducer] = [.sum, .max, .min, .last, .nest]
        let r = reducers.randomElement(using: &rng)!
        return .declareKey(KeyDeclaration(key: "K", reducer: r, defaultValue: r == .nest ? "" : r == .last ? .null : 0))
    }
}
