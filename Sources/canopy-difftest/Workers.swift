import CanopyCore
import CanopyScript
import Foundation

/// What a worker reports for one program, one JSON line each.
struct WorkerResult: Codable {
    var path: String
    /// The diagnostics when the program is outside the subset (`line:column: message`).
    var diagnostics: [String]?
    var output: String?
    var trapKind: String?
    var trapMessage: String?
    /// Set by the parent when the worker process died on this program (a crash of the interpreter itself).
    var crash: String?
    var seconds: Double
}

/// Worker mode: compiles and runs each program named on stdin (paths relative to `corpus`), one JSON line each.
func runWorker(corpus: String, fuel: Int) -> Never {
    var paths: [String] = []
    while let line = readLine() {
        if !line.isEmpty { paths.append(line) }
    }
    let encoder = JSONEncoder()
    for path in paths {
        let clock = ContinuousClock()
        let start = clock.now
        var result = WorkerResult(path: path, seconds: 0)
        do {
            let source = try String(contentsOfFile: corpus + "/" + path, encoding: .utf8)
            do {
                let script = try Script.compile(source)
                // Random draws need a seed; the values never equal swiftc's, so programs only test their shapes.
                let inputs = ProgramInputs(time: 1_767_225_600, seed: 1)
                let (output, fault) = script.run("main", fuel: fuel, inputs: inputs)
                result.output = output
                if let fault {
                    result.trapKind = trapKind(of: fault)
                    result.trapMessage = "\(fault.location): \(fault.message)"
                }
            } catch {
                result.diagnostics = error.diagnostics.map(\.description)
            }
        } catch {
            result.crash = "cannot read it: \(error)"
        }
        let d = clock.now - start
        result.seconds = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        var data = (try? encoder.encode(result)) ?? Data()
        data.append(0x0a)
        FileHandle.standardOutput.write(data)
    }
    exit(0)
}

/// Results of the parallel workers, collected under a lock.
final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [String: WorkerResult] = [:]

    func add(_ r: WorkerResult) {
        lock.lock()
        results[r.path] = r
        lock.unlock()
    }

    var all: [String: WorkerResult] {
        lock.lock()
        defer { lock.unlock() }
        return results
    }
}

/// Runs `paths` in `jobs` worker processes (this executable with --worker), so a crash of the interpreter ends only
/// the program that caused it: that program is reported as a crash and a new worker takes the rest.
func runInWorkers(_ paths: [String], corpus: String, fuel: Int, jobs: Int) -> [String: WorkerResult] {
    let box = ResultBox()
    let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
    let chunks = (0..<jobs).map { j in stride(from: j, to: paths.count, by: jobs).map { paths[$0] } }
    DispatchQueue.concurrentPerform(iterations: jobs) { j in
        var remaining = chunks[j]
        while !remaining.isEmpty {
            let (reported, status, stderr) = runOneWorker(
                executable: executable, corpus: corpus, fuel: fuel, paths: remaining)
            var done = Set<String>()
            for r in reported {
                box.add(r)
                done.insert(r.path)
            }
            remaining.removeAll { done.contains($0) }
            guard let culprit = remaining.first else { break }
            // The worker died on (or before reporting) its first unreported program.
            // A release build's checks trap without a message; the debug build's worker says where.
            let message = stderr.split(separator: "\n").first { $0.contains("Fatal error") || $0.contains("failed") }
            box.add(
                WorkerResult(
                    path: culprit,
                    crash: "the process died (\(status))" + (message.map { ": \($0)" } ?? " without a message"),
                    seconds: 0))
            remaining.removeFirst()
        }
    }
    return box.all
}

private func runOneWorker(executable: String, corpus: String, fuel: Int, paths: [String])
    -> (results: [WorkerResult], status: String, stderr: String)
{
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["--worker", "--corpus", corpus, "--fuel", String(fuel)]
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_BACKTRACE"] = "enable=no"
    process.environment = environment
    let input = Pipe(), output = Pipe()
    let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("canopy-difftest-\(UUID()).err")
    _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: errorFile) }
    process.standardInput = input
    process.standardOutput = output
    process.standardError = try? FileHandle(forWritingTo: errorFile)
    do {
        try process.run()
    } catch {
        return ([], "cannot start \(executable): \(error)", "")
    }
    input.fileHandleForWriting.write(Data((paths.joined(separator: "\n") + "\n").utf8))
    try? input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let decoder = JSONDecoder()
    let results = data.split(separator: 0x0a).compactMap { try? decoder.decode(WorkerResult.self, from: Data($0)) }
    let status =
        process.terminationReason == .uncaughtSignal
        ? "signal \(process.terminationStatus)" : "exit status \(process.terminationStatus)"
    let stderr = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
    return (results, status, stderr)
}
