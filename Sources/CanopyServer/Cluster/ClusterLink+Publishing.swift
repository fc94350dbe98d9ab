import CanopyCore
import CanopyNATS
import CanopyProtocol
import CanopySupport
import CanopyWebSocket
import Foundation
import Dispatch

/// The owner's commits: the machine's writes published to the tree's subject, one at a time per tree, each expecting
/// the sequence of the replica's durable version as the subject's last (the fence) and carrying a message ID
/// (deduplication of retries).
extension ClusterLink {
    /// Queues the machine's write (service thread); `committed` or `notCommitted` answers it.
    func persist(_ ticket: CommitTicket, _ write: PersistWrite) {
        trees[ticket.tree, default: TreeLink()].queue.append((ticket, write))
        pump(ticket.tree)
    }

    /// Publishes the tree's next write unless one is under way.
    private func pump(_ id: String) {
        guard let link = trees[id], !link.busy, let next = link.queue.first else { return }
        trees[id]!.busy = true
        let expected: UInt64 =
            if case .createTree = next.write { link.deletedAt } else { link.durableSequence }
        let started = ProtocolRunner.monotonicSeconds()
        if case .createTree(_, let about, let snapshot) = next.write {
            // The creator owns the tree: its lease first (a taken one means the id lives on another daemon). A
            // snapshot too large for the tree stream's message goes to the snapshot stream, in chunks, first.
            let large = about.count + snapshot.count > payloadLimit
            io.async { [self] in
                switch takeLeaseForCreation(id) {
                case .taken: break
                case .heldElsewhere:
                    post? { [self] in failed(id, .fenced, "another daemon holds the tree's lease") }
                    return
                case .unavailable(let why):
                    post? { [self] in failed(id, .unacknowledged, "its lease could not be taken (\(why))") }
                    return
                }
                var reference: UInt64?
                if large {
                    var headers = NATSHeaders()
                    headers.add(StreamRecord.Header.version, "0")
                    switch Result(catching: { () throws(PublishError) in try publishSnapshot(id, snapshot, headers: headers) }) {
                    case .success(let sequence): reference = sequence
                    case .failure(let error):
                        post? { [self] in failed(id, .unacknowledged, "its snapshot was not stored (\(error))") }
                        return
                    }
                }
                post? { [self, reference] in
                    attempt(id, next.ticket, next.write, expected: expected, started: started, snapshotReference: reference)
                    return []
                }
            }
            return
        }
        attempt(id, next.ticket, next.write, expected: expected, started: started)
    }

    /// One publish of the tree's write under way; retried unchanged while the answer is `retryable`.
    private func attempt(
        _ id: String, _ ticket: CommitTicket, _ write: PersistWrite, expected: UInt64, started: Double,
        snapshotReference: UInt64? = nil
    ) {
        let (subject, headers, payload) = StreamRecord.message(
            write, instance: instance, snapshotReference: snapshotReference)
        // Headers and the message ID need a little of the limit too.
        let limit = payloadLimit
        if payload.count > limit {
            post? { [self] in
                failed(id, .tooLarge, "\(payload.count) bytes, more than the NATS servers' max_payload allows (\(limit))")
            }
            return
        }
        let msgID = "\(id)/\(expected)/\(instance)/\(ticket.incarnation).\(ticket.epoch)"
        trees[id]!.inFlightID = msgID
        let completion: @Sendable (Result<PubAck, PublishError>) -> Void = { [self] result in
            post? { [self] in
                // Answered already (the reader saw it stored): this late answer is for a publish no longer under way.
                guard trees[id]?.inFlightID == msgID else { return [] }
                if case .failure(.retryable(let error)) = result,
                    ProtocolRunner.monotonicSeconds() - started < Self.publishGiveUpSeconds
                {
                    logger.debug("cluster: tree \(id): publish again: \(error.description)")
                    DispatchQueue.global().asyncAfter(deadline: .now() + Self.retryPause) { [self] in
                        post? { [self] in
                            if trees[id]?.inFlightID == msgID {
                                attempt(
                                    id, ticket, write, expected: expected, started: started,
                                    snapshotReference: snapshotReference)
                            }
                            return []
                        }
                    }
                    return []
                }
                return finish(id, msgID, result)
            }
        }
        do throws(PublishError) {
            try jetStream.publishAsync(
                subject, payload: payload, headers: headers, msgID: msgID, expectedLastSubjectSequence: expected,
                timeout: .seconds(2), completion: completion)
        } catch {
            completion(.failure(error))
        }
    }

