// config/examples/swift-keys.json, the example whose keys are written in Swift: CanopyCore's ExampleTests cannot
// compile it, so it is checked here, with the compiler canopyd uses, against the values its description promises.

import CanopyCore
import CanopyScript
import Testing

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

@Suite struct SwiftKeyExampleTests {
    /// `<repository>/config/examples/swift-keys.json`, found from this file's path.
    static let path: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return (parts + ["config", "examples", "swift-keys.json"]).joined(separator: "/")
    }()

    static func load() throws -> (document: JSONObject, tree: Tree) {
        let data = try #require(FileManager.default.contents(atPath: path), "cannot read \(path)")
        let document = try #require(try JSONParser.parse(bytes: Array(data)).object)
        let keys = try (document["keys"]?.array ?? []).map { json throws(CanopyError) in
            try KeyDeclaration(json: json)
        }
        let root = try Node(json: try #require(document["root"]))
        return (document, try Tree(keys: keys, root: root, compiler: ScriptKeyCompiler()))
    }

    @Test func theExampleIsACreateTreeBodyWithSwiftKeys() throws {
        let (document, tree) = try Self.load()
        #expect(document.keys == ["tree", "title", "description", "keys", "root"])
        #expect(document["tree"] == "swift-keys")
        let keys = try #require(document["keys"]?.array)
        #expect(keys.map { $0["key"] } == ["MaxHeightKey", "BoundsKey"])
        for key in keys { #expect(key["swift"]?.string?.contains("static func reduce") == true) }
        #expect((20...80).contains(tree.nodeCount))
    }

    @Test func theReadersShowWhatTheDescriptionPromises() throws {
        let (_, tree) = try Self.load()
        let values = Dictionary(uniqueKeysWithValues: tree.readers.map { ($0.reader, $0.value) })
        #expect(values["gallery#0"]??.number == 154)  // card-12's 144 + row-3's transform beats card-7's 150
        #expect(values["row-1#0"]??.number == 140)
        let bounds = try #require(values["gallery#1"]??.object)
        #expect(bounds.keys.sorted() == (0..<12).map(String.init).sorted())
        let seventh: JSON = ["origin": ["x": 360, "y": 170], "size": ["width": 160, "height": 150]]
        #expect(bounds["6"] == seventh)
    }
}
