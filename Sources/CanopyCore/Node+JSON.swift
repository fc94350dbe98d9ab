// Wire-format coding of nodes, modifiers, key declarations and ops (PROTOCOL.md, "Nodes, keys, modifiers" and
// "Ops"). Decoding is strict: every failure is `bad_message` with a message naming the field and what was expected,
// and unknown fields are rejected so that typos ("modifers") do not pass silently. Encoding writes every field in a
// fixed order, so it is the normalized form.

// MARK: - Node

extension Node {
    fileprivate static let wireFields = ["id", "type", "props", "modifiers", "children"]

    /// Decodes `{"id","type","props","modifiers","children"}`; `props`, `modifiers` and `children` may be omitted.
    public init(json: JSON) throws(CanopyError) {
        var (node, childItems) = try Node.decodeHead(json)
        node.children.reserveCapacity(childItems.count)
        for (i, child) in childItems.enumerated() {
            node.children.append(
                try Node.decodingChild(child, index: i, of: node.id) { j throws(CanopyError) in try Node(json: j) })
        }
        self = node
    }

    /// Decodes a node but not its children: the node (with no children) and its children's wire form, each to be
    /// decoded with `decodingChild` (a tree built node by node, `Tree(keys:rootJSON:…)`, uses this).
    static func decodeHead(_ json: JSON) throws(CanopyError) -> (Node, [JSON]) {
        guard let object = json.object else { throw wireError("a node must be an object, got \(describe(json))") }
        var fields = WireFields(object, prefix: "node: ")
        let id = try fields.name("id")
        fields.node = id
        try fields.rejectUnknown(allowed: Node.wireFields)
        let type = try fields.name("type")
        let props = try fields.optionalObject("props")
        let modifiers = try decodeModifiers(try fields.optionalArray("modifiers"), prefix: fields.prefix)
        let children = try fields.optionalArray("children")
        return (Node(id: id, type: type, props: props, modifiers: modifiers), children)
    }

    /// Child `index` of node `parent` decoded by `decode`. A child with an id of its own names itself in its
    /// messages (ids are unique in a tree); one without is named by its parent and index.
    static func decodingChild<T>(
        _ child: JSON, index: Int, of parent: String, _ decode: (JSON) throws(CanopyError) -> T
    ) throws(CanopyError) -> T {
        if let childID = child["id"]?.string, !childID.isEmpty { return try decode(child) }
        do throws(CanopyError) {
            return try decode(child)
        } catch {
            throw wireError("node \(quoted(parent)): child \(index): " + error.message)
        }
    }

    /// All five fields, in wire order (empty `props`, `modifiers` and `children` included).
    public var json: JSON {
        var members: [(key: String, value: JSON)] = []
        members.reserveCapacity(5)
        members.append((key: "id", value: .string(id)))
        members.append((key: "type", value: .string(type)))
        members.append((key: "props", value: .object(props)))
        members.append((key: "modifiers", value: .array(modifiers.map(\.json))))
        members.append((key: "children", value: .array(children.map(\.json))))
        return .object(JSONObject(members))
    }
}

// MARK: - Modifier

extension Modifier {
    /// Decodes one modifier; a `kind` other than the five known ones is kept as `.other` with its optional `args`.
    public init(json: JSON) throws(CanopyError) {
        guard let object = json.object else { throw wireError("a modifier must be an object, got \(describe(json))") }
        var fields = WireFields(object, prefix: "modifier: ")
        let kind = try fields.name("kind")
        fields.prefix = "\(kind): "
        switch kind {
        case "preference":
            try fields.rejectUnknown(allowed: ["kind", "key", "value"])
            let key = try fields.name("key")
            let value = try fields.value("value", expected: "a JSON value; null is allowed")
            self = .preference(key: key, value: value)
        case "transformPreference":
            try fields.rejectUnknown(allowed: ["kind", "key", "transform"])
            let key = try fields.name("key")
            let body = try fields.value("transform", expected: "an object such as {\"add\": 1}")
            do throws(CanopyError) {
                self = .transformPreference(key: key, transform: try Transform(json: body))
            } catch {
                throw wireError(fields.prefix + "\"transform\": " + error.message)
            }
        case "onPreferenceChange":
            try fields.rejectUnknown(allowed: ["kind", "key"])
            self = .onPreferenceChange(key: try fields.name("key"))
        case "background", "overlay":
            try fields.rejectUnknown(allowed: ["kind", "node"])
            let node = try fields.node("node")
            self = kind == "background" ? .background(node) : .overlay(node)
        default:
            try fields.rejectUnknown(allowed: ["kind", "args"])
            self = .other(kind: kind, args: try fields.optionalObject("args"))
        }
    }

