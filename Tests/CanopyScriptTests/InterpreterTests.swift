import CanopyCore
import Testing

@testable import CanopyScript

/// Compiles `source` and calls `function` with `arguments`: the interpreter end to end, as the tests use it.
func run(_ source: String, _ function: String = "f", _ arguments: [JSON] = [], fuel: Int = 1_000_000) throws -> JSON {
    try Script.compile(source).call(function, arguments, fuel: fuel)
}

/// The diagnostics of `source`, which must not compile.
func diagnostics(_ source: String) -> [Diagnostic] {
    do {
        _ = try Script.compile(source)
        return []
    } catch {
        return error.diagnostics
    }
}

/// The fault of calling `function`, which must fault.
func fault(_ source: String, _ function: String = "f", _ arguments: [JSON] = [], fuel: Int = 1_000_000) -> ScriptFault? {
    do {
        let script = try Script.compile(source)
        _ = try script.call(function, arguments, fuel: fuel)
        return nil
    } catch let e as ScriptFault {
        return e
    } catch {
        Issue.record("did not compile: \(error)")
        return nil
    }
}

/// True when `value` is a JSON double (not an integer), as a `CGFloat` or `Double` result must be.
func isDouble(_ value: JSON) -> Bool {
    if case .double = value { return true }
    return false
}

/// The result of `run`, or the error as a string, so a failing `#expect` shows what came out.
func result(_ source: String, _ function: String = "f", _ arguments: [JSON] = []) -> JSON {
    do {
        return try run(source, function, arguments)
    } catch {
        return .string("error: \(error)")
    }
}
