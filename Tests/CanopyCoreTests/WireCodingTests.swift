import Testing

@testable import CanopyCore

/// Wire-format coding of nodes, modifiers, key declarations and ops (PROTOCOL.md, "Nodes, keys, modifiers", "Ops").
@Suite struct WireCodingTests {

    // MARK: Decoding ops

    @Test func anInsertWithoutPositionDecodesItsParentAndNodeAndAppends() throws {
        let j: JSON = ["op": "insert", "parent": "root", "node": ["id": "a", "type": "Text"]]
        #expect(try Op(json: j) == .insert(parent: "root", node: Node(id: "a", type: "Text"), position: .end))
    }

    @Test(arguments: [
        (["index": 2] as JSON, Position.index(2)),
        (["index": 0] as JSON, Position.index(0)),
        (["index": 2.0] as JSON, Position.index(2)),
        (["after": "b"] as JSON, Position.after("b")),
        (["before": "c"] as JSON, Position.before("c")),
    ])
    func anInsertDecodesEachKindOfPosition(positionField: JSON, expected: Position) throws {
        var o: JSONObject = ["op": "insert", "parent": "root", "node": ["id": "a", "type": "Text"]]
        o.merge(positionField.object!)
        #expect(try Op(json: .object(o)) == .insert(parent: "root", node: Node(id: "a", type: "Text"), position: expected))
    }

    @Test func anInsertDecodesAWholeSubtreeWithPropsModifiersAndChildren() throws {
        let j: JSON = [
            "op": "insert", "parent": "root", "index": 1,
            "node": [
                "id": "v", "type": "VStack", "props": ["spacing": 4],
                "modifiers": [["kind": "padding", "args": ["all": 8]]],
                "children": [["id": "t", "type": "Text", "props": ["text": "hi"]]],
            ],
        ]
        let expected = Node(
            id: "v", type: "VStack", props: ["spacing": 4], modifiers: [.other(kind: "padding", args: ["all": 8])],
            children: [Node(id: "t", type: "Text", props: ["text": "hi"])])
        #expect(try Op(json: j) == .insert(parent: "root", node: expected, position: .index(1)))
    }

    @Test func aRemoveDecodesTheNodeID() throws {
        #expect(try Op(json: ["op": "remove", "node": "a"]) == .remove(node: "a"))
    }

