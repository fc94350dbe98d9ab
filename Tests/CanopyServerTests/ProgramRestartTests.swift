import CanopyCore
import Foundation
import Testing

/// Program trees in the built `canopyd`, killed with SIGKILL after acknowledged events: the restarted daemon shows
/// the tree, the cells and the reader values its clients saw, and goes on from the next version.
@Suite(.serialized) struct ProgramRestartTests {
    /// A snapshot every 3 batches, so the restore starts from a stored snapshot and folds logged diffs in.
    static let config = """
        storage:
          snapshot_every_batches: 3
        examples:
          directory: ""
        log:
          level: "warning"
        """

    static let field = ProgramSignupTests.userField
    static let email = ProgramSignupTests.emailField

    @Test func aSignupFormSurvivesKill9WithWhatItsClientsSaw() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let first = try DaemonProcess(folder: folder, config: Self.config)
        let admin = try first.client(name: "admin")
        let created = try admin.request([
            "type": "createTree", "tree": "signup", "source": .string(ProgramSignupTests.source), "view": "SignupForm",
        ])
        #expect(created["type"] == "created", "\(created.encoded())")
        let watcher = try first.client(name: "watcher")
        #expect(try watcher.request(["type": "subscribe", "tree": "signup"])["type"] == "snapshot")

        // Eight events pipelined by one writer, then the watcher sees every diff before the kill.
        let writer = try first.client(name: "writer")
        let texts = ["a", "al", "ali", "x", "x@", "x@y.z", "alice", "bo"]
        for (i, text) in texts.enumerated() {
            let node = i >= 3 && i < 6 ? Self.email : Self.field
            writer.connection.send(Wire.event("signup", seq: i + 1, node, "setText", .string(text)))
        }
        var acknowledged = 0
        while acknowledged < texts.count {
            let m = try writer.next()
            #expect(m["type"] != "rejected", "\(m.encoded())")
            if m["type"] == "diff" && m["author"]?.string == writer.session { acknowledged += 1 }
        }
        var seen: [JSON] = []
        while seen.count < texts.count {
            let m = try watcher.next()
            if m["type"] == "diff" { seen.append(m) }
        }
        #expect(seen.map { $0["version"] ?? .null } == (1...texts.count).map { .int(Int64($0)) })
        let saw = try watcher.request(["type": "subscribe", "tree": "signup"])
        #expect(saw["version"] == .int(Int64(texts.count)))
        #expect(Wire.cell(saw, "SignupForm", "username") == "bo")
        #expect(Wire.cell(saw, "SignupForm", "email") == "x@y.z")
        #expect(Wire.cell(saw, "SignupForm", "errorCount") == 1)
        #expect(saw["readers"]?[0]?["value"] == ["Username: needs 3 characters"])
        first.kill9()

