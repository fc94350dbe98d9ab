import CanopyCore
import CanopySupport
import CanopyWebSocket

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a load test's full-speed connections — the writers and the subscribers that read at once — on one
/// `ClientLoop`: every `handle` call and every `tick` (posted once a millisecond by `LoadRunner`'s ticker) happens
/// on the loop's thread, so none of this state is shared.
///
/// Life of a run: connections open at `--connect-rate`, say hello, subscribe; once every connection is ready (or
/// failed) the clock starts: `warmup` seconds, then the measurement window of `duration` seconds, then a drain that
/// waits (at most `configuration.timeout`) for the answers to what was sent. Edits go out on a fixed schedule in the open loop
/// (`--rate`: latency counts from the scheduled time, so a late send is charged to the run, not hidden) or, in the
/// closed loop, whenever a writer has fewer than `--in-flight` answers outstanding.
final class LoadDriver: ClientHandler, @unchecked Sendable {  // used on the client loop's thread only (see above)
    enum Phase: Equatable { case connecting, running, draining, finished }

    /// A connection's place in the run; it keeps its slot across reconnections.
    private struct Slot {
        /// The writer's index, or nil for a subscriber.
        var writer: Int?
        var tree: Int
        var name: String
        var connection: ConnectionID = 0
        var session = ""
        var open = false
        /// Subscribed and caught up (counted in its tree's `subscribers`).
        var ready = false
        /// Was ready once (the start waits for every slot to get there, or fail).
        var everReady = false
        var dead = false
        /// The last version seen: a reconnection resubscribes with `since`.
        var lastVersion: Int64 = 0
    }

    /// An edit sent and not yet fully answered: its author's diff, and the diff at every other subscriber.
    private struct PendingEdit {
        var sentAt: UInt64
        var inWindow: Bool
        var acked = false
        /// The author's connection closed before its answer: the first delivery elsewhere stands for it.
        var orphaned = false
        var deliveriesLeft: Int
        var changes: [LoadTreeModel.Change]
    }

    private final class Writer {
        let slot: Int
        let tree: Int
        var nextSeq: Int64
        var outstanding = 0
        var pending: [Int64: PendingEdit] = [:]

        init(slot: Int, tree: Int, firstSeq: Int64) {
            self.slot = slot
            self.tree = tree
            nextSeq = firstSeq
        }
    }

    let configuration: LoadConfiguration
    let url: WebSocketURL
    weak var loop: ClientLoop?
    /// Slow readers on their own loop (nil without `--slow`).
    var slowReaders: SlowReaders?
    /// Where the progress line goes (nil: `--quiet`).
    var progress: ((String) -> Void)?
    private(set) var failure: String?
    private(set) var phase = Phase.connecting

    private let trees: [LoadTreeModel]
    private var slots: [Slot] = []
    private var slotOf: [ConnectionID: Int] = [:]
    private var writers: [Writer] = []
    private var writerOfSession: [String: Int] = [:]
    private var random: SplitMix64
    private var report: LoadReport
    private var out: [UInt8] = []

    // Clock (monotonic nanoseconds).
    private var connectStart: UInt64 = 0
    private var connectsStarted = 0
    private var start: UInt64 = 0
    private var windowStart: UInt64 = 0
    private var windowEnd: UInt64 = 0
    private var drainDeadline: UInt64 = 0
    private var nextSecond: UInt64 = 0
    /// Open loop: batches scheduled so far, and the interval between two.
    private var scheduled: UInt64 = 0
    private var interval: Double = 0

    // Counters: the current second (for the progress line) and connections.
    private var secondAcks = 0
    private var secondDiffs = 0
    private var secondAck = LatencyStats()
    private var secondDelivery = LatencyStats()
    private var connected = 0
    private var readySlots = 0
    private var settledSlots = 0

