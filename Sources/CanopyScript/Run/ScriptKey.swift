import CanopyCore

/// A `PreferenceKey` written in Swift, running in the engine through its reducer hook.
public final class ScriptKey: CustomReducer, @unchecked Sendable {  // immutable after init; runs use a Machine
    let program: Program
    let keyType: TypeInfo
    let valueType: TypeRef
    let reduceFunction: Function
    public let name: String
    public let source: String
    public let defaultValue: JSON
    public let reduceLine: Int?

    package init(program: Program, key: String) throws(CompileFailure) {
        guard let t = program.type(named: key), t.kind == .structure || t.kind == .enumeration else {
            throw CompileFailure(diagnostics: [
                Diagnostic(SourceLocation(line: 1, column: 1), "the program declares no PreferenceKey named '\(key)'")
            ])
        }
        guard t.conforms(to: "PreferenceKey") else {
            throw CompileFailure(diagnostics: [Diagnostic(t.location, "'\(key)' does not conform to PreferenceKey")])
        }
        guard let reduce = t.staticMethods["reduce(value:nextValue:)"] else {
            throw CompileFailure(diagnostics: [
                Diagnostic(
                    t.location,
                    "type '\(key)' does not conform to protocol 'PreferenceKey': add 'static func reduce(value: inout Value, nextValue: () -> Value)'"
                )
            ])
        }
        guard let d = t.staticConstants["defaultValue"] else {
            throw CompileFailure(diagnostics: [
                Diagnostic(t.location, "type '\(key)' does not conform to protocol 'PreferenceKey': add 'static var defaultValue'")
            ])
        }
        var value = t.aliases["Value"] ?? t.staticTypes["defaultValue"] ?? .unknown
        if !value.isKnown, let p = reduce.parameterTypes.first, p.isKnown { value = p }
        // Swift infers one Value from both: `static var defaultValue = "a"` with `reduce(value: inout Int, …)` does
        // not conform (an integer literal where a Double is folded is fine: Swift types the literal from context).
        if let p = reduce.parameterTypes.first, p.isKnown, value.isKnown, p != value, !(p.isNumeric && value.isNumeric) {
            throw CompileFailure(diagnostics: [
                Diagnostic(
                    reduce.location,
                    "type '\(key)' does not conform to protocol 'PreferenceKey': reduce(value:nextValue:) takes "
                        + "'\(program.name(of: p))', but Value is '\(program.name(of: value))'")
            ])
        }
        if value == .int, reduce.parameterTypes.first == .double { value = .double }
        self.program = program
        keyType = t
        valueType = value
        reduceFunction = reduce
        name = key
        source = program.source
        let cell = program.constantCell(d)
        defaultValue = program.encode(cell.value ?? .null)
        reduceLine = reduce.location.line > 0 ? reduce.location.line : nil
    }

    public func reduce(_ value: inout JSON, context: ReducerContext, next: () -> JSON) throws(CanopyError) {
        let current = decodeTrusted(value)
        value = program.encode(try reduce(taking: { current }, context: context, next: next))
    }

    public func startFold(_ first: JSON) -> (any CustomFold)? { ScriptFold(key: self, value: decodeTrusted(first)) }

    /// Runs `reduce` on the value `take` hands over (moved, so an array it appends to has one owner and grows in
    /// place) with `next` as its `nextValue`.
    func reduce(taking take: () -> Value, context: ReducerContext, next: () -> JSON) throws(CanopyError) -> Value {
        try context.runSwift(program) { (m: Machine) throws(ScriptFault) -> Value in
            try withoutActuallyEscaping(next) { (pull: @escaping () -> JSON) throws(ScriptFault) -> Value in
                try run(m, take(), pull)
            }
        }
    }

    private func run(_ m: Machine, _ current: consuming Value, _ pull: @escaping () -> JSON) throws(ScriptFault) -> Value {
        let thunk = m.nextThunk()
        thunk.pull = pull
        thunk.key = self
        defer {
            thunk.pull = nil
            thunk.key = nil
            thunk.cached = nil
            m.thunkDepth -= 1
        }
        let f = reduceFunction
        let base = m.reserve(f.slotCount)
        defer { m.release(base) }
        m.stack[base] = consume current
        m.stack[base + 1] = .function(thunk)
        _ = try m.run(f, base: base, captures: [], site: f.location)
        return m.stack[base].unboxed
    }

    /// A value of the tree as Swift sees it (an `onPreferenceChange` closure's argument).
    package func decodeValue(_ json: JSON) -> Value { decodeTrusted(json) }

    /// The key's `defaultValue`.
    package var defaultScriptValue: Value { decodeTrusted(defaultValue) }

    /// Values in the tree were checked when they entered it; decode them without failing.
    func decodeTrusted(_ json: JSON) -> Value {
        // The common scalar keys decode without the general decoder.
        switch (valueType, json) {
        case (.int, .int(let i)): return .int(Int(i))
        case (.double, .double(let d)): return .double(d)
        case (.double, .int(let i)): return .double(Double(i))
        case (.bool, .bool(let b)): return .bool(b)
        default: break
        }
        switch program.decode(json, as: valueType) {
        case .success(let v): return v
        case .failure: return program.plain(json)
        }
    }

    public func mismatch(_ value: JSON) -> String? {
        switch program.decode(value, as: valueType) {
        case .success: return nil
        case .failure(let f): return "\(f.message) (key \(name)'s Value is \(program.name(of: valueType)))"
        }
    }

    public func compileTransform(_ source: String) throws(CanopyError) -> any CustomTransform {
        try ScriptTransform(key: self, closure: source)
    }
}

extension Program {
    func constantCell(_ index: Int) -> ConstantCell { cells[index] }
}

extension Machine {
    /// A `nextValue` thunk for the next nesting level of `reduce` calls.
    func nextThunk() -> NextValueThunk {
        if thunkDepth == thunks.count { thunks.append(NextValueThunk()) }
        let t = thunks[thunkDepth]
        thunkDepth += 1
        return t
    }
}

/// A fold of a Swift key whose accumulated value stays an interpreter value between `reduce` calls.
final class ScriptFold: CustomFold {
    let key: ScriptKey
    var value: Value

    init(key: ScriptKey, value: Value) {
        self.key = key
        self.value = value
    }

    func reduce(context: ReducerContext, next: () -> JSON) throws(CanopyError) {
        value = try key.reduce(taking: take, context: context, next: next)
    }

    /// The accumulated value, moved out.
    private func take() -> Value {
        let v = value
        value = .null
        return v
    }

    var result: JSON { key.program.encode(value) }
}
