import CanopyCore
import CanopyScript

/// A `transformAnchorPreference` in the engine (LAYOUT.md §4): a transform of the key's value inside the view
/// (SEMANTICS.md: `cur = transform(inner ?? default)`) that runs the program's closure, with its captures — `(inout
/// Value, Anchor) -> Void`, with the anchor of the view's box as last laid out — when the engine evaluates the key
/// there (lazily, as every transform). It runs as the engine's other Swift code does: on the evaluation's own
/// interpreter and fuel (a traced snapshot evaluates off the service thread). Its `source`, which the engine compares
/// to decide whether the modifier changed, names the closure's code, its captured values and the anchor, so a new
/// closure, new captures, a moved box or new source code is a new transform and an equal one keeps the engine's
/// caches.
final class AnchorTransform: CustomTransform, @unchecked Sendable {  // immutable after init
    private let program: Program
    private let key: ScriptKey
    private let closure: Value
    private let anchor: Value
    let source: String
    /// Its source names the closure; the program's render makes it again after a hot reload.
    var compiledFromSource: Bool { false }

    init(compiled: CompiledProgram, key: ScriptKey, closure: Value, anchor: Value) {
        program = compiled.program
        self.key = key
        self.closure = closure
        self.anchor = anchor
        // The program's digest too: after a hot reload the same place may hold other code.
        source = "transformAnchorPreference \(closure.closureFingerprint(program) ?? "?") "
            + program.encode(anchor).encoded() + " in " + compiled.sourceDigest
    }

    func apply(_ value: inout JSON, context: ReducerContext) throws(CanopyError) {
        guard case .function(let callable) = closure.unboxed else {
            throw CanopyError(.runtimeError, "transformAnchorPreference: its transform is not a closure")
        }
        var args = [key.decodeValue(value), anchor]
        try context.runSwift(program) { (m: Machine) throws(ScriptFault) in
            _ = try m.call(callable, &args, site: m.sourceLocation(of: closure) ?? .unknown)
        }
        value = program.encode(args[0])
    }
}
