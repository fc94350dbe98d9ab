import CanopyCore

// The reducer catalog of SEMANTICS.md §5 as real Swift `PreferenceKey`s, compiled by CanopyScript: each key is written
// the way a SwiftUI developer would write it, over the Swift type that decodes the differential test's values
// exactly. The catalog's `.any` values (last, first, firstNonNull) have no single Swift type, so trees run with these
// keys generate only `null` and integers for them (`Int?`); numbers are integers only (`Int`), since a Swift `Double`
// would turn the catalog's integer sums into doubles and an `Int` rejects the catalog's doubles.

enum SwiftKeySources {
    /// The Swift type of each catalog value domain.
    static func valueType(_ r: Reducer) -> String {
        switch r {
        case .last, .first, .firstNonNull: return "Int?"
        case .sum, .max, .min: return "Int"
        case .and, .or: return "Bool"
        case .append: return "[Int]"
        case .merge: return "[String: Int]"
        case .priority: return "Message?"
        case .nest: return "String"
        }
    }

    /// `value` as a Swift literal of the key's value type (the generator's values only).
    static func literal(_ value: JSON, _ r: Reducer) -> String {
        switch value {
        case .null: return "nil"
        case .object(let o) where r == .priority:
            return "Message(priority: \(literal(o["priority"] ?? 0, .sum)), content: \(literal(o["content"] ?? "", .nest)))"
        case .object(let o):
            if o.members.isEmpty { return "[:]" }
            return "[" + o.members.map { "\(JSON.string($0.key).encoded()): \(literal($0.value, .sum))" }
                .joined(separator: ", ") + "]"
        case .array(let a): return "[" + a.map { literal($0, .sum) }.joined(separator: ", ") + "]"
        default: return value.encoded()  // numbers, booleans, and strings without escapes Swift reads otherwise
        }
    }

    /// The whole program of key `d` (its name is the struct's).
    static func source(_ d: KeyDeclaration) -> String {
        let r = d.catalogReducer!
        let k = d.key
        let v = valueType(r)
        let def = literal(d.defaultValue, r)
        switch r {
        case .last:
            return """
                struct \(k): PreferenceKey {
                    static var defaultValue: \(v) = \(def)
                    static func reduce(value: inout \(v), nextValue: () -> \(v)) {
                        value = nextValue()
                    }
                }
                """
        case .first:
            return """
                struct \(k): PreferenceKey {
                    static let defaultValue: \(v) = \(def)
                    // Keeps the first value: the body never asks for the next one.
                    static func reduce(value: inout \(v), nextValue: () -> \(v)) {}
                }
                """
        case .sum:
            return """
                struct \(k): PreferenceKey {
                    static var defaultValue = \(def)
                    static func reduce(value: inout Int, nextValue: () -> Int) {
                        value += nextValue()
                    }
                }
                """
        case .max:
            return """
                struct \(k): PreferenceKey {
                    static var defaultValue: Int = \(def)
                    static func reduce(value: inout Int, nextValue: () -> Int) {
                        value = max(value, nextValue())
                    }
                }
                """
        case .min:
            return """
                struct \(k): PreferenceKey {
                    typealias Value = Int
                    static var defaultValue: Value = \(def)
                    static func reduce(value: inout Value, nextValue: () -> Value) {
                        let next = nextValue()
                        if next < value {
                            value = next
                        }
                    }
                }
                """
        case .and:
            return """
                struct \(k): PreferenceKey {
                    static var defaultValue = \(def)
                    static func reduce(value: inout Bool, nextValue: () -> Bool) {
                        value = value && nextValue()
                    }
                }
                """
        case .or:
            return """
                struct \(k): PreferenceKey {
                    static var defaultValue: Bool = \(def)
                    static func reduce(value: inout Bool, nextValue: () -> Bool) {
                        value = value || nextValue()
                    }
                }
                """
        case .append:
            return """
                struct \(k): PreferenceKey {
                    static var defaultValue: [Int] = \(def)
                    static func reduce(value: inout [Int], nextValue: () -> [Int]) {
                        value.append(contentsOf: nextValue())
                    }
                }
                """
        case .merge:
            return """
                struct \(k): PreferenceKey {
                    static var defaultValue: [String: Int] = \(def)
                    static func reduce(value: inout [String: Int], nextValue: () -> [String: Int]) {
                        for (name, count) in nextValue() {
                            value[name] = count
                        }
                    }
                }
                """
        case .firstNonNull:
            return """
                struct \(k): PreferenceKey {
                    typealias Value = Int?
                    static var defaultValue: Value = \(def)
                    static func reduce(value: inout Value, nextValue: () -> Value) {
                        if value == nil {
                            value = nextValue()
                        }
                    }
                }
                """
        case .priority:
            return """
                struct Message: Equatable {
                    var priority: Double
                    var content: String
                }

                struct \(k): PreferenceKey {
                    static var defaultValue: Message? = \(def)
                    static func reduce(value: inout Message?, nextValue: () -> Message?) {
                        guard let current = value, !current.content.isEmpty else {
                            value = nextValue()
                            return
                        }
                        guard let next = nextValue(), !next.content.isEmpty, next.priority > current.priority else {
                            return
                        }
                        value = next
                    }
                }
                """
        case .nest:
            return """
                struct \(k): PreferenceKey {
                    static var defaultValue = \(def)
                    static func reduce(value: inout String, nextValue: () -> String) {
                        value = "(\\(value) \\(nextValue()))"
                    }
                }
                """
        }
    }

    /// The declaration as an uncompiled Swift key; a declaration the engine rejects before compiling (an empty name)
    /// stays as it is, with a source that cannot be the reason.
    static func declaration(_ d: KeyDeclaration) -> KeyDeclaration {
        guard !d.key.isEmpty else { return KeyDeclaration(key: "", swift: "struct K: PreferenceKey {}") }
        return KeyDeclaration(key: d.key, swift: source(d))
    }

    /// A catalog transform as a Swift closure over the key's value; `set` and `reduce` work on Swift keys as they are.
    static func transform(_ t: Transform) -> Transform {
        switch t {
        case .add(let n): return .swift("{ $0 += \(literal(n, .sum)) }")
        case .multiply(let n): return .swift("{ value in value *= \(literal(n, .sum)) }")
        case .append(let items): return .swift("{ $0.append(contentsOf: \(literal(.array(items), .append))) }")
        case .merge(let o):
            return .swift("{ value in\n    for (k, v) in \(literal(.object(o), .merge)) as [String: Int] { value[k] = v }\n}")
        default: return t
        }
    }

    static func modifier(_ m: Modifier) -> Modifier {
        switch m {
        case .transformPreference(let k, let t): return .transformPreference(key: k, transform: transform(t))
        case .background(let n): return .background(node(n))
        case .overlay(let n): return .overlay(node(n))
        default: return m
        }
    }

    static func node(_ n: Node) -> Node {
        Node(id: n.id, type: n.type, props: n.props, modifiers: n.modifiers.map(modifier), children: n.children.map(node))
    }

    static func op(_ op: Op) -> Op {
        switch op {
        case .insert(let p, let n, let at): return .insert(parent: p, node: node(n), position: at)
        case .setModifiers(let n, let mods): return .setModifiers(node: n, modifiers: mods.map(modifier))
        case .declareKey(let d): return .declareKey(declaration(d))
        default: return op
        }
    }
}