    public var json: JSON {
        switch self {
        case .preference(let key, let value):
            return ["kind": "preference", "key": .string(key), "value": value]
        case .transformPreference(let key, let transform):
            return ["kind": "transformPreference", "key": .string(key), "transform": transform.json]
        case .onPreferenceChange(let key):
            return ["kind": "onPreferenceChange", "key": .string(key)]
        case .background(let node):
            return ["kind": "background", "node": node.json]
        case .overlay(let node):
            return ["kind": "overlay", "node": node.json]
        case .other(let kind, let args):
            return ["kind": .string(kind), "args": .object(args)]
        }
    }
}

// MARK: - KeyDeclaration

extension KeyDeclaration {
    /// Decodes `{"key","reducer","default"}` or `{"key","swift"}` (an uncompiled declaration, which the tree
    /// compiles). The default is not type-checked here; `validate()` does that.
    public init(json: JSON) throws(CanopyError) {
        guard let object = json.object else {
            throw wireError("a key declaration must be an object, got \(describe(json))")
        }
        let fields = WireFields(object, prefix: "key declaration: ")
        try fields.rejectUnknown(allowed: ["key", "reducer", "default", "swift"])
        self = try KeyDeclaration(fields: fields)
    }

    /// Reads `key` and either `reducer` and `default` or `swift` from `fields` (unknown fields are the caller's
    /// to reject).
    fileprivate init(fields: WireFields) throws(CanopyError) {
        let key = try fields.name("key")
        if let swift = fields.object["swift"] {
            guard fields.object["reducer"] == nil && fields.object["default"] == nil else {
                throw wireError(
                    fields.prefix + "a Swift key has no \"reducer\" or \"default\" (its source declares both)")
            }
            guard let source = swift.string else {
                throw wireError(fields.prefix + "\"swift\" must be the key's Swift source, got \(describe(swift))")
            }
            self.init(key: key, swift: source)
            return
        }
        let reducerValue = try fields.value("reducer", expected: "one of \(reducerNames)")
        guard let reducerName = reducerValue.string else {
            throw wireError(fields.prefix + "\"reducer\" must be a string, got \(describe(reducerValue))")
        }
        guard let reducer = Reducer(rawValue: reducerName) else {
            throw wireError(fields.prefix + "unknown reducer \(quoted(reducerName)) (expected \(reducerNames))")
        }
        let defaultValue = try fields.value("default", expected: "the key's default value; null is allowed")
        self.init(key: key, reducer: reducer, defaultValue: defaultValue)
    }

    /// `key`, `reducer`, `default`, in wire order; `key`, `swift` for a Swift key (so a restored snapshot
    /// recompiles it).
    fileprivate var wireMembers: [(key: String, value: JSON)] {
        switch reducer {
        case .catalog(let r):
            return [(key: "key", value: .string(key)), (key: "reducer", value: .string(r.rawValue)),
                    (key: "default", value: defaultValue)]
        case .custom(let c):
            return [(key: "key", value: .string(key)), (key: "swift", value: .string(c.source))]
        case .uncompiled(let source):
            return [(key: "key", value: .string(key)), (key: "swift", value: .string(source))]
        }
    }

    public var json: JSON { .object(JSONObject(wireMembers)) }
}

private let reducerNames = Reducer.allCases.map(\.rawValue).joined(separator: ", ")

// MARK: - Position

extension Position {
    fileprivate static let wireFields = ["index", "after", "before"]

    /// Reads at most one of `index` (a non-negative integer), `after`, `before` (sibling ids); none is `.end`.
    fileprivate init(fields: WireFields) throws(CanopyError) {
        let present = Position.wireFields.filter { fields.object[$0] != nil }
        guard present.count <= 1 else {
            let names = present.map { quoted($0) }.joined(separator: ", ")
            throw wireError(fields.prefix + "give at most one of \"index\", \"after\", \"before\" (got \(names))")
        }
        switch present.first {
        case nil:
            self = .end
        case "index"?:
            let value = fields.object["index"] ?? .null
            guard let index = Position.wireIndex(value) else {
                throw wireError(fields.prefix + "\"index\" must be a non-negative integer, got \(describe(value))")
            }
            self = .index(index)
        case "after"?:
            self = .after(try fields.name("after"))
        default:
            self = .before(try fields.name("before"))
        }
    }

    /// A non-negative integer, given as an integer or an integral double (`2.0`).
    fileprivate static func wireIndex(_ value: JSON) -> Int? {
        switch value {
        case .int(let i):
            guard i >= 0 else { return nil }
            return Int(exactly: i)
        case .double(let d):
            guard d >= 0, let i = Int(exactly: d) else { return nil }
            return i
        default:
            return nil
        }
    }

