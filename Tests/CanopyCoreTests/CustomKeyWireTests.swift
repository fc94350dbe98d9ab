import Testing
@testable import CanopyCore

// `{"key","swift"}` declarations and `{"swift": …}` transforms: decoding, compiling through the tree's KeyCompiler,
// encoding back (so a snapshot recompiles), and compile errors rejecting batches.

private let sumSource = "catalog sum 0"

private func expectError(_ code: ErrorCode, _ body: () throws(CanopyError) -> Void) -> CanopyError? {
    do throws(CanopyError) {
        try body()
        Issue.record("expected \(code.rawValue)")
        return nil
    } catch {
        #expect(error.code == code, "\(error)")
        return error
    }
}

private func sumRoot() -> Node {
    Node(
        id: "root", type: "Root", modifiers: [.onPreferenceChange(key: "K")],
        children: [T.V(1, id: "a"), T.V(2, id: "b")])
}

@Suite struct CustomKeyWireTests {
    @Test("{key, swift} decodes to an uncompiled declaration and encodes back")
    func declarationRoundTrip() throws {
        let d = try KeyDeclaration(json: ["key": "K", "swift": "struct K {}"])
        #expect(d.reducer == .uncompiled("struct K {}"))
        #expect(d.json == ["key": "K", "swift": "struct K {}"])
        _ = expectError(.badMessage) { () throws(CanopyError) in
            _ = try KeyDeclaration(json: ["key": "K", "swift": "x", "reducer": "sum"])
        }
        _ = expectError(.badMessage) { () throws(CanopyError) in
            _ = try KeyDeclaration(json: ["key": "K", "swift": "x", "default": 0])
        }
        _ = expectError(.badMessage) { () throws(CanopyError) in _ = try KeyDeclaration(json: ["key": "K", "swift": 1]) }
        let op = try Op(json: ["op": "declareKey", "key": "K", "swift": "s"])
        #expect(op == .declareKey(KeyDeclaration(key: "K", swift: "s")))
        #expect(op.json == ["op": "declareKey", "key": "K", "swift": "s"])
    }

    @Test("a tree compiles swift keys with its compiler; its keys encode as swift and a snapshot recompiles them")
    func compileAndSnapshot() throws {
        let compiler = SwiftCatalog.Compiler()
        let keys = [try KeyDeclaration(json: ["key": "K", "swift": .string(sumSource)])]
        var tree = try Tree(keys: keys, root: sumRoot(), compiler: compiler)
        #expect(compiler.compiled == 1)
        #expect(tree.readers.map(\.value) == [3])
        #expect(tree.keys.map(\.json) == [["key": "K", "swift": .string(sumSource)]])
        #expect(tree.keys[0].defaultValue == 0)
        let diff = try tree.apply([try Op(json: ["op": "declareKey", "key": "L", "swift": "catalog max 0"])])
        #expect(diff.ops.map(\.json) == [["op": "declareKey", "key": "L", "swift": "catalog max 0"]])
        // Re-declaring the same source keeps the compiled key.
        _ = try tree.apply([.declareKey(KeyDeclaration(key: "K", swift: sumSource))])
        #expect(compiler.compiled == 2)
        let restored = try Tree(
            keys: try tree.keys.map { j throws(CanopyError) in try KeyDeclaration(json: j.json) },
            root: try Node(json: tree.root.json), compiler: compiler)
        #expect(restored.readers == tree.readers)
    }

    @Test("without a compiler, a swift key is compile_error")
    func noCompiler() throws {
        let e = expectError(.compileError) { () throws(CanopyError) in
            _ = try Tree(keys: [KeyDeclaration(key: "K", swift: sumSource)])
        }
        #expect(e?.message.contains("this tree has no Swift compiler") == true)
        var tree = try Tree()
        let e2 = expectError(.compileError) { () throws(CanopyError) in
            _ = try tree.apply([.declareKey(KeyDeclaration(key: "K", swift: sumSource))])
        }
        #expect(e2?.op == 0)
    }

    @Test("a declareKey that does not compile rejects its batch with the diagnostics")
    func compileFailureRejects() throws {
        var tree = try Tree(keys: [KeyDeclaration(key: "K", swift: sumSource)], root: sumRoot(),
                            compiler: SwiftCatalog.Compiler())
        let before = (tree.root, tree.keys, tree.readers)
        let e = expectError(.compileError) { () throws(CanopyError) in
            _ = try tree.apply([
                .setPreference(node: "a", key: "K", value: 10), .declareKey(KeyDeclaration(key: "L", swift: "nonsense")),
            ])
        }
        #expect(e?.op == 1)
        #expect(e?.details == ["diagnostics": [["line": 1, "message": "bad source"]]])
        #expect(tree.root == before.0 && tree.keys == before.1 && tree.readers == before.2 && tree.version == 0)
    }

    @Test("a swift transform runs on a custom key, encodes as its source, and is refused on a catalog key")
    func swiftTransform() throws {
        let modifier = try Modifier(
            json: ["kind": "transformPreference", "key": "K", "transform": ["swift": "{ $0 += 10 }"]])
        #expect(modifier == .transformPreference(key: "K", transform: .swift("{ $0 += 10 }")))
        let content = Node(id: "box", type: "VStack", modifiers: [modifier], children: [T.V(5, id: "a")])
        let root = Node(id: "root", type: "Root", modifiers: [.onPreferenceChange(key: "K")], children: [content])
        var tree = try Tree(
            keys: [KeyDeclaration(key: "K", swift: sumSource)], root: root, compiler: SwiftCatalog.Compiler())
        #expect(tree.readers.map(\.value) == [15])
        #expect(tree.node("box")?.modifiers[0].json == modifier.json)
        let diff = try tree.apply([.setPreference(node: "a", key: "K", value: 7)], trace: true)
        #expect(diff.changes.map(\.value) == [17])
        // Re-declared with another source, the closure is recompiled against the new key.
        _ = try tree.apply([.declareKey(KeyDeclaration(key: "K", swift: "catalog max 0"))])
        #expect(tree.readers.map(\.value) == [17])
        // A closure that does not fit the re-declared key rejects the batch and leaves the old key.
        _ = expectError(.typeMismatch) { () throws(CanopyError) in
            _ = try tree.apply([.declareKey(KeyDeclaration(key: "K", swift: "catalog and true"))])
        }
        #expect(tree.keys[0].reducer == .uncompiled("catalog max 0"))
        _ = try tree.apply([.setPreference(node: "a", key: "K", value: 1)])
        #expect(tree.readers.map(\.value) == [11])
        // On a catalog key, a swift transform is refused; on a Swift key, catalog arithmetic is.
        var catalog = try Tree(keys: [KeyDeclaration(key: "K", reducer: .sum, defaultValue: 0)])
        _ = expectError(.typeMismatch) { () throws(CanopyError) in
            _ = try catalog.apply([.setModifiers(node: "root", modifiers: [modifier])])
        }
        _ = expectError(.typeMismatch) { () throws(CanopyError) in
            _ = try tree.apply([
                .setModifiers(node: "box", modifiers: [.transformPreference(key: "K", transform: .add(1))]),
            ])
        }
    }
}
