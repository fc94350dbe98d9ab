import CLibWebSockets
import CanopySupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What other threads hand to an lws loop's thread (the server's `ServiceLoop`, the client's `ClientLoop`): jobs and
/// a stop request, each waking `lws_service` with `lws_cancel_service`. Once the loop detaches its context (it is
/// about to be destroyed), posts are dropped.
final class LoopMailbox: Sendable {
    private struct State {
        var jobs: [@Sendable () -> [TransportAction]] = []
        var stopRequested = false
        /// The context while it can be woken; nil once it is destroyed.
        var context: OpaquePointer?
    }

    private let state = Locked(State())

    func attach(_ context: OpaquePointer) { state.withLock { $0.context = context } }

    /// Drops pending jobs and stops waking the context (call before destroying it).
    func detach() {
        state.withLock { box in
            box.context = nil
            box.jobs.removeAll()
        }
    }

    func post(_ job: @escaping @Sendable () -> [TransportAction]) {
        state.withLock { box in
            guard let context = box.context else { return }
            box.jobs.append(job)
            lws_cancel_service(context)
        }
    }

    func requestStop() {
        state.withLock { box in
            box.stopRequested = true
            if let context = box.context { lws_cancel_service(context) }
        }
    }

    /// The jobs posted so far (removed), and whether a stop was requested.
    func take() -> (jobs: [@Sendable () -> [TransportAction]], stopRequested: Bool) {
        state.withLock { box in
            defer { box.jobs.removeAll() }
            return (box.jobs, box.stopRequested)
        }
    }
}