    init(
        configuration: LoadConfiguration, url: WebSocketURL, trees: [LoadTreeModel], clientPrefix: String,
        firstSeq: Int64
    ) {
        self.configuration = configuration
        self.url = url
        self.trees = trees
        random = SplitMix64(seed: configuration.seed)
        report = LoadReport(configuration: configuration)
        report.trees = trees.map(\.id)
        report.nodesPerTree = trees.first?.nodeCount ?? 0
        let writerCount = configuration.writerCount
        for w in 0..<writerCount {
            slots.append(Slot(writer: w, tree: w % trees.count, name: "\(clientPrefix)-w\(w)"))
            writers.append(Writer(slot: w, tree: w % trees.count, firstSeq: firstSeq))
        }
        for c in 0..<(configuration.clients - configuration.slow) {
            slots.append(Slot(writer: nil, tree: c % trees.count, name: "\(clientPrefix)-c\(c)"))
        }
        if let rate = configuration.rate { interval = 1e9 / rate }
    }

    // MARK: Events

    func handle(_ id: ConnectionID, _ event: ClientEvent) -> [TransportAction] {
        guard let s = slotOf[id] else { return [] }
        switch event {
        case .opened:
            slots[s].open = true
            connected += 1
            report.opened += 1
            report.peak = max(report.peak, connected + (slowReaders?.connected ?? 0))
            let hello = LoadMessages.hello(client: slots[s].name, token: configuration.token)
            return [.send(id, OutgoingMessage(encoding: hello))]
        case .message(let bytes):
            return received(s, bytes)
        case .closed(let code, let reason):
            return closed(s, code: code, reason: reason)
        case .failed(let why):
            slotOf[id] = nil
            report.failed += 1
            if phase == .connecting {
                slots[s].dead = true
                settledSlots += 1
                if let why = allWritersDead(why) { return fail(why) }
            } else if phase == .running {
                report.disconnects["failed", default: 0] += 1
            }
            return []
        }
    }

    private func received(_ s: Int, _ bytes: [UInt8]) -> [TransportAction] {
        var head = MessageHead(scanning: bytes)
        if head.type == "diff" && (head.author == nil || head.seq == nil || head.version == nil) {
            head = Self.fullHead(bytes) ?? head
        }
        switch head.type {
        case "diff":
            return diff(s, head)
        case "clients", "snapshot":
            if head.type == "snapshot", let version = head.version { slots[s].lastVersion = version }
            return subscribed(s)
        case "welcome":
            return welcomed(s, bytes)
        case "rejected":
            if head.code == nil || head.seq == nil { head = Self.fullHead(bytes) ?? head }
            return rejected(s, head)
        case "error":
            return fail("the daemon answered with an error: \(String(decoding: bytes.prefix(300), as: UTF8.self))")
        case "deleted":
            return fail("tree \(head.tree ?? "?") was deleted during the run")
        case nil:
            if let head = Self.fullHead(bytes), head.type != nil { return received(s, head: head, bytes) }
            return fail("the daemon sent a message that is not a JSON object")
        default:
            return []
        }
    }

    /// `received` for a message whose head needed the full parser (escaped strings, reordered members).
    private func received(_ s: Int, head: MessageHead, _ bytes: [UInt8]) -> [TransportAction] {
        switch head.type {
        case "diff": return diff(s, head)
        case "rejected": return rejected(s, head)
        case "welcome": return welcomed(s, bytes)
        case "clients", "snapshot": return subscribed(s)
        case "error", "deleted": return fail("the daemon sent \(String(decoding: bytes.prefix(300), as: UTF8.self))")
        default: return []
        }
    }

    static func fullHead(_ bytes: [UInt8]) -> MessageHead? {
        guard let message = try? JSONParser.parse(bytes: bytes, maxDepth: 4096), message.object != nil else {
            return nil
        }
        func integer(_ key: String) -> Int64? { message[key]?.number.flatMap { Int64(exactly: $0) } }
        return MessageHead(
            type: message["type"]?.string, tree: message["tree"]?.string, version: integer("version"),
            author: message["author"]?.string, seq: integer("seq"), code: message["code"]?.string)
    }

    private func welcomed(_ s: Int, _ bytes: [UInt8]) -> [TransportAction] {
        let session = (try? JSONParser.parse(bytes: bytes))?["session"]?.string ?? ""
        slots[s].session = session
        if let w = slots[s].writer { writerOfSession[session] = w }
        let subscribe = LoadMessages.subscribe(tree: trees[slots[s].tree].id, since: slots[s].lastVersion)
        return [.send(slots[s].connection, OutgoingMessage(encoding: subscribe))]
    }

