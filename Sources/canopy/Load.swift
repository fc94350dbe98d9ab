import ArgumentParser
import CanopyCore
import CanopyLoad
import Foundation
import CanopySupport

extension Canopy {
    /// `canopy load`: the flags of docs/cli.md mapped onto `LoadConfiguration`; the run itself is `LoadRunner`.
    struct Load: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Load the daemon with many clients from one process and measure edits/s, fan-out and latency.",
            discussion: """
                Creates --trees scratch trees (or uses --tree), connects --writers and --clients from one thread, \
                and edits for --warmup + --duration seconds: open loop at --rate batches/s, or closed loop with \
                --in-flight outstanding edits per writer. Reports edits accepted/s, diffs delivered/s, the latency \
                to the author's acknowledgement and to delivery at every other subscriber (p50…max), rejections, \
                disconnects. See docs/cli.md.
                """)

        @Option(help: "Subscriber-only connections in total, spread round-robin over the trees.") var clients = 10
        @Option(help: "Connections that edit (and subscribe to their tree); default 1.") var writers: Int?
        @Option(help: "Scratch trees to create (load-PID-I), deleted at the end.") var trees = 1
        @Option(help: "Use this existing tree instead of scratch trees (nothing is created or deleted).") var tree:
            String?
        @Flag(help: "Keep the scratch trees at the end.") var keepTrees = false
        @Option(help: "Scratch tree shape: balanced, wide or deep.") var shape = "balanced"
        @Option(help: "Nodes per scratch tree, the root included.") var nodes = 100
        @Option(help: "Children per inner node of a balanced tree.") var fanout = 8
        @Option(help: "Op weights, e.g. set=90,insert=4,remove=3,move=3 (default set=100).") var mix: String?
        @Option(help: "Ops per edit batch.") var opsPerEdit = 1
        @Option(help: "Open loop: edit batches per second across all writers (default: closed loop).") var rate: Double?
        @Option(help: "Closed loop: edits each writer keeps outstanding (default 1).") var inFlight: Int?
        @Option(help: "Seconds measured.") var duration: Double = 10
        @Option(help: "Seconds run before the measurement starts.") var warmup: Double = 2
        @Option(help: "Clients that read slowly (pausing 900 ms of every second) and resubscribe when closed.")
        var slow = 0
        @Option(help: "Connections opened per second at the start.") var connectRate: Double = 2000
        @Option(help: "How the load tool waits for its connections' events: poll or libuv.") var eventLoop = "poll"
        @Flag(help: "Only connect and subscribe the clients, hold them idle for --duration, report how many stayed.")
        var hold = false
        @Option(help: "A .swift program: the scratch trees are program trees of it, driven by setText events.")
        var program: String?
        @Option(help: "The --program's root view (default: its // canopy: header, else the view #Preview shows).")
        var view: String?
        @Flag(help: "Send setText events to the text fields of --tree (a program tree) instead of edits.")
        var events = false
        @Flag(help: "No progress line.") var quiet = false

        @OptionGroup var connection: ConnectionOptions

        func loadConfiguration() throws(LoadError) -> LoadConfiguration {
            var c = LoadConfiguration()
            c.clients = clients
            c.writers = writers
            c.trees = trees
            c.tree = tree
            c.keepTrees = keepTrees
            c.shape = try TreeShape(parsing: shape)
            c.nodes = nodes
            c.fanout = fanout
            c.mix = try mix.map { text throws(LoadError) in try OpMix(parsing: text) }
            c.opsPerEdit = opsPerEdit
            c.rate = rate
            c.inFlight = inFlight
            c.duration = duration
            c.warmup = warmup
            c.slow = slow
            c.connectRate = connectRate
            c.eventLoop = try LoadConfiguration.eventLoop(parsing: eventLoop)
            c.hold = hold
            c.clientName = connection.client
            c.token = connection.resolvedToken
            c.timeout = max(connection.timeout, 30)
            c.events = events
            c.programView = view
            if let program {
                do {
                    let file = try ProgramFile(path: program)
                    c.program = file.source
                    c.programView = view ?? file.header.view
                } catch {
                    throw LoadError(.load, "\(error)")
                }
            }
            try c.validate()
            return c
        }

        func validate() throws {
            do { _ = try loadConfiguration() } catch { throw ValidationError(error.message) }
        }

        func run() throws {
            let configuration: LoadConfiguration
            do { configuration = try loadConfiguration() } catch { throw ValidationError(error.message) }
            let runner = LoadRunner(configuration: configuration, url: try connection.address())
            runner.log = { printError("load: " + $0) }
            if !quiet {
                let terminal = isatty(STDERR_FILENO) != 0
                runner.progress = { line in
                    // A terminal shows one line, rewritten; a log file gets one line per second.
                    FileHandle.standardError.write(Data((terminal ? "\r\u{1B}[K" + line : line + "\n").utf8))
                }
            }
            // Ctrl-C ends the run early: the report still prints and the scratch trees are still deleted.
            signal(SIGINT, SIG_IGN)
            let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
            interrupt.setEventHandler { runner.interrupt() }
            interrupt.resume()
            defer {
                interrupt.cancel()
                signal(SIGINT, SIG_DFL)
            }
            let report: LoadReport
            do {
                report = try runner.run()
            } catch {
                if !quiet && isatty(STDERR_FILENO) != 0 { printError("") }
                throw CLIError(error.message)
            }
            if !quiet && isatty(STDERR_FILENO) != 0 { printError("") }  // end the rewritten progress line
            emit(connection.json ? report.json.encoded() : report.text)
        }
    }
}
