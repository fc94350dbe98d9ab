/// A `transformPreference` body (SEMANTICS.md §6).
public enum Transform: Sendable, Equatable {
    case add(JSON)
    case multiply(JSON)
    case append([JSON])
    case merge(JSONObject)
    case set(JSON)
    /// Runs the key's own reducer: `reduce(&value, { v })`.
    case reduce(JSON)

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
        }
    }

    /// Checks that the transform fits `declaration`'s reducer type.
    public func check(for declaration: KeyDeclaration) throws(CanopyError) {
        let type = declaration.reducer.valueType
        func need(_ t: ValueType, _ what: String) throws(CanopyError) {
            guard type == t else {
                throw CanopyError(
                    .typeMismatch,
                    "transform \"\(what)\" needs a key with \(t.rawValue) values; key \"\(declaration.key)\" uses "
                        + "reducer \(declaration.reducer.rawValue)")
            }
        }
        switch self {
        case .add: try need(.number, "add")
        case .multiply: try need(.number, "multiply")
        case .append: try need(.array, "append")
        case .merge: try need(.object, "merge")
        case .set(let v), .reduce(let v): try declaration.check(v)
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
        }
    }

    /// Decodes `{"add": n}` and the other forms; anything else is `bad_message`.
    public init(json: JSON) throws(CanopyError) {
        guard let o = json.object, o.count == 1, let (name, arg) = o.members.first.map({ ($0.key, $0.value) }) else {
            throw CanopyError(.badMessage, "a transform is an object with exactly one of add, multiply, append, merge, set, reduce")
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
        default:
            throw CanopyError(.badMessage, "unknown transform \"\(name)\" (use add, multiply, append, merge, set, reduce)")
        }
    }
}
