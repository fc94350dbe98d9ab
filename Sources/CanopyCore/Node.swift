/// A node as it travels in messages and snapshots: a whole subtree, value-typed.
public struct Node: Sendable, Equatable {
    public var id: String
    public var type: String
    public var props: JSONObject
    /// Innermost first, in the order SwiftUI code applies them.
    public var modifiers: [Modifier]
    public var children: [Node]

    public init(
        id: String, type: String, props: JSONObject = [:], modifiers: [Modifier] = [], children: [Node] = []
    ) {
        self.id = id
        self.type = type
        self.props = props
        self.modifiers = modifiers
        self.children = children
    }

    /// `ForEach`, `If` and `AnyView` are dynamic containers: their fold is always present.
    public static func isDynamicContainer(_ type: String) -> Bool {
        type == "ForEach" || type == "If" || type == "AnyView"
    }

    /// Number of nodes in this subtree, attached subtrees included.
    public var subtreeCount: Int {
        var n = 1
        for m in modifiers {
            if let a = m.attached { n += a.subtreeCount }
        }
        for c in children { n += c.subtreeCount }
        return n
    }
}

/// One entry of a node's modifier chain.
public indirect enum Modifier: Sendable, Equatable {
    /// A writer: replaces whatever is inside for `key`.
    case preference(key: String, value: JSON)
    case transformPreference(key: String, transform: Transform)
    /// A reader (`onPreferenceChange`): observes the value inside it and passes it through.
    case onPreferenceChange(key: String)
    case background(Node)
    case overlay(Node)
    /// Any other modifier (`padding`, `hidden`, …): kept and shown, no effect on preferences.
    case other(kind: String, args: JSONObject)

    /// The attached subtree of a `background` or `overlay`.
    public var attached: Node? {
        switch self {
        case .background(let n), .overlay(let n): return n
        default: return nil
        }
    }

    /// The key a preference modifier concerns, if any.
    public var key: String? {
        switch self {
        case .preference(let k, _), .transformPreference(let k, _), .onPreferenceChange(let k): return k
        default: return nil
        }
    }
}
