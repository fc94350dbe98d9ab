import SwiftSyntax
/// A compiled program: its types, functions and constants, ready to run. Immutable once compiled, so one program
/// serves every tree and thread that uses it; running state lives in a `Machine`.
public final class Program: @unchecked Sendable {  // immutable after compilation; machines only read it
    /// Every type: the builtin types' extension points first, then the prelude's, then the program's.
    package var types: [TypeInfo] = []
    package var typeIndex: [String: TypeID] = [:]
    /// Top-level functions by full name (`max(_:_:)`), and by base name for function values.
    package var functions: [String: Function] = [:]
    /// Static properties and top-level `let`s, each computed once when the program compiles.
    var cells: [ConstantCell] = []
    /// Top-level `var`s: program-wide state, one set per program tree.
    package var globalVariables: [GlobalVariable] = []
    /// The extension points of library types, by kind of value (`extension Array`, `extension Double`).
    package var builtinTypes: [ValueKind: TypeID] = [:]
    /// The source as written (without the prelude).
    public let source: String
    /// `#Preview { … }` declarations, in source order.
    package var previews: [PreviewInfo] = []
    /// The source imports Foundation (itself or through SwiftUI, UIKit, AppKit), whose `String` members replace some
    /// of the standard library's: `"abc".contains("")` is false with it, true without.
    package var importsFoundation = false

    package init(source: String) {
        self.source = source
    }

    package func type(named name: String) -> TypeInfo? { typeIndex[name].map { types[$0] } }

    /// The extension point of a library value's type.
    package func builtinType(of v: Value) -> TypeID? { builtinTypes[v.kind] }

    /// The name Swift would print for a type.
    package func name(of t: TypeRef) -> String {
        switch t {
        case .unknown: return "_"
        case .void: return "Void"
        case .bool: return "Bool"
        case .int: return "Int"
        case .double: return "Double"
        case .string: return "String"
        case .array(let e): return "[\(name(of: e))]"
        case .slice(let e): return "ArraySlice<\(name(of: e))>"
        case .dictionary(let k, let v): return "[\(name(of: k)): \(name(of: v))]"
        case .set(let e): return "Set<\(name(of: e))>"
        case .optional(let w): return "\(name(of: w))?"
        case .tuple(let ts, let labels):
            let parts = ts.indices.map { i in (i < labels.count ? labels[i].map { "\($0): " } ?? "" : "") + name(of: ts[i]) }
            return "(" + parts.joined(separator: ", ") + ")"
        case .named(let id):
            // The types of `StringIndexPrelude`, as Swift names them.
            if types[id].name == "__StringIndex" { return "String.Index" }
            if types[id].name == "__StringRange" { return "Range<String.Index>" }
            return types[id].name
        case .function(let ps, let r): return "(" + ps.map { name(of: $0) }.joined(separator: ", ") + ") -> " + name(of: r)
        case .range: return "Range<Int>"
        case .generic(let n): return n
        case .metatype(let t): return name(of: t) + ".Type"
        case .opaque(let n): return n
        }
    }
}

/// A struct, enum or protocol, or a builtin type that extensions add members to.
package final class TypeInfo {
    package enum Kind { case structure, enumeration, protocolType, builtin }

    package let id: TypeID
    /// Qualified name as written: `PreviewModifierDemo.SampleData`.
    package let name: String
    package let kind: Kind
    package let location: SourceLocation
    package var fields: [Field] = []
    package var fieldIndex: [String: Int] = [:]
    package var cases: [EnumCaseInfo] = []
    package var caseIndex: [String: Int] = [:]
    /// The raw value type of an enum with raw values.
    package var rawType: TypeRef?
    /// Instance methods and computed properties (getters named as the property), by full name.
    package var methods: [String: Function] = [:]
    /// Static functions, operators (`<`, `==`, `+`) and initializers (`init(x:y:)`), by full name.
    package var staticMethods: [String: Function] = [:]
    /// Static stored properties: index into `Program.cells`.
    package var staticConstants: [String: Int] = [:]
    package var staticTypes: [String: TypeRef] = [:]
    /// Protocols it conforms to, refinements included.
    package var conformances: Set<String> = []
    /// Type aliases and associated types declared inside it (`typealias Value = CGFloat`).
    package var aliases: [String: TypeRef] = [:]
    package var genericParameters: [String] = []
    /// Setters of computed properties, by property name.
    package var setters: [String: Function] = [:]
    /// Observers of stored properties, by property name.
    package var willSet: [String: Function] = [:]
    package var didSet: [String: Function] = [:]
    /// Generic parameters constrained to a protocol (`struct Card<T: View>`).
    package var genericConstraints: [String: String] = [:]
    /// A class (instances are shared references) and the class it inherits from.
    package var isClass = false
    package var superclass: TypeID?
    /// How many of a subclass's stored properties are its superclass's (their initial values are the superclass's).
    package var inheritedFields = 0
    /// Whether it declares its own initializer (then Swift synthesizes no memberwise one).
    package var hasExplicitInit = false
    /// Enclosing type, for nested types.
    package var parent: TypeID?
    /// A protocol's requirements by full name (`name()`, `symbol`): members a conforming type's own
    /// implementation replaces even when called through the protocol.
    package var requirements: Set<String> = []
    /// A protocol's extension members, kept as source so each conforming type gets its own copy.
    var extensionMembers: [String: ExtensionMember] = [:]
    /// A conforming type's copies of its protocols' extension members, by `Protocol.member`: what a call through
    /// the protocol runs for this type (Swift binds a member that is not a requirement statically).
    package var protocolCopies: [String: Function] = [:]
    /// A class's protocol witnesses that are not its own methods: where the class that declared the conformance took
    /// a protocol extension's default, a call through the protocol runs that default, not a subclass's method of the
    /// same name (which does not override it).
    package var classWitnesses: [String: Function] = [:]

    package init(id: TypeID, name: String, kind: Kind, location: SourceLocation) {
        self.id = id
        self.name = name
        self.kind = kind
        self.location = location
    }

    package func conforms(to p: String) -> Bool { conformances.contains(p) }
}

