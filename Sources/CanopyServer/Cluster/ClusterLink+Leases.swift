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
///
/// Two threads: the renewer, which renews every lease held at once (asynchronous writes) every third of the lease
/// time, and the keeper, which takes free leases over — a takeover may wait seconds for the reader, and must not
/// hold up the renewals of the leases already held.
extension ClusterLink {
    /// How often the keeper asks again about a lease that came due but the servers have not expired yet (they expire
    /// values on a timer of their own, a moment after their time).
    static let dueAskSeconds = 0.1
    /// How often the keeper reads the writes its watch received: a renewal is dated at most this late. (Waking for
    /// each write as it arrives costs a thread wake-up per renewal, 1,500 a second for 1,000 trees.)
    static let watchReadSeconds = 0.05

    /// The lease renewer's thread.
    func renewLeasesUntilStopped() {
        let period = Double(settings.leaseSeconds) / 3
        while !shared.withLock({ $0.stopped }) {
            let started = ProtocolRunner.monotonicSeconds()
            renewLeases(within: period)
            let rest = period - (ProtocolRunner.monotonicSeconds() - started)
            if rest > 0 { usleep(useconds_t(rest * 1_000_000)) }
        }
    }

    /// The lease keeper's thread: takeovers. It reads the watch every `watchReadSeconds`, so that each renewal is
    /// dated when it arrived, give or take that, and asks about a lease when it may have become free: as soon as a
    /// lease it saw renewed comes due (its last renewal seen plus the lease time) or it sees one deleted — then every
    /// `dueAskSeconds` for a round, until the servers expired it — and every round (a third of the lease time) about
    /// every lease it has no sighting of. A takeover thus follows the lease's expiry by a moment, not by up to two
    /// rounds.
    func keepLeases() {
        let round = max(Double(settings.leaseSeconds) / 3, 0.1)
        var sightings = LeaseSightings()
        var watch: KeyValueWatch?
        var nextRound = 0.0
        while !shared.withLock({ $0.stopped }) {
            let now = ProtocolRunner.monotonicSeconds()
            let isRound = now >= nextRound
            if isRound {
                nextRound = now + round
                if watch == nil { watch = try? leases.watch() }  // none, or it failed: another try each round
            }
            let wake = takeFreeLeases(sightings, everyOne: isRound, round: round)
            let deadline = min(wake, nextRound)
            if let open = watch {
                watch = readLeaseChanges(open, into: &sightings, until: deadline)
            } else {
                let rest = deadline - ProtocolRunner.monotonicSeconds()
                if rest > 0 { usleep(useconds_t(rest * 1_000_000)) }
            }
        }
        watch?.close()
    }

    /// Feeds `sightings` the lease writes `watch` receives until `deadline`, reading them every `watchReadSeconds`
    /// (each dated when read, so at most that late), or until one shows a lease deleted (asked about at once).
    /// Returns the watch, or nil when it failed (every lease is then asked about each round until another is open).
    private func readLeaseChanges(_ watch: KeyValueWatch, into sightings: inout LeaseSightings, until deadline: Double)
        -> KeyValueWatch?
    {
        if !sightings.watching { sightings.started() }
        do throws(NATSError) {
            while !shared.withLock({ $0.stopped }) {
                var deleted = false
                while let change = try watch.next(timeout: .milliseconds(1)) {
                    sightings.saw(change, at: ProtocolRunner.monotonicSeconds())
                    if change.value?.isEmpty ?? true { deleted = true }
                }
                let rest = deadline - ProtocolRunner.monotonicSeconds()
                if deleted || rest <= 0 { break }
                usleep(useconds_t(min(rest, Self.watchReadSeconds) * 1_000_000))
            }
            return watch
        } catch {
            logger.notice("cluster: the lease watch failed, every lease is asked about until another runs: \(error)")
            watch.close()
            sightings.lost()
            return nil
        }
    }

    /// Renews every lease held whose last renewal was answered, all writes in flight at once (each may take up to
    /// the lease time to be answered); waits for the answers at most `seconds`.
    private func renewLeases(within seconds: Double) {
        let name = Array(settings.name.utf8)
        let sent = ProtocolRunner.monotonicSeconds()
        let due = shared.withLock { state in
            let due = state.owned.filter { !state.renewing.contains($0.key) }
            state.renewing.formUnion(due.keys)
            return due
        }
        let answered = DispatchGroup()
        for (tree, lease) in due {
            answered.enter()
            leases.updateAsync(tree, value: name, revision: lease.revision, timeout: .seconds(settings.leaseSeconds)) {
                [self] result in
                shared.withLock { _ = $0.renewing.remove(tree) }
                renewed(tree, lease, sent: sent, result)
                answered.leave()
            }
        }
        _ = answered.wait(timeout: .now() + seconds)
    }

