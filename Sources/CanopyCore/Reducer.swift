/// The type of value a reducer works on; values of any other type are rejected when an edit arrives.
public enum ValueType: String, Sendable {
    case any, number, bool, array, object, string
    /// `{priority: number, content: string}` or `null`.
    case priorityMessage

    /// Whether `value` has this type.
    public func accepts(_ value: JSON) -> Bool {
        switch self {
        case .any: return true
        case .number: return value.isNumber
        case .bool: return value.bool != nil
        case .array: return value.array != nil
        case .object: return value.object != nil
        case .string: return value.string != nil
        case .priorityMessage:
            if value.isNull { return true }
            guard let o = value.object, o.count == 2, o["priority"]?.isNumber == true, o["content"]?.string != nil
            else { return false }
            return true
        }
    }

    var description: String {
        switch self {
        case .priorityMessage: return "null or {\"priority\": number, \"content\": string}"
        default: return rawValue
        }
    }
}

/// The reducer catalog of SEMANTICS.md §5, each with SwiftUI's exact `nextValue` behaviour.
public enum Reducer: String, Sendable, CaseIterable {
    case last, first, sum, max, min, and, or, append, merge, firstNonNull, priority, nest

    public var valueType: ValueType {
        switch self {
        case .last, .first, .firstNonNull: return .any
        case .sum, .max, .min: return .number
        case .and, .or: return .bool
        case .append: return .array
        case .merge: return .object
        case .priority: return .priorityMessage
        case .nest: return .string
        }
    }

    /// Runs `reduce(value: &value, nextValue: next)`. `next` is called only where SwiftUI's body calls `nextValue`.
    /// Both operands have `valueType` (checked when the values entered the tree).
    @inlinable
    public func reduce(_ value: inout JSON, _ next: () -> JSON) {
        if callsNextValue(value) { combine(&value, next()) }
    }

    /// Whether the SwiftUI body calls `nextValue` when the accumulated value is `value`. Every body in the catalog
    /// calls it at most once, and decides from `value` alone, so `reduce` = this test + `combine`; the evaluator uses
    /// the split to pull a sibling only when it is needed, without a closure per call.
    @inlinable
    public func callsNextValue(_ value: JSON) -> Bool {
        switch self {
        case .first: return false
        case .and: return value.bool == true
        case .or: return value.bool != true
        case .firstNonNull: return value.isNull
        case .last, .sum, .max, .min, .append, .merge, .priority, .nest: return true
        }
    }

    /// The rest of the body, once `nextValue()` returned `next` (only called when `callsNextValue(value)`).
    @inlinable
    public func combine(_ value: inout JSON, _ next: JSON) {
        switch self {
        case .last, .firstNonNull:
            value = next
        case .first:
            break
        case .sum:
            value = Reducer.add(value, next)
        case .max:
            if (next.number ?? 0) > (value.number ?? 0) { value = next }
        case .min:
            if (next.number ?? 0) < (value.number ?? 0) { value = next }
        case .and, .or:
            value = .bool(next.bool == true)
        case .append:
            guard case .array(var a) = value else { value = next; return }
            value = .null  // drop the enum's reference so the append can happen in place
            if case .array(let b) = next { a.append(contentsOf: b) }
            value = .array(a)
        case .merge:
            guard case .object(var o) = value else { value = next; return }
            value = .null
            if case .object(let b) = next { o.merge(b) }
            value = .object(o)
        case .priority:
            // guard let e = value, !e.content.isEmpty else { value = nextValue(); return }
            guard let e = Reducer.message(value), !e.content.isEmpty else {
                value = next
                return
            }
            // guard let n = nextValue(), !n.content.isEmpty, n.priority > e.priority else { return }
            guard let n = Reducer.message(next), !n.content.isEmpty, n.priority > e.priority else { return }
            value = next
        case .nest:
            value = .string("(" + (value.string ?? "") + " " + (next.string ?? "") + ")")
        }
    }

    @usableFromInline
    static func add(_ a: JSON, _ b: JSON) -> JSON {
        if case .int(let x) = a, case .int(let y) = b {
            let (r, overflow) = x.addingReportingOverflow(y)
            if !overflow { return .int(r) }
        }
        return .double((a.number ?? 0) + (b.number ?? 0))
    }

    @usableFromInline
    static func multiply(_ a: JSON, _ b: JSON) -> JSON {
        if case .int(let x) = a, case .int(let y) = b {
            let (r, overflow) = x.multipliedReportingOverflow(by: y)
            if !overflow { return .int(r) }
        }
        return .double((a.number ?? 0) * (b.number ?? 0))
    }

    @usableFromInline
    static func message(_ v: JSON) -> (priority: Double, content: String)? {
        guard case .object(let o) = v, let p = o["priority"]?.number, let c = o["content"]?.string else { return nil }
        return (p, c)
    }
}
