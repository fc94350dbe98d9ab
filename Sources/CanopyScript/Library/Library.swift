/// A method or property of a library type (`Array.append(_:)`, `String.count`), run natively.
struct NativeMember {
    /// Argument labels, `nil` for unlabeled.
    let labels: [String?]
    let mutating: Bool
    /// A property is read without parentheses (`a.count`).
    let isProperty: Bool
    let result: TypeRef
    let body: NativeBody
}

/// `(machine, receiver, arguments) -> result`; the receiver is `inout` for mutating members.
typealias NativeBody = (Machine, inout Value, [Value]) throws(ScriptFault) -> Value

/// The natives of one member name, by the receiver's kind of value, as a call site resolved them.
struct NativeSite {
    var byKind: [NativeMember?] = Array(repeating: nil, count: ValueKind.allCases.count)

    var isEmpty: Bool { byKind.allSatisfy { $0 == nil } }

    subscript(kind: ValueKind) -> NativeMember? { byKind[kind.rawValue] }
}

/// The standard library of PROGRAMS.md §2 that is not written in the Swift prelude: members of `Int`, `Double`,
/// `Bool`, `String`, `Array`, `Dictionary`, `Set`, ranges and tuples, global functions and type members.
final class Library: @unchecked Sendable {  // filled once at first use, read-only after
    /// Members by base name.
    private(set) var members: [String: [(kinds: [ValueKind], member: NativeMember)]] = [:]
    /// Global functions by full name (`max(_:_:)`).
    private(set) var functions: [String: NativeFunction] = [:]
    /// Initializers and static members of library types: `Int` → `init(_:)`, `max`; `Double` → `pi`.
    private(set) var typeFunctions: [String: [String: NativeFunction]] = [:]
    private(set) var typeConstants: [String: [String: Value]] = [:]
    /// Names of mutating members, so a call on a variable writes back.
    private(set) var mutatingNames: Set<String> = []

    static let shared: Library = {
        let l = Library()
        l.registerAll()
        return l
    }()

    /// Adds a member for receivers of `kinds`.
    func member(
        _ kinds: [ValueKind], _ name: String, _ labels: [String?] = [], mutating: Bool = false, property: Bool = false,
        result: TypeRef = .unknown, _ body: @escaping NativeBody
    ) {
        let m = NativeMember(labels: labels, mutating: mutating, isProperty: property, result: result, body: body)
        members[name, default: []].append((kinds, m))
        if mutating { mutatingNames.insert(name) }
    }

    /// Adds a property a program may also declare in an extension of the library type (`extension String { var
    /// isNumber: Bool { … } }`, where Swift's `String` has none): the program's own wins, as in Swift, where a
    /// module's member shadows the standard library's.
    func shadowableProperty(_ kinds: [ValueKind], _ name: String, result: TypeRef, _ body: @escaping NativeBody) {
        member(kinds, name, property: true, result: result) { m, v, args throws(ScriptFault) in
            if let own = try m.extensionProperty(of: v, name) { return own }
            return try body(m, &v, args)
        }
    }

    /// Adds a global function under its full name (`"max(_:_:)"`).
    func function(
        _ fullName: String, arity: Int? = -1, _ body: @escaping (Machine, [Value]) throws(ScriptFault) -> Value
    ) {
        functions[fullName] = arity == -1 ? NativeFunction(fullName, body) : NativeFunction(fullName, arity: arity, body)
    }

    /// Adds an initializer or static function of a library type (`"Int"`, `"init(_:)"`).
    func typeFunction(
        _ type: String, _ fullName: String, _ body: @escaping (Machine, [Value]) throws(ScriptFault) -> Value
    ) {
        typeFunctions[type, default: [:]][fullName] = NativeFunction("\(type).\(fullName)", body)
    }

    func typeConstant(_ type: String, _ name: String, _ value: Value) {
        typeConstants[type, default: [:]][name] = value
    }

    /// The natives a call `x.name(labels…)` can reach. A trailing closure's label is not written, so `nil`
    /// there matches any label.
    func site(_ name: String, labels: [String?], trailing: Int, property: Bool) -> NativeSite {
        var site = NativeSite()
        // First the members whose parameter at each trailing closure is labeled as a closure's, so
        // `contains { … }` is `contains(where:)` and not `contains(_:)`; then any label.
        for closuresOnly in [true, false] {
            for (kinds, m) in members[name] ?? [] where m.isProperty == property && m.labels.count == labels.count {
                var fits = true
                for (i, l) in labels.enumerated() {
                    let isTrailing = i >= labels.count - trailing && l == nil
                    if closuresOnly && isTrailing && !Library.closureLabels.contains(m.labels[i] ?? "") { fits = false }
                    if l != m.labels[i] && !isTrailing { fits = false }
                }
                guard fits else { continue }
                for k in kinds where site.byKind[k.rawValue] == nil { site.byKind[k.rawValue] = m }
            }
        }
        return site
    }

    /// Labels of the library's closure parameters, which a trailing closure stands for.
    static let closureLabels: Set<String> = ["where", "by", "while", "uniquingKeysWith", "whereSeparator"]

    func hasMember(_ name: String) -> Bool { members[name] != nil }

    private func registerAll() {
        registerCore()
        registerString()
        registerStringIndex()
        registerGeometry()
        registerLayout()
        registerFormat()
        registerCharacters()
        registerNumbers()
        registerGlobals()
        registerArrayMutations()
        registerCollection()
        registerDictionary()
        registerSet()
        registerSequence()
        registerRandom()
        registerFoundation()
        registerNumberFormat()
    }
}