    /// A renewal's answer (the JetStream reply thread). A renewal counts from when it was sent.
    private func renewed(
        _ tree: String, _ lease: (revision: UInt64, renewed: Double), sent: Double,
        _ result: Result<UInt64, KeyValueError>
    ) {
        switch result {
        case .success(let revision):
            shared.withLock { state in
                if state.owned[tree]?.revision == lease.revision { state.owned[tree] = (revision, sent) }
            }
        case .failure(.retryable(let error)), .failure(.failed(let error)):
            // No answer: it may have been renewed. Past the lease time another daemon may own the tree.
            if ProtocolRunner.monotonicSeconds() - lease.renewed > Double(settings.leaseSeconds) {
                lose(tree, "its lease could not be renewed for \(settings.leaseSeconds) s (\(error.description))")
            }
        case .failure(let error):
            // A renewal that went unanswered may have been stored after all: then the key holds this daemon's name
            // at a newer revision, which is the lease's. Anything else: another daemon took it.
            io.async { [self] in
                let name = Array(settings.name.utf8)
                guard let entry = try? leases.get(tree), entry.value == name else {
                    return lose(tree, "its lease was taken over (\(error))")
                }
                shared.withLock { state in
                    guard state.owned[tree]?.revision == lease.revision else { return }
                    state.owned[tree] = (entry.revision, lease.renewed)
                }
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

    /// Asks about the lease of every held tree that has none here and may be free by the watch's sightings — with
    /// `everyOne` all of them, else only those that became free within the last `round` — and takes those it can.
    /// Returns when to be called again at the latest: when the next lease seen renewed comes due, or after
    /// `dueAskSeconds` while one that came due is still to be asked about.
    private func takeFreeLeases(_ sightings: LeaseSightings, everyOne: Bool, round: Double) -> Double {
        let name = Array(settings.name.utf8)
        let leaseSeconds = Double(settings.leaseSeconds)
        let now = ProtocolRunner.monotonicSeconds()
        let waiting = shared.withLock { state in state.held.filter { state.owned[$0] == nil } }
        var wake = Double.infinity
        var asked: [String] = []
        for tree in waiting {
            let from = sightings.freeFrom(tree, name: name, leaseSeconds: leaseSeconds)
            if from > now {
                wake = min(wake, from)
            } else if now - from < round {
                asked.append(tree)
                wake = min(wake, now + Self.dueAskSeconds)
            } else if everyOne {
                asked.append(tree)
            }
        }
        for tree in asked.sorted() { take(tree, name: name) }
        return wake
    }

    /// Takes tree `tree`'s lease if it is free (or held under this daemon's name by a previous life), reads the
    /// tree up to its subject's last message, then sequences it.
    private func take(_ tree: String, name: [UInt8]) {
        guard let entry = Result(catching: { () throws(NATSError) in try leases.get(tree) }).ok else { return }
        var revision: UInt64
        if let entry, !entry.value.isEmpty {
            // Held: by another daemon, or by this one's previous life (same name), which it takes back.
            guard entry.value == name else { return }
            guard let r = Result(catching: { () throws(KeyValueError) in
                try leases.update(tree, value: name, revision: entry.revision)
            }).ok else { return }
            revision = r
        } else {
            guard let r = Result(catching: { () throws(KeyValueError) in try leases.create(tree, value: name) }).ok
            else { return }
            revision = r
        }
        guard let last = caughtUp(tree) else {
            try? leases.delete(tree, revision: revision)
            return
        }
        // Renewed once more after the catch-up, which may have taken a while.
        guard let renewed = Result(catching: { () throws(KeyValueError) in
            try leases.update(tree, value: name, revision: revision)
        }).ok else { return }
        revision = renewed
        let stillHeld = shared.withLock { state in
            guard state.held.contains(tree) else { return false }
            state.owned[tree] = (revision, ProtocolRunner.monotonicSeconds())
            return true
        }
        guard stillHeld else {
            try? leases.delete(tree, revision: revision)
            return
        }
        logger.info("cluster: tree \(tree): lease taken, stream read up to \(last)")
        post? { [self] in
            startResponder(tree)
            return feed { machine, _ in machine.setOwner(tree, true) }
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
