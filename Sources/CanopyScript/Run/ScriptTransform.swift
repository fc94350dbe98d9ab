import CanopyCore

/// A `transformPreference` closure of a Swift key: `{ $0 += 10 }` or `{ value in … }`, run on the key's value.
final class ScriptTransform: CustomTransform, @unchecked Sendable {  // immutable after init
    let key: ScriptKey
    let program: Program
    let function: Function
    let source: String

    init(key: ScriptKey, closure: String) throws(CanopyError) {
        self.key = key
        source = closure
        let valueName = key.program.name(of: key.valueType)
        // The closure is compiled inside an extension of the key, after the key's own program, so it sees the
        // key's helper types. Diagnostics are mapped back to the closure's own lines and columns.
        let prefix = "extension \(key.name) { static func __canopyTransform(value: inout \(valueName)) { let t: (inout \(valueName)) -> Void = "
        let text = key.source + "\n" + prefix + closure + "\nt(&value) } }\n"
        let firstLine = key.source.split(separator: "\n", omittingEmptySubsequences: false).count + 1
        do {
            program = try Compiler.compile(text)
        } catch {
            let mapped = error.diagnostics.map { d -> Diagnostic in
                var l = d.location
                if l.line >= firstLine {
                    if l.line == firstLine { l.column = max(1, l.column - prefix.count) }
                    l.line -= firstLine - 1
                }
                return Diagnostic(l, d.message)
            }
            throw CompileFailure(diagnostics: mapped).canopyError
        }
        guard let f = program.type(named: key.name)?.staticMethods["__canopyTransform(value:)"] else {
            throw CanopyError(.compileError, "the transform did not compile")
        }
        function = f
    }

    func apply(_ value: inout JSON, context: ReducerContext) throws(CanopyError) {
        var args = [key.decodeTrusted(value)]
        try context.runSwift(program) { (m: Machine) throws(ScriptFault) in
            _ = try m.call(function, &args, site: function.location)
        }
        value = program.encode(args[0])
    }
}