    /// A snapshot or the presence list that follows a subscription: the connection is caught up.
    private func subscribed(_ s: Int) -> [TransportAction] {
        guard slots[s].open, !slots[s].ready, !slots[s].dead else { return [] }
        slots[s].ready = true
        trees[slots[s].tree].subscribers += 1
        if !slots[s].everReady {
            slots[s].everReady = true
            readySlots += 1
            settledSlots += 1
        }
        return []
    }

    private func diff(_ s: Int, _ head: MessageHead) -> [TransportAction] {
        report.totalDiffs += 1
        secondDiffs += 1
        if let version = head.version { slots[s].lastVersion = max(slots[s].lastVersion, version) }
        guard let author = head.author, let seq = head.seq, let w = writerOfSession[author] else { return [] }
        let writer = writers[w]
        guard var edit = writer.pending[seq] else { return [] }
        let now = monotonicNanoseconds()
        let latency = now &- edit.sentAt
        if edit.inWindow { report.delivered += 1 }
        var actions: [TransportAction] = []
        if s == writer.slot && author == slots[s].session && !edit.acked {
            edit.acked = true
            writer.outstanding -= 1
            trees[writer.tree].accept(edit.changes)
            report.totalAccepted += 1
            secondAcks += 1
            secondAck.record(nanoseconds: latency)
            if edit.inWindow {
                report.accepted += 1
                report.ack.record(nanoseconds: latency)
            }
            if configuration.rate == nil { actions = fill(w, now: now) }
        } else {
            edit.deliveriesLeft -= 1
            secondDelivery.record(nanoseconds: latency)
            if edit.inWindow { report.delivery.record(nanoseconds: latency) }
            if edit.orphaned && !edit.acked {
                edit.acked = true
                trees[writer.tree].accept(edit.changes)
                report.totalAccepted += 1
            }
        }
        writer.pending[seq] = edit.acked && edit.deliveriesLeft <= 0 ? nil : edit
        return actions
    }

    private func rejected(_ s: Int, _ head: MessageHead) -> [TransportAction] {
        guard let w = slots[s].writer, let seq = head.seq else { return [] }
        let writer = writers[w]
        guard let edit = writer.pending.removeValue(forKey: seq) else { return [] }
        let code = head.code ?? "unknown"
        writer.outstanding -= 1
        trees[writer.tree].undo(edit.changes)
        report.totalRejected += 1
        if edit.inWindow { report.rejected[code, default: 0] += 1 }
        return configuration.rate == nil ? fill(w, now: monotonicNanoseconds()) : []
    }

    private func closed(_ s: Int, code: UInt16?, reason: String) -> [TransportAction] {
        slotOf[slots[s].connection] = nil
        if slots[s].open { connected -= 1 }
        slots[s].open = false
        if slots[s].ready {
            slots[s].ready = false
            trees[slots[s].tree].subscribers -= 1
        }
        guard phase == .connecting || phase == .running || phase == .draining, !slots[s].dead else { return [] }
        report.disconnects[code.map(String.init) ?? "none", default: 0] += 1
        if let w = slots[s].writer {
            // Its answers are lost with the connection; a delivery to another subscriber will stand for each.
            let writer = writers[w]
            for (seq, edit) in writer.pending where !edit.acked { writer.pending[seq]?.orphaned = true }
            writer.outstanding = 0
        }
        if phase == .draining { return [] }
        if !slots[s].everReady {
            slots[s].dead = true
            settledSlots += 1
            if let why = allWritersDead(code.map { "closed with \($0) \(reason)" } ?? "connection lost") {
                return fail(why)
            }
            return []
        }
        connect(s)  // the slot comes back and resubscribes with `since`
        return []
    }

    /// The failure to report when no writer is left before the start (nil while one is).
    private func allWritersDead(_ last: String) -> String? {
        guard !writers.isEmpty, slots.prefix(writers.count).allSatisfy(\.dead) else { return nil }
        return "no writer could connect and subscribe: \(last)"
    }

