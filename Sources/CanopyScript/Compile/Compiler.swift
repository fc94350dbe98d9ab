import SwiftOperators
import SwiftParser
import SwiftParserDiagnostics
import SwiftSyntax

/// Compiles Swift source of the subset (PROGRAMS.md §2) into a `Program`: every name resolved to a slot, a field
/// index or a function before anything runs. Problems are collected as diagnostics and reported all at once.
package final class Compiler {
    let program: Program
    var diagnostics: [Diagnostic] = []
    /// The file being compiled: the prelude or the program's own source.
    var converter: SourceLocationConverter
    var inPrelude = false
    /// Global type aliases (`typealias Rects = [Int: CGRect]`).
    var aliases: [String: TypeRef] = [:]
    /// Top-level `var`s by name: their index in `Program.globalVariables`.
    var globalVariables: [String: Int] = [:]
    /// Top-level constants by name.
    var globals: [String: (cell: ConstantCell, type: TypeRef)] = [:]
    /// Declarations waiting for their bodies, in source order (bodies compile once every signature is known).
    var pending: [PendingBody] = []
    /// Member names that may mutate their receiver: user `mutating func`s and library mutating members.
    var mutatingNames: Set<String> = []
    /// Function context while compiling a body.
    var context: FunctionContext!
    /// Open `?` binds not yet closed by a chain.
    var openChains = 0
    var labels: [String: Int] = [:]
    /// Names the source qualified with a module (`Swift.min`): locals do not shadow them.
    var moduleQualified: Set<AbsolutePosition> = []
    /// Names of declarations refused with a diagnostic: their uses are not reported again.
    var refused: Set<String> = []
    /// While an `if`/`switch` that initializes a variable compiles: the variable each branch's value is assigned to.
    var branchAssign: (place: Place, type: TypeRef)?
    /// The type the first branch's value had, for a variable declared without one.
    var branchAssignType: TypeRef?
    /// While an `if`/`switch` that is a body's value compiles: each branch's single expression is returned.
    var branchesReturn = false
    /// The protocol whose extension member is being compiled as a conforming type's copy.
    var copying: TypeInfo?
    /// The `@ViewBuilder` block being compiled, if any.
    var builder: BuilderState?

    init(source: String) {
        program = Program(source: source)
        let empty = Parser.parse(source: "")
        converter = SourceLocationConverter(fileName: "", tree: empty)
    }

    /// Compiles `source`; throws every diagnostic when it does not compile.
    package static func compile(_ source: String) throws(CompileFailure) -> Program {
        let c = Compiler(source: source)
        c.run()
        if !c.diagnostics.isEmpty {
            let sorted = c.diagnostics.sorted {
                ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column)
            }
            var unique: [Diagnostic] = []
            for d in sorted where unique.last != d { unique.append(d) }
            throw CompileFailure(diagnostics: unique)
        }
        return c.program
    }

    private func run() {
        registerBuiltinTypes()
        let prelude = parse(Prelude.source, prelude: true)
        let foundation = FoundationPrelude.isNeeded(by: program.source) ? parse(FoundationPrelude.source, prelude: true) : nil
        let strings = StringIndexPrelude.isNeeded(by: program.source) ? parse(StringIndexPrelude.source, prelude: true) : nil
        let geometry = GeometryPrelude.isNeeded(by: program.source) ? parse(GeometryPrelude.source(for: program.source), prelude: true) : nil
        let layouts = LayoutPrelude.isNeeded(by: program.source) ? parse(LayoutPrelude.source, prelude: true) : nil
        let user = parse(program.source, prelude: false)
        guard let prelude, let user else { return }
        // Pass 1: every type name, so declarations can refer to types declared later.
        within(prelude) { declareTypes(prelude.file.statements, prefix: nil, parent: nil) }
        if let foundation { within(foundation) { declareTypes(foundation.file.statements, prefix: nil, parent: nil) } }
        if let strings { within(strings) { declareTypes(strings.file.statements, prefix: nil, parent: nil) } }
        if let geometry { within(geometry) { declareTypes(geometry.file.statements, prefix: nil, parent: nil) } }
        if let layouts { within(layouts) { declareTypes(layouts.file.statements, prefix: nil, parent: nil) } }
        let local = localTypes(user.file)
        within(user) { declareTypes(user.file.statements, prefix: nil, parent: nil) }
        within(user) { declareLocalTypes(local, members: false) }
        // Pass 2: members, signatures, conformances.
        within(prelude) { declareMembers(prelude.file.statements, prefix: nil, parent: nil) }
        if let foundation { within(foundation) { declareMembers(foundation.file.statements, prefix: nil, parent: nil) } }
        if let strings { within(strings) { declareMembers(strings.file.statements, prefix: nil, parent: nil) } }
        if let geometry { within(geometry) { declareMembers(geometry.file.statements, prefix: nil, parent: nil) } }
        if let layouts { within(layouts) { declareMembers(layouts.file.statements, prefix: nil, parent: nil) } }
        within(user) { declareMembers(user.file.statements, prefix: nil, parent: nil) }
        within(user) { declareLocalTypes(local, members: true) }
        inheritClassMembers()
        finishConformances()
        mutatingNames.formUnion(Library.shared.mutatingNames)
        inheritProtocolDefaults()
        // Pass 3: bodies.
        var i = 0
        while i < pending.count {
            let p = pending[i]
            converter = p.converter
            inPrelude = p.inPrelude
            p.compile(self)
            i += 1
        }
        inheritProtocolDefaults()
        bindClassWitnesses()
        checkLayoutConformances()
        guard diagnostics.isEmpty else { return }
        computeConstants()
    }

    struct ParsedFile {
        var file: SourceFileSyntax
        var converter: SourceLocationConverter
        var prelude: Bool
    }

    private func parse(_ text: String, prelude: Bool) -> ParsedFile? {
        let tree = Parser.parse(source: text)
        let conv = SourceLocationConverter(fileName: prelude ? "prelude" : "program", tree: tree)
        let syntaxErrors = ParseDiagnosticsGenerator.diagnostics(for: tree)
        if !syntaxErrors.isEmpty {
            for d in syntaxErrors {
                let l = d.location(converter: conv)
                diagnostics.append(Diagnostic(SourceLocation(line: l.line, column: l.column), d.message))
            }
            return nil
        }
        let folded = OperatorTable.standardOperators.foldAll(tree) { _ in }
        let remover = ModuleQualifierRemover(viewMode: .sourceAccurate)
        let plain = remover.rewrite(folded)
        if !prelude { moduleQualified = remover.qualified }
        guard let file = plain.as(SourceFileSyntax.self) else { return nil }
        return ParsedFile(file: file, converter: conv, prelude: prelude)
    }

    private func within(_ f: ParsedFile, _ body: () -> Void) {
        converter = f.converter
        inPrelude = f.prelude
        body()
    }

    // MARK: Locations and diagnostics

    func loc(_ node: some SyntaxProtocol) -> SourceLocation {
        if inPrelude { return .unknown }
        let l = node.startLocation(converter: converter)
        return SourceLocation(line: l.line, column: l.column)
    }

    func error(_ node: some SyntaxProtocol, _ message: String) {
        if isFollowOn(message) { return }
        var at = loc(node)
        if inPrelude { at = SourceLocation(line: 0, column: 0) }
        diagnostics.append(Diagnostic(at, inPrelude ? "(prelude) " + message : message))
    }

    /// One error per cause: a use of a declaration that was itself refused (`cannot find 'A'` after `actor A`), or a
    /// member of a value whose type is unknown because of an earlier error, says nothing new.
    private func isFollowOn(_ message: String) -> Bool {
        if message.hasPrefix("cannot find"), refused.contains(where: { message.contains("'\($0)'") }) { return true }
        return !diagnostics.isEmpty && message.hasPrefix("value of type '_'")
    }

    /// A placeholder after an error, so compilation goes on and finds the other errors.
    func bad(_ node: some SyntaxProtocol, _ message: String) -> Expr {
        error(node, message)
        return LiteralExpr(loc(node), .null, .unknown)
    }

    // MARK: Builtin types

    /// Extension points of the library types, so `extension Array` and `extension CGFloat` add members.
    private func registerBuiltinTypes() {
        let kinds: [(String, [ValueKind])] = [
            ("Int", [.int]), ("Double", [.double]), ("Bool", [.bool]), ("String", [.string]), ("Array", [.array]),
            ("Dictionary", [.dictionary]), ("Set", [.set]), ("Optional", [.null]), ("Range", [.range, .doubleRange]),
        ]
        for (name, ks) in kinds {
            let t = addType(name, .builtin, at: .unknown, parent: nil)
            for k in ks { program.builtinTypes[k] = t.id }
        }
        program.typeIndex["CGFloat"] = program.typeIndex["Double"]
        program.typeIndex["ClosedRange"] = program.typeIndex["Range"]
        program.typeIndex["Substring"] = program.typeIndex["String"]
        program.typeIndex["Character"] = program.typeIndex["String"]
    }

    @discardableResult
    func addType(_ name: String, _ kind: TypeInfo.Kind, at location: SourceLocation, parent: TypeID?) -> TypeInfo {
        let t = TypeInfo(id: program.types.count, name: name, kind: kind, location: location)
        t.parent = parent
        program.types.append(t)
        program.typeIndex[name] = t.id
        return t
    }

    // MARK: Constants

    /// Computes every static property and top-level constant once, in dependency order, at compile time; a fault
    /// there is a diagnostic at the constant's initializer.
    private func computeConstants() {
        let m = Machine(fuel: 1_000_000)
        m.program = program
        // `static let samples = [Item()]` with `let id = UUID()`: the same draws on every run of the source.
        m.inputs = FixedInputs(
            time: nil, seed: 0,
            refusal: "a constant cannot read: it is computed once, when the program compiles, outside any transaction")
        for cell in program.cells where cell.value == nil {
            do {
                _ = try cell.compute(m, at: cell.initializer?.location ?? .unknown)
            } catch {
                diagnostics.append(Diagnostic(error.location, "computing \(cell.name) failed: \(error.message)"))
            }
            m.reset()
        }
    }
}

/// A body to compile in pass 3, with the file it came from.
struct PendingBody {
    var converter: SourceLocationConverter
    var inPrelude: Bool
    /// Field defaults and constants: they compile before function bodies, which rely on their inferred types.
    var early = false
    var compile: (Compiler) -> Void

    init(converter: SourceLocationConverter, inPrelude: Bool, compile: @escaping (Compiler) -> Void) {
        self.converter = converter
        self.inPrelude = inPrelude
        self.compile = compile
    }
}
