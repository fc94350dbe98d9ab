import Foundation
import Testing

@testable import CanopyServer

/// The path rule HTTP's file routes and canopyd's example loader share (`ConfinedDirectory`): a name resolves to a
/// regular file inside the directory's real path, or is refused as outside, or is not found.
@Suite struct ConfinedDirectoryTests {
    @Test func symlinksMayStayInsideButNeverLeadOut() throws {
        let base = NSTemporaryDirectory() + "canopy-confined-" + UUID().uuidString
        let manager = FileManager.default
        try manager.createDirectory(atPath: base + "/dir/sub", withIntermediateDirectories: true)
        defer { try? manager.removeItem(atPath: base) }
        try Data("{}".utf8).write(to: URL(fileURLWithPath: base + "/dir/plain.json"))
        try Data("{}".utf8).write(to: URL(fileURLWithPath: base + "/dir/sub/deep.json"))
        try Data("secret".utf8).write(to: URL(fileURLWithPath: base + "/secret.json"))
        try manager.createSymbolicLink(atPath: base + "/dir/inside.json", withDestinationPath: "sub/deep.json")
        try manager.createSymbolicLink(atPath: base + "/dir/escape.json", withDestinationPath: "../secret.json")
        try manager.createSymbolicLink(atPath: base + "/dir/absolute.json", withDestinationPath: base + "/secret.json")
        try manager.createSymbolicLink(atPath: base + "/dir/up", withDestinationPath: base)
        try manager.createSymbolicLink(atPath: base + "/dir/dangling.json", withDestinationPath: "nowhere.json")
        try manager.createSymbolicLink(atPath: base + "/link-to-dir", withDestinationPath: base + "/dir")

        let directory = try #require(ConfinedDirectory(base + "/dir"))
        let root = directory.root
        #expect(directory.lookup("plain.json") == .file(realPath: root + "/plain.json"))
        #expect(directory.lookup("inside.json") == .file(realPath: root + "/sub/deep.json"))
        let secret = try #require(ConfinedDirectory(base)).root + "/secret.json"
        #expect(directory.lookup("escape.json") == .outside(realPath: secret))
        #expect(directory.lookup("absolute.json") == .outside(realPath: secret))
        #expect(directory.lookup("up/secret.json") == .outside(realPath: secret))
        #expect(directory.lookup("dangling.json") == .notFound)
        #expect(directory.lookup("missing.json") == .notFound)
        #expect(directory.lookup("sub") == .notFound, "a directory is not a file")

        // The directory itself may be reached through a link: the rule is about its real path.
        let linked = try #require(ConfinedDirectory(base + "/link-to-dir"))
        #expect(linked.root == root)
        #expect(linked.lookup("escape.json") == .outside(realPath: secret))
        #expect(ConfinedDirectory(base + "/dir/plain.json") == nil, "a file is not a directory")
        #expect(ConfinedDirectory(base + "/missing") == nil)

        // HTTP answers through the same rule.
        let files = try StaticFiles(webRoot: base + "/dir")
        #expect(files.resolve("/escape.json") == .forbidden)
        #expect(files.resolve("/inside.json") == .file(path: root + "/sub/deep.json", contentType: "application/json"))
    }
}