    @Test func aMoveDecodesNodeParentAndPosition() throws {
        #expect(try Op(json: ["op": "move", "node": "a", "parent": "p"]) == .move(node: "a", parent: "p", position: .end))
        #expect(
            try Op(json: ["op": "move", "node": "a", "parent": "p", "index": 3])
                == .move(node: "a", parent: "p", position: .index(3)))
        #expect(
            try Op(json: ["op": "move", "node": "a", "parent": "p", "before": "b"])
                == .move(node: "a", parent: "p", position: .before("b")))
    }

    @Test func aSetPropsKeepsNullValuesSoTheyCanDeleteProps() throws {
        let j: JSON = ["op": "setProps", "node": "a", "props": ["text": "x", "color": .null]]
        #expect(try Op(json: j) == .setProps(node: "a", props: ["text": "x", "color": .null]))
    }

    @Test func aSetModifiersDecodesTheWholeChainInOrder() throws {
        let j: JSON = [
            "op": "setModifiers", "node": "a",
            "modifiers": [
                ["kind": "preference", "key": "K", "value": 1],
                ["kind": "onPreferenceChange", "key": "K"],
            ],
        ]
        #expect(
            try Op(json: j)
                == .setModifiers(node: "a", modifiers: [.preference(key: "K", value: 1), .onPreferenceChange(key: "K")]))
        #expect(try Op(json: ["op": "setModifiers", "node": "a", "modifiers": []]) == .setModifiers(node: "a", modifiers: []))
    }

    @Test func aSetPreferenceAcceptsANullValue() throws {
        #expect(
            try Op(json: ["op": "setPreference", "node": "a", "key": "K", "value": .null])
                == .setPreference(node: "a", key: "K", value: .null))
        #expect(
            try Op(json: ["op": "setPreference", "node": "a", "key": "K", "value": [1, 2]])
                == .setPreference(node: "a", key: "K", value: [1, 2]))
    }

    @Test func aRemovePreferenceDecodesNodeAndKey() throws {
        #expect(
            try Op(json: ["op": "removePreference", "node": "a", "key": "K"]) == .removePreference(node: "a", key: "K"))
    }

    @Test func aDeclareKeyDecodesKeyReducerAndDefault() throws {
        #expect(
            try Op(json: ["op": "declareKey", "key": "Numeric", "reducer": "sum", "default": 0])
                == .declareKey(KeyDeclaration(key: "Numeric", reducer: .sum, defaultValue: 0)))
        #expect(
            try Op(json: ["op": "declareKey", "key": "P", "reducer": "priority", "default": .null])
                == .declareKey(KeyDeclaration(key: "P", reducer: .priority, defaultValue: .null)))
    }

    // MARK: Decoding modifiers and key declarations

    @Test func aPreferenceModifierDecodesKeyAndValue() throws {
        #expect(try Modifier(json: ["kind": "preference", "key": "K", "value": "x"]) == .preference(key: "K", value: "x"))
        #expect(try Modifier(json: ["kind": "preference", "key": "K", "value": .null]) == .preference(key: "K", value: .null))
    }

    @Test(arguments: [
        (["add": 10] as JSON, Transform.add(10)),
        (["multiply": 2.5] as JSON, Transform.multiply(2.5)),
        (["append": [1, "two"]] as JSON, Transform.append([1, "two"])),
        (["merge": ["a": 1]] as JSON, Transform.merge(["a": 1])),
        (["set": .null] as JSON, Transform.set(.null)),
        (["reduce": true] as JSON, Transform.reduce(true)),
    ])
    func aTransformPreferenceModifierDecodesEveryTransformForm(body: JSON, expected: Transform) throws {
        let j: JSON = ["kind": "transformPreference", "key": "K", "transform": body]
        #expect(try Modifier(json: j) == .transformPreference(key: "K", transform: expected))
    }

    @Test func anOnPreferenceChangeModifierDecodesItsKey() throws {
        #expect(try Modifier(json: ["kind": "onPreferenceChange", "key": "K"]) == .onPreferenceChange(key: "K"))
    }

    @Test func backgroundAndOverlayModifiersDecodeTheirAttachedSubtrees() throws {
        let bg: JSON = ["kind": "background", "node": ["id": "bg", "type": "Color", "children": [["id": "x", "type": "Text"]]]]
        #expect(
            try Modifier(json: bg)
                == .background(Node(id: "bg", type: "Color", children: [Node(id: "x", type: "Text")])))
        #expect(
            try Modifier(json: ["kind": "overlay", "node": ["id": "ov", "type": "Text"]])
                == .overlay(Node(id: "ov", type: "Text")))
    }

    @Test func anyOtherKindIsKeptWithItsArgsOrEmptyArgs() throws {
        #expect(
            try Modifier(json: ["kind": "padding", "args": ["all": 8]]) == .other(kind: "padding", args: ["all": 8]))
        #expect(try Modifier(json: ["kind": "hidden"]) == .other(kind: "hidden", args: [:]))
    }

    @Test func aKeyDeclarationDecodesWithoutTypeCheckingItsDefault() throws {
        let declaration = try KeyDeclaration(json: ["key": "K", "reducer": "sum", "default": "not a number"])
        #expect(declaration == KeyDeclaration(key: "K", reducer: .sum, defaultValue: "not a number"))
        #expect(throws: CanopyError.self) { try declaration.validate() }
    }

    @Test func everyReducerNameDecodes() throws {
        for reducer in Reducer.allCases {
            let d = try KeyDeclaration(json: ["key": "K", "reducer": .string(reducer.rawValue), "default": .null])
            #expect(d.reducer == .catalog(reducer))
        }
    }

    // MARK: Encoding

    @Test func aNodeWithOmittedFieldsEncodesAllFiveFieldsInOrder() throws {
        let node = try Node(json: ["type": "Text", "id": "a"])
        #expect(node == Node(id: "a", type: "Text"))
        let expected: JSON = ["id": "a", "type": "Text", "props": [:], "modifiers": [], "children": []]
        #expect(node.json == expected)
        #expect(node.json.object?.keys == ["id", "type", "props", "modifiers", "children"])
    }

    @Test func anOtherModifierAlwaysEncodesItsArgs() {
        #expect(Modifier.other(kind: "hidden", args: [:]).json == ["kind": "hidden", "args": [:]])
        #expect(Modifier.other(kind: "hidden", args: [:]).json.object?.keys == ["kind", "args"])
    }

    @Test func modifiersEncodeKindFirst() {
        #expect(Modifier.preference(key: "K", value: .null).json.object?.keys == ["kind", "key", "value"])
        #expect(
            Modifier.transformPreference(key: "K", transform: .add(1)).json
                == ["kind": "transformPreference", "key": "K", "transform": ["add": 1]])
        #expect(Modifier.onPreferenceChange(key: "K").json == ["kind": "onPreferenceChange", "key": "K"])
        #expect(
            Modifier.overlay(Node(id: "o", type: "Text")).json
                == ["kind": "overlay", "node": ["id": "o", "type": "Text", "props": [:], "modifiers": [], "children": []]])
    }

    @Test func aKeyDeclarationEncodesKeyReducerDefault() {
        let j = KeyDeclaration(key: "K", reducer: .append, defaultValue: []).json
        #expect(j == ["key": "K", "reducer": "append", "default": []])
        #expect(j.object?.keys == ["key", "reducer", "default"])
    }

    @Test func opsEncodeOpFirstThenTheirFieldsInProtocolOrder() {
        let node = Node(id: "a", type: "Text")
        let cases: [(Op, [String])] = [
            (.insert(parent: "p", node: node, position: .end), ["op", "parent", "node"]),
            (.insert(parent: "p", node: node, position: .index(2)), ["op", "parent", "node", "index"]),
            (.insert(parent: "p", node: node, position: .after("b")), ["op", "parent", "node", "after"]),
            (.remove(node: "a"), ["op", "node"]),
            (.move(node: "a", parent: "p", position: .before("b")), ["op", "node", "parent", "before"]),
            (.move(node: "a", parent: "p", position: .end), ["op", "node", "parent"]),
            (.setProps(node: "a", props: ["x": 1]), ["op", "node", "props"]),
            (.setModifiers(node: "a", modifiers: []), ["op", "node", "modifiers"]),
            (.setPreference(node: "a", key: "K", value: 1), ["op", "node", "key", "value"]),
            (.removePreference(node: "a", key: "K"), ["op", "node", "key"]),
            (.declareKey(KeyDeclaration(key: "K", reducer: .last, defaultValue: .null)), ["op", "key", "reducer", "default"]),
        ]
        for (op, keys) in cases {
            #expect(op.json.object?.keys == keys, "\(op.name)")
            #expect(op.json["op"] == .string(op.name))
        }
    }

    @Test func anIndexPositionEncodesAsAnIntegerAndEndWritesNoPositionField() {
        let insert = Op.insert(parent: "root", node: Node(id: "a", type: "Text"), position: .index(2))
        #expect(
            insert.json
                == [
                    "op": "insert", "parent": "root",
                    "node": ["id": "a", "type": "Text", "props": [:], "modifiers": [], "children": []], "index": 2,
                ])
        #expect(insert.json["index"] == .int(2))
        #expect(Op.move(node: "a", parent: "p", position: .end).json == ["op": "move", "node": "a", "parent": "p"])
    }

    // MARK: Round trips

    static let attachedTree = Node(
        id: "v", type: "VStack", props: ["spacing": 4, "title": "t", "flags": [true, .null]],
        modifiers: [
            .preference(key: "K", value: ["nested": [1, 2.5, "x"]]),
            .background(
                Node(
                    id: "bg", type: "ZStack",
                    modifiers: [.overlay(Node(id: "bg-ov", type: "Text", modifiers: [.preference(key: "K", value: 7)]))],
                    children: [Node(id: "bg-c", type: "Text")])),
            .transformPreference(key: "K", transform: .multiply(3)),
            .overlay(Node(id: "ov", type: "Color", props: ["color": "red"])),
            .onPreferenceChange(key: "K"),
            .other(kind: "padding", args: ["all": 8]),
        ],
        children: [
            Node(id: "c1", type: "Text", modifiers: [.background(Node(id: "c1-bg", type: "Color"))]),
            Node(id: "c2", type: "HStack", children: [Node(id: "c2-a", type: "Text")]),
        ])

    static let transforms: [Transform] = [
        .add(10), .add(-1.5), .multiply(2), .append([1, "a", .null]), .merge(["a": 1, "b": ["c": 2]]), .set(.null),
        .set(["x": 1]), .reduce(5), .reduce("s"),
    ]

    static let sampleOps: [Op] =
        [
            .insert(parent: "root", node: Node(id: "a", type: "Text"), position: .end),
            .insert(parent: "root", node: attachedTree, position: .index(0)),
            .insert(parent: "root", node: attachedTree, position: .index(7)),
            .insert(parent: "root", node: attachedTree, position: .after("x")),
            .insert(parent: "root", node: attachedTree, position: .before("y")),
            .remove(node: "a"),
            .move(node: "a", parent: "p", position: .end),
            .move(node: "a", parent: "p", position: .index(1)),
            .move(node: "a", parent: "p", position: .after("b")),
            .move(node: "a", parent: "p", position: .before("b")),
            .setProps(node: "a", props: [:]),
            .setProps(node: "a", props: ["text": "hi", "gone": .null, "n": 1.25]),
            .setModifiers(node: "a", modifiers: []),
            .setModifiers(node: "a", modifiers: attachedTree.modifiers),
            .setPreference(node: "a", key: "K", value: .null),
            .setPreference(node: "a", key: "K", value: ["priority": 1, "content": "x"]),
            .removePreference(node: "a", key: "K"),
        ]
        + Reducer.allCases.map { .declareKey(KeyDeclaration(key: "K-\($0.rawValue)", reducer: $0, defaultValue: .null)) }
        + transforms.map { .setModifiers(node: "a", modifiers: [.transformPreference(key: "K", transform: $0)]) }

    @Test(arguments: sampleOps)
    func everyOpSurvivesARoundTrip(op: Op) throws {
        #expect(try Op(json: op.json) == op)
    }

    @Test(arguments: attachedTree.modifiers + transforms.map { .transformPreference(key: "T", transform: $0) })
    func everyModifierSurvivesARoundTrip(modifier: Modifier) throws {
        #expect(try Modifier(json: modifier.json) == modifier)
    }

    @Test func aNestedTreeWithAttachedSubtreesSurvivesARoundTrip() throws {
        let tree = WireCodingTests.attachedTree
        #expect(try Node(json: tree.json) == tree)
        #expect(try Node(json: tree.json).json == tree.json)
    }

    @Test func aBatchOfOpsSurvivesARoundTrip() throws {
        let ops = WireCodingTests.sampleOps
        #expect(try [Op](json: .array(ops.map(\.json))) == ops)
        #expect(try [Op](json: []) == [])
    }

    // MARK: Strictness

    @Test(arguments: malformed)
    func malformedInputIsRejectedAsBadMessage(_ input: Malformed) {
        do throws(CanopyError) {
            try input.decode()
            Issue.record("expected \(input.label) to be rejected")
        } catch {
            #expect(error.code == .badMessage)
            #expect(error.op == nil)
            #expect(error.message.contains(input.mentions), "message was: \(error.message)")
        }
    }

    @Test func aNegativeIndexIsNamedInTheMessage() {
        let j: JSON = ["op": "insert", "parent": "root", "node": ["id": "a", "type": "Text"], "index": -1]
        #expect(throws: CanopyError(.badMessage, "insert: \"index\" must be a non-negative integer, got -1")) {
            try Op(json: j)
        }
    }

    @Test func anUnknownOpListsTheKnownOps() {
        #expect(
            throws: CanopyError(
                .badMessage,
                "unknown op \"frob\" (expected insert, remove, move, setProps, setModifiers, setPreference, "
                    + "removePreference, declareKey)")
        ) { try Op(json: ["op": "frob"]) }
    }

    @Test func anUnknownReducerListsTheKnownReducers() {
        #expect(
            throws: CanopyError(
                .badMessage,
                "declareKey: unknown reducer \"foo\" (expected last, first, sum, max, min, and, or, append, merge, "
                    + "firstNonNull, priority, nest)")
        ) { try Op(json: ["op": "declareKey", "key": "K", "reducer": "foo", "default": 0]) }
    }

    @Test func aTypoInANodeFieldIsNamedWithTheNodeID() {
        let j: JSON = ["op": "insert", "parent": "root", "node": ["id": "a", "type": "Text", "modifers": []]]
        #expect(
            throws: CanopyError(
                .badMessage,
                "insert: node \"a\": unknown field \"modifers\" (allowed: id, type, props, modifiers, children)")
        ) { try Op(json: j) }
    }

    @Test func twoPositionsAreRejectedNamingBoth() {
        let j: JSON = ["op": "move", "node": "a", "parent": "p", "index": 0, "after": "b"]
        #expect(
            throws: CanopyError(
                .badMessage, "move: give at most one of \"index\", \"after\", \"before\" (got \"index\", \"after\")")
        ) { try Op(json: j) }
    }

    @Test func errorsDeepInsideATreeSayWhereTheyAre() {
        let badChild: JSON = ["id": "p", "type": "VStack", "children": [["id": "ok", "type": "Text"], ["type": "Text"]]]
        #expect(
            throws: CanopyError(.badMessage, "node \"p\": child 1: node: missing \"id\" (expected a non-empty string)")
        ) { try Node(json: badChild) }

        let badGrandchild: JSON = [
            "id": "p", "type": "VStack", "children": [["id": "c", "type": "Text", "props": []]],
        ]
        #expect(throws: CanopyError(.badMessage, "node \"c\": \"props\" must be an object, got an array")) {
            try Node(json: badGrandchild)
        }

        let badModifier: JSON = [
            "id": "p", "type": "VStack",
            "modifiers": [["kind": "hidden"], ["kind": "background", "node": ["id": "bg", "type": ""]]],
        ]
        #expect(
            throws: CanopyError(
                .badMessage, "node \"p\": modifier 1: background: node \"bg\": \"type\" must be a non-empty string, "
                    + "got an empty string")
        ) { try Node(json: badModifier) }

        let badTransform: JSON = [
            "op": "setModifiers", "node": "a",
            "modifiers": [["kind": "transformPreference", "key": "K", "transform": ["add": "1"]]],
        ]
        #expect(
            throws: CanopyError(
                .badMessage, "setModifiers: modifier 0: transformPreference: \"transform\": transform \"add\" takes a number")
        ) { try Op(json: badTransform) }
    }

    @Test func aBatchErrorIsPrefixedWithTheOpIndexAndCarriesIt() {
        let j: JSON = [
            ["op": "remove", "node": "a"],
            ["op": "remove", "node": "b"],
            ["op": "remove", "node": "c"],
            ["op": "remove", "nod": "d"],
        ]
        #expect(
            throws: CanopyError(.badMessage, "op 3: remove: unknown field \"nod\" (allowed: op, node)", op: 3)
        ) { try [Op](json: j) }
    }

    @Test func aBatchThatIsNotAnArrayIsRejectedWithoutAnOpIndex() {
        #expect(throws: CanopyError(.badMessage, "ops must be an array, got an object")) {
            try [Op](json: ["op": "remove", "node": "a"])
        }
    }
}

