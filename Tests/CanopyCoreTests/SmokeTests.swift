import Testing
@testable import CanopyCore

@Test func smokeLastReducer() throws {
    let content = T.mod(T.stack(id: "s", [T.V("R1"), T.V("R2"), T.V("R3"), T.V("R4", id: "v4")]), T.reader())
    var tree = try T.tree([T.key(.last, "Default")], content)
    #expect(tree.readers.map(\.value) == ["R4"])
    let (readers, trace, _) = tree.evaluateFromScratch(trace: true)
    #expect(readers.map(\.value) == ["R4"])
    #expect(trace!.reduceCalls.map { "\($0.value.string!)-\($0.next?.string ?? "_")" } == ["R1-R2", "R2-R3", "R3-R4"])
    let d = try tree.apply([.setPreference(node: "v4", key: "K", value: "X")], trace: true)
    #expect(d.changes.map(\.value) == ["X"])
}

@Test func smokeMixedEdits() throws {
    let content = T.mod(T.stack(id: "s", [T.V(1), T.stack("Group", id: "g", [T.V(2, id: "b"), T.V(3)]), T.V(4, id: "d")]), T.reader())
    var tree = try T.tree([T.key(.sum, 0)], content)
    #expect(tree.readers.map(\.value) == [10])
    var d = try tree.apply([.setPreference(node: "d", key: "K", value: 5)], trace: true)
    #expect(d.changes.map(\.value) == [11])
    #expect(d.trace!.reduceCalls.count == 2)
    d = try tree.apply([.remove(node: "b")])
    #expect(d.changes.map(\.value) == [9])
    d = try tree.apply([.insert(parent: "g", node: T.V(7, id: "e"), position: .index(0)), .move(node: "d", parent: "g", position: .end)])
    #expect(d.changes.map(\.value) == [16])
    #expect(tree.evaluateFromScratch().readers == tree.readers)
    d = try tree.apply([.removePreference(node: "e", key: "K")])
    #expect(d.changes.map(\.value) == [9])
    d = try tree.apply([.declareKey(T.key(.max, 0))])
    #expect(d.changes.map(\.value) == [5])
    #expect(tree.evaluateFromScratch().readers == tree.readers)
}

/// Memory per node is dominated by leaves' modifier arrays; this layout is what keeps a writer at 24 bytes.
@Test func aStoredModifierPacksIntoTwentyFourBytes() {
    #expect(MemoryLayout<StoredModifier>.stride == 24)
}
