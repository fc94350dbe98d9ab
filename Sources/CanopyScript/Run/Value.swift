/// A value while Swift code runs. Optionals are flat: `nil` is `.null` and `.some(x)` is `x` (so `T??` is `T?`).
/// Structs and enums carry their type's index in the program; arrays, dictionaries and sets are values as in
/// Swift (copy on write).
package enum Value: @unchecked Sendable {  // holds functions and boxes, which only the running machine touches
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([Value])
    case dictionary(OrderedDictionary)
    case set(OrderedSet)
    /// A struct of the program: its type and its stored properties in declaration order.
    case record(TypeID, [Value])
    /// An instance of a class of the program: shared by every value that refers to it.
    case object(Instance)
    /// An enum case of the program: its type, the case's index, its associated values.
    case enumCase(TypeID, Int, [Value])
    case tuple([Value])
    /// `a..<b` or `a...b` over integers, stored half-open (`1...3` is `range(1, 4, closed: true)`); `closed` keeps
    /// what was written, for `upperBound` and printing.
    case range(Int, Int, closed: Bool)
    /// `a...b` or `a..<b` over doubles (`closed` tells which).
    case doubleRange(Double, Double, closed: Bool)
    case function(Callable)
    /// `T.self`.
    case metatype(TypeRef)
    /// `\.a.b`: its properties, applied by name when the key path is used as a function.
    case keyPath([KeyPathStep])
    /// A captured variable: closures and the frame that declared it share the box.
    case box(Box)
    /// A view a body produced (PROGRAMS.md §3).
    case view(ViewValue)
    /// The storage of a `@State` or `@Environment` property, as a view instance's property holds it.
    case cell(StateBox)
    /// A `Binding`.
    case binding(BindingValue)
}

/// Index of a declared type in its program.
public typealias TypeID = Int

/// A mutable cell shared by a frame and the closures that capture one of its variables.
package final class Box {
    package var value: Value
    package init(_ value: Value) { self.value = value }
}

extension Value {
    package var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The number as a `Double`, for arithmetic that mixes `Int` and `CGFloat`.
    package var number: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    /// The value of a variable slot: boxes are looked through.
    @inline(__always) package var unboxed: Value {
        if case .box(let b) = self { return b.value }
        return self
    }
}

extension Value: Hashable {
    var isTuple: Bool {
        if case .tuple = unboxed { return true }
        return false
    }

    package static func == (a: Value, b: Value) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.int(let x), .int(let y)): return x == y
        case (.double(let x), .double(let y)): return x == y
        case (.int(let x), .double(let y)), (.double(let y), .int(let x)): return Double(x) == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.dictionary(let x), .dictionary(let y)): return x == y
        case (.set(let x), .set(let y)): return x == y
        case (.record(let t, let x), .record(let u, let y)): return t == u && x == y
        case (.object(let x), .object(let y)): return x === y
        case (.enumCase(let t, let c, let x), .enumCase(let u, let d, let y)): return t == u && c == d && x == y
        case (.tuple(let x), .tuple(let y)): return x == y
        case (.range(let a1, let b1, let c1), .range(let a2, let b2, let c2)): return a1 == a2 && b1 == b2 && c1 == c2
        case (.doubleRange(let a1, let b1, let c1), .doubleRange(let a2, let b2, let c2)):
            return a1 == a2 && b1 == b2 && c1 == c2
        case (.function(let x), .function(let y)): return x === y
        case (.metatype(let x), .metatype(let y)): return x == y
        case (.keyPath(let x), .keyPath(let y)): return x == y
        case (.view(let x), .view(let y)): return x.same(as: y)
        case (.cell(let x), .cell(let y)): return x === y
        case (.binding(let x), .binding(let y)): return x.same(as: y)
        case (.box(let x), _): return x.value == b
        case (_, .box(let y)): return a == y.value
        default: return false
        }
    }

    package func hash(into h: inout Hasher) {
        switch self {
        case .null: h.combine(0)
        case .bool(let b): h.combine(b)
        // Int and Double hash alike when equal, since they compare equal.
        case .int(let i): h.combine(Double(i))
        case .double(let d): h.combine(d)
        case .string(let s): h.combine(s)
        case .array(let a): h.combine(a)
        case .dictionary(let d): h.combine(d)
        case .set(let s): h.combine(s)
        case .object(let o): h.combine(ObjectIdentifier(o))
        case .record(let t, let f):
            h.combine(t)
            h.combine(f)
        case .enumCase(let t, let c, let f):
            h.combine(t)
            h.combine(c)
            h.combine(f)
        case .tuple(let f): h.combine(f)
        case .range(let a, let b, _):
            h.combine(a)
            h.combine(b)
        case .doubleRange(let a, let b, let c):
            h.combine(a)
            h.combine(b)
            h.combine(c)
        case .function(let f): h.combine(ObjectIdentifier(f))
        case .metatype(let t): h.combine(t)
        case .keyPath(let p): h.combine(p)
        case .box(let b): b.value.hash(into: &h)
        case .view(let v): h.combine(v.type)
        case .cell(let c): h.combine(ObjectIdentifier(c))
        case .binding: h.combine(17)
        }
    }
}

