import CanopyCore
import CanopyScript
import CanopyStore
import CanopyViews
import Foundation
import Testing

@testable import CanopyServer

/// A daemon built as canopyd builds one for program trees (the real interpreter and view runtime), in-process on
/// port 0, on a store in `directory` (or on none).
struct ProgramDaemon {
    let daemon: Daemon
    var port: Int { daemon.port }

    init(directory: String?, hub configure: (inout HubConfiguration) -> Void = { _ in }) throws {
        let configuration = DaemonConfiguration.forTests(hub: configure)
        let storage: Daemon.Storage = directory.map { .custom(StoreOptions(directory: $0)) } ?? .none
        daemon = try Daemon(
            configuration: configuration, storage: storage, keyCompiler: ScriptKeyCompiler(), programs: ViewRuntime())
        daemon.start()
    }

    func client(_ name: String) throws -> ProgramClient { try ProgramClient(port: port, name: name) }

    @discardableResult func stop() -> Bool { daemon.stopAndWait() }

    /// A new empty directory for a store, removed by the caller.
    static func temporaryDirectory() throws -> String {
        let directory = NSTemporaryDirectory() + "canopy-program-e2e-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }
}

/// A session that said hello; messages that arrive while it waits for another one are kept for later waits, so a
/// test waits for the state it needs (a diff of a version, an answer) and never sleeps.
final class ProgramClient {
    let connection: DaemonClient
    let session: String
    private var held: [JSON] = []

    init(port: Int, name: String) throws {
        connection = try DaemonClient(port: port)
        try connection.send(["type": "hello", "client": .string(name)])
        let welcome = try connection.next()
        session = welcome["session"]?.string ?? ""
    }

    func send(_ message: JSON) throws { try connection.send(message) }

    /// The first message (held or new) that `matches`; presence updates are dropped.
    func wait(for matches: (JSON) -> Bool) throws -> JSON {
        if let i = held.firstIndex(where: matches) { return held.remove(at: i) }
        while true {
            let message = try connection.next()
            if message["type"] == "clients" { continue }
            if matches(message) { return message }
            held.append(message)
        }
    }

    /// Sends a request answered by `rid` and returns the answer.
    func request(_ message: JSON, rid: String) throws -> JSON {
        var m = message.object ?? [:]
        m["rid"] = .string(rid)
        try send(.object(m))
        return try wait { $0["rid"]?.string == rid }
    }

    /// A fresh snapshot of `tree` (subscribing again replaces the subscription).
    func snapshot(_ tree: String, trace: Bool = false) throws -> JSON {
        try send(["type": "subscribe", "tree": .string(tree), "trace": .bool(trace)])
        return try wait { $0["type"] == "snapshot" && $0["tree"]?.string == tree }
    }

    /// Sends a batch (`event` or `setSource`) and returns its answer: its diff, or its rejection.
    func batch(_ message: JSON) throws -> JSON {
        try send(message)
        let seq = message["seq"]
        return try wait {
            ($0["type"] == "diff" && $0["author"]?.string == session && $0["seq"] == seq)
                || ($0["type"] == "rejected" && $0["seq"] == seq)
        }
    }

    /// The diff of `tree` at `version`, as a subscriber receives it.
    func diff(_ tree: String, version: Int) throws -> JSON {
        try wait { $0["type"] == "diff" && $0["tree"]?.string == tree && $0["version"] == .int(Int64(version)) }
    }

    /// Whether no message is waiting: everything sent to this client was expected.
    var nothingHeld: Bool { held.isEmpty }
}

/// Messages and views of program trees over the wire.
enum Wire {
    static func event(_ tree: String, seq: Int, _ node: String?, _ event: String, _ value: JSON? = nil) -> JSON {
        var m: JSONObject = ["type": "event", "tree": .string(tree), "seq": .int(Int64(seq)), "event": .string(event)]
        if let node { m["node"] = .string(node) }
        if let value { m["value"] = value }
        return .object(m)
    }

    static func create(_ tree: String, source: String, view: String? = nil) -> JSON {
        var m: JSONObject = ["type": "createTree", "tree": .string(tree), "source": .string(source)]
        if let view { m["view"] = .string(view) }
        return .object(m)
    }

    /// The node `id` in a snapshot's root (attached subtrees included).
    static func node(_ id: String, in root: JSON?) -> JSON? {
        guard let root else { return nil }
        if root["id"]?.string == id { return root }
        for child in (root["children"]?.array ?? []) + attached(root) {
            if let found = node(id, in: child) { return found }
        }
        return nil
    }

    /// The subtrees a node's background/overlay modifiers attach.
    static func attached(_ node: JSON) -> [JSON] {
        (node["modifiers"]?.array ?? []).compactMap {
            $0["kind"] == "background" || $0["kind"] == "overlay" ? $0["node"] : nil
        }
    }

    /// The cell `name` of `node` in a snapshot's `state`.
    static func cell(_ snapshot: JSON, _ node: String, _ name: String) -> JSON? {
        snapshot["state"]?.array?.first { $0["node"]?.string == node && $0["name"]?.string == name }?["value"]
    }

    /// The views whose bodies ran, in order, from a diff's trace.
    static func bodies(_ diff: JSON) -> [String] {
        (diff["trace"]?["events"]?.array ?? []).compactMap { $0["e"] == "body" ? $0["node"]?.string : nil }
    }

    /// What a snapshot says a tree is, without who is watching or the trace: for comparing two daemons' trees.
    static func comparable(_ snapshot: JSON) -> JSON {
        var o = snapshot.object ?? [:]
        for field in ["clients", "clientCount", "trace", "rid", "previewContexts"] { o[field] = nil }
        return .object(o)
    }
}

extension Wire {
    /// Where two JSON values first differ (a path and both values), for failure messages; nil when equal.
    static func difference(_ a: JSON?, _ b: JSON?, at path: String = "") -> String? {
        if a == b { return nil }
        if let x = a?.object, let y = b?.object {
            for key in Set(x.members.map(\.key)).union(y.members.map(\.key)).sorted() {
                if let d = difference(x[key], y[key], at: path + "." + key) { return d }
            }
            return "\(path.isEmpty ? "." : path): the same members in another order"
        }
        if let x = a?.array, let y = b?.array, x.count == y.count {
            for (i, (p, q)) in zip(x, y).enumerated() {
                if let d = difference(p, q, at: path + "[\(i)]") { return d }
            }
        }
        return "\(path.isEmpty ? "." : path): \(a?.encoded() ?? "absent") vs \(b?.encoded() ?? "absent")"
    }
}
