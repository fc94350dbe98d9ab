import CLibWebSockets
import Foundation

/// libwebsockets' log lines: printed as lws prints them (to stderr, with its time stamp), except while a caller —
/// a test provoking a failure on purpose — expects one that lws reports on its own ("ERROR on binding …"), which
/// would read as a fault. Package-visible, so the tests need not import the C module.
///
/// lws has one process-wide emitter, and the suites run in parallel: while one such test runs, lws lines of other
/// tests are dropped too. They are diagnostics only; every test asserts on what the loop returns or throws.
package enum LibWebSocketsLog {
    fileprivate final class Quiet: @unchecked Sendable {  // `depth` behind `lock`
        private let lock = NSLock()
        private var depth = 0
        private var installed = false

        /// Installs the emitter once; ServiceLoop and ClientLoop set levels with a nil emitter, which keeps it.
        func enter() {
            lock.withLock {
                depth += 1
                guard !installed else { return }
                installed = true
                lws_set_log_level(Int32(LLL_ERR) | Int32(LLL_WARN), emit)
            }
        }

        func leave() { lock.withLock { depth -= 1 } }

        var isQuiet: Bool { lock.withLock { depth > 0 } }
    }

    fileprivate static let quiet = Quiet()

    /// Runs `body`, a test step whose failure lws logs as an error although the test expects it.
    package static func expectingFailure<T>(_ body: () throws -> T) rethrows -> T {
        quiet.enter()
        defer { quiet.leave() }
        return try body()
    }
}

private let emit: @convention(c) (Int32, UnsafePointer<CChar>?) -> Void = { level, line in
    guard let line, !LibWebSocketsLog.quiet.isQuiet else { return }
    lwsl_emit_stderr(level, line)
}
