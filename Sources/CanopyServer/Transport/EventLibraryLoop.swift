import CLibWebSockets

#if canImport(Glibc)
    import Glibc
#endif

/// A libev loop (epoll on Linux) that the service loop owns and lws runs on as a "foreign" loop, with the two timers
/// that wake it (the handler's tick and the drain deadline). Created before the lws context, destroyed after it.
/// Service thread only, once `run()` started.
final class EventLibraryLoop {
    let loop: UnsafeMutableRawPointer
    let tickTimer: UnsafeMutableRawPointer
    let drainTimer: UnsafeMutableRawPointer
    /// Wakes lws every 100 ms once the context is settled (see `canopy_ev_kick_start`).
    private var kickTimer: UnsafeMutableRawPointer?
    private var destroyed = false

    /// Nil when libev cannot make a loop.
    init?() {
        guard let loop = canopy_ev_loop_new() else { return nil }
        guard let tick = canopy_ev_timer_new(), let drain = canopy_ev_timer_new() else {
            canopy_ev_loop_destroy(loop)
            return nil
        }
        self.loop = loop
        tickTimer = tick
        drainTimer = drain
    }

    /// Calls `body` with the `foreign_loops` array for `lws_context_creation_info` (one loop: one service thread).
    func withForeignLoops<R>(_ body: (UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> R) -> R {
        var loops: [UnsafeMutableRawPointer?] = [loop]
        return loops.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }

    /// Runs the loop until lws has finished starting `context` (its system state is operational, so protocols are
    /// initialised). lws does that from a timer, which on libev it services only after some other event: without
    /// this, the first upgrades would be handled before the vhost's default protocol is known. Call before creating
    /// the vhost, so no connection can come first. False if lws did not get there within a second.
    func settle(_ context: OpaquePointer) -> Bool {
        guard let state = lws_system_get_state_manager(context) else { return false }
        let operational = Int32(LWS_SYSTATE_OPERATIONAL.rawValue)
        for _ in 0..<1000 where state.pointee.state < operational {
            lws_cancel_service(context)  // an event, after which lws services its due timers
            canopy_ev_run_nowait(loop)
            canopy_ev_run_nowait(loop)
            if state.pointee.state < operational { usleep(1000) }
        }
        guard state.pointee.state >= operational, let kick = canopy_ev_kick_start(loop, context, 0.1) else { return false }
        kickTimer = kick
        return true
    }

    /// Waits until something happens (an lws event, a timer), handles it, and returns.
    func runOnce() { canopy_ev_run_once(loop) }

    /// Arms `timer` (one of this loop's) to wake the loop once, `seconds` from now.
    func arm(_ timer: UnsafeMutableRawPointer, seconds: Double) { canopy_ev_timer_arm(loop, timer, seconds) }

    /// Frees the timers and the loop; after the lws context is destroyed. Idempotent.
    func destroy() {
        guard !destroyed else { return }
        destroyed = true
        canopy_ev_timer_free(loop, tickTimer)
        canopy_ev_timer_free(loop, drainTimer)
        if let kickTimer { canopy_ev_timer_free(loop, kickTimer) }
        canopy_ev_loop_destroy(loop)
    }
}
