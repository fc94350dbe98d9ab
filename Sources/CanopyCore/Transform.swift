/// A `transformPreference` body (SEMANTICS.md §6).
///
/// A Swift closure on a custom key comes from the wire as `swift(source)`; the tree compiles it against the key
/// when the modifier enters it and stores `custom`. Both encode as `{"swift": source}` and are equal by source.
public enum Transform: Sendable {
    case add(JSON)
    case multiply(JSON)
    case append([JSON])
    case merge(JSONObject)
    case set(JSON)
    /// Runs the key's own reducer: `reduce(&value, { v })`.
    case reduce(JSON)
    /// A Swift closure over a custom key's value, not compiled yet.
    case swift(String)
    /// A compiled Swift closure (run by the evaluator, not by `apply`).
    case custom(any CustomTransform)

    /// The closure's source, for the Swift forms.
    public var swiftSource: String? {
        switch self {
        case .swift(let s): return s
        case .custom(let t): return t.source
        default: return nil
        }
    }

    /// Applies the transform to `value` (the content's value, or the key's default when the content is absent).
    @inlinable
    public func apply(to value: JSON, reducer: Reducer) -> JSON {
        switch self {
        case .add(let n): return Reducer.add(value, n)
        case .multiply(let n): return Reducer.multiply(value, n)
        case .append(let items):
            guard case .array(var a) = value else { return value }
            a.append(contentsOf: items)
            return .array(a)
        case .merge(let o):
            guard case .object(var m) = value else { return value }
            m.merge(o)
            return .object(m)
        case .set(let v): return v
        case .reduce(let v):
            var result = value
            reducer.reduce(&result) { v }
            return result
        case .swift, .custom:
            preconditionFailure("a Swift transform runs in the evaluator, on a custom key")
        }
    }

    /// Checks that the transform fits `declaration`'s reducer type.
    /// A `swift` transform needs a Swift key (it is compiled separately, against that key); a Swift key takes
    /// `set`, `reduce` and `swift` only, since the catalog's arithmetic does not know its value type.
    public func check(for declaration: KeyDeclaration) throws(CanopyError) {
        guard case .catalog(let reducer) = declaration.reducer else {
            switch self {
            case .set(let v), .reduce(let v): try declaration.check(v)
            case .swift, .custom: break
            default:
                throw CanopyError(
                    .typeMismatch,
                    "transform \"\(name)\" needs a catalog key; key \"\(declaration.key)\" is declared in Swift "
                        + "(use {\"swift\": \"{ $0 … }\"}, set or reduce)")
            }
            return
        }
        func need(_ t: ValueType, _ what: String) throws(CanopyError) {
            guard reducer.valueType == t else {
                throw CanopyError(
                    .typeMismatch,
                    "transform \"\(what)\" needs a key with \(t.rawValue) values; key \"\(declaration.key)\" uses "
                        + "reducer \(reducer.rawValue)")
            }
        }
        switch self {
        case .add: try need(.number, "add")
        case .multiply: try need(.number, "multiply")
        case .append: try need(.array, "append")
        case .merge: try need(.object, "merge")
        case .set(let v), .reduce(let v): try declaration.check(v)
        case .swift, .custom:
            throw CanopyError(
                .typeMismatch,
                "transform \"swift\" needs a key declared in Swift; key \"\(declaration.key)\" uses reducer "
                    + reducer.rawValue)
        }
    }

    /// The transform's name on the wire.
    public var name: String {
        switch self {
        case .add: return "add"
        case .multiply: return "multiply"
        case .append: return "append"
        case .merge: return "merge"
        case .set: return "set"
        case .reduce: return "reduce"
        case .swift, .custom: return "swift"
        }
    }

    public var json: JSON {
        switch self {
        case .add(let n): return ["add": n]
        case .multiply(let n): return ["multiply": n]
        case .append(let a): return ["append": .array(a)]
        case .merge(let o): return ["merge": .object(o)]
        case .set(let v): return ["set": v]
        case .reduce(let v): return ["reduce": v]
        case .swift(let source): return ["swift": .string(source)]
        case .custom(let t): return ["swift": .string(t.source)]
        }
    }

    /// Decodes `{"add": n}` and the other forms; anything else is `bad_message`.
    public init(json: JSON) throws(CanopyError) {
        guard let o = json.object, o.count == 1, let (name, arg) = o.members.first.map({ ($0.key, $0.value) }) else {
            throw CanopyError(
                .badMessage, "a transform is an object with exactly one of add, multiply, append, merge, set, reduce, swift")
        }
        switch name {
        case "add", "multiply":
            guard arg.isNumber else { throw CanopyError(.badMessage, "transform \"\(name)\" takes a number") }
            self = name == "add" ? .add(arg) : .multiply(arg)
        case "append":
            guard let a = arg.array else { throw CanopyError(.badMessage, "transform \"append\" takes an array") }
            self = .append(a)
        case "merge":
            guard let m = arg.object else { throw CanopyError(.badMessage, "transform \"merge\" takes an object") }
            self = .merge(m)
        case "set": self = .set(arg)
        case "reduce": self = .reduce(arg)
        case "swift":
            guard let source = arg.string else {
                throw CanopyError(.badMessage, "transform \"swift\" takes the closure's source as a string")
            }
            self = .swift(source)
        default:
            throw CanopyError(
                .badMessage, "unknown transform \"\(name)\" (use add, multiply, append, merge, set, reduce, swift)")
        }
    }
}

extension Transform: Equatable {
    /// Swift closures are equal when their sources are, compiled or not.
    public static func == (a: Transform, b: Transform) -> Bool {
        switch (a, b) {
        case (.add(let x), .add(let y)), (.multiply(let x), .multiply(let y)), (.set(let x), .set(let y)),
            (.reduce(let x), .reduce(let y)):
            return x == y
        case (.append(let x), .append(let y)): return x == y
        case (.merge(let x), .merge(let y)): return x == y
        default:
            guard let x = a.swiftSource, let y = b.swiftSource else { return false }
            return x == y
        }
    }
}
