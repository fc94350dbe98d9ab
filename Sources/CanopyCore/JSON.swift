/// A JSON value. Numbers compare by value (`1 == 1.0`); objects keep their key order but compare as sets of
/// key/value pairs; arrays compare element-wise.
public enum JSON: Sendable {
    case null
    case bool(Bool)
    /// An integer that fits 64 bits, kept exact.
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSON])
    case object(JSONObject)
}

extension JSON {
    /// The value as a `Double` if it is a number.
    @inlinable public var number: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    public var isNumber: Bool {
        switch self {
        case .int, .double: return true
        default: return false
        }
    }

    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var bool: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    public var array: [JSON]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var object: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// Member lookup for objects; `nil` for any other value or a missing key.
    public subscript(key: String) -> JSON? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    /// Element lookup for arrays; `nil` for any other value or an index out of range.
    public subscript(index: Int) -> JSON? {
        if case .array(let a) = self, a.indices.contains(index) { return a[index] }
        return nil
    }

    /// A short name of the value's type, for error messages.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "bool"
        case .int, .double: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

extension JSON: Equatable {
    public static func == (lhs: JSON, rhs: JSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)): return JSON.intEqualsDouble(a, b)
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)): return a == b
        default: return false
        }
    }

    /// Exact comparison of an integer with a double (no rounding through `Double(i)`).
    static func intEqualsDouble(_ i: Int64, _ d: Double) -> Bool {
        guard let exact = Int64(exactly: d) else { return false }
        return exact == i
    }
}

extension JSON: Hashable {
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0 as UInt8)
        case .bool(let b): hasher.combine(1 as UInt8); hasher.combine(b)
        case .int(let i): hasher.combine(2 as UInt8); hasher.combine(i)
        case .double(let d):
            // Integral doubles hash like the equal integer, so `1` and `1.0` land in the same bucket.
            if let i = Int64(exactly: d) {
                hasher.combine(2 as UInt8); hasher.combine(i)
            } else {
                hasher.combine(3 as UInt8); hasher.combine(d)
            }
        case .string(let s): hasher.combine(4 as UInt8); hasher.combine(s)
        case .array(let a): hasher.combine(5 as UInt8); hasher.combine(a)
        case .object(let o): hasher.combine(6 as UInt8); hasher.combine(o)
        }
    }
}

// Deliberately no `ExpressibleByNilLiteral`: JSON null is written `.null`, so `nil` always means an absent `JSON?`.
// With a nil literal, `cond ? value : nil` used as a `JSON?` typed as `JSON` and its `nil` became `.null`, a
// present value.
extension JSON: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(JSONObject(elements.map { (key: $0.0, value: $0.1) }))
    }
}

/// A JSON object that keeps its members in insertion order. Keys are unique.
public struct JSONObject: Sendable {
    public private(set) var members: [(key: String, value: JSON)]

    public init() { members = [] }

    /// Builds an object from members; a later duplicate key replaces the earlier value in place.
    public init(_ members: [(key: String, value: JSON)]) {
        self.members = []
        self.members.reserveCapacity(members.count)
        for m in members { self[m.key] = m.value }
    }

    /// Builds an object from members whose keys are known to be distinct (no duplicate checks).
    public init(uniqueMembers members: [(key: String, value: JSON)]) {
        self.members = members
    }

    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }
    public var keys: [String] { members.map(\.key) }

    /// The value of `key`; setting `nil` removes the member, setting a new key appends it.
    public subscript(key: String) -> JSON? {
        get {
            for m in members where m.key == key { return m.value }
            return nil
        }
        set {
            if let i = members.firstIndex(where: { $0.key == key }) {
                if let v = newValue { members[i].value = v } else { members.remove(at: i) }
            } else if let v = newValue {
                members.append((key: key, value: v))
            }
        }
    }

    /// Overwrites with `other`'s members (new keys appended in `other`'s order), like `merge { $1 }`.
    public mutating func merge(_ other: JSONObject) {
        if members.isEmpty {
            members = other.members
            return
        }
        if other.members.count > 8 && members.count > 8 {
            var position: [String: Int] = [:]
            for (i, m) in members.enumerated() { position[m.key] = i }
            for m in other.members {
                if let i = position[m.key] {
                    members[i].value = m.value
                } else {
                    position[m.key] = members.count
                    members.append(m)
                }
            }
        } else {
            for m in other.members { self[m.key] = m.value }
        }
    }
}

extension JSONObject: Equatable {
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.members.count == rhs.members.count else { return false }
        // Same order is the common case and needs no lookups.
        var sameOrder = true
        for i in lhs.members.indices where lhs.members[i].key != rhs.members[i].key {
            sameOrder = false
            break
        }
        if sameOrder {
            for i in lhs.members.indices where lhs.members[i].value != rhs.members[i].value { return false }
            return true
        }
        for m in lhs.members {
            guard let other = rhs[m.key], other == m.value else { return false }
        }
        return true
    }
}

extension JSONObject: Hashable {
    public func hash(into hasher: inout Hasher) {
        // Order-independent: combine per-member hashes commutatively.
        var acc = 0
        for m in members {
            var h = Hasher()
            h.combine(m.key)
            h.combine(m.value)
            acc = acc &+ h.finalize()
        }
        hasher.combine(members.count)
        hasher.combine(acc)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self.init(elements.map { (key: $0.0, value: $0.1) })
    }
}
