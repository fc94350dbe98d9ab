import CLibWebSockets
import CanopySupport

#if canImport(Glibc)
    import Glibc
#endif

/// A libuv loop the loop's thread owns and runs lws on (LWS_SERVER_OPTION_LIBUV with a "foreign" loop): libuv waits
/// with epoll, so a wake costs what is ready rather than a `poll()` over every connection. The wake timers are libuv
/// timers; lws's wake-up pipe (`lws_cancel_service`) works as with `poll()`.
///
/// lws 4.1.6 tears a context on a foreign libuv loop down in steps (lib/core/context.c): `lws_context_destroy` starts
/// closing every handle, the loop must run until libuv has closed them, and a second `lws_context_destroy` frees the
/// context. One more thing needs care: on that path lws closes its wake-up eventfd twice, once at once and once when
/// the handle watching it has closed (fixed in later lws). In a process where other threads open descriptors (more
/// daemons in the tests, SQLite) the second `close` could hit a descriptor someone else just got with the same number,
/// so the number is taken back (`canopy_fd_take_if_free`) right after the first close, and the second closes that.
final class LibUVWaiter: LoopWaiter {
    var kind: EventLoopKind { .libuv }
    private(set) var teardownProblem: String?
    private var loop: UnsafeMutablePointer<uv_loop_t>?
    private var timers: [WakeTimer: UnsafeMutablePointer<uv_timer_t>] = [:]
    private var armedFor: [WakeTimer: UInt64] = [:]
    /// `foreign_loops` for the context's creation: one loop, for lws's one service thread.
    private let foreignLoops: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    /// lws writes nil here once it has freed the context (`pcontext`).
    private let contextSlot: UnsafeMutablePointer<OpaquePointer?>

    /// Nil when libuv cannot make a loop (out of descriptors).
    init?() {
        guard let loop = canopy_uv_loop_new() else { return nil }
        for kind in WakeTimer.allCases {
            guard let timer = canopy_uv_wake_timer_new(loop) else {
                for made in timers.values { canopy_uv_close(made) }
                _ = canopy_uv_run_nowait(loop)
                _ = canopy_uv_loop_free(loop)
                return nil
            }
            timers[kind] = timer
        }
        self.loop = loop
        foreignLoops = .allocate(capacity: 1)
        foreignLoops.initialize(to: UnsafeMutableRawPointer(loop))
        contextSlot = .allocate(capacity: 1)
        contextSlot.initialize(to: nil)
    }

    deinit {
        // A loop no context was adopted onto (or whose teardown had to be abandoned: then it stays, with lws's
        // handles, rather than be freed under them).
        if let loop, teardownProblem == nil {
            closeTimers()
            _ = canopy_uv_run_nowait(loop)
            _ = canopy_uv_loop_free(loop)
        }
        foreignLoops.deallocate()
        contextSlot.deallocate()
    }

    func prepare(_ info: inout lws_context_creation_info) {
        info.options |= UInt64(LWS_SERVER_OPTION_LIBUV)
        info.foreign_loops = foreignLoops
        info.pcontext = contextSlot
    }

    func adopt(_ context: OpaquePointer) -> Bool {
        contextSlot.pointee = context
        guard let loop else { return false }
        // A context lws failed to finish on a foreign loop comes back half destroyed, without its wake-up pipe.
        if canopy_uv_lws_pipe_fd(loop) >= 0 { return true }
        destroy(context)
        return false
    }

    func serviceOnce(_ context: OpaquePointer) -> Bool {
        guard let loop else { return false }
        canopy_uv_run_once(loop)
        return true
    }

    func wake(_ kind: WakeTimer, by deadline: UInt64, _ context: OpaquePointer) {
        guard let timer = timers[kind] else { return }
        // libuv's clock is coarser than ours, so a timer may fire a little early: rearm until the deadline passed.
        if armedFor[kind] == deadline && canopy_uv_wake_timer_is_armed(timer) != 0 { return }
        armedFor[kind] = deadline
        let now = monotonicNanoseconds()
        canopy_uv_wake_timer_arm(timer, deadline > now ? (deadline - now + 999_999) / 1_000_000 : 0)
    }

    /// lws's libuv glue rearms its timer for lws's own timeouts only after an event; a wake-up is one.
    func nudge(_ context: OpaquePointer) { lws_cancel_service(context) }

    func destroy(_ context: OpaquePointer) {
        guard let loop else { return }
        closeTimers()
        let pipe = canopy_uv_lws_pipe_fd(loop)
        lws_context_destroy(context)
        if pipe >= 0 && !takeBack(pipe, loop) {
            teardownProblem =
                "libwebsockets' wake-up descriptor \(pipe) was reused by another thread before it could be taken "
                + "back; the loop and its context are left as they are (leaked) so it is not closed under its owner"
            return
        }
        // lws closes its handles through the loop; a pass runs their close callbacks (nothing here waits).
        var passes = 0
        while canopy_uv_run_nowait(loop) != 0 && passes < 10_000 { passes += 1 }
        if contextSlot.pointee != nil { lws_context_destroy(context) }
        if contextSlot.pointee != nil {
            teardownProblem = "libwebsockets did not finish destroying its context on the libuv loop"
        }
        if canopy_uv_loop_free(loop) == 0 {
            self.loop = nil
        } else if teardownProblem == nil {
            teardownProblem = "the libuv loop still had open handles after libwebsockets' context was destroyed"
        }
    }

    /// Takes descriptor `fd` back after lws closed it the first time: at once if it is free (nearly always), or once
    /// its new owner lets go of it, for up to two seconds.
    private func takeBack(_ fd: Int32, _ loop: UnsafeMutablePointer<uv_loop_t>) -> Bool {
        for _ in 0..<2000 {
            if canopy_fd_take_if_free(loop, fd) != 0 { return true }
            usleep(1000)
        }
        return false
    }

    private func closeTimers() {
        for timer in timers.values { canopy_uv_close(timer) }
        timers = [:]
    }
}