        let second = try DaemonProcess(folder: folder, config: Self.config)
        let again = try second.client(name: "watcher")
        let restored = try again.request(["type": "subscribe", "tree": "signup"])
        #expect(Wire.comparable(restored) == Wire.comparable(saw))
        let typed = try again.request(Wire.event("signup", seq: 1, Self.field, "setText", "bob"))
        #expect(typed["version"] == .int(Int64(texts.count + 1)))
        #expect(
            typed["state"] == [
                ["node": "SignupForm", "name": "username", "value": "bob"],
                ["node": "SignupForm", "name": "errorCount", "value": 0],
                ["node": "SignupForm", "name": "status", "value": "Ready"],
            ])
        try second.terminate()
    }

    @Test func aLoopAndRejectedBatchesSurviveKill9() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let first = try DaemonProcess(folder: folder, config: Self.config)
        let client = try first.client(name: "lab")
        let created = try client.request([
            "type": "createTree", "tree": "lab", "source": .string(ProgramTransactionTests.source), "view": "Lab",
        ])
        #expect(created["type"] == "created", "\(created.encoded())")
        #expect(try client.request(["type": "subscribe", "tree": "lab"])["type"] == "snapshot")
        let steps: [(JSON, String)] = [
            (Wire.event("lab", seq: 1, ProgramTransactionTests.raise, "tap"), "diff"),
            (Wire.event("lab", seq: 2, ProgramTransactionTests.raise, "tap"), "rejected"),  // the fault
            (Wire.event("lab", seq: 3, ProgramTransactionTests.loop, "tap"), "diff"),  // 16 rounds
            (Wire.event("lab", seq: 4, ProgramTransactionTests.toggle, "setValue", true), "diff"),
            (Wire.event("lab", seq: 5, ProgramTransactionTests.label, "tap"), "rejected"),
        ]
        for (message, type) in steps {
            let reply = try client.request(message)
            #expect(reply["type"] == .string(type), "\(message.encoded()) → \(reply.encoded())")
        }
        let saw = try client.request(["type": "subscribe", "tree": "lab"])
        #expect(saw["version"] == 3)
        first.kill9()

        let second = try DaemonProcess(folder: folder, config: Self.config)
        let restored = try second.client(name: "lab").request(["type": "subscribe", "tree": "lab"])
        #expect(Wire.comparable(restored) == Wire.comparable(saw))
        try second.terminate()
    }

    static let board = """
        import SwiftUI

        final class Counter {
            var value = 0
        }

        final class Node {
            let name: String
            var next: Node?
            var prev: Node?
            init(_ name: String) { self.name = name }
        }

        struct Board: View {
            @State private var a: Counter
            @State private var b: Counter
            @State private var last: Node? = nil
            @State private var taps = 0

            init() {
                let one = Counter()
                _a = State(initialValue: one)
                _b = State(initialValue: one)
            }

            var body: some View {
                VStack {
                    Text("a \\(a.value) b \\(b.value) same \\(a === b) taps \\(taps)")
                    Text(chain())
                    Button("Bump a") {
                        a.value += 1
                        taps += 1
                    }
                    Button("Add") {
                        let n = Node("n\\(taps)")
                        n.prev = last
                        last?.next = n
                        last = n
                        taps += 1
                    }
                }
            }

            func chain() -> String {
                var names: [String] = []
                var node = last
                while let n = node {
                    names.append(n.name)
                    node = n.prev
                }
                return names.joined(separator: ",") + " \\(last?.prev == nil || last?.prev?.next === last)"
            }
        }
        """

    @Test func objectsTwoCellsShareAndACycleSurviveKill9() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let first = try DaemonProcess(folder: folder, config: Self.config)
        let client = try first.client(name: "board")
        let created = try client.request(["type": "createTree", "tree": "board", "source": .string(Self.board), "view": "Board"])
        #expect(created["type"] == "created", "\(created.encoded())")
        let (bump, add) = ("Board/0:VStack/2:Button", "Board/0:VStack/3:Button")
        // A snapshot after the sixth; the seventh, which assigns the shared counter's value, is only in the log.
        for (i, node) in [bump, add, bump, add, add, bump, bump].enumerated() {
            let reply = try client.request(Wire.event("board", seq: i + 1, node, "tap"))
            #expect(reply["type"] == "diff", "\(reply.encoded())")
        }
        let saw = try client.request(["type": "subscribe", "tree": "board"])
        #expect(saw["version"] == 7)
        #expect(Wire.cell(saw, "Board", "a") == ["$object": 1])
        #expect(Wire.cell(saw, "Board", "b") == ["$object": 1])
        #expect(saw["objects"]?["1"] == ["class": "Counter", "fields": ["value": 4]])
        first.kill9()

        let second = try DaemonProcess(folder: folder, config: Self.config)
        let again = try second.client(name: "board")
        let restored = try again.request(["type": "subscribe", "tree": "board"])
        #expect(Wire.comparable(restored) == Wire.comparable(saw), "\(Wire.difference(Wire.comparable(restored), Wire.comparable(saw)) ?? "")")
        // Through `a`, read through `b`; one more node linked to the restored ones.
        _ = try again.request(Wire.event("board", seq: 8, bump, "tap"))
        _ = try again.request(Wire.event("board", seq: 9, add, "tap"))
        let now = try again.request(["type": "subscribe", "tree": "board"])
        func text(_ id: String) -> JSON? {
            func find(_ n: JSON?) -> JSON? {
                if n?["id"]?.string == id { return n?["props"]?["text"] }
                for c in n?["children"]?.array ?? [] { if let t = find(c) { return t } }
                return nil
            }
            return find(now["root"])
        }
        #expect(text("Board/0:VStack/0:Text") == "a 5 b 5 same true taps 9")
        #expect(text("Board/0:VStack/1:Text") == "n8,n4,n3,n1 true")
        try second.terminate()
    }
}