/// A dictionary in insertion order, so iteration, `keys` and JSON output are deterministic (Swift's own order
/// changes from run to run).
package struct OrderedDictionary: Hashable {
    package var keys: [Value] = []
    package var values: [Value] = []
    package var index: [Value: Int] = [:]

    package var count: Int { keys.count }

    package subscript(key: Value) -> Value? {
        get { index[key].map { values[$0] } }
        set {
            if let i = index[key] {
                if let v = newValue {
                    values[i] = v
                } else {
                    remove(at: i)
                }
            } else if let v = newValue {
                index[key] = keys.count
                keys.append(key)
                values.append(v)
            }
        }
    }

    package mutating func remove(at i: Int) {
        index[keys[i]] = nil
        keys.remove(at: i)
        values.remove(at: i)
        for j in i..<keys.count { index[keys[j]] = j }
    }

    /// Equal when they hold the same pairs, in any order (as Swift's `Dictionary`).
    package static func == (a: OrderedDictionary, b: OrderedDictionary) -> Bool {
        guard a.count == b.count else { return false }
        for (i, k) in a.keys.enumerated() {
            guard let v = b[k], v == a.values[i] else { return false }
        }
        return true
    }

    package func hash(into h: inout Hasher) {
        var acc = 0
        for (i, k) in keys.enumerated() {
            var e = Hasher()
            e.combine(k)
            e.combine(values[i])
            acc = acc &+ e.finalize()
        }
        h.combine(count)
        h.combine(acc)
    }
}

/// A set in insertion order, for the same reason as `OrderedDictionary`.
package struct OrderedSet: Hashable {
    package var elements: [Value] = []
    package var index: [Value: Int] = [:]

    package var count: Int { elements.count }

    package func contains(_ v: Value) -> Bool { index[v] != nil }

    @discardableResult
    package mutating func insert(_ v: Value) -> Bool {
        guard index[v] == nil else { return false }
        index[v] = elements.count
        elements.append(v)
        return true
    }

    @discardableResult
    package mutating func remove(_ v: Value) -> Bool {
        guard let i = index[v] else { return false }
        index[v] = nil
        elements.remove(at: i)
        for j in i..<elements.count { index[elements[j]] = j }
        return true
    }

    package static func == (a: OrderedSet, b: OrderedSet) -> Bool {
        a.count == b.count && a.elements.allSatisfy { b.contains($0) }
    }

    package func hash(into h: inout Hasher) {
        var acc = 0
        for e in elements { acc = acc &+ e.hashValue }
        h.combine(count)
        h.combine(acc)
    }
}

extension Value {
    /// The program type of a struct, enum or object value.
    package var programType: TypeID? {
        switch unboxed {
        case .record(let t, _), .enumCase(let t, _, _): return t
        case .object(let o): return o.type
        default: return nil
        }
    }
}

/// An instance of a class: its dynamic type and its stored properties (the superclass's first), shared by reference.
package final class Instance {
    package let type: TypeID
    package var fields: [Value]

    package init(type: TypeID, fields: [Value]) {
        self.type = type
        self.fields = fields
    }
}

/// One property of a key path, with how Swift binds it where the compiler knew the type it is read from.
package struct KeyPathStep: Hashable, Sendable {
    package var name: String
    /// A protocol extension's member that is not a requirement, read through that protocol (`DynamicMemberExpr`).
    package var viaProtocol: String?
    /// A requirement read through a protocol: a class's witness decides.
    package var throughProtocol = false

    package init(_ name: String, viaProtocol: String? = nil, throughProtocol: Bool = false) {
        self.name = name
        self.viaProtocol = viaProtocol
        self.throughProtocol = throughProtocol
    }
}
