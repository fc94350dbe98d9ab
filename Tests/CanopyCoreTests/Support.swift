import Synchronization
@testable import CanopyCore

/// Small builders so trees in tests read like SEMANTICS.md's notation.
enum T {
    static let counter = Atomic<Int>(0)

    /// A unique id that cannot clash with the short ids tests choose ("a", "v4", …).
    static func fresh(_ prefix: String) -> String {
        "\(prefix)_\(counter.add(1, ordering: .relaxed).newValue)"
    }

    /// A leaf with `.preference(key, value)`, or a plain leaf when `value` is nil.
    static func V(_ value: JSON? = nil, key: String = "K", id: String? = nil, type: String = "V") -> Node {
        Node(
            id: id ?? fresh("v"), type: type,
            modifiers: value.map { [.preference(key: key, value: $0)] } ?? [])
    }

    static func stack(_ type: String = "VStack", id: String? = nil, _ children: [Node], modifiers: [Modifier] = [])
        -> Node
    {
        Node(id: id ?? fresh(type.lowercased()), type: type, modifiers: modifiers, children: children)
    }

    /// Appends modifiers (outermost last).
    static func mod(_ node: Node, _ mods: Modifier...) -> Node {
        var n = node
        n.modifiers += mods
        return n
    }

    static func reader(_ key: String = "K") -> Modifier { .onPreferenceChange(key: key) }

    static func key(_ reducer: Reducer, _ defaultValue: JSON, name: String = "K") -> KeyDeclaration {
        KeyDeclaration(key: name, reducer: reducer, defaultValue: defaultValue)
    }

    /// A tree whose root holds `content` as its only child.
    static func tree(_ keys: [KeyDeclaration], _ content: Node) throws -> Tree {
        try Tree(keys: keys, root: Node(id: "root", type: "Root", children: [content]))
    }
}
