import CanopyCore
import CanopyScript
import Synchronization

/// A program compiled once for every tree that runs it: its Swift, its preference keys, and the shared contexts of
/// its preview modifiers (computed once per modifier type, PROGRAMS.md §4).
final class CompiledProgram: @unchecked Sendable {  // immutable after init; the context cache is locked
    let program: Program
    /// The program's `PreferenceKey`s, compiled as custom keys of the engine.
    let keys: [KeyDeclaration]
    /// Key names by type (nested keys keep their qualified name: `Outer.K`).
    let keyNames: [TypeID: String]
    let keysByName: [String: ScriptKey]
    /// FNV-1a of the source, in hex: names this program's code in what must differ after a hot reload
    /// (`AnchorTransform`'s source) and stay the same after a restart.
    let sourceDigest: String
    private let contexts = Mutex<[String: SharedContext]>([:])

    struct SharedContext: @unchecked Sendable {  // a value of this program, only read
        var value: Value
    }

    init(source: String) throws(CanopyError) {
        do {
            program = try Compiler.compile(source)
        } catch {
            throw error.canopyError
        }
        var keys: [KeyDeclaration] = []
        var names: [TypeID: String] = [:]
        var byName: [String: ScriptKey] = [:]
        for t in program.types where t.kind != .protocolType && t.conforms(to: "PreferenceKey") && t.location.line > 0 {
            let key: ScriptKey
            do { key = try ScriptKey(program: program, key: t.name) } catch { throw error.canopyError }
            keys.append(KeyDeclaration(key: t.name, custom: key))
            names[t.id] = t.name
            byName[t.name] = key
        }
        self.keys = keys
        keyNames = names
        keysByName = byName
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in source.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        sourceDigest = String(hash, radix: 16)
    }

    /// The shared context of preview modifier `type`, computed by `make` the first time; `reused` says whether an
    /// earlier tree computed it.
    func sharedContext(_ type: String, make: () throws(ScriptFault) -> Value) throws(ScriptFault) -> (Value, reused: Bool) {
        if let hit = contexts.withLock({ $0[type] }) { return (hit.value, true) }
        let v = try make()
        contexts.withLock { $0[type] = SharedContext(value: v) }
        return (v, false)
    }
}
