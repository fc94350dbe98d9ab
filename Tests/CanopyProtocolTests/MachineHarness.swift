import CanopyCore
import CanopyProtocol

/// Drives a `ProtocolMachine` as its runner would, but by hand: the test decides when commits, snapshots and store
/// reads finish, and reads what the machine asked for.
struct MachineHarness {
    var machine: ProtocolMachine
    var now = 0.0

    init(durable: Bool = true, _ configure: (inout HubConfiguration) -> Void = { _ in }) {
        var c = HubConfiguration()
        configure(&c)
        machine = ProtocolMachine(configuration: c, durable: durable)
    }

    mutating func advance(_ seconds: Double) { now += seconds }

    @discardableResult
    mutating func open(_ s: SessionID) -> Actions { Actions(machine.opened(s, now: now)) }

    mutating func close(_ s: SessionID) -> Actions { Actions(machine.closed(s, now: now)) }

    mutating func send(_ s: SessionID, _ message: JSON) -> Actions {
        Actions(machine.received(s, .message(message), now: now))
    }

    mutating func tick() -> Actions { Actions(machine.tick(now: now)) }

    mutating func commit(_ ticket: CommitTicket) -> Actions { Actions(machine.committed(ticket, now: now)) }

    mutating func fail(_ ticket: CommitTicket) -> Actions {
        Actions(machine.commitFailed(ticket, message: "disk full", now: now))
    }

    /// Stores every snapshot `actions` asked for, as the runner would (the encoded bytes come back to the machine);
    /// returns their versions.
    @discardableResult
    mutating func storeSnapshots(_ actions: Actions) -> [Int] {
        for (ticket, bytes) in actions.snapshotBytes { _ = machine.snapshotWritten(ticket, .success(bytes)) }
        return actions.snapshots.map(\.0.version)
    }

    /// Commits every write in `actions` in order, returning everything that was released.
    mutating func commitAll(_ actions: Actions) -> Actions {
        var out = Actions([])
        for (ticket, _) in actions.persists { out.all += commit(ticket).all }
        return out
    }

    /// Creates tree `id` (sum key K, a root that reads K, a child `a` writing 1) as session 1 (open) and commits it.
    mutating func createTree(_ id: String = "demo") {
        let created = send(1, ["type": "createTree", "tree": .string(id), "keys": [Self.sumKey], "root": Self.root])
        _ = commitAll(created)
    }

    static let sumKey: JSON = ["key": "K", "reducer": "sum", "default": 0]
    static let root: JSON = [
        "id": "root", "type": "VStack", "modifiers": [["kind": "onPreferenceChange", "key": "K"]],
        "children": [["id": "a", "type": "Text", "modifiers": [["kind": "preference", "key": "K", "value": 1]]]],
    ]

    /// The root of the tree `createTree` makes, after `a`'s preference was set to `value`.
    static func treeJSON(after value: Int) -> JSON {
        var tree = try! Tree(keys: [try! KeyDeclaration(json: sumKey)], root: try! Node(json: root))
        _ = try! tree.apply([.setPreference(node: "a", key: "K", value: .int(Int64(value)))])
        return tree.root.json
    }

    static func edit(_ tree: String = "demo", seq: JSON = .null, value: Int) -> JSON {
        [
            "type": "edit", "tree": .string(tree), "seq": seq,
            "ops": [["op": "setPreference", "node": "a", "key": "K", "value": .int(Int64(value))]],
        ]
    }
}

/// What the machine asked for, sorted by kind.
struct Actions {
    var all: [ProtocolAction]

    /// Also encodes the snapshot bodies the actions ask for, at once, as the runner does on its encoding queue.
    init(_ all: [ProtocolAction]) {
        self.all = all
        for case .encodeSnapshot(let job) in all {
            job.tail.fill(job.encode())
            _ = job.tail.markReady()
        }
    }

    /// Messages sent, decoded, with their session.
    var sent: [(to: SessionID, message: JSON)] {
        all.compactMap {
            guard case .send(let s, let m) = $0 else { return nil }
            return (s, try! JSONParser.parse(bytes: m.bytes))
        }
    }

    func to(_ s: SessionID) -> [JSON] { sent.filter { $0.to == s }.map(\.message) }

    func types(to s: SessionID) -> [String] { to(s).map { $0["type"]?.string ?? "?" } }

    var closes: [(SessionID, UInt16)] {
        all.compactMap {
            guard case .close(let s, let code, _) = $0 else { return nil }
            return (s, code)
        }
    }

    var persists: [(CommitTicket, PersistWrite)] {
        all.compactMap {
            guard case .persist(let t, let w) = $0 else { return nil }
            return (t, w)
        }
    }

    var snapshots: [(SnapshotTicket, Tree, [AckRecord])] {
        all.compactMap {
            guard case .writeSnapshot(let t, let tree, let acks, _) = $0 else { return nil }
            return (t, tree, acks)
        }
    }

    /// Each snapshot asked for, encoded as the runner would (a program tree's spec and cells included).
    var snapshotBytes: [(SnapshotTicket, [UInt8])] {
        all.compactMap {
            guard case .writeSnapshot(let t, let tree, let acks, let program) = $0 else { return nil }
            return (t, SnapshotEncoding.encode(tree, acks: acks, program: program))
        }
    }

    var reads: [HistoryRead] {
        all.compactMap {
            guard case .readHistory(let r) = $0 else { return nil }
            return r
        }
    }
}
