/// `{key, reducer, default}` or `{key, swift}`: a declared preference key.
public struct KeyDeclaration: Sendable, Equatable {
    public var key: String
    public var reducer: KeyReducer
    /// The catalog key's declared default, or the Swift key's `defaultValue` (`null` while uncompiled).
    public var defaultValue: JSON

    /// A key with a catalog reducer.
    public init(key: String, reducer: Reducer, defaultValue: JSON) {
        self.key = key
        self.reducer = .catalog(reducer)
        self.defaultValue = defaultValue
    }

    /// A key with a compiled Swift reducer; its default is the reducer's.
    public init(key: String, custom: any CustomReducer) {
        self.key = key
        self.reducer = .custom(custom)
        self.defaultValue = custom.defaultValue
    }

    /// A Swift key as decoded from the wire, to be compiled by the tree that declares it.
    public init(key: String, swift source: String) {
        self.key = key
        self.reducer = .uncompiled(source)
        self.defaultValue = .null
    }

    /// The catalog reducer, if the key uses one.
    public var catalogReducer: Reducer? {
        if case .catalog(let r) = reducer { return r }
        return nil
    }

    /// Checks the declaration itself: a non-empty key and a default of the reducer's type.
    public func validate() throws(CanopyError) {
        guard !key.isEmpty else { throw CanopyError(.badKey, "a key name must not be empty") }
        guard case .catalog(let r) = reducer, !r.valueType.accepts(defaultValue) else { return }
        throw CanopyError(
            .typeMismatch,
            "default of key \"\(key)\" is \(defaultValue.typeName), reducer \(r.rawValue) needs "
                + r.valueType.description)
    }

    /// Why `value` does not fit this key's reducer, or `nil` when it does.
    public func mismatch(_ value: JSON) -> String? {
        switch reducer {
        case .catalog(let r):
            guard !r.valueType.accepts(value) else { return nil }
            return "value for key \"\(key)\" is \(value.typeName), reducer \(r.rawValue) needs "
                + r.valueType.description
        case .custom(let r):
            return r.mismatch(value)
        case .uncompiled:
            return "key \"\(key)\" is not compiled"
        }
    }

    /// Checks that `value` fits this key's reducer.
    public func check(_ value: JSON) throws(CanopyError) {
        if let why = mismatch(value) { throw CanopyError(.typeMismatch, why) }
    }

    /// How the reducer is named in messages: the catalog name, or "Swift".
    var reducerDescription: String {
        if case .catalog(let r) = reducer { return "reducer \(r.rawValue)" }
        return "a Swift reducer"
    }
}

extension KeyDeclaration {
    /// Compiles an uncompiled declaration with `compiler`; other declarations are returned as they are.
    func compiled(with compiler: (any KeyCompiler)?) throws(CanopyError) -> KeyDeclaration {
        guard case .uncompiled(let source) = reducer else { return self }
        guard let compiler else { throw CanopyError(.compileError, "this tree has no Swift compiler") }
        return KeyDeclaration(key: key, custom: try compiler.compileKey(named: key, source: source))
    }
}
