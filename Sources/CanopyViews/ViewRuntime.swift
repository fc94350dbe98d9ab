import CanopyCore
import CanopyScript
import Synchronization

/// CanopyCore's `ProgramRuntime` on CanopyScript: compiles each source once per process (shared by every tree that
/// runs it, with its preview contexts) and starts program trees.
public struct ViewRuntime: ProgramRuntime {
    /// Largest program source accepted.
    public static let maxSourceBytes = 256 * 1024

    private static let cache = Mutex<[String: CompiledProgram]>([:])
    private static let cacheLimit = 64

    public init() {}

    public func start(
        _ spec: ProgramSpec, state: ProgramState, recorded: [RecordedInputs], inputs: any ProgramInputSource,
        version: Int, limits: Limits, trace: Bool
    ) throws(CanopyError) -> ProgramStart {
        let compiled = try Self.compile(spec.source)
        let program = ProgramTree(compiled: compiled, spec: spec, limits: limits, inputs: inputs, recorded: recorded)
        let (tree, transaction) = try program.create(state: state, version: version, trace: trace)
        return ProgramStart(tree: tree, program: program, transaction: transaction)
    }

    /// The compiled program of `source`, from the cache when it was compiled before.
    static func compile(_ source: String) throws(CanopyError) -> CompiledProgram {
        if let hit = cache.withLock({ $0[source] }) { return hit }
        guard source.utf8.count <= maxSourceBytes else {
            throw CanopyError(.tooLarge, "the program is larger than \(maxSourceBytes) bytes")
        }
        let compiled = try CompiledProgram(source: source)
        cache.withLock { cache in
            if cache.count >= cacheLimit { cache.removeAll() }
            cache[source] = compiled
        }
        return compiled
    }
}

extension ViewRuntime {
    /// Where a program tree's frames differ from a layout from scratch of the same views (nil: nowhere): the check
    /// that incremental layout is exact, for tests.
    package static func layoutDifference(_ program: any ProgramInstance) -> String? {
        guard let tree = program as? ProgramTree, let root = tree.rootNode else { return "not a program tree" }
        let scratch: FrameTable
        do { scratch = try tree.layout.framesFromScratch(root, scroll: tree.spec.scrollOffsets) } catch {
            return "layout from scratch failed: \(error)"
        }
        let live = tree.layout.table()
        for (node, frame) in scratch.frames.sorted(by: { $0.key < $1.key }) where live.frames[node] != frame {
            return "\(node): \(live.frames[node].map { "\($0)" } ?? "no frame") incrementally, \(frame) from scratch"
        }
        for node in live.frames.keys.sorted() where scratch.frames[node] == nil { return "\(node): a frame only incrementally" }
        for node in Set(scratch.modifierFrames.keys).union(live.modifierFrames.keys).sorted()
        where scratch.modifierFrames[node] != live.modifierFrames[node] {
            return "\(node): modifier boxes \(live.modifierFrames[node] ?? []) incrementally, \(scratch.modifierFrames[node] ?? []) from scratch"
        }
        return nil
    }
}
