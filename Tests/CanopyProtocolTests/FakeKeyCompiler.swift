import CanopyCore

/// A stand-in for CanopyScript's compiler: the "Swift" of a key is `sum` (integers added, default 0) or `last` (the
/// last sibling's value, default 0); anything else is a `compile_error` with one diagnostic. A `sum` whose result
/// would pass 1000 faults with a `runtime_error` (as an overflow trap would), and every reduce and transform spends
/// one unit of fuel.
struct FakeKeyCompiler: KeyCompiler {
    static let diagnostics: JSON = [["line": 1, "column": 5, "message": "expected 'struct'"]]
    static let faultDetails: JSONObject = [
        "line": 4, "column": 17, "stack": [["function": "reduce(value:nextValue:)", "line": 4]],
    ]

    func compileKey(named key: String, source: String) throws(CanopyError) -> any CustomReducer {
        guard source == "sum" || source == "last" else {
            throw CanopyError(.compileError, "\(key) does not compile", details: ["diagnostics": Self.diagnostics])
        }
        return FakeKey(source: source)
    }
}

final class FakeKey: CustomReducer {
    let source: String
    var defaultValue: JSON { 0 }
    var reduceLine: Int? { 3 }

    init(source: String) { self.source = source }

    func reduce(_ value: inout JSON, context: ReducerContext, next: () -> JSON) throws(CanopyError) {
        try Self.spend(context)
        guard source == "sum" else {
            value = next()
            return
        }
        guard case .int(let a) = value, case .int(let b) = next() else { return }
        guard a + b <= 1000 else {
            throw CanopyError(.runtimeError, "arithmetic overflow", details: FakeKeyCompiler.faultDetails)
        }
        value = .int(a + b)
    }

    func mismatch(_ value: JSON) -> String? {
        if case .int = value { return nil }
        return "expected an Int"
    }

    /// `{ $0 += N }` only.
    func compileTransform(_ source: String) throws(CanopyError) -> any CustomTransform {
        guard source.hasPrefix("{ $0 += "), source.hasSuffix(" }"), let n = Int64(source.dropFirst(8).dropLast(2))
        else {
            throw CanopyError(.compileError, "closure does not compile", details: ["diagnostics": []])
        }
        return FakeAdd(source: source, amount: n)
    }

    static func spend(_ context: ReducerContext) throws(CanopyError) {
        context.fuel -= 1
        if context.fuel < 0 { throw CanopyError(.tooExpensive, "out of fuel") }
    }
}

final class FakeAdd: CustomTransform {
    let source: String
    let amount: Int64

    init(source: String, amount: Int64) {
        self.source = source
        self.amount = amount
    }

    func apply(_ value: inout JSON, context: ReducerContext) throws(CanopyError) {
        try FakeKey.spend(context)
        if case .int(let a) = value { value = .int(a + amount) }
    }
}
