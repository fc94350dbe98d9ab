import CanopyCore
import Foundation
import Testing

@testable import CanopyServer

/// A `.swift` example the program runtime refuses is skipped, the JSON examples still load. Needs the daemon side of
/// issue 14 (createTree with `source` handed to `configuration.programs`): before it, the machine ignores `source`
/// and makes a plain tree. Enable by removing `.disabled` once it is merged.
@Suite(.disabled("needs createTree with source to run configuration.programs (issue 14, daemon side)"))
struct ExampleProgramStartTests {
    @Test func aProgramThatDoesNotCompileIsLoggedAndSkipped() throws {
        let directory = try ExampleProgramTests.examples([
            "a.json": #"{"tree":"a"}"#, "Greeter.swift": ExampleProgramTests.program,
        ])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (daemon, errors) = try ExampleProgramTests.start(directory, programs: RefusingRuntime())
        defer { daemon.stopAndWait() }
        #expect(daemon.loadedExamples == ["a"])
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("example \(directory)/Greeter.swift: compile_error: ") == true)
    }
}
