import CanopyCore
import Foundation
import Testing

@testable import canopy

/// `canopy run`, `event` and `import` of program trees: argument parsing and the messages they send.
@Suite struct ProgramCommandTests {
    /// A directory holding `name` with `text`, removed by the caller.
    static func file(_ name: String, _ text: String) throws -> (directory: String, path: String) {
        let directory = NSTemporaryDirectory() + "canopy-cli-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return (directory, path)
    }

    static let program = """
        // canopy: view=Greeter title="Greeter" previewModifiers=SampleData
        struct Greeter: View {
            @State private var name = ""
            var body: some View { TextField("Name", text: $name) }
        }
        """

    @Test func runSendsTheFileWithItsHeaderAndTheTreeFromItsName() throws {
        let (directory, path) = try Self.file("GreeterDemo.swift", Self.program)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (_, body) = try Canopy.Run.parse([path]).request()
        #expect(JSON.object(body) == [
            "type": "createTree", "tree": "greeter-demo", "source": .string(Self.program), "view": "Greeter",
            "previewModifiers": ["SampleData"], "title": "Greeter",
        ])
    }

    @Test func runOptionsOverrideTheHeader() throws {
        let (directory, path) = try Self.file("GreeterDemo.swift", Self.program)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let command = try Canopy.Run.parse([
            path, "--view", "Other", "--tree", "g", "--preview-modifier", "A", "--preview-modifier", "B.C",
        ])
        let (_, body) = try command.request()
        #expect(body["tree"] == "g")
        #expect(body["view"] == "Other")
        #expect(body["previewModifiers"] == ["A", "B.C"])
        #expect(body["title"] == "Greeter")
    }

    @Test func runReportsABadHeaderWithTheFileName() throws {
        let (directory, path) = try Self.file("x.swift", "// canopy: colour=red\n")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect {
            try Canopy.Run.parse([path]).request()
        } throws: { error in
            "\(error)".hasPrefix("\(path):1: header: unknown setting \"colour\"")
        }
    }

    @Test func eventValuesAreJSONWhenTheyParseElseStrings() {
        #expect(Canopy.Event.parseValue("bob") == "bob")
        #expect(Canopy.Event.parseValue("42") == 42)
        #expect(Canopy.Event.parseValue("\"42\"") == "42")
        #expect(Canopy.Event.parseValue("true") == true)
        #expect(Canopy.Event.parseValue("hello world") == "hello world")
        #expect(Canopy.Event.parseValue("[1,2]") == [1, 2])
    }

    @Test func anEventOnANode() throws {
        let command = try Canopy.Event.parse(["t", "n1", "setText", "bob"])
        #expect(JSON.object(command.message(seq: 7)) == [
            "type": "event", "tree": "t", "seq": 7, "node": "n1", "event": "setText", "value": "bob",
        ])
        let tap = try Canopy.Event.parse(["t", "b", "tap"])
        #expect(
            JSON.object(tap.message(seq: 8)) == ["type": "event", "tree": "t", "seq": 8, "node": "b", "event": "tap"])
    }

    @Test func aPostGoesToTheWholeTree() throws {
        let command = try Canopy.Event.parse(["t", "--post", "UIApplication.didBecomeActiveNotification"])
        #expect(JSON.object(command.message(seq: 8)) == [
            "type": "event", "tree": "t", "seq": 8, "event": "post",
            "name": "UIApplication.didBecomeActiveNotification",
        ])
    }

    @Test func anEventNeedsANodeAndAnEventOrAPost() {
        #expect(throws: (any Error).self) { try Canopy.Event.parse(["t"]) }
        #expect(throws: (any Error).self) { try Canopy.Event.parse(["t", "n1"]) }
        #expect(throws: (any Error).self) { try Canopy.Event.parse(["t", "n1", "tap", "--post", "X"]) }
        #expect(Self.refusal(["t"]).contains("name the node and the event"))
        #expect(Self.refusal(["t", "n1", "--post", "X"]).contains("--post and --resize go to the whole tree"))
    }

    /// What argument parsing says about `arguments`, which it must refuse.
    static func refusal(_ arguments: [String]) -> String {
        do {
            _ = try Canopy.Event.parse(arguments)
            return "accepted"
        } catch {
            return Canopy.Event.message(for: error)
        }
    }

    @Test func importTakesTheSwiftFilesOfADirectory() throws {
        let (directory, _) = try Self.file("b.swift", Self.program)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "{}".write(toFile: directory + "/a.json", atomically: true, encoding: .utf8)
        try "notes".write(toFile: directory + "/README.md", atomically: true, encoding: .utf8)
        #expect(try Canopy.Import.files(directory) == [directory + "/a.json", directory + "/b.swift"])
    }

    @Test func aCompileErrorOfRunIsPrintedAsLinesOfTheFile() throws {
        let reply: JSON = [
            "type": "error", "rid": 1, "code": "compile_error", "message": "the Swift does not compile",
            "diagnostics": [["line": 3, "column": 9, "message": "cannot find 'nmae' in scope"]],
        ]
        let failure = try #require(SwiftDiagnostics(ServerError(reply), path: "Greeter.swift"))
        #expect(failure.lines == ["Greeter.swift:3:9: error: cannot find 'nmae' in scope"])
    }
}