    private func fail(_ why: String) -> [TransportAction] {
        if failure == nil { failure = why }
        finish()
        return []
    }

    // MARK: Clock

    /// Called once a millisecond on the loop's thread.
    func tick() -> [TransportAction] {
        let now = monotonicNanoseconds()
        if now >= nextSecond && nextSecond > 0 && phase != .finished { showProgress(now) }
        switch phase {
        case .connecting:
            if connectStart == 0 {
                connectStart = now
                nextSecond = now + 1_000_000_000
            }
            let due = min(slots.count, Int(Double(now - connectStart) / 1e9 * configuration.connectRate) + 1)
            while connectsStarted < due {
                connect(connectsStarted)
                connectsStarted += 1
            }
            if settledSlots == slots.count && (slowReaders?.settled ?? true) { return begin(now) }
            // Connections still not subscribed long after the last one was opened count as failed.
            let deadline =
                connectStart + UInt64((Double(slots.count) / configuration.connectRate + configuration.timeout) * 1e9)
            if now >= deadline {
                let late = slots.indices.filter { !slots[$0].everReady && !slots[$0].dead }
                for s in late {
                    slots[s].dead = true  // it stays connected, if it is, but takes no part
                    report.failed += 1
                }
                settledSlots = slots.count
                if let why = allWritersDead(
                    "\(late.count) connection(s) not subscribed within \(Int(configuration.timeout)) s")
                {
                    return fail(why)
                }
                return begin(now)
            }
        case .running:
            // The open loop's batches due before the window's end go out even when this tick comes late (a busy
            // machine): dropping them would make the run count fewer edits than its rate promised.
            let due = configuration.rate != nil && !writers.isEmpty ? schedule(now) : []
            if now >= windowEnd {
                phase = .draining
                // It ends as soon as every answer is in; the limit only matters for a daemon that fell behind (a
                // starved machine answers late, not never), so it is the setup and teardown timeout, not 5 s.
                drainDeadline = now + UInt64(configuration.timeout * 1e9)
            }
            return due
        case .draining:
            if writers.allSatisfy({ $0.pending.isEmpty }) || now >= drainDeadline { finish() }
        case .finished:
            break
        }
        return []
    }

    private func connect(_ s: Int) {
        guard let loop else { return }
        let id = loop.connect(url)
        slots[s].connection = id
        slotOf[id] = s
    }

    private func begin(_ now: UInt64) -> [TransportAction] {
        phase = .running
        start = now
        let warmup = configuration.hold ? 0 : configuration.warmup
        windowStart = now + UInt64(warmup * 1e9)
        windowEnd = windowStart + UInt64(configuration.duration * 1e9)
        nextSecond = now + 1_000_000_000
        slowReaders?.begin()
        if configuration.rate == nil { return writers.indices.flatMap { fill($0, now: now) } }
        return schedule(now)
    }

    /// Open loop: sends every batch scheduled up to `now`, each stamped with its scheduled time.
    private func schedule(_ now: UInt64) -> [TransportAction] {
        var actions: [TransportAction] = []
        while true {
            let at = start + UInt64(Double(scheduled) * interval)
            guard at <= now, at < windowEnd else { break }
            let w = Int(scheduled % UInt64(writers.count))
            scheduled += 1
            if let action = sendEdit(w, at: at) { actions.append(action) } else { report.unanswered += 1 }
        }
        return actions
    }

    /// Closed loop: tops writer `w` up to `--in-flight` outstanding edits while the window lasts.
    private func fill(_ w: Int, now: UInt64) -> [TransportAction] {
        guard phase == .running, now < windowEnd else { return [] }
        var actions: [TransportAction] = []
        while writers[w].outstanding < configuration.inFlightCount, let action = sendEdit(w, at: monotonicNanoseconds()) {
            actions.append(action)
        }
        return actions
    }

