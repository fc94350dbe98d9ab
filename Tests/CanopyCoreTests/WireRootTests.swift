import Testing

@testable import CanopyCore

/// `Tree(keys:rootJSON:…)`, the node-by-node build a stored snapshot is loaded with, against `Tree(keys:root:…)` of
/// `Node(json:)`: the same tree (the differential test also edits trees built this way), and for a tree breaking one
/// rule, the same error.
@Suite struct WireRootTests {
    static let keys = [KeyDeclaration(key: "K", reducer: .sum, defaultValue: 0)]

    static func leaf(_ id: String, _ value: JSON = 1) -> JSON {
        ["id": .string(id), "type": "Text", "modifiers": [["kind": "preference", "key": "K", "value": value]]]
    }

    static func stack(_ id: String, _ children: [JSON], modifiers: [JSON] = [["kind": "onPreferenceChange", "key": "K"]])
        -> JSON
    {
        ["id": .string(id), "type": "VStack", "modifiers": .array(modifiers), "children": .array(children)]
    }

    /// The tree both ways, or the error each way.
    static func both(_ root: JSON, limits: Limits = .default) -> (Result<Tree, CanopyError>, Result<Tree, CanopyError>) {
        let viaNode = Result { () throws(CanopyError) -> Tree in
            try Tree(keys: keys, root: try Node(json: root), limits: limits)
        }
        let viaWire = Result { () throws(CanopyError) -> Tree in
            try Tree(keys: keys, rootJSON: root, limits: limits)
        }
        return (viaNode, viaWire)
    }

    @Test func aTreeBuiltFromItsWireFormIsTheSameTree() throws {
        let overlay: JSON = ["kind": "overlay", "node": Self.stack("o", [Self.leaf("o1", 5)])]
        let root = Self.stack(
            "root",
            [
                Self.stack("s1", [Self.leaf("a"), Self.leaf("b", 2)]),
                Self.stack("s2", [Self.leaf("c", 3)], modifiers: [overlay, ["kind": "onPreferenceChange", "key": "K"]]),
                ["id": "p", "type": "Text", "props": ["text": "hi"], "modifiers": [["kind": "padding", "args": ["n": 2]]]],
            ])
        let (viaNode, viaWire) = Self.both(root)
        var node = try viaNode.get()
        var wire = try viaWire.get()
        #expect(wire.root == node.root)
        #expect(wire.readers == node.readers)
        #expect(wire.readers.first?.value == 11)
        #expect(wire.nodeCount == 9)
        // Edits afterwards give the same diffs.
        let ops: [Op] = [
            .setPreference(node: "o1", key: "K", value: 7),
            .insert(parent: "s1", node: Node(id: "d", type: "Text"), position: .end),
        ]
        #expect(try wire.apply(ops).changes == (try node.apply(ops).changes))
        #expect(wire.readers == node.readers && wire.readers.first?.value == 13)
    }

    @Test(arguments: [
        ("not an object", JSON.array([]), Limits.default),
        ("no id", ["type": "VStack"], Limits.default),
        ("a misspelt field", ["id": "r", "type": "VStack", "modifers": []], Limits.default),
        ("a child without an id", Self.stack("r", [Self.leaf("a"), ["type": "Text"]]), Limits.default),
        ("a child with a bad modifier", Self.stack("r", [["id": "a", "type": "Text", "modifiers": [["kind": "preference"]]]]), Limits.default),
        ("siblings with one id", Self.stack("r", [Self.leaf("a"), Self.leaf("a")]), Limits.default),
        ("a child with its parent's id", Self.stack("r", [Self.stack("s", [Self.leaf("s")])]), Limits.default),
        ("an attached node with a child's id",
         Self.stack("r", [Self.leaf("a")], modifiers: [["kind": "background", "node": Self.leaf("a")]]), Limits.default),
        ("an undeclared key", Self.stack("r", [["id": "a", "type": "Text", "modifiers": [["kind": "onPreferenceChange", "key": "Q"]]]]), Limits.default),
        ("a value the key does not take", Self.stack("r", [Self.leaf("a", "text")]), Limits.default),
        ("too deep", Self.stack("r", [Self.stack("s", [Self.leaf("a")])]), Limits(maxDepth: 1)),
        ("too many modifiers", Self.stack("r", [Self.leaf("a")], modifiers: [["kind": "padding"], ["kind": "hidden"]]), Limits(maxModifiers: 1)),
    ] as [(String, JSON, Limits)])
    func aTreeBreakingOneRuleFailsTheSameWay(_ what: String, root: JSON, limits: Limits) {
        let (viaNode, viaWire) = Self.both(root, limits: limits)
        guard case .failure(let expected) = viaNode, case .failure(let got) = viaWire else {
            Issue.record("\(what): both must fail: \(viaNode), \(viaWire)")
            return
        }
        #expect(got.code == expected.code, "\(what)")
        #expect(got.message == expected.message, "\(what)")
    }

    @Test func aTreeOverTheNodeLimitIsRefused() {
        let root = Self.stack("r", (0..<5).map { Self.leaf("n\($0)") })
        let (viaNode, viaWire) = Self.both(root, limits: Limits(maxNodes: 5))
        #expect(throws: CanopyError.self) { try viaNode.get() }
        #expect { try viaWire.get() } throws: { ($0 as? CanopyError)?.code == .tooMany }
        #expect((try? Self.both(root, limits: Limits(maxNodes: 6)).1.get())?.nodeCount == 6)
    }
}
