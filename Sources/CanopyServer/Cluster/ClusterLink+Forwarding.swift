import CanopyCore
import CanopyNATS
import CanopyProtocol
import CanopySupport
import CanopyWebSocket
import Foundation

/// Batches sent to a follower travel to the tree's owner (request/reply on `canopy.owner.<tree>`, where only the
/// owner listens); the owner's machine handles each as the only message of a session of its own and its one answer
/// goes back.
extension ClusterLink {
    static let clientHeader = "Canopy-Client"
    static let authorHeader = "Canopy-Author"
    /// How long a follower waits for the owner's answer to one forwarded batch before it sends it again: an owner
    /// killed after it received the batch never answers.
    static let forwardAttemptSeconds = 2.0

    /// Sends a batch to its tree's owner (service thread); the answer is fed back with `forwardAnswered`. While
    /// nobody owns the tree (a lease being taken over) or the owner does not answer (it died, the NATS servers elect
    /// a leader), the request is sent again for up to twice the lease time plus the time an owner takes to give up
    /// a publish — after no answer only when the batch has a client name and a `seq`, which make a second copy a
    /// duplicate instead of a second batch. Then the author gets `unavailable`.
    func forward(_ batch: ForwardedBatch) {
        var headers = NATSHeaders()
        // A header with an empty value does not survive nats.c: no client name, no header.
        if !batch.client.isEmpty { headers.add(Self.clientHeader, HeaderText.escape(batch.client)) }
        headers.add(Self.authorHeader, HeaderText.escape(batch.author))
        let subject = ClusterNames.ownerSubject(batch.tree)
        let patience = Double(settings.leaseSeconds * 2) + Self.publishGiveUpSeconds
        forwarding.async { [self, headers] in
            let started = ProtocolRunner.monotonicSeconds()
            var answer: Result<[UInt8], StoreFailure>
            var resent = false
            while true {
                do throws(NATSError) {
                    let reply = try connection.request(
                        subject, payload: batch.message, headers: headers, timeout: .seconds(Self.forwardAttemptSeconds))
                    answer = .success(reply.payload)
                } catch {
                    answer = .failure(StoreFailure(error.isNoResponders ? "no daemon owns it right now" : error.description))
                    let again = error.isNoResponders || (error.isTimeout && batch.isIdempotent)
                    if again && ProtocolRunner.monotonicSeconds() - started < patience && !shared.withLock({ $0.stopped }) {
                        if error.isTimeout { resent = true }
                        usleep(50_000)
                        continue
                    }
                }
                break
            }
            let (final, again) = (answer, resent)
            post? { [self] in feed { machine, _ in machine.forwardAnswered(batch, final, resent: again) } }
        }
    }

    /// Starts answering forwarded batches of tree `id` (this daemon owns it now).
    func startResponder(_ id: String) {
        guard responders[id] == nil else { return }
        do throws(NATSError) {
            responders[id] = try connection.respond(to: ClusterNames.ownerSubject(id)) { [self] request in
                post? { [self] in handleForwarded(request) }
            }
        } catch {
            logger.error("cluster: tree \(id): cannot answer forwarded batches: \(error.description)")
        }
    }

    func stopResponder(_ id: String) { responders.removeValue(forKey: id)?.stop() }

    /// A forwarded batch (service thread): handled by the machine as a session of its own.
    private func handleForwarded(_ request: NATSRequest) -> [TransportAction] {
        guard let runner else { return [] }
        let s = nextForwardedSession
        nextForwardedSession += 1
        answering[s] = request
        let client = request.message.headers[Self.clientHeader].map(HeaderText.unescape) ?? ""
        let author = request.message.headers[Self.authorHeader].map(HeaderText.unescape) ?? "?"
        _ = feed { machine, now in
            machine.openedForwarded(s, client: client, author: author, now: now)
            return []
        }
        return runner.received(s, message: request.message.payload)
    }

    /// Whether `s` is the session of a forwarded batch this daemon still has to answer.
    func isForwarded(_ s: SessionID) -> Bool { s >= 1 << 62 }

    /// Sends the machine's one message for a forwarded batch back as its answer (service thread).
    func answer(_ s: SessionID, _ message: OutgoingMessage) {
        guard let request = answering.removeValue(forKey: s) else { return }
        do throws(NATSError) {
            try request.reply(payload: Array(message.framed[message.headroom...]))
        } catch {
            logger.notice("cluster: cannot answer a forwarded batch: \(error.description)")
        }
    }
}
