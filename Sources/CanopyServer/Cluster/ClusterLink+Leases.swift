import CanopyCore
import CanopyNATS
import CanopyProtocol
import CanopySupport
import CanopyWebSocket
import Foundation

/// Ownership: a lease per tree in the `canopy-owners` bucket, renewed every third of the lease time. A tree whose
/// lease is free (its owner stopped renewing: it died, was stopped, or deleted the tree) is taken by the first
/// daemon to create the key; that daemon reads the tree's stream up to its last message, then sequences it. The
/// lease decides who *should* commit; the expected-sequence check of each publish is what makes a deposed owner's
/// commit fail.
extension ClusterLink {
    /// The lease keeper's thread.
    func keepLeases() {
        let pause = useconds_t(max(settings.leaseSeconds * 1_000_000 / 3, 100_000))
        while !shared.withLock({ $0.stopped }) {
            renewLeases()
            takeFreeLeases()
            usleep(pause)
        }
    }

    private func renewLeases() {
        let name = Array(settings.name.utf8)
        for (tree, lease) in shared.withLock({ $0.owned }) {
            let now = ProtocolRunner.monotonicSeconds()
            switch Result(catching: { () throws(KeyValueError) in
                try leases.update(tree, value: name, revision: lease.revision)
            }) {
            case .success(let revision):
                shared.withLock { state in
                    if state.owned[tree] != nil { state.owned[tree] = (revision, now) }
                }
            case .failure(.retryable(let error)), .failure(.failed(let error)):
                // No answer: it may have been renewed. Past the lease time another daemon may own the tree.
                if now - lease.renewed > Double(settings.leaseSeconds) {
                    lose(tree, "its lease could not be renewed for \(settings.leaseSeconds) s (\(error.description))")
                }
            case .failure(let error):
                lose(tree, "its lease was taken over (\(error))")
            }
        }
    }

    private func lose(_ tree: String, _ why: String) {
        guard shared.withLock({ $0.owned.removeValue(forKey: tree) }) != nil else { return }
        logger.notice("cluster: tree \(tree): no longer owned here: \(why)")
        post? { [self] in
            stopResponder(tree)
            return feed { machine, _ in machine.setOwner(tree, false) }
        }
    }

    /// Tries to take the lease of every held tree that has none; reads each taken tree up to its subject's last
    /// message before sequencing it.
    private func takeFreeLeases() {
        let name = Array(settings.name.utf8)
        let candidates = shared.withLock { state in state.held.filter { state.owned[$0] == nil } }
        for tree in candidates.sorted() {
            guard let entry = Result(catching: { () throws(NATSError) in try leases.get(tree) }).ok else { continue }
            var revision: UInt64
            if let entry, !entry.value.isEmpty {
                // Held: by another daemon, or by this one's previous life (same name), which it takes back.
                guard entry.value == name else { continue }
                guard let r = Result(catching: { () throws(KeyValueError) in
                    try leases.update(tree, value: name, revision: entry.revision)
                }).ok else { continue }
                revision = r
            } else {
                guard let r = Result(catching: { () throws(KeyValueError) in try leases.create(tree, value: name) }).ok
                else { continue }
                revision = r
            }
            guard let last = caughtUp(tree) else {
                try? leases.delete(tree, revision: revision)
                continue
            }
            // Renewed once more after the catch-up, which may have taken a while.
            guard let renewed = Result(catching: { () throws(KeyValueError) in
                try leases.update(tree, value: name, revision: revision)
            }).ok else { continue }
            revision = renewed
            let stillHeld = shared.withLock { state in
                guard state.held.contains(tree) else { return false }
                state.owned[tree] = (revision, ProtocolRunner.monotonicSeconds())
                return true
            }
            guard stillHeld else {
                try? leases.delete(tree, revision: revision)
                continue
            }
            logger.info("cluster: tree \(tree): lease taken, stream read up to \(last)")
            post? { [self] in
                startResponder(tree)
                return feed { machine, _ in machine.setOwner(tree, true) }
            }
        }
    }

    /// Waits until the machine was fed the tree subject's last message; that message's sequence, or nil when it
    /// cannot be learnt or the reader does not get there within 10 s.
    private func caughtUp(_ tree: String) -> UInt64? {
        guard let last = Result(catching: { () throws(NATSError) in
            try jetStream.lastMessage(stream: ClusterNames.treeStream, subject: ClusterNames.treeSubject(tree))
        }).ok else { return nil }
        let sequence = last?.sequence ?? 0
        let deadline = ProtocolRunner.monotonicSeconds() + 10
        while shared.withLock({ $0.position }) < sequence {
            guard ProtocolRunner.monotonicSeconds() < deadline else { return nil }
            usleep(5_000)
        }
        return sequence
    }
}

extension Result {
    /// The success value, or nil.
    var ok: Success? {
        if case .success(let value) = self { return value }
        return nil
    }
}