    private func sendEdit(_ w: Int, at sentAt: UInt64) -> TransportAction? {
        let writer = writers[w]
        let slot = slots[writer.slot]
        guard slot.open, slot.ready else { return nil }
        let tree = trees[writer.tree]
        let seq = writer.nextSeq
        writer.nextSeq += 1
        out.removeAll(keepingCapacity: true)
        var changes: [LoadTreeModel.Change] = []
        if configuration.sendsEvents {
            tree.writeEvent(seq: seq, random: &random, into: &out)
        } else {
            changes = tree.writeBatch(
                seq: seq, count: configuration.opsPerEdit, mix: configuration.opMix, random: &random, into: &out)
        }
        writer.pending[seq] = PendingEdit(
            sentAt: sentAt, inWindow: sentAt >= windowStart && sentAt < windowEnd,
            deliveriesLeft: tree.subscribers - 1, changes: changes)
        writer.outstanding += 1
        report.totalSent += 1
        return .send(slot.connection, OutgoingMessage(bytes: out))
    }

    /// Ends the run: the loop closes every connection and returns.
    private func finish() {
        guard phase != .finished else { return }
        if phase == .running || phase == .draining {
            let now = monotonicNanoseconds()
            report.windowSeconds = Double(min(now, windowEnd) &- min(windowStart, now)) / 1e9
            if configuration.hold { report.windowSeconds = Double(min(now, windowEnd) - start) / 1e9 }
        }
        for writer in writers { report.unanswered += writer.pending.values.filter { !$0.acked }.count }
        report.connectedAtEnd = connected + (slowReaders?.connected ?? 0)
        phase = .finished
        loop?.stop()
    }

    /// Stops early (Ctrl-C): what was measured so far is reported.
    func interrupt() -> [TransportAction] {
        if failure == nil && phase == .connecting { failure = "interrupted while connecting" }
        finish()
        return []
    }

    // MARK: Output

    private func showProgress(_ now: UInt64) {
        nextSecond += 1_000_000_000
        if nextSecond < now { nextSecond = now + 1_000_000_000 }
        defer {
            secondAcks = 0
            secondDiffs = 0
            secondAck.reset()
            secondDelivery.reset()
        }
        guard let progress else { return }
        let elapsed = Double(now - (phase == .connecting ? connectStart : start)) / 1e9
        let stage =
            phase == .connecting
            ? "connecting"
            : configuration.hold ? "hold" : now < windowStart ? "warm-up" : phase == .draining ? "drain" : "measure"
        let slow = slowReaders
        let total = slots.count + configuration.slow
        let disconnects = report.disconnects.values.reduce(0, +) + (slow?.disconnectCount ?? 0)
        var line =
            String(elapsed, decimals: 1) + "s " + stage + "  connected \(connected + (slow?.connected ?? 0))/\(total)"
        if !configuration.hold && phase != .connecting {
            line += "  edits/s \(secondAcks)  diffs/s \(secondDiffs + (slow?.takeSecondDiffs() ?? 0))"
            line += "  p99 ack " + String(secondAck.milliseconds(atPercentile: 99), decimals: 2) + " ms"
            line += "  delivery " + String(secondDelivery.milliseconds(atPercentile: 99), decimals: 2) + " ms"
            line += "  rejected \(report.totalRejected)"
        }
        line += "  disconnects \(disconnects)"
        progress(line)
    }

    /// The report so far (call after the loop returned).
    func finalReport() -> LoadReport {
        var result = report
        if let slow = slowReaders {
            result.totalDiffs += slow.diffCount
            for (code, count) in slow.disconnects { result.disconnects[code, default: 0] += count }
            result.opened += slow.openedCount
            result.failed += slow.failedCount
        }
        return result
    }
}

extension String {
    /// `value` with `decimals` digits after the point (no Foundation formatting).
    init(_ value: Double, decimals: Int) {
        guard value.isFinite else {
            self = "\(value)"
            return
        }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int64(scaled / scale)
        var fraction = String(Int64(scaled) - whole * Int64(scale))
        while fraction.count < decimals { fraction = "0" + fraction }
        self = (value < 0 && scaled > 0 ? "-" : "") + String(whole) + (decimals > 0 ? "." + fraction : "")
    }
}
