import SwiftSyntax

/// A local variable as the compiler sees it.
struct Local {
    var slot: Int
    var type: TypeRef
    var mutable: Bool
    var boxed: Bool
    /// A nested `func`: its labels and defaults, for matching a call's arguments.
    var function: Function?
}

/// What the compiler knows while compiling one function or closure body: its slots, block scopes, captures and
/// the type it belongs to.
final class FunctionContext {
    let function: Function
    let parent: FunctionContext?
    var scopes: [[String: Local]] = [[:]]
    /// Names that some closure inside this body mentions: variables of these names live in boxes.
    var capturedNames: Set<String>
    /// For closures: the outer variables captured so far, by name, and where they come from.
    var captureIndex: [String: Int] = [:]
    var captureSources: [CaptureSource] = []
    var captureTypes: [TypeRef] = []
    var captureMutable: [Bool] = []
    /// The type whose member this is, if any.
    let selfType: TypeID?
    let isStatic: Bool
    /// Whether `self` may be assigned (a mutating method or an initializer).
    let selfMutable: Bool
    var returnType: TypeRef
    /// Generic parameter names in scope.
    var generics: Set<String>
    /// For closures without named parameters: how many `$n` the body uses.
    var dollarCount = 0
    var usesDollar = false
    /// Slots of `$0`, `$1`, … in a shorthand closure.
    var dollarSlots: [Int] = []

    init(
        function: Function, parent: FunctionContext?, selfType: TypeID?, isStatic: Bool, selfMutable: Bool,
        returnType: TypeRef, generics: Set<String>, capturedNames: Set<String>
    ) {
        self.function = function
        self.parent = parent
        self.selfType = selfType
        self.isStatic = isStatic
        self.selfMutable = selfMutable
        self.returnType = returnType
        self.generics = generics
        self.capturedNames = capturedNames
    }

    /// Declares a local in the innermost scope and returns it.
    @discardableResult
    func declare(_ name: String, type: TypeRef, mutable: Bool) -> Local {
        let l = Local(slot: function.slotCount, type: type, mutable: mutable, boxed: capturedNames.contains(name))
        function.slotCount += 1
        if name != "_" { scopes[scopes.count - 1][name] = l }
        return l
    }

    /// Updates a local's type once its initializer's type is known.
    func refine(_ name: String, type: TypeRef) {
        for i in scopes.indices.reversed() where scopes[i][name] != nil {
            scopes[i][name]!.type = type
            return
        }
    }

    /// The nested `func` a name refers to here or in an enclosing body, if it is one.
    func localFunction(_ name: String) -> Function? {
        var c: FunctionContext? = self
        while let ctx = c {
            if let l = ctx.lookupLocal(name) { return l.function }
            c = ctx.parent
        }
        return nil
    }

    /// Marks a declared local as a nested function.
    func setFunction(_ name: String, _ fn: Function) {
        for i in scopes.indices.reversed() where scopes[i][name] != nil {
            scopes[i][name]!.function = fn
            return
        }
    }

    func lookupLocal(_ name: String) -> Local? {
        for s in scopes.reversed() { if let l = s[name] { return l } }
        return nil
    }

    func push() { scopes.append([:]) }
    func pop() { scopes.removeLast() }
}

/// Collects the names closures in a body mention, so the variables they capture can be boxed from the start.
final class CaptureScanner: SyntaxVisitor {
    var names: Set<String> = []
    private var closureDepth = 0

    init() { super.init(viewMode: .sourceAccurate) }

    static func scan(_ node: some SyntaxProtocol) -> Set<String> {
        let s = CaptureScanner()
        s.walk(node)
        return s.names
    }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
        closureDepth += 1
        // Inside a closure, `self` is captured implicitly by any member access.
        names.insert("self")
        return .visitChildren
    }

    override func visitPost(_ node: ClosureExprSyntax) { closureDepth -= 1 }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        // A nested function captures like a closure.
        closureDepth += 1
        names.insert("self")
        names.insert(node.name.text)
        return .visitChildren
    }

    override func visitPost(_ node: FunctionDeclSyntax) { closureDepth -= 1 }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        if closureDepth > 0 { names.insert(node.baseName.text) }
        return .visitChildren
    }
}