    /// The single wire field for this position, or `nil` for `.end`.
    var wireMember: (key: String, value: JSON)? {
        switch self {
        case .end: return nil
        case .index(let i): return (key: "index", value: .int(Int64(i)))
        case .after(let id): return (key: "after", value: .string(id))
        case .before(let id): return (key: "before", value: .string(id))
        }
    }
}

// MARK: - Op

extension Op {
    fileprivate static let wireNames = [
        "insert", "remove", "move", "setProps", "setModifiers", "setPreference", "removePreference", "declareKey",
    ]

    /// Decodes one op; the discriminator is `"op"`.
    public init(json: JSON) throws(CanopyError) {
        let expected = Op.wireNames.joined(separator: ", ")
        guard let object = json.object else { throw wireError("an op must be an object, got \(describe(json))") }
        guard let nameValue = object["op"] else { throw wireError("missing \"op\" (expected one of \(expected))") }
        guard let name = nameValue.string else {
            throw wireError("\"op\" must be a string, got \(describe(nameValue)) (expected one of \(expected))")
        }
        let fields = WireFields(object, prefix: "\(name): ")
        switch name {
        case "insert":
            try fields.rejectUnknown(allowed: ["op", "parent", "node"] + Position.wireFields)
            let parent = try fields.name("parent")
            let node = try fields.node("node")
            self = .insert(parent: parent, node: node, position: try Position(fields: fields))
        case "remove":
            try fields.rejectUnknown(allowed: ["op", "node"])
            self = .remove(node: try fields.name("node"))
        case "move":
            try fields.rejectUnknown(allowed: ["op", "node", "parent"] + Position.wireFields)
            let node = try fields.name("node")
            let parent = try fields.name("parent")
            self = .move(node: node, parent: parent, position: try Position(fields: fields))
        case "setProps":
            try fields.rejectUnknown(allowed: ["op", "node", "props"])
            let node = try fields.name("node")
            self = .setProps(node: node, props: try fields.requiredObject("props"))
        case "setModifiers":
            try fields.rejectUnknown(allowed: ["op", "node", "modifiers"])
            let node = try fields.name("node")
            let modifiers = try decodeModifiers(try fields.requiredArray("modifiers"), prefix: fields.prefix)
            self = .setModifiers(node: node, modifiers: modifiers)
        case "setPreference":
            try fields.rejectUnknown(allowed: ["op", "node", "key", "value"])
            let node = try fields.name("node")
            let key = try fields.name("key")
            let value = try fields.value("value", expected: "a JSON value; null is allowed")
            self = .setPreference(node: node, key: key, value: value)
        case "removePreference":
            try fields.rejectUnknown(allowed: ["op", "node", "key"])
            let node = try fields.name("node")
            self = .removePreference(node: node, key: try fields.name("key"))
        case "declareKey":
            try fields.rejectUnknown(allowed: ["op", "key", "reducer", "default", "swift"])
            self = .declareKey(try KeyDeclaration(fields: fields))
        default:
            throw wireError("unknown op \(quoted(name)) (expected \(expected))")
        }
    }

    /// `op` first, then the op's fields in protocol order; `.end` writes no position field.
    public var json: JSON {
        var members: [(key: String, value: JSON)] = [(key: "op", value: .string(name))]
        switch self {
        case .insert(let parent, let node, let position):
            members.append((key: "parent", value: .string(parent)))
            members.append((key: "node", value: node.json))
            if let p = position.wireMember { members.append(p) }
        case .remove(let node):
            members.append((key: "node", value: .string(node)))
        case .move(let node, let parent, let position):
            members.append((key: "node", value: .string(node)))
            members.append((key: "parent", value: .string(parent)))
            if let p = position.wireMember { members.append(p) }
        case .setProps(let node, let props):
            members.append((key: "node", value: .string(node)))
            members.append((key: "props", value: .object(props)))
        case .setModifiers(let node, let modifiers):
            members.append((key: "node", value: .string(node)))
            members.append((key: "modifiers", value: .array(modifiers.map(\.json))))
        case .setPreference(let node, let key, let value):
            members.append((key: "node", value: .string(node)))
            members.append((key: "key", value: .string(key)))
            members.append((key: "value", value: value))
        case .removePreference(let node, let key):
            members.append((key: "node", value: .string(node)))
            members.append((key: "key", value: .string(key)))
        case .declareKey(let declaration):
            members.append(contentsOf: declaration.wireMembers)
        }
        return .object(JSONObject(members))
    }
}

