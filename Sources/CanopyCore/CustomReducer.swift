/// A preference key's reducer written in Swift (PROGRAMS.md §5); CanopyScript provides it.
///
/// The engine keeps values as JSON; the reducer decodes them to the key's `Value`, runs the key's own
/// `reduce(value:nextValue:)` and encodes the result. It must be a pure function of its inputs: the engine re-runs
/// it incrementally and relies on equal inputs giving equal results.
public protocol CustomReducer: AnyObject, Sendable {
    /// The Swift source that declares the key, kept in snapshots and the store and shown by the inspector.
    var source: String { get }
    /// The key's `defaultValue`, encoded.
    var defaultValue: JSON { get }
    /// The 1-based line of the `reduce` declaration in `source`, when the key declares one itself.
    var reduceLine: Int? { get }
    /// Runs `reduce(value: &value, nextValue: next)`. `next` evaluates the next sibling on its first call; the
    /// reducer calls it at most once (a second `nextValue()` in Swift returns the first result). A fault in the
    /// Swift code is thrown as `runtime_error` or `too_expensive`; `value` is then unspecified.
    func reduce(_ value: inout JSON, context: ReducerContext, next: () -> JSON) throws(CanopyError)
    /// `nil` when `value` decodes to the key's `Value`; otherwise why it does not, for a `type_mismatch`.
    func mismatch(_ value: JSON) -> String?
    /// Compiles a `transformPreference` closure over the key's value (`{ $0 += 1 }`, `{ value in … }`).
    func compileTransform(_ source: String) throws(CanopyError) -> any CustomTransform
    /// Starts a fold from `first` whose accumulated value stays decoded between its `reduce` calls (one encoding
    /// at the end instead of one per sibling); `nil` when the reducer keeps values as JSON.
    func startFold(_ first: JSON) -> (any CustomFold)?
}

extension CustomReducer {
    public func startFold(_ first: JSON) -> (any CustomFold)? { nil }
}

/// A fold in progress with its accumulated value in the reducer's own form (`CustomReducer.startFold`).
public protocol CustomFold: AnyObject {
    /// `reduce(value: &accumulated, nextValue: next)`, as `CustomReducer.reduce` does it.
    func reduce(context: ReducerContext, next: () -> JSON) throws(CanopyError)
    /// The accumulated value, encoded.
    var result: JSON { get }
}

/// A compiled `transformPreference` closure of a custom key.
public protocol CustomTransform: AnyObject, Sendable {
    /// The closure's source as the client sent it.
    var source: String { get }
    /// Runs the closure on `value` (the content's value, or the key's default).
    func apply(_ value: inout JSON, context: ReducerContext) throws(CanopyError)
    /// Whether `source` is Swift the key's compiler compiles (so a key declared again recompiles it); false for a
    /// closure a program made at run time, whose source only names it.
    var compiledFromSource: Bool { get }
}

extension CustomTransform {
    public var compiledFromSource: Bool { true }
}

/// Compiles the Swift of `{"key":"K","swift":"…"}` declarations; a tree without one refuses such keys.
public protocol KeyCompiler: Sendable {
    /// Compiles `source`, which must declare a `PreferenceKey` named `key`. Errors are `compile_error`s whose
    /// `details` carry `diagnostics`.
    func compileKey(named key: String, source: String) throws(CanopyError) -> any CustomReducer
}

/// What custom reducers share during one evaluation (one batch): the fuel left and the interpreter's scratch
/// space. Made per evaluation and used only by the thread running it.
public final class ReducerContext: @unchecked Sendable {  // confined to the evaluating thread, never shared
    /// Work units left; a reducer that runs out throws `too_expensive`.
    public var fuel: Int
    /// Whatever the reducer keeps between calls of one evaluation (CanopyScript's value stack).
    public var scratch: AnyObject?

    public init(fuel: Int) {
        self.fuel = fuel
    }
}

/// A key's reducer: one of the catalog's, or Swift code.
///
/// `uncompiled` is the wire form of a Swift key (`{"key":"K","swift":"…"}`): decoding stays free of the compiler,
/// and a tree compiles such a declaration with its `KeyCompiler` before it enters the key table, so the evaluator
/// only ever sees `catalog` and `custom`.
public enum KeyReducer: Sendable {
    case catalog(Reducer)
    case custom(any CustomReducer)
    /// Swift source not compiled yet.
    case uncompiled(String)

    /// The catalog reducer's name, or `swift`.
    public var name: String {
        if case .catalog(let r) = self { return r.rawValue }
        return "swift"
    }

    /// The Swift source of a custom or uncompiled reducer; `nil` for the catalog's.
    public var swiftSource: String? {
        switch self {
        case .catalog: return nil
        case .custom(let r): return r.source
        case .uncompiled(let s): return s
        }
    }
}

extension KeyReducer: Equatable {
    /// Custom reducers are equal when their source is.
    public static func == (a: KeyReducer, b: KeyReducer) -> Bool {
        switch (a, b) {
        case (.catalog(let x), .catalog(let y)): return x == y
        case (.custom(let x), .custom(let y)): return x === y || x.source == y.source
        case (.custom(let x), .uncompiled(let y)), (.uncompiled(let y), .custom(let x)): return x.source == y
        case (.uncompiled(let x), .uncompiled(let y)): return x == y
        default: return false
        }
    }
}
