import CanopyCore
import CanopyScript
import Testing

/// Untraced folds keep a Swift key's accumulated value decoded between `reduce` calls; they must give what the
/// traced fold (one encoding per call) gives.
@Suite struct DecodedFoldTests {
    static let key = """
        struct Messages: PreferenceKey {
            static var defaultValue: [String] = []
            static func reduce(value: inout [String], nextValue: () -> [String]) {
                let next = nextValue()
                if next.count > 1 { return }  // skip siblings with two messages, to keep laziness visible
                value += next
            }
        }
        """

    static func tree() throws -> Tree {
        let children: [Node] = (0..<6).map { i in
            Node(
                id: "f\(i)", type: "Field",
                modifiers: [.preference(key: "Messages", value: .array((0..<(i % 3 == 2 ? 2 : 1)).map { .string("m\(i)-\($0)") }))])
        }
        let root = Node(
            id: "root", type: "Form", modifiers: [.onPreferenceChange(key: "Messages")], children: children)
        return try Tree(
            keys: [KeyDeclaration(key: "Messages", swift: key)], root: root, compiler: ScriptKeyCompiler())
    }

    @Test func anUntracedFoldGivesWhatATracedOneGives() throws {
        var plain = try Self.tree()
        var traced = try Self.tree()
        #expect(plain.readers == traced.readers)
        #expect(plain.readers.first?.value == ["m0-0", "m1-0", "m3-0", "m4-0"])
        let edits: [[Op]] = [
            [.setPreference(node: "f1", key: "Messages", value: ["x"])],
            [.setPreference(node: "f2", key: "Messages", value: ["y"])],
            [.removePreference(node: "f0", key: "Messages")],
            [.setPreference(node: "f4", key: "Messages", value: ["a", "b"])],
        ]
        for ops in edits {
            let a = try plain.apply(ops, trace: false)
            let b = try traced.apply(ops, trace: true)
            #expect(a.changes == b.changes)
            #expect(a.summary.reduces == b.summary.reduces)
            #expect(plain.readers == traced.evaluateFromScratch(trace: true).readers)
        }
        #expect(plain.readers.first?.value == ["x", "y", "m3-0"])
    }
}