    /// The outcome of the tree's publish under way (`msgID`), on the service thread: JetStream's answer, or the
    /// reader's finding it stored, whichever comes first (the machine must hold it committed before it applies what
    /// another daemon committed after it).
    func finish(_ id: String, _ msgID: String, _ result: Result<PubAck, PublishError>) -> [TransportAction] {
        guard trees[id]?.inFlightID == msgID, let (ticket, write) = trees[id]?.queue.first else { return [] }
        trees[id]!.busy = false
        trees[id]!.inFlightID = nil
        switch result {
        case .success(let ack):
            trees[id]!.queue.removeFirst()
            trees[id]!.acknowledged = max(trees[id]!.acknowledged, ack.sequence)
            trees[id]!.durableSequence = ack.sequence
            switch write {
            case .createTree:
                trees[id]!.versions = VersionIndex()
                trees[id]!.created = ack.sequence
                shared.withLock { _ = $0.held.insert(id) }
                startResponder(id)
            case .deleteTree:
                trees[id]!.created = 0
                trees[id]!.durableSequence = 0
                trees[id]!.deletedAt = ack.sequence
                let lease = shared.withLock { state in
                    state.held.remove(id)
                    return state.owned.removeValue(forKey: id)
                }
                responders.removeValue(forKey: id)?.stop()
                if let lease { io.async { [leases] in try? leases.delete(id, revision: lease.revision) } }
            case .append(_, let version, _, _, _):
                trees[id]!.versions.note(version, ack.sequence)
            }
            let out = feed { $0.committed(ticket, now: $1) }
            pump(id)
            return out
        case .failure(let error):
            if case .fenced = error { return failed(id, .fenced, "another daemon committed to the tree first") }
            return failed(id, .unacknowledged, "not acknowledged by the NATS servers (\(error))")
        }
    }

    /// The tree's write under way will not be committed, nor will those queued after it: the machine undoes them.
    private func failed(_ id: String, _ reason: ProtocolMachine.NotCommitted, _ message: String) -> [TransportAction] {
        guard let write = trees[id]?.queue.first?.write else { return [] }
        trees[id]!.busy = false
        trees[id]!.inFlightID = nil
        let dropped = trees[id]!.queue
        trees[id]!.queue = []
        if case .createTree = write {
            // Our lease on an id we could not create goes (the tree's creator keeps its own).
            let lease = shared.withLock { $0.owned.removeValue(forKey: id) }
            if let lease { io.async { [leases] in try? leases.delete(id, revision: lease.revision) } }
        }
        var out: [TransportAction] = []
        for (t, _) in dropped {
            out += feed { $0.notCommitted(t, reason, message: message, now: $1) }
        }
        return out
    }

    /// What taking the lease of a tree being created came to.
    private enum CreationLease {
        case taken
        case heldElsewhere
        /// The bucket did not answer in time (its stream is electing a leader, or was just made): retryable.
        case unavailable(String)
    }

    /// Takes the lease of a tree being created (io queue). A `retryable` answer is tried again every 25 ms for up
    /// to `publishGiveUpSeconds`: the bucket's stream has no leader for a moment after it is made and during
    /// elections, and that is no reason to call the id taken. A key that exists and holds this daemon's name is its
    /// own earlier attempt, stored after all (names are unique in a cluster): it is taken, not held elsewhere. A key
    /// held by another daemon may be the lease of a tree of that id just deleted, which its owner no longer renews
    /// and is about to release: the id is taken only once the holder renews it (within a third of the lease time),
    /// and free once the key is gone (released, or expired after the lease time).
    private func takeLeaseForCreation(_ id: String) -> CreationLease {
        let name = Array(settings.name.utf8)
        let started = ProtocolRunner.monotonicSeconds()
        var heldAt: UInt64?  // the revision another daemon held the key at when first seen
        while true {
            switch Result(catching: { () throws(KeyValueError) in try leases.create(id, value: name) }) {
            case .success(let revision):
                shared.withLock { $0.owned[id] = (revision, ProtocolRunner.monotonicSeconds()) }
                return .taken
            case .failure(.exists):
                let entry = try? leases.get(id)  // nil: gone meanwhile (create again), or not readable now
                if let entry, entry.value == name {
                    shared.withLock { $0.owned[id] = (entry.revision, ProtocolRunner.monotonicSeconds()) }
                    return .taken
                }
                let renewed = entry.map { entry in heldAt.map { $0 != entry.revision } ?? false } ?? false
                if renewed || ProtocolRunner.monotonicSeconds() - started > Double(settings.leaseSeconds) + 1 {
                    logger.notice("cluster: tree \(id): not created: another daemon holds its lease")
                    return .heldElsewhere
                }
                heldAt = heldAt ?? entry?.revision
                usleep(50_000)
            case .failure(.retryable(let error))
            where ProtocolRunner.monotonicSeconds() - started < Self.publishGiveUpSeconds:
                logger.debug("cluster: tree \(id): lease for its creation, again: \(error.description)")
                usleep(25_000)
            case .failure(let error):
                logger.notice("cluster: tree \(id): lease not taken for its creation: \(error)")
                return .unavailable(error.description)
            }
        }
    }

    /// Publishes a snapshot the machine encoded, as the tree's owner (io queue); failures are logged only: the
    /// machine keeps it as its own base either way, and a daemon starting replays more of the log without it.
    func publishSnapshot(_ ticket: SnapshotTicket, _ bytes: [UInt8]) {
        guard let created = trees[ticket.tree]?.created, created > 0 else { return }
        var headers = NATSHeaders()
        headers.add(StreamRecord.Header.version, String(ticket.version))
        headers.add(Self.createdHeader, String(created))
        io.async { [self, headers] in
            do throws(PublishError) {
                _ = try publishSnapshot(ticket.tree, bytes, headers: headers)
            } catch {
                logger.error("cluster: tree \(ticket.tree): snapshot \(ticket.version) not stored: \(error)")
            }
        }
    }
}
