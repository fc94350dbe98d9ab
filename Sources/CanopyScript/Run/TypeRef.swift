/// A static type as the compiler knows it. `.unknown` where inference gives up: the value is then checked when
/// the code runs (generic parameters, SwiftUI's unchecked surface, results of some library calls).
public indirect enum TypeRef: Hashable, Sendable {
    case unknown
    case void
    case bool
    case int
    case double
    case string
    case array(TypeRef)
    /// An `ArraySlice` (`a[1...]`, `a.dropFirst()`): an array when it runs, typed apart because its indices are its
    /// base array's (`a[1...].indices` is `1..<n`), so the members that depend on them are refused (see
    /// `Compiler.sliceIndexMembers`).
    case slice(TypeRef)
    case dictionary(TypeRef, TypeRef)
    case set(TypeRef)
    case optional(TypeRef)
    /// Element types, and their labels when any is labelled (`(quotient: Int, remainder: Int)`).
    case tuple([TypeRef], labels: [String?] = [])
    /// A struct, enum or protocol the program (or the prelude) declares.
    case named(TypeID)
    case function([TypeRef], TypeRef)
    case range
    /// A generic parameter or associated type, by name.
    case generic(String)
    case metatype(TypeRef)
    /// A SwiftUI or UIKit type the subset does not model (`Color`, `Font`); its members are kept as data.
    case opaque(String)

    /// The type a value of this type has once unwrapped (`T?` → `T`).
    package var unwrapped: TypeRef {
        if case .optional(let t) = self { return t.unwrapped }
        return self
    }

    package var isOptional: Bool {
        if case .optional = self { return true }
        return false
    }

    package var isNumeric: Bool { self == .int || self == .double }

    /// The kind of value a library type has, when this is one (not optional, not a program type).
    package var libraryKind: ValueKind? {
        switch self {
        case .int: return .int
        case .double: return .double
        case .bool: return .bool
        case .string: return .string
        case .array, .slice: return .array
        case .dictionary: return .dictionary
        case .set: return .set
        default: return nil
        }
    }

    /// A type inference may rely on (not unknown, not a generic parameter).
    /// What an expression of this type is compiled against: a known type, or a color (`let c: Color = .red` makes
    /// `.red` a `Color`); `nil` when the compiler knows nothing useful.
    package var expectation: TypeRef? {
        if isKnown || unwrapped == .opaque("Color") { return self }
        return nil
    }

    package var isKnown: Bool {
        switch self {
        case .unknown, .generic, .opaque: return false
        default: return true
        }
    }
}

/// Kinds of run-time values, for dispatching library members without looking up names.
package enum ValueKind: Int, CaseIterable, Sendable {
    case null, bool, int, double, string, array, dictionary, set, record, enumCase, tuple, range, doubleRange,
        function, metatype, keyPath, view, cell, binding
}

extension Value {
    package var kind: ValueKind {
        switch self {
        case .null: return .null
        case .bool: return .bool
        case .int: return .int
        case .double: return .double
        case .string: return .string
        case .array: return .array
        case .dictionary: return .dictionary
        case .set: return .set
        case .record, .object: return .record
        case .enumCase: return .enumCase
        case .tuple: return .tuple
        case .range: return .range
        case .doubleRange: return .doubleRange
        case .function: return .function
        case .metatype: return .metatype
        case .keyPath: return .keyPath
        case .box(let b): return b.value.kind
        case .view: return .view
        case .cell: return .cell
        case .binding: return .binding
        }
    }
}
