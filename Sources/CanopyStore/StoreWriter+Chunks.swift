import CanopySupport

/// A step of a chunked write, told to `StoreOptions.chunkHook` (tests) before it runs.
enum ChunkedWriteEvent: Sendable, Equatable {
    /// Chunk `index` (from 0) of `count` is about to be written.
    case chunk(tree: String, index: Int, count: Int)
    /// Every chunk is committed; the transaction that makes them the snapshot is next.
    case finishing(tree: String)
}

extension StoreWriter {
    /// Whether there are released chunks to delete, or free pages to give back, and that is not on hold.
    var hasGarbageWork: Bool { !garbagePaused && (!chunks.garbage.isEmpty || vacuumDue) }

    /// One step of the chunked write, in a transaction of its own: its next chunk, or, once all are committed, the
    /// transaction that checks the write again against the tree as it is now and writes the `snapshots` row (with
    /// compaction) and, for a new tree, the `trees` row. Only then does its completion run. If a step fails, the
    /// write fails with that error and its chunks are garbage.
    func advanceChunkedWrite() {
        guard var current = job else { return }
        let start = monotonicNanoseconds()
        if !current.isComplete {
            hook?(.chunk(tree: current.tree, index: current.written, count: current.count))
            do throws(StoreError) {
                connection.rollbackIfNeeded()
                try begin.run { (s) throws(StoreError) in try s.execute("beginning a transaction") }
                try chunks.insertNext(of: current)
                try commit.run { (s) throws(StoreError) in try s.execute("committing") }
            } catch {
                connection.rollbackIfNeeded()
                finish(current, .failure(error), failedCommit: true)
                return
            }
            current.written += 1
            job = current
            let elapsed = monotonicNanoseconds() - start
            statistics.withLock {
                $0.commits += 1
                $0.chunks += 1
                $0.commitNanoseconds += elapsed
            }
            didCommit()
            return
        }
        hook?(.finishing(tree: current.tree))
        switch check(current.pending.write, trees[current.tree]) {
        case .failure(let error):
            statistics.withLock { $0.rejected += 1 }
            finish(current, .failure(error), failedCommit: false)
        case .success(let next):
            let released: [Int]
            do throws(StoreError) {
                released = try transaction([current.pending.write], chunked: current)
            } catch {
                connection.rollbackIfNeeded()
                finish(current, .failure(error), failedCommit: true)
                return
            }
            trees[current.tree] = next
            chunks.release(released)
            let elapsed = monotonicNanoseconds() - start
            statistics.withLock {
                $0.commits += 1
                $0.writes += 1
                $0.chunkedWrites += 1
                $0.commitNanoseconds += elapsed
            }
            didCommit()
            finish(current, .success(()), failedCommit: false)
        }
    }

    private func finish(_ finished: ChunkedWrite, _ result: Result<Void, StoreError>, failedCommit: Bool) {
        job = nil
        if case .failure = result {
            chunks.release([finished.id])
            if failedCommit { statistics.withLock { $0.failedCommits += 1 } }
        }
        finished.pending.completion(result)
    }

    /// A transaction of its own that deletes a few released chunks and gives free pages back (bounded). If it fails
    /// (a full disk), garbage waits until another transaction commits.
    func collectGarbage() {
        let start = monotonicNanoseconds()
        do throws(StoreError) {
            connection.rollbackIfNeeded()
            try begin.run { (s) throws(StoreError) in try s.execute("beginning a transaction") }
            let gone = try chunks.deleteSomeGarbage()
            try vacuumIfMostlyFree()
            try commit.run { (s) throws(StoreError) in try s.execute("committing") }
            chunks.deleted(gone)
        } catch {
            connection.rollbackIfNeeded()
            garbagePaused = true
            return
        }
        let elapsed = monotonicNanoseconds() - start
        statistics.withLock {
            $0.commits += 1
            $0.garbageCommits += 1
            $0.commitNanoseconds += elapsed
        }
        reserve?.refillIfDue(now: monotonicNanoseconds())
    }
}