extension WireCodingTests {
/// A malformed wire value and a fragment its error message must contain.
struct Malformed: Sendable, CustomTestStringConvertible {
    enum Target: Sendable { case op, node, modifier, keyDeclaration, ops }

    let label: String
    let target: Target
    let json: JSON
    let mentions: String

    init(_ label: String, _ json: JSON, mentions: String) {
        self.init(label, .op, json, mentions: mentions)
    }

    init(_ label: String, _ target: Target, _ json: JSON, mentions: String) {
        self.label = label
        self.target = target
        self.json = json
        self.mentions = mentions
    }

    var testDescription: String { label }

    func decode() throws(CanopyError) {
        switch target {
        case .op: _ = try Op(json: json)
        case .node: _ = try Node(json: json)
        case .modifier: _ = try Modifier(json: json)
        case .keyDeclaration: _ = try KeyDeclaration(json: json)
        case .ops: _ = try [Op](json: json)
        }
    }
}

private static let text: JSON = ["id": "a", "type": "Text"]

static let malformed: [Malformed] = [
    // Ops: shape and discriminator
    Malformed("op that is not an object", ["insert"], mentions: "an op must be an object, got an array"),
    Malformed("op without op field", ["node": "a"], mentions: "missing \"op\""),
    Malformed("op field that is a number", ["op": 1, "node": "a"], mentions: "\"op\" must be a string, got 1"),
    Malformed("unknown op", ["op": "frob"], mentions: "unknown op \"frob\""),
    Malformed("op name in the wrong case", ["op": "Insert", "parent": "root", "node": text], mentions: "unknown op"),
    // insert
    Malformed("insert without parent", ["op": "insert", "node": text], mentions: "insert: missing \"parent\""),
    Malformed("insert without node", ["op": "insert", "parent": "root"], mentions: "insert: missing \"node\""),
    Malformed("insert with a string node", ["op": "insert", "parent": "root", "node": "a"],
              mentions: "insert: \"node\" must be a node object, got string \"a\""),
    Malformed("insert with a null node", ["op": "insert", "parent": "root", "node": .null],
              mentions: "\"node\" must be a node object, got null"),
    Malformed("insert with a numeric parent", ["op": "insert", "parent": 1, "node": text],
              mentions: "\"parent\" must be a non-empty string, got 1"),
    Malformed("insert with an empty parent", ["op": "insert", "parent": "", "node": text],
              mentions: "\"parent\" must be a non-empty string, got an empty string"),
    Malformed("insert with a negative index", ["op": "insert", "parent": "root", "node": text, "index": -1],
              mentions: "insert: \"index\" must be a non-negative integer"),
    Malformed("insert with a fractional index", ["op": "insert", "parent": "root", "node": text, "index": 1.5],
              mentions: "\"index\" must be a non-negative integer, got 1.5"),
    Malformed("insert with a negative integral double index",
              ["op": "insert", "parent": "root", "node": text, "index": -2.0],
              mentions: "\"index\" must be a non-negative integer"),
    Malformed("insert with a huge index", ["op": "insert", "parent": "root", "node": text, "index": 1e300],
              mentions: "\"index\" must be a non-negative integer"),
    Malformed("insert with a string index", ["op": "insert", "parent": "root", "node": text, "index": "2"],
              mentions: "\"index\" must be a non-negative integer, got string \"2\""),
    Malformed("insert with a null index", ["op": "insert", "parent": "root", "node": text, "index": .null],
              mentions: "\"index\" must be a non-negative integer, got null"),
    Malformed("insert with after and before",
              ["op": "insert", "parent": "root", "node": text, "after": "x", "before": "y"],
              mentions: "give at most one of"),
    Malformed("insert with all three positions",
              ["op": "insert", "parent": "root", "node": text, "index": 0, "after": "x", "before": "y"],
              mentions: "(got \"index\", \"after\", \"before\")"),
    Malformed("insert with a numeric after", ["op": "insert", "parent": "root", "node": text, "after": 3],
              mentions: "\"after\" must be a non-empty string, got 3"),
    Malformed("insert with an empty before", ["op": "insert", "parent": "root", "node": text, "before": ""],
              mentions: "\"before\" must be a non-empty string"),
    Malformed("insert with an unknown field", ["op": "insert", "parent": "root", "node": text, "position": 1],
              mentions: "insert: unknown field \"position\" (allowed: op, parent, node, index, after, before)"),
    Malformed("insert of a node with an empty id", ["op": "insert", "parent": "root", "node": ["id": "", "type": "T"]],
              mentions: "insert: node: \"id\" must be a non-empty string, got an empty string"),
    // remove, move
    Malformed("remove without node", ["op": "remove"], mentions: "remove: missing \"node\""),
    Malformed("remove with a node object", ["op": "remove", "node": text],
              mentions: "remove: \"node\" must be a non-empty string, got an object"),
    Malformed("remove with an extra field", ["op": "remove", "node": "a", "parent": "root"],
              mentions: "remove: unknown field \"parent\""),
    Malformed("move without parent", ["op": "move", "node": "a"], mentions: "move: missing \"parent\""),
    Malformed("move with two positions", ["op": "move", "node": "a", "parent": "p", "index": 1, "before": "b"],
              mentions: "move: give at most one of"),
    Malformed("move with a fractional index", ["op": "move", "node": "a", "parent": "p", "index": 0.5],
              mentions: "move: \"index\" must be a non-negative integer"),
    // setProps, setModifiers
    Malformed("setProps without props", ["op": "setProps", "node": "a"], mentions: "setProps: missing \"props\""),
    Malformed("setProps with array props", ["op": "setProps", "node": "a", "props": [1]],
              mentions: "setProps: \"props\" must be an object, got an array"),
    Malformed("setProps with null props", ["op": "setProps", "node": "a", "props": .null],
              mentions: "\"props\" must be an object, got null"),
    Malformed("setModifiers without modifiers", ["op": "setModifiers", "node": "a"],
              mentions: "setModifiers: missing \"modifiers\""),
    Malformed("setModifiers with an object", ["op": "setModifiers", "node": "a", "modifiers": ["kind": "hidden"]],
              mentions: "\"modifiers\" must be an array, got an object"),
    Malformed("setModifiers with a string modifier", ["op": "setModifiers", "node": "a", "modifiers": ["hidden"]],
              mentions: "setModifiers: modifier 0: a modifier must be an object, got string \"hidden\""),
    Malformed("setModifiers typo", ["op": "setModifiers", "node": "a", "modifers": []],
              mentions: "setModifiers: unknown field \"modifers\""),
    // setPreference, removePreference
    Malformed("setPreference without value", ["op": "setPreference", "node": "a", "key": "K"],
              mentions: "setPreference: missing \"value\""),
    Malformed("setPreference with an empty key", ["op": "setPreference", "node": "a", "key": "", "value": 1],
              mentions: "\"key\" must be a non-empty string"),
    Malformed("removePreference without key", ["op": "removePreference", "node": "a"],
              mentions: "removePreference: missing \"key\""),
    Malformed("removePreference with a value", ["op": "removePreference", "node": "a", "key": "K", "value": 1],
              mentions: "removePreference: unknown field \"value\""),
    // declareKey
    Malformed("declareKey with an unknown reducer", ["op": "declareKey", "key": "K", "reducer": "foo", "default": 0],
              mentions: "declareKey: unknown reducer \"foo\" (expected last, first, sum"),
    Malformed("declareKey with a numeric reducer", ["op": "declareKey", "key": "K", "reducer": 1, "default": 0],
              mentions: "\"reducer\" must be a string, got 1"),
    Malformed("declareKey without default", ["op": "declareKey", "key": "K", "reducer": "sum"],
              mentions: "declareKey: missing \"default\""),
    Malformed("declareKey without key", ["op": "declareKey", "reducer": "sum", "default": 0],
              mentions: "declareKey: missing \"key\""),
    Malformed("declareKey with a node field", ["op": "declareKey", "key": "K", "reducer": "sum", "default": 0, "node": "a"],
              mentions: "declareKey: unknown field \"node\" (allowed: op, key, reducer, default, swift)"),
    // Nodes
    Malformed("node that is a string", .node, "a", mentions: "a node must be an object, got string \"a\""),
    Malformed("node without id", .node, ["type": "Text"], mentions: "node: missing \"id\""),
    Malformed("node with an empty id", .node, ["id": "", "type": "Text"],
              mentions: "node: \"id\" must be a non-empty string, got an empty string"),
    Malformed("node with a numeric id", .node, ["id": 1, "type": "Text"], mentions: "\"id\" must be a non-empty string, got 1"),
    Malformed("node without type", .node, ["id": "a"], mentions: "node \"a\": missing \"type\""),
    Malformed("node with an empty type", .node, ["id": "a", "type": ""], mentions: "node \"a\": \"type\" must be a non-empty string"),
    Malformed("node with array props", .node, ["id": "a", "type": "T", "props": [1]],
              mentions: "node \"a\": \"props\" must be an object, got an array"),
    Malformed("node with null modifiers", .node, ["id": "a", "type": "T", "modifiers": .null],
              mentions: "node \"a\": \"modifiers\" must be an array, got null"),
    Malformed("node with object children", .node, ["id": "a", "type": "T", "children": ["id": "b"]],
              mentions: "node \"a\": \"children\" must be an array, got an object"),
    Malformed("node with a non-object child", .node, ["id": "a", "type": "T", "children": [1]],
              mentions: "node \"a\": child 0: a node must be an object, got 1"),
    Malformed("node with a misspelled field", .node, ["id": "a", "type": "T", "modifers": []],
              mentions: "node \"a\": unknown field \"modifers\""),
    Malformed("node with a bad grandchild", .node,
              ["id": "a", "type": "T", "children": [["id": "b", "type": "T", "children": [["id": "c", "type": "T", "x": 1]]]]],
              mentions: "node \"c\": unknown field \"x\""),
    // Modifiers
    Malformed("modifier that is an array", .modifier, [], mentions: "a modifier must be an object, got an array"),
    Malformed("modifier without kind", .modifier, ["key": "K"], mentions: "modifier: missing \"kind\""),
    Malformed("modifier with an empty kind", .modifier, ["kind": ""], mentions: "\"kind\" must be a non-empty string"),
    Malformed("modifier with a numeric kind", .modifier, ["kind": 3], mentions: "\"kind\" must be a non-empty string, got 3"),
    Malformed("preference without value", .modifier, ["kind": "preference", "key": "K"],
              mentions: "preference: missing \"value\""),
    Malformed("preference without key", .modifier, ["kind": "preference", "value": 1],
              mentions: "preference: missing \"key\""),
    Malformed("preference with an extra field", .modifier, ["kind": "preference", "key": "K", "value": 1, "args": [:]],
              mentions: "preference: unknown field \"args\""),
    Malformed("transformPreference without transform", .modifier, ["kind": "transformPreference", "key": "K"],
              mentions: "transformPreference: missing \"transform\""),
    Malformed("transformPreference with an unknown transform", .modifier,
              ["kind": "transformPreference", "key": "K", "transform": ["subtract": 1]],
              mentions: "unknown transform \"subtract\""),
    Malformed("transformPreference with two transforms", .modifier,
              ["kind": "transformPreference", "key": "K", "transform": ["add": 1, "multiply": 2]],
              mentions: "exactly one of"),
    Malformed("onPreferenceChange with an empty key", .modifier, ["kind": "onPreferenceChange", "key": ""],
              mentions: "onPreferenceChange: \"key\" must be a non-empty string"),
    Malformed("background without node", .modifier, ["kind": "background"], mentions: "background: missing \"node\""),
    Malformed("overlay with a string node", .modifier, ["kind": "overlay", "node": "a"],
              mentions: "overlay: \"node\" must be a node object, got string \"a\""),
    Malformed("background with a bad node", .modifier, ["kind": "background", "node": ["id": "bg"]],
              mentions: "background: node \"bg\": missing \"type\""),
    Malformed("other kind with array args", .modifier, ["kind": "padding", "args": [8]],
              mentions: "padding: \"args\" must be an object, got an array"),
    Malformed("other kind with a field besides args", .modifier, ["kind": "padding", "all": 8],
              mentions: "padding: unknown field \"all\" (allowed: kind, args)"),
    // Key declarations
    Malformed("key declaration that is null", .keyDeclaration, .null, mentions: "a key declaration must be an object, got null"),
    Malformed("key declaration with an unknown reducer", .keyDeclaration, ["key": "K", "reducer": "Sum", "default": 0],
              mentions: "key declaration: unknown reducer \"Sum\""),
    Malformed("key declaration without default", .keyDeclaration, ["key": "K", "reducer": "sum"],
              mentions: "key declaration: missing \"default\""),
    Malformed("key declaration with an empty key", .keyDeclaration, ["key": "", "reducer": "sum", "default": 0],
              mentions: "\"key\" must be a non-empty string"),
    Malformed("key declaration with an op field", .keyDeclaration, ["op": "declareKey", "key": "K", "reducer": "sum", "default": 0],
              mentions: "key declaration: unknown field \"op\""),
    // Batches (errors without an op index)
    Malformed("batch that is a string", .ops, "insert", mentions: "ops must be an array, got string \"insert\""),
]
}