extension Array where Element == Op {
    /// Decodes a batch. A failure's message is prefixed with `op <index>: ` and its `op` field is that index.
    public init(json: JSON) throws(CanopyError) {
        guard let items = json.array else { throw wireError("ops must be an array, got \(describe(json))") }
        var ops: [Op] = []
        ops.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            do throws(CanopyError) {
                ops.append(try Op(json: item))
            } catch {
                throw CanopyError(error.code, "op \(i): " + error.message, op: i)
            }
        }
        self = ops
    }
}

// MARK: - Helpers

/// The members of one wire object, read with messages prefixed by `prefix` (e.g. `insert: `).
private struct WireFields {
    let object: JSONObject
    private var context: String
    /// The id of the node these fields belong to, once read: the prefix then names it. Kept as the id and quoted
    /// only when a message is made: a snapshot of a million nodes must not build a million prefixes it never shows.
    var node: String?

    init(_ object: JSONObject, prefix: String) {
        self.object = object
        self.context = prefix
    }

    var prefix: String {
        get { node.map { "node \(quoted($0)): " } ?? context }
        set {
            context = newValue
            node = nil
        }
    }

    /// Throws for the first member whose name is not in `allowed`.
    func rejectUnknown(allowed: [String]) throws(CanopyError) {
        for key in object.keys where !allowed.contains(key) {
            throw wireError(
                prefix + "unknown field \(quoted(key)) (allowed: \(allowed.joined(separator: ", ")))")
        }
    }

    /// A required member of any type (`null` included).
    func value(_ field: String, expected: String) throws(CanopyError) -> JSON {
        guard let value = object[field] else { throw wireError(prefix + "missing \"\(field)\" (expected \(expected))") }
        return value
    }

    /// A required non-empty string: an id, a type, a key or a kind.
    func name(_ field: String) throws(CanopyError) -> String {
        let value = try value(field, expected: "a non-empty string")
        guard let s = value.string, !s.isEmpty else {
            throw wireError(prefix + "\"\(field)\" must be a non-empty string, got \(describe(value))")
        }
        return s
    }

    func requiredObject(_ field: String) throws(CanopyError) -> JSONObject {
        let value = try value(field, expected: "an object")
        guard let o = value.object else {
            throw wireError(prefix + "\"\(field)\" must be an object, got \(describe(value))")
        }
        return o
    }

    func requiredArray(_ field: String) throws(CanopyError) -> [JSON] {
        let value = try value(field, expected: "an array")
        guard let a = value.array else {
            throw wireError(prefix + "\"\(field)\" must be an array, got \(describe(value))")
        }
        return a
    }

    /// An object that may be omitted (then empty); `null` is not accepted as "omitted".
    func optionalObject(_ field: String) throws(CanopyError) -> JSONObject {
        object[field] == nil ? JSONObject() : try requiredObject(field)
    }

    /// An array that may be omitted (then empty); `null` is not accepted as "omitted".
    func optionalArray(_ field: String) throws(CanopyError) -> [JSON] {
        object[field] == nil ? [] : try requiredArray(field)
    }

    /// A required node (a whole subtree); its own errors are prefixed with this object's context.
    func node(_ field: String) throws(CanopyError) -> Node {
        let value = try value(field, expected: "a node object")
        guard value.object != nil else {
            throw wireError(prefix + "\"\(field)\" must be a node object, got \(describe(value))")
        }
        do throws(CanopyError) {
            return try Node(json: value)
        } catch {
            throw wireError(prefix + error.message)
        }
    }
}

/// Decodes a modifier chain, prefixing each failure with `prefix` and the modifier's index.
private func decodeModifiers(_ items: [JSON], prefix: @autoclosure () -> String) throws(CanopyError) -> [Modifier] {
    var modifiers: [Modifier] = []
    modifiers.reserveCapacity(items.count)
    for (i, item) in items.enumerated() {
        do throws(CanopyError) {
            modifiers.append(try Modifier(json: item))
        } catch {
            throw wireError(prefix() + "modifier \(i): " + error.message)
        }
    }
    return modifiers
}

private func wireError(_ message: String) -> CanopyError {
    CanopyError(.badMessage, message)
}

/// `"text"`, with quotes and backslashes escaped and long text shortened.
private func quoted(_ text: String) -> String {
    var shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
    shown = shown.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
    return "\"" + shown + "\""
}

/// A short description of a value that was not what a field expects.
private func describe(_ value: JSON) -> String {
    switch value {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .int(let i): return String(i)
    case .double(let d): return String(d)
    case .string(let s): return s.isEmpty ? "an empty string" : "string " + quoted(s)
    case .array: return "an array"
    case .object: return "an object"
    }
}
