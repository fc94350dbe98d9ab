import Foundation

/// Starting child processes from tests that run in parallel: one at a time.
///
/// On Linux, Foundation's `Process.run()` learns that a child exited when a socket pair made for that child closes,
/// and neither that socket nor a `Pipe` is close-on-exec: a child that another thread spawns at the same moment
/// inherits them. The first child's exit then goes unnoticed while the second one lives (`isRunning` stays true, the
/// child stays a zombie), and its pipes reach no end of file. A long-lived `nats-server` started by one suite kept a
/// `canopyd` that another suite had stopped "running" for 20 s. Every test that starts a process makes its pipes and
/// calls `run()` inside `start`, so no spawn falls between another's.
public enum ChildProcesses {
    private static let lock = NSLock()

    /// Runs `body` (make the pipes, `run()` the process) while no other test starts a process.
    public static func start<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
