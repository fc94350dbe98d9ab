/// A compiled program: its types, functions and constants, ready to run. Immutable once compiled, so one program
/// serves every tree and thread that uses it; running state lives in a `Machine`.
public final class Program: @unchecked Sendable {  // immutable after compilation; machines only read it
    /// Every type: the builtin types' extension points first, then the prelude's, then the program's.
    var types: [TypeInfo] = []
    var typeIndex: [String: TypeID] = [:]
    /// Top-level functions by full name (`max(_:_:)`), and by base name for function values.
    var functions: [String: Function] = [:]
    /// Static properties and top-level `let`s, each computed once when the program compiles.
    var cells: [ConstantCell] = []
    /// The extension points of library types, by kind of value (`extension Array`, `extension Double`).
    var builtinTypes: [ValueKind: TypeID] = [:]
    /// The source as written (without the prelude).
    public let source: String

    init(source: String) {
        self.source = source
    }

    func type(named name: String) -> TypeInfo? { typeIndex[name].map { types[$0] } }

    /// The extension point of a library value's type.
    func builtinType(of v: Value) -> TypeID? { builtinTypes[v.kind] }

    /// The name Swift would print for a type.
    func name(of t: TypeRef) -> String {
        switch t {
        case .unknown: return "_"
        case .void: return "Void"
        case .bool: return "Bool"
        case .int: return "Int"
        case .double: return "Double"
        case .string: return "String"
        case .array(let e): return "[\(name(of: e))]"
        case .dictionary(let k, let v): return "[\(name(of: k)): \(name(of: v))]"
        case .set(let e): return "Set<\(name(of: e))>"
        case .optional(let w): return "\(name(of: w))?"
        case .tuple(let ts): return "(" + ts.map { name(of: $0) }.joined(separator: ", ") + ")"
        case .named(let id): return types[id].name
        case .function(let ps, let r): return "(" + ps.map { name(of: $0) }.joined(separator: ", ") + ") -> " + name(of: r)
        case .range: return "Range<Int>"
        case .generic(let n): return n
        case .metatype(let t): return name(of: t) + ".Type"
        case .opaque(let n): return n
        }
    }
}

/// A struct, enum or protocol, or a builtin type that extensions add members to.
final class TypeInfo {
    enum Kind { case structure, enumeration, protocolType, builtin }

    let id: TypeID
    /// Qualified name as written: `PreviewModifierDemo.SampleData`.
    let name: String
    let kind: Kind
    let location: SourceLocation
    var fields: [Field] = []
    var fieldIndex: [String: Int] = [:]
    var cases: [EnumCaseInfo] = []
    var caseIndex: [String: Int] = [:]
    /// The raw value type of an enum with raw values.
    var rawType: TypeRef?
    /// Instance methods and computed properties (getters named as the property), by full name.
    var methods: [String: Function] = [:]
    /// Static functions, operators (`<`, `==`, `+`) and initializers (`init(x:y:)`), by full name.
    var staticMethods: [String: Function] = [:]
    /// Static stored properties: index into `Program.cells`.
    var staticConstants: [String: Int] = [:]
    var staticTypes: [String: TypeRef] = [:]
    /// Protocols it conforms to, refinements included.
    var conformances: Set<String> = []
    /// Type aliases and associated types declared inside it (`typealias Value = CGFloat`).
    var aliases: [String: TypeRef] = [:]
    var genericParameters: [String] = []
    /// Whether it declares its own initializer (then Swift synthesizes no memberwise one).
    var hasExplicitInit = false
    /// Enclosing type, for nested types.
    var parent: TypeID?

    init(id: TypeID, name: String, kind: Kind, location: SourceLocation) {
        self.id = id
        self.name = name
        self.kind = kind
        self.location = location
    }

    func conforms(to p: String) -> Bool { conformances.contains(p) }
}

/// A stored property of a struct.
struct Field {
    var name: String
    var type: TypeRef
    var isLet: Bool
    /// The initial value expression, run by the memberwise initializer when its argument is left out.
    var initial: Expr?
    /// A property wrapper (`@State`): kept for views (issue 14).
    var wrapper: String?
}

/// A case of an enum.
struct EnumCaseInfo {
    var name: String
    var rawValue: Value?
    var payloadLabels: [String?] = []
    var payloadTypes: [TypeRef] = []
}

/// Something that can be called: a compiled function, a closure, a bound method or a native.
class Callable {
    /// Which subclass this is: the machine switches on it instead of casting, on every call.
    enum Kind { case function, closure, bound, native, nextValue }

    let kind: Kind

    init(kind: Kind) { self.kind = kind }

    var displayName: String { "closure" }
}

/// A compiled function, method, initializer, getter or closure body.
final class Function: Callable {
    let name: String
    let location: SourceLocation
    /// Parameters, `self` first for methods.
    var parameterCount = 0
    var parameterLabels: [String?] = []
    var parameterTypes: [TypeRef] = []
    var defaults: [Expr?] = []
    var inoutParameters: [Int] = []
    /// Parameters that closures capture: boxed on entry.
    var boxedParameters: [Int] = []
    var slotCount = 0
    var body: [Stmt] = []
    var returnType: TypeRef = .void
    var isMutating = false
    var isStatic = false
    /// Methods have `self` in slot 0.
    var hasSelf = false
    /// A closure body: its captured boxes come from the `Closure` that runs it.
    var isClosure = false

    init(name: String, location: SourceLocation) {
        self.name = name
        self.location = location
        super.init(kind: .function)
    }

    override var displayName: String { name }
}

/// A closure value: a body and the boxes it captured.
final class Closure: Callable {
    let function: Function
    let captures: [Box]

    init(_ function: Function, captures: [Box]) {
        self.function = function
        self.captures = captures
        super.init(kind: .closure)
    }

    override var displayName: String { function.name }
}

/// A method with its receiver, used as a value (`rule.validate`).
final class BoundMethod: Callable {
    let function: Function
    let receiver: Value

    init(_ function: Function, receiver: Value) {
        self.function = function
        self.receiver = receiver
        super.init(kind: .bound)
    }

    override var displayName: String { function.name }
}

/// A library function used as a value (`uniquingKeysWith: max`).
final class NativeFunction: Callable {
    let name: String
    let body: (Machine, [Value]) throws(ScriptFault) -> Value

    init(_ name: String, _ body: @escaping (Machine, [Value]) throws(ScriptFault) -> Value) {
        self.name = name
        self.body = body
        super.init(kind: .native)
    }

    override var displayName: String { name }
}
