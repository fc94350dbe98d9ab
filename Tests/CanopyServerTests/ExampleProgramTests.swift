import CanopyCore
import Foundation
import Logging
import Testing

@testable import CanopyServer

/// `.swift` example programs at a daemon's first start: loaded next to the JSON examples, and one that cannot start
/// is logged as an error and skipped instead of stopping the daemon.
@Suite struct ExampleProgramTests {
    /// A directory of example files, removed by the caller.
    static func examples(_ files: [String: String]) throws -> String {
        let directory = NSTemporaryDirectory() + "canopy-examples-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8) }
        return directory
    }

    /// Starts a daemon without a store on `directory`'s examples; returns it and the errors it logged.
    static func start(
        _ directory: String, programs: (any ProgramRuntime)? = nil
    ) throws -> (Daemon, [String]) {
        let log = LogCapture()
        var configuration = DaemonConfiguration.forTests { $0.programs = programs }
        configuration.examplesDirectory = directory
        let daemon = try Daemon(
            configuration: configuration, storage: .none,
            logger: Logger(label: "test", factory: { _ in CapturingLogHandler(capture: log) }))
        daemon.start()
        return (daemon, log.errors)
    }

    static let program = "// canopy: view=Greeter\nstruct Greeter: View { var body: some View { Text(\"hi\") } }\n"

    @Test func withoutAProgramRuntimeTheProgramsAreSkippedAndTheOthersLoad() throws {
        let directory = try Self.examples([
            "a.json": #"{"tree":"a"}"#, "Greeter.swift": Self.program, "z.json": #"{"tree":"z"}"#,
        ])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (daemon, errors) = try Self.start(directory)
        defer { daemon.stopAndWait() }
        #expect(daemon.loadedExamples == ["a", "z"])
        #expect(errors == ["example \(directory)/Greeter.swift: bad_message: this daemon runs no programs; skipped"])
    }

    @Test func aProgramWithABadHeaderIsSkipped() throws {
        let directory = try Self.examples(["a.json": #"{"tree":"a"}"#, "bad.swift": "// canopy: colour=red\n"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (daemon, errors) = try Self.start(directory, programs: RefusingRuntime())
        defer { daemon.stopAndWait() }
        #expect(daemon.loadedExamples == ["a"])
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("example \(directory)/bad.swift: bad_message: header: unknown setting") == true)
    }

    @Test func aBrokenJSONExampleStillStopsTheStart() throws {
        let directory = try Self.examples(["a.json": "{", "Greeter.swift": Self.program])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: DaemonStartError.self) { try Self.start(directory) }
    }
}

/// A program runtime whose every program fails to compile.
struct RefusingRuntime: ProgramRuntime {
    func start(
        _ spec: ProgramSpec, state: ProgramState, recorded: [RecordedInputs], inputs: any ProgramInputSource,
        version: Int, limits: Limits, trace: Bool
    ) throws(CanopyError) -> ProgramStart {
        throw CanopyError(
            .compileError, "the Swift does not compile: 2:8: expected a type",
            details: ["diagnostics": [["line": 2, "column": 8, "message": "expected a type"]]])
    }
}

/// The messages a `Logger` logged at error level or above.
final class LogCapture: @unchecked Sendable {  // appended under `lock` only
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var errors: [String] { lock.withLock { lines } }
}

struct CapturingLogHandler: LogHandler {
    let capture: LogCapture
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        if event.level >= .error { capture.append("\(event.message)") }
    }
}
