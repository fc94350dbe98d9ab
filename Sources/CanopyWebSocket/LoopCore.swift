import CLibWebSockets
import CanopySupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the server's `ServiceLoop` and the client's `ClientLoop` share: the lws context and the thread servicing it,
/// the way that thread waits (`LoopWaiter`: lws's `poll()` or a libuv loop), the mailbox other threads post to, the
/// phases of a loop's life (idle, running, draining, finished), the drain deadline, and the timers that wake the loop
/// for that deadline or for the owner's periodic tick.
final class LoopCore {
    enum Phase {
        case idle, running, draining, finished
    }

    private(set) var phase = Phase.idle
    /// The context while it lives (set by `attach`, destroyed when `run()` ends).
    private(set) var context: OpaquePointer?
    let drainTimeoutSeconds: Int
    private let waiter: any LoopWaiter
    private let mailbox = LoopMailbox()
    private var thread: pthread_t?
    private var drainDeadline: UInt64 = 0
    /// How many times `run()` has waited for events and serviced them (the loop's thread only).
    private(set) var passes = 0

    /// `eventLoop` is the way the thread waits; `.libuv` falls back to `.poll` when libuv cannot make a loop (see
    /// `eventLoop`).
    init(drainTimeoutSeconds: Int, eventLoop: EventLoopKind) {
        self.drainTimeoutSeconds = drainTimeoutSeconds
        let libuv: (any LoopWaiter)? = eventLoop == .libuv ? LibUVWaiter() : nil
        waiter = libuv ?? PollWaiter()
    }

    /// The way the loop's thread waits for events, as it turned out.
    var eventLoop: EventLoopKind { waiter.kind }

    /// Something that went wrong tearing the context down, for the owner's log (nil: nothing).
    var teardownProblem: String? { waiter.teardownProblem }

    deinit {
        destroyUnusedContext()
    }

    /// Destroys a context `run()` never serviced (it destroys its own). The owner calls this from its `deinit`, while
    /// what lws holds pointers to (protocols, names) is still alive.
    func destroyUnusedContext() {
        mailbox.detach()
        if let context { waiter.destroy(context) }
        context = nil
    }

    /// Adds what the loop's way of waiting needs to the creation info of its context.
    func prepare(_ info: inout lws_context_creation_info) { waiter.prepare(&info) }

    /// Adopts a newly created context; from now on `post` and `requestStop` wake it. False when the context turned
    /// out unusable (it is destroyed then).
    func attach(_ context: OpaquePointer) -> Bool {
        guard waiter.adopt(context) else { return false }
        self.context = context
        mailbox.attach(context)
        return true
    }

    /// Services lws on the calling thread (the loop's thread from now on) until a drain has ended — `isDrained()`
    /// or its deadline — then destroys the context. While running and `hasDeferredWork()`, `tick` runs about every
    /// `tickInterval` nanoseconds, and a timer wakes the loop for it when nothing else does. Call once.
    func run(
        isDrained: () -> Bool, hasDeferredWork: () -> Bool = { false }, tickInterval: UInt64 = 0, tick: () -> Void = {}
    ) {
        precondition(phase == .idle, "a loop runs once")
        guard let context else { return }
        thread = pthread_self()
        phase = .running
        var nextTick: UInt64 = 0
        while true {
            if !waiter.serviceOnce(context) { break }
            passes += 1
            if phase == .draining {
                if isDrained() || monotonicNanoseconds() >= drainDeadline { break }
                waiter.wake(.drain, by: drainDeadline, context)
                continue
            }
            guard phase == .running && hasDeferredWork() else { continue }
            let now = monotonicNanoseconds()
            if now >= nextTick {
                nextTick = now + tickInterval
                tick()
                waiter.nudge(context)
            }
            // Not armed while nothing waits, so an idle loop does not wake (and, on poll, look at every connection)
            // for nothing.
            if hasDeferredWork() { waiter.wake(.tick, by: nextTick, context) }
        }
        phase = .finished
        mailbox.detach()
        waiter.destroy(context)
        self.context = nil
    }

    /// Has the loop's wake-up callback run soon (as a posted job would), from the loop's own thread.
    func wakeSoon() {
        if let context { lws_cancel_service(context) }
    }

    /// Runs `job` on the loop's thread (the owner applies its actions); dropped once the loop finished.
    func post(_ job: @escaping @Sendable () -> [TransportAction]) { mailbox.post(job) }

    /// Asks the loop to drain and stop; callable from any thread (not from a signal handler: it takes a mutex).
    func requestStop() { mailbox.requestStop() }

    /// On the loop's thread, when woken: the jobs posted so far, and whether a stop was asked for while running.
    func takeMail() -> (jobs: [@Sendable () -> [TransportAction]], stopRequested: Bool) {
        guard phase == .running || phase == .draining else { return ([], false) }
        let (jobs, stop) = mailbox.take()
        return (jobs, stop && phase == .running)
    }

    /// Enters the drain: from now on `run()` returns once the owner's connections are gone or the drain timeout
    /// passed (a timer wakes it at the deadline even if nothing else happens).
    func beginDrain() {
        guard phase == .running, let context else { return }
        phase = .draining
        drainDeadline = monotonicNanoseconds() + UInt64(drainTimeoutSeconds) * 1_000_000_000
        waiter.wake(.drain, by: drainDeadline, context)
    }

    func assertOnLoopThread() {
        assert(thread.map { pthread_equal($0, pthread_self()) != 0 } ?? true, "off the loop's thread")
    }
}
