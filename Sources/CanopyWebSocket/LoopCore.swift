import CLibWebSockets
import CanopySupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the server's `ServiceLoop` and the client's `ClientLoop` share: the lws context and the thread servicing it,
/// the mailbox other threads post to, the phases of a loop's life (idle, running, draining, finished), the drain
/// deadline, and the timers that wake `lws_service` for that deadline or for the owner's periodic tick.
final class LoopCore {
    enum Phase {
        case idle, running, draining, finished
    }

    private(set) var phase = Phase.idle
    /// The context while it lives (set by `attach`, destroyed when `run()` ends).
    private(set) var context: OpaquePointer?
    let drainTimeoutSeconds: Int
    private let mailbox = LoopMailbox()
    private var thread: pthread_t?
    private var drainDeadline: UInt64 = 0
    /// How many times `run()` has called `lws_service` (the loop's thread only).
    private(set) var passes = 0
    /// Timers lws keeps pointers to: they must live as long as the context.
    private let drainTimer: UnsafeMutablePointer<canopy_wake_timer>
    private let tickTimer: UnsafeMutablePointer<canopy_wake_timer>

    init(drainTimeoutSeconds: Int) {
        self.drainTimeoutSeconds = drainTimeoutSeconds
        drainTimer = .allocate(capacity: 1)
        drainTimer.initialize(to: canopy_wake_timer())
        tickTimer = .allocate(capacity: 1)
        tickTimer.initialize(to: canopy_wake_timer())
    }

    deinit {
        destroyUnusedContext()
        drainTimer.deallocate()
        tickTimer.deallocate()
    }

    /// Destroys a context `run()` never serviced (it destroys its own). The owner calls this from its `deinit`, while
    /// what lws holds pointers to (protocols, names) is still alive.
    func destroyUnusedContext() {
        mailbox.detach()
        if let context { lws_context_destroy(context) }
        context = nil
    }

    /// Adopts a newly created context; from now on `post` and `requestStop` wake it.
    func attach(_ context: OpaquePointer) {
        self.context = context
        mailbox.attach(context)
    }

    /// Services lws on the calling thread (the loop's thread from now on) until a drain has ended — `isDrained()`
    /// or its deadline — then destroys the context. While running and `hasDeferredWork()`, `tick` runs about every
    /// `tickInterval` nanoseconds, and a timer wakes `lws_service` for it when nothing else does. Call once.
    func run(
        isDrained: () -> Bool, hasDeferredWork: () -> Bool = { false }, tickInterval: UInt64 = 0, tick: () -> Void = {}
    ) {
        precondition(phase == .idle, "a loop runs once")
        guard let context else { return }
        thread = pthread_self()
        phase = .running
        var nextTick: UInt64 = 0
        var timerArmedFor: UInt64 = 0
        while true {
            if lws_service(context, 0) < 0 { break }
            passes += 1
            if phase == .draining && (isDrained() || monotonicNanoseconds() >= drainDeadline) { break }
            guard phase == .running && hasDeferredWork() else { continue }
            let now = monotonicNanoseconds()
            if now >= nextTick {
                nextTick = now + tickInterval
                tick()
            }
            // Not armed while nothing waits, so an idle loop does not wake (and poll every connection) for nothing.
            if hasDeferredWork() && timerArmedFor != nextTick {
                timerArmedFor = nextTick
                canopy_wake_timer_schedule(tickTimer, context, lws_usec_t((nextTick - now) / 1000 + 1))
            }
        }
        phase = .finished
        mailbox.detach()
        canopy_wake_timer_cancel(drainTimer)
        canopy_wake_timer_cancel(tickTimer)
        lws_context_destroy(context)
        self.context = nil
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
        canopy_wake_timer_schedule(drainTimer, context, lws_usec_t(drainTimeoutSeconds) * 1_000_000 + 1000)
    }

    func assertOnLoopThread() {
        assert(thread.map { pthread_equal($0, pthread_self()) != 0 } ?? true, "off the loop's thread")
    }
}
