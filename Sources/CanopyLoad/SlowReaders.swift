import CanopyCore
import CanopySupport
import CanopyWebSocket
import Foundation

/// The `--slow` subscribers: they read for a tenth of each second only, so the daemon's queue for them grows and,
/// under enough load, it closes them with 1008; they then reconnect and resubscribe with `since` (the resync path).
///
/// `ClientLoop` always reads what arrives, so "not reading" is done by pausing the whole loop: these connections
/// live on a second `ClientLoop` on their own thread, whose handler sleeps through the first 900 ms of every second.
/// The counters are read by the main loop's thread, hence the lock.
final class SlowReaders: ClientHandler, @unchecked Sendable {  // `state` behind `lock`, the rest on one thread
    private struct State {
        var connected = 0
        var opened = 0
        var failed = 0
        var ready = 0
        var settled = 0
        var running = false
        /// When the run's clock started (the pauses follow its seconds).
        var runStart: UInt64 = 0
        var diffs = 0
        var secondDiffs = 0
        var disconnects: CodeCounts = [:]
    }

    private struct Slot {
        var tree: String
        var name: String
        var lastVersion: Int64 = 0
        var open = false
        var everReady = false
        var subscribing = false
    }

    /// The part of each second the readers do not read.
    static let pauseFraction = 0.9

    private let lock = NSLock()
    private var state = State()
    private let url: WebSocketURL
    private let token: String?
    private var slots: [Slot] = []
    private var slotOf: [ConnectionID: Int] = [:]
    private var loop: ClientLoop?
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)
    private var stopping = false

    init(count: Int, trees: [String], firstIndex: Int, clientPrefix: String, url: WebSocketURL, token: String?)
        throws(LoadError)
    {
        self.url = url
        self.token = token
        for i in 0..<count {
            let index = firstIndex + i
            slots.append(Slot(tree: trees[index % trees.count], name: "\(clientPrefix)-slow\(i)"))
        }
        do { loop = try ClientLoop(handler: self) } catch {
            throw LoadError(.load, "cannot start the slow readers: \(error)")
        }
    }

    /// Connects every slow reader and services them on a new thread.
    func start() {
        guard let loop else { return }
        for s in slots.indices { slotOf[loop.connect(url)] = s }
        let thread = Thread { [loop, finished] in
            loop.run()
            finished.signal()
        }
        thread.name = "canopy-load-slow"
        thread.start()
        self.thread = thread
    }

    /// The run's clock started: from now on the readers pause.
    func begin() {
        let now = monotonicNanoseconds()
        locked {
            $0.runStart = now
            $0.running = true
        }
    }

    func stop() {
        guard thread != nil else { return }
        locked { $0.running = false }
        loop?.post { [self] in
            stopping = true
            return []
        }
        loop?.stop()
        _ = finished.wait(timeout: .now() + 10)
        thread = nil
    }

    // MARK: Counters (any thread)

    private func locked<T>(_ body: (inout State) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }

    var connected: Int { locked { $0.connected } }
    /// Every reader subscribed or failed: the run may start.
    var settled: Bool { locked { $0.settled } == slots.count }
    var diffCount: Int { locked { $0.diffs } }
    var openedCount: Int { locked { $0.opened } }
    var failedCount: Int { locked { $0.failed } }
    var disconnects: CodeCounts { locked { $0.disconnects } }
    var disconnectCount: Int { locked { $0.disconnects.values.reduce(0, +) } }

    func takeSecondDiffs() -> Int {
        locked { state in
            defer { state.secondDiffs = 0 }
            return state.secondDiffs
        }
    }

    // MARK: ClientHandler (the slow loop's thread)

    func handle(_ id: ConnectionID, _ event: ClientEvent) -> [TransportAction] {
        guard let s = slotOf[id] else { return [] }
        switch event {
        case .opened:
            slots[s].open = true
            locked {
                $0.connected += 1
                $0.opened += 1
            }
            return [.send(id, OutgoingMessage(encoding: LoadMessages.hello(client: slots[s].name, token: token)))]
        case .message(let bytes):
            return received(s, id, bytes)
        case .closed(let code, _):
            slotOf[id] = nil
            if slots[s].open { locked { $0.connected -= 1 } }
            slots[s].open = false
            guard !stopping else { return [] }
            locked { $0.disconnects[code.map(String.init) ?? "none", default: 0] += 1 }
            if slots[s].everReady, let loop { slotOf[loop.connect(url)] = s }
            return []
        case .failed:
            slotOf[id] = nil
            locked {
                $0.failed += 1
                if !slots[s].everReady { $0.settled += 1 }
            }
            return []
        }
    }

    private func received(_ s: Int, _ id: ConnectionID, _ bytes: [UInt8]) -> [TransportAction] {
        let head = MessageHead(scanning: bytes)
        switch head.type {
        case "welcome":
            slots[s].subscribing = true
            let subscribe = LoadMessages.subscribe(tree: slots[s].tree, since: slots[s].lastVersion)
            return [.send(id, OutgoingMessage(encoding: subscribe))]
        case "snapshot", "clients":
            if let version = head.version, head.type == "snapshot" { slots[s].lastVersion = version }
            if !slots[s].everReady {
                slots[s].everReady = true
                locked {
                    $0.ready += 1
                    $0.settled += 1
                }
            }
        case "diff":
            if let version = head.version { slots[s].lastVersion = max(slots[s].lastVersion, version) }
            locked {
                $0.diffs += 1
                $0.secondDiffs += 1
            }
            pauseIfDue()
        default:
            break
        }
        return []
    }

    /// Sleeps through the rest of the current second's pause, once the run has started.
    private func pauseIfDue() {
        let (running, runStart) = locked { ($0.running, $0.runStart) }
        guard !stopping, running else { return }
        let now = monotonicNanoseconds()
        let intoSecond = (now - runStart) % 1_000_000_000
        let pauseEnd = UInt64(Self.pauseFraction * 1e9)
        if intoSecond < pauseEnd { usleep(UInt32((pauseEnd - intoSecond) / 1000)) }
    }
}
