#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A queued write and what to call once it is committed or has failed.
struct PendingWrite {
    let write: StoreWrite
    let completion: @Sendable (Result<Void, StoreError>) -> Void
}

/// The writes waiting for the writer thread. Callers `put`; the writer `take`s everything queued so far (up to a
/// bound) as one group; after `stop`, `put` refuses and `take` drains what is left, then returns nil.
final class WriteQueue: @unchecked Sendable {  // all state behind `mutex`/`condition`
    private var items: [PendingWrite] = []
    private var stopping = false
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Queues `item`; false (and nothing queued) once the queue is stopping.
    func put(_ item: PendingWrite) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if stopping { return false }
        items.append(item)
        if items.count == 1 { pthread_cond_signal(condition) }
        return true
    }

    /// Waits for at least one write (unless `wait` is false: then an empty queue gives `[]` at once) and returns the
    /// oldest ones: all of them, or as many as fit in `maxCount` writes and `maxBytes` payload bytes (always at least
    /// one). Nil when stopping and nothing is left.
    func take(maxCount: Int, maxBytes: Int, wait: Bool = true) -> [PendingWrite]? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while items.isEmpty {
            if stopping { return nil }
            if !wait { return [] }
            pthread_cond_wait(condition, mutex)
        }
        var count = 0
        var bytes = 0
        while count < items.count && count < maxCount {
            bytes += items[count].write.byteCount
            if count > 0 && bytes > maxBytes { break }
            count += 1
        }
        if count == items.count {
            let group = items
            items = []
            return group
        }
        let group = Array(items[..<count])
        items.removeFirst(count)
        return group
    }

    /// Refuses further writes; the writer finishes what is queued.
    func stop() {
        pthread_mutex_lock(mutex)
        stopping = true
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }
}
