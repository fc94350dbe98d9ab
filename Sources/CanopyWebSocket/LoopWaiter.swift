import CLibWebSockets

/// The two timers a loop wakes itself with when nothing else happens: the owner's periodic tick and the end of a drain.
enum WakeTimer: CaseIterable {
    case tick, drain
}

/// How a `LoopCore` thread waits for lws's events and wakes itself at a given time: lws's own `poll()`
/// (`PollWaiter`) or a libuv loop it owns (`LibUVWaiter`). Loop thread only, once the loop runs.
protocol LoopWaiter: AnyObject {
    var kind: EventLoopKind { get }
    /// Adds what this way of waiting needs to the creation info of the context (used for `lws_create_context` only).
    func prepare(_ info: inout lws_context_creation_info)
    /// Whether a newly created context is usable; if not, it is destroyed already (lws may hand back a context it
    /// failed to set up on a foreign loop).
    func adopt(_ context: OpaquePointer) -> Bool
    /// Waits for events, services them, and returns; false once lws failed.
    func serviceOnce(_ context: OpaquePointer) -> Bool
    /// Makes `serviceOnce` return by `deadline` (`monotonicNanoseconds()`) if nothing else does; rearming for the
    /// same deadline is free, so the loop can ask on every pass.
    func wake(_ timer: WakeTimer, by deadline: UInt64, _ context: OpaquePointer)
    /// Lets lws see timeouts set outside its own callbacks (after the owner's tick).
    func nudge(_ context: OpaquePointer)
    /// Cancels the wake timers, destroys the context, and releases what the waiter holds. Called once.
    func destroy(_ context: OpaquePointer)
    /// Something about the teardown the owner should log (nil: nothing).
    var teardownProblem: String? { get }
}
