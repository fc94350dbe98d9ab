/// Where an inserted or moved node goes among its new siblings.
public enum Position: Sendable, Equatable {
    /// After the last child.
    case end
    /// At this index, counted among the parent's children at the moment the op applies (for `move`, after the
    /// moved node has been taken out).
    case index(Int)
    case after(String)
    case before(String)
}

/// An edit operation (PROTOCOL.md, "Ops"). A batch of ops applies atomically.
public enum Op: Sendable, Equatable {
    case insert(parent: String, node: Node, position: Position)
    case remove(node: String)
    case move(node: String, parent: String, position: Position)
    /// Merges into the node's props; a `null` value deletes that prop.
    case setProps(node: String, props: JSONObject)
    case setModifiers(node: String, modifiers: [Modifier])
    case setPreference(node: String, key: String, value: JSON)
    case removePreference(node: String, key: String)
    case declareKey(KeyDeclaration)

    /// The op's name on the wire.
    public var name: String {
        switch self {
        case .insert: return "insert"
        case .remove: return "remove"
        case .move: return "move"
        case .setProps: return "setProps"
        case .setModifiers: return "setModifiers"
        case .setPreference: return "setPreference"
        case .removePreference: return "removePreference"
        case .declareKey: return "declareKey"
        }
    }
}
