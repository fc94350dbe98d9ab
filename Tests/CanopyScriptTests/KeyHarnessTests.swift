import CanopyCore
import CanopyScript
import Testing

// Helpers of the Swift-key tests: a tree whose keys are Swift sources compiled by CanopyScript, edited batch by batch,
// every state checked against a from-scratch evaluation.

/// A tree of Swift keys under test.
struct KeyTree {
    var tree: Tree

    /// A tree with one reader of each key on the root, and `children` under it.
    init(_ keys: [String: String], _ children: [Node], readers: [String]? = nil) throws {
        let declarations = keys.keys.sorted().map { KeyDeclaration(key: $0, swift: keys[$0]!) }
        let root = Node(
            id: "root", type: "VStack", modifiers: (readers ?? keys.keys.sorted()).map { .onPreferenceChange(key: $0) },
            children: children)
        tree = try Tree(keys: declarations, root: root, compiler: ScriptKeyCompiler())
        try check()
    }

    /// The root reader's value of `key`; `nil` when absent.
    func value(_ key: String = "K") -> JSON? {
        tree.readers.first { $0.node == "root" && $0.key == key }?.value ?? nil
    }

    /// Applies `ops` (traced) and checks the new state against a from-scratch evaluation.
    @discardableResult
    mutating func apply(_ ops: [Op]) throws -> Diff {
        let d = try tree.apply(ops, trace: true)
        try check()
        #expect(d.summary.reduces <= tree.evaluateFromScratch().summary.reduces, "more reduces than from scratch")
        return d
    }

    @discardableResult
    mutating func set(_ node: String, _ value: JSON, key: String = "K") throws -> Diff {
        try apply([.setPreference(node: node, key: key, value: value)])
    }

    func check() throws {
        let fresh = tree.evaluateFromScratch()
        try #require(fresh.readers == tree.readers, "incremental readers differ from a from-scratch evaluation")
    }

    /// The from-scratch trace's reduce calls as `(value, next)`; `next == nil` when `nextValue` was not called.
    var reduceCalls: [(value: JSON, next: JSON?)] { tree.evaluateFromScratch(trace: true).trace?.reduceCalls ?? [] }

    /// How many times a from-scratch evaluation computed a stage of `node`.
    func evaluations(of node: String) -> Int {
        let events = tree.evaluateFromScratch(trace: true).trace?.events ?? []
        return events.filter { if case .eval(node, _, _) = $0.kind { true } else { false } }.count
    }
}

/// A leaf writing `value` to `key`.
func writer(_ id: String, _ value: JSON, key: String = "K", type: String = "Text") -> Node {
    Node(id: id, type: type, modifiers: [.preference(key: key, value: value)])
}

/// The error `body` throws, or `nil`.
func thrown(_ body: () throws -> Void) -> CanopyError? {
    do {
        try body()
        return nil
    } catch let e as CanopyError {
        return e
    } catch {
        Issue.record("not a CanopyError: \(error)")
        return nil
    }
}

/// The `(line, column)` pairs of a `compile_error`'s diagnostics.
func diagnosticPositions(_ e: CanopyError?) -> [[Int]] {
    (e?.details["diagnostics"]?.array ?? []).map { d in
        [Int(d["line"]?.number ?? -1), Int(d["column"]?.number ?? -1)]
    }
}

/// A `CGRect` as JSON: an object of its stored properties.
func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> JSON {
    ["origin": ["x": .double(x), "y": .double(y)], "size": ["width": .double(w), "height": .double(h)]]
}

@Suite struct KeyHarnessTests {
    @Test func aTreeOfOneSumKeyReadsTheSumAndFollowsEdits() throws {
        var k = try KeyTree(
            [
                "K": """
                struct K: PreferenceKey {
                    static var defaultValue = 0
                    static func reduce(value: inout Int, nextValue: () -> Int) { value += nextValue() }
                }
                """
            ], [writer("a", 1), writer("b", 2)])
        #expect(k.value() == 3)
        let d = try k.set("b", 5)
        #expect(d.changes.map(\.value) == [.some(6)])
        #expect(k.reduceCalls.map(\.next) == [.some(5)])
    }
}
