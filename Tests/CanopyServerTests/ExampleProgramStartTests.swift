import CanopyCore
import Foundation
import Testing

@testable import CanopyServer

/// A `.swift` example the program runtime refuses is skipped, the JSON examples still load.
@Suite
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
