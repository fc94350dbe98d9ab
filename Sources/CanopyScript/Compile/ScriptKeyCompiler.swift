import CanopyCore
import Synchronization

/// CanopyScript's `KeyCompiler`: compiles the Swift of `{"key":"K","swift":"…"}` declarations, each source once
/// per process (trees restored from the store and keys declared again share the compiled program).
public struct ScriptKeyCompiler: KeyCompiler {
    /// Largest Swift source accepted for one key.
    public static let maxSourceBytes = 64 * 1024

    private static let cache = Mutex<[String: ScriptKey]>([:])
    private static let cacheLimit = 512

    public init() {}

    public func compileKey(named key: String, source: String) throws(CanopyError) -> any CustomReducer {
        let cacheKey = key + "\u{0}" + source
        if let hit = Self.cache.withLock({ $0[cacheKey] }) { return hit }
        guard source.utf8.count <= Self.maxSourceBytes else {
            throw CompileFailure(diagnostics: [
                Diagnostic(SourceLocation(line: 1, column: 1), "the source is larger than \(Self.maxSourceBytes) bytes")
            ]).canopyError
        }
        let compiled: ScriptKey
        do {
            let program = try Compiler.compile(source)
            compiled = try ScriptKey(program: program, key: key)
        } catch {
            throw error.canopyError
        }
        Self.cache.withLock { cache in
            if cache.count >= Self.cacheLimit { cache.removeAll() }
            cache[cacheKey] = compiled
        }
        return compiled
    }
}
