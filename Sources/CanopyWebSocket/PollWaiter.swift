import CLibWebSockets
import CanopySupport

/// lws's own event loop: `lws_service` polls every connection of the context on each call, and the wake timers are
/// lws timers (`canopy_wake_timer`) that interrupt the poll.
final class PollWaiter: LoopWaiter {
    var kind: EventLoopKind { .poll }
    var teardownProblem: String? { nil }
    /// Timers lws keeps pointers to: they must live as long as the context.
    private let timers: [WakeTimer: UnsafeMutablePointer<canopy_wake_timer>]
    private var armedFor: [WakeTimer: UInt64] = [:]

    init() {
        var timers: [WakeTimer: UnsafeMutablePointer<canopy_wake_timer>] = [:]
        for kind in WakeTimer.allCases {
            let timer = UnsafeMutablePointer<canopy_wake_timer>.allocate(capacity: 1)
            timer.initialize(to: canopy_wake_timer())
            timers[kind] = timer
        }
        self.timers = timers
    }

    deinit {
        for timer in timers.values { timer.deallocate() }
    }

    func prepare(_ info: inout lws_context_creation_info) {}

    func adopt(_ context: OpaquePointer) -> Bool { true }

    func serviceOnce(_ context: OpaquePointer) -> Bool { lws_service(context, 0) >= 0 }

    func wake(_ kind: WakeTimer, by deadline: UInt64, _ context: OpaquePointer) {
        let timer = timers[kind]!
        // A fired lws timer is off its list; one still on it for this deadline needs nothing.
        if armedFor[kind] == deadline && timer.pointee.sul.list.owner != nil { return }
        armedFor[kind] = deadline
        let now = monotonicNanoseconds()
        let micros = deadline > now ? (deadline - now) / 1000 + 1 : 1
        canopy_wake_timer_schedule(timer, context, lws_usec_t(micros))
    }

    func nudge(_ context: OpaquePointer) {}

    func destroy(_ context: OpaquePointer) {
        for timer in timers.values { canopy_wake_timer_cancel(timer) }
        lws_context_destroy(context)
    }
}