/// A member declared in a protocol extension, compiled again for every conforming type so that `Self`, its static
/// members and its requirements mean that type's, as in Swift.
struct ExtensionMember {
    var decl: DeclSyntax
    var binding: PatternBindingSyntax?
    var isStatic: Bool
    var converter: SourceLocationConverter
    var inPrelude: Bool
}

/// A `#Preview`: the function that builds the previewed view, and the preview modifiers its traits apply.
package struct PreviewInfo {
    package var name: String?
    package var function: Function
    package var modifiers: [String]
}

/// A stored property of a struct.
package struct Field {
    package var name: String
    package var type: TypeRef
    package var isLet: Bool
    /// The initial value expression, run by the memberwise initializer when its argument is left out.
    var initial: Expr?
    /// A property wrapper: `State`, `Binding`, `Environment` (reads and writes go through its storage).
    package var wrapper: String?
    /// `@Environment(\.key)`: the key.
    package var environmentKey: String?
    /// `@ViewBuilder let content: () -> Content`: closures given for it are builder closures.
    package var isBuilder = false
}

/// A case of an enum.
package struct EnumCaseInfo {
    package var name: String
    package var rawValue: Value?
    package var payloadLabels: [String?] = []
    package var payloadTypes: [TypeRef] = []
}

/// Something that can be called: a compiled function, a closure, a bound method or a native.
package class Callable {
    /// Which subclass this is: the machine switches on it instead of casting, on every call.
    package enum Kind { case function, closure, bound, native, nextValue }

    package let kind: Kind

    package init(kind: Kind) { self.kind = kind }

    package var displayName: String { "closure" }
}

/// A compiled function, method, initializer, getter or closure body.
package final class Function: Callable {
    package let name: String
    package let location: SourceLocation
    /// Parameters, `self` first for methods.
    package var parameterCount = 0
    package var parameterLabels: [String?] = []
    package var parameterTypes: [TypeRef] = []
    var defaults: [Expr?] = []
    /// Parameters declared with a default (their expressions compile later than the signature).
    var defaulted: Set<Int> = []
    /// Parameter names for a body compiled from an accessor (`set(v)`), which has no parameter clause.
    var bodyParameterNames: [String]?
    /// Generic parameters constrained to a protocol (`<B: Badge>`): calls through them bind a protocol extension's
    /// non-requirement members statically, as through an existential.
    var constraints: [String: String] = [:]
    /// The variadic parameter (`_ items: Int...`), an array inside the body.
    var variadic: Int?
    package var inoutParameters: [Int] = []
    /// Parameters that closures capture: boxed on entry.
    package var boxedParameters: [Int] = []
    package var slotCount = 0
    var body: [Stmt] = []
    package var returnType: TypeRef = .void
    package var isMutating = false
    package var isStatic = false
    /// Methods have `self` in slot 0.
    package var hasSelf = false
    /// A closure body: its captured boxes come from the `Closure` that runs it.
    package var isClosure = false
    /// A `@ViewBuilder` body (a view's `body`, a function marked so).
    package var isBuilder = false
    /// Parameters marked `@ViewBuilder`: closures passed to them are builder closures.
    package var builderParameters: Set<Int> = []

    package init(name: String, location: SourceLocation) {
        self.name = name
        self.location = location
        super.init(kind: .function)
    }

    package override var displayName: String { name }
}

/// A closure value: a body and the boxes it captured.
package final class Closure: Callable {
    package let function: Function
    package let captures: [Box]

    package init(_ function: Function, captures: [Box]) {
        self.function = function
        self.captures = captures
        super.init(kind: .closure)
    }

    package override var displayName: String { function.name }
}

/// A method with its receiver, used as a value (`rule.validate`).
package final class BoundMethod: Callable {
    package let function: Function
    package let receiver: Value

    package init(_ function: Function, receiver: Value) {
        self.function = function
        self.receiver = receiver
        super.init(kind: .bound)
    }

    package override var displayName: String { function.name }
}

/// A library function used as a value (`uniquingKeysWith: max`).
package final class NativeFunction: Callable {
    package let name: String
    package let body: (Machine, [Value]) throws(ScriptFault) -> Value

    /// How many arguments it takes, from its full name (`max(_:_:)` takes 2); `nil`: it checks them itself.
    package let arity: Int?

    package init(_ name: String, _ body: @escaping (Machine, [Value]) throws(ScriptFault) -> Value) {
        self.name = name
        self.body = body
        arity = name.contains("(") ? name.split(separator: "(", maxSplits: 1).last.map { $0.filter { $0 == ":" }.count } : nil
        super.init(kind: .native)
    }

    package init(_ name: String, arity: Int?, _ body: @escaping (Machine, [Value]) throws(ScriptFault) -> Value) {
        self.name = name
        self.body = body
        self.arity = arity
        super.init(kind: .native)
    }

    package override var displayName: String { name }
}

extension Program {
    /// Whether class `t` inherits, directly or not, from class `ancestor`.
    package func isSubclass(_ t: TypeID, of ancestor: TypeID) -> Bool {
        var c = types[t].superclass
        while let s = c {
            if s == ancestor { return true }
            c = types[s].superclass
        }
        return false
    }
}

/// A top-level `var`: its name, type and initial value (run on first use).
package struct GlobalVariable {
    package var name: String
    package var type: TypeRef
    var initial: Expr?
}
