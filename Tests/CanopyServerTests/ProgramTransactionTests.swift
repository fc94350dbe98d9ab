import CanopyCore
import Foundation
import Testing

/// Transactions of program trees over the wire (PROGRAMS.md §6, §7): a loop stopped after 16 rounds, faults and fuel
/// exhaustion that change nothing, a source that does not compile, bad events, and edits refused.
@Suite struct ProgramTransactionTests {
    static let source = """
        import SwiftUI

        struct LevelKey: PreferenceKey {
            static var defaultValue = 0
            static func reduce(value: inout Int, nextValue: () -> Int) {
                value = max(value, nextValue())
            }
        }

        struct EchoKey: PreferenceKey {
            static var defaultValue = 0
            static func reduce(value: inout Int, nextValue: () -> Int) {
                value += nextValue()
            }
        }

        struct Lab: View {
            @State private var level = 0
            @State private var seen = 0
            @State private var looping = false
            @State private var echo = 0
            @State private var work = 0
            @State private var on = false
            let thresholds = [10, 20]

            var body: some View {
                VStack {
                    Text("level \\(level), seen \\(seen)")
                    Button("Raise") { level += 1 }
                    Toggle("On", isOn: $on)
                    Button("Work") {
                        work += 1
                        var total = 0
                        for i in 0..<1_000_000 { total += i }
                        work = total
                    }
                    Text("echo \\(echo), work \\(work)")
                        .preference(key: EchoKey.self, value: echo)
                    Button("Loop") {
                        looping = true
                        echo += 1
                    }
                }
                .preference(key: LevelKey.self, value: level)
                .onPreferenceChange(LevelKey.self) { value in
                    // Index out of range once the level passes 1: a fault in the second round of a transaction.
                    seen = thresholds[value]
                }
                .onPreferenceChange(EchoKey.self) { value in
                    if looping { echo = value + 1 }
                }
            }
        }
        """

    static let stack = "Lab/0:VStack"
    static let label = stack + "/0:Text"
    static let raise = stack + "/1:Button"
    static let toggle = stack + "/2:Toggle"
    static let work = stack + "/3:Button"
    static let echo = stack + "/4:Text"
    static let loop = stack + "/5:Button"

    /// Fuel for a few dozen body runs, far from a million loop iterations.
    static let fuel = 200_000

    static func start() throws -> (ProgramDaemon, ProgramClient) {
        let daemon = try ProgramDaemon(directory: nil) { $0.limits.fuel = Self.fuel }
        let client = try daemon.client("lab")
        let created = try client.request(Wire.create("lab", source: Self.source, view: "Lab"), rid: "c")
        #expect(created["type"] == "created", "\(created.encoded())")
        return (daemon, client)
    }

    /// Checks that a rejected batch changed nothing: a fresh snapshot equals `before`.
    static func unchanged(_ client: ProgramClient, _ before: JSON) throws {
        let after = try client.snapshot("lab")
        #expect(Wire.comparable(after) == Wire.comparable(before))
    }

    @Test func aClosureLoopStopsAfterSixteenRoundsWithAWarning() throws {
        let (daemon, client) = try Self.start()
        defer { daemon.stop() }
        let d = try client.batch(Wire.event("lab", seq: 1, Self.loop, "tap"))
        #expect(d["type"] == "diff", "\(d.encoded())")
        #expect(d["version"] == 1)
        #expect(d["warnings"]?.array?.count == 1)
        #expect(d["warnings"]?[0]?.string?.contains("16 rounds") == true)
        let after = try client.snapshot("lab")
        #expect(after["version"] == 1)
        let echo = try #require(Wire.cell(after, "Lab", "echo")?.number)
        #expect(echo >= 16)
        #expect(d["state"]?.array?.contains(["node": "Lab", "name": "echo", "value": .int(Int64(echo))]) == true)
        #expect(Wire.node(Self.echo, in: after["root"])?["props"]?["text"] == .string("echo \(Int(echo)), work 0"))
    }

    @Test func aFaultInTheSecondRoundRollsBackEverything() throws {
        let (daemon, client) = try Self.start()
        defer { daemon.stop() }
        var before = try client.snapshot("lab")
        #expect(Wire.cell(before, "Lab", "seen") == 10)
        let ok = try client.batch(Wire.event("lab", seq: 1, Self.raise, "tap"))
        #expect(
            ok["state"] == [
                ["node": "Lab", "name": "level", "value": 1], ["node": "Lab", "name": "seen", "value": 20],
            ])
        before = try client.snapshot("lab")
        #expect(Wire.node(Self.label, in: before["root"])?["props"]?["text"] == "level 1, seen 20")

        let fault = try client.batch(Wire.event("lab", seq: 2, Self.raise, "tap"))
        #expect(fault["type"] == "rejected")
        #expect(fault["code"] == "runtime_error")
        #expect(fault["line"] != nil && fault["column"] != nil && fault["stack"] != nil, "\(fault.encoded())")
        try Self.unchanged(client, before)

        // The rejected batch took no version: the next one is 2.
        let next = try client.batch(Wire.event("lab", seq: 3, Self.toggle, "setValue", true))
        #expect(next["version"] == 2)
        #expect(next["state"] == [["node": "Lab", "name": "on", "value": true]])
    }

    @Test func runningOutOfFuelMidTransactionChangesNothing() throws {
        let (daemon, client) = try Self.start()
        defer { daemon.stop() }
        let before = try client.snapshot("lab")
        let refused = try client.batch(Wire.event("lab", seq: 1, Self.work, "tap"))
        #expect(refused["type"] == "rejected")
        #expect(refused["code"] == "too_expensive")
        try Self.unchanged(client, before)
        #expect(Wire.cell(before, "Lab", "work") == 0)
    }

    @Test func aSourceThatDoesNotCompileChangesNothing() throws {
        let (daemon, client) = try Self.start()
        defer { daemon.stop() }
        _ = try client.batch(Wire.event("lab", seq: 1, Self.raise, "tap"))
        let before = try client.snapshot("lab")
        let broken = Self.source.replacingOccurrences(of: "level += 1", with: "level += undefinedName")
        let refused = try client.batch(["type": "setSource", "tree": "lab", "seq": 2, "source": .string(broken)])
        #expect(refused["type"] == "rejected")
        #expect(refused["code"] == "compile_error")
        let diagnostic = refused["diagnostics"]?[0]
        #expect(diagnostic?["line"] == 29, "\(refused.encoded())")
        #expect(diagnostic?["column"] == 40)
        #expect(diagnostic?["message"]?.string?.contains("undefinedName") == true)
        try Self.unchanged(client, before)

        // A source that compiles replaces it, keeping the cells of the views that still exist.
        let renamed = Self.source.replacingOccurrences(of: "Text(\"level", with: "Text(\"Level")
        let reloaded = try client.batch(["type": "setSource", "tree": "lab", "seq": 3, "source": .string(renamed)])
        #expect(reloaded["version"] == 2)
        #expect(reloaded["source"] == .string(renamed))
        // The keys are declared again with the new source (their Swift is the program's), then the label changes.
        let ops = reloaded["ops"]?.array ?? []
        #expect(ops.map { $0["op"] ?? .null } == ["declareKey", "declareKey", "setProps"])
        #expect(ops.map { $0["key"] ?? .null } == ["LevelKey", "EchoKey", .null])
        #expect(ops.last == ["op": "setProps", "node": .string(Self.label), "props": ["text": "Level 1, seen 20"]])
        let after = try client.snapshot("lab")
        #expect(after["program"]?["source"] == .string(renamed))
        #expect(Wire.cell(after, "Lab", "level") == 1)
    }

    @Test func badEventsAndEditsAreRejected() throws {
        let (daemon, client) = try Self.start()
        defer { daemon.stop() }
        let before = try client.snapshot("lab")
        let cases: [(JSON, String)] = [
            (Wire.event("lab", seq: 1, Self.label, "tap"), "bad_event"),
            (Wire.event("lab", seq: 2, Self.raise, "setText", "x"), "bad_event"),
            (Wire.event("lab", seq: 3, nil, "tap"), "bad_event"),
            (Wire.event("lab", seq: 4, nil, "post"), "bad_event"),
            (Wire.event("lab", seq: 5, Self.toggle, "setValue", "yes"), "type_mismatch"),
            (Wire.event("lab", seq: 6, Self.stack + "/9:Button", "tap"), "no_such_node"),
            (
                ["type": "edit", "tree": "lab", "seq": 7, "ops": [["op": "remove", "node": .string(Self.label)]]],
                "program_tree"
            ),
        ]
        for (message, code) in cases {
            let reply = try client.batch(message)
            #expect(reply["type"] == "rejected", "\(message.encoded())")
            #expect(reply["code"] == .string(code), "\(message.encoded()) → \(reply.encoded())")
        }
        try Self.unchanged(client, before)
        let next = try client.batch(Wire.event("lab", seq: 8, Self.raise, "tap"))
        #expect(next["version"] == 1)

        // A tree of a view the source lacks is not created.
        let unknown = try client.request(Wire.create("other", source: Self.source, view: "Nope"), rid: "u")
        #expect(unknown["type"] == "error")
        #expect(unknown["code"] == "bad_message")
        let list = try client.request(["type": "listTrees"], rid: "l")
        #expect(list["trees"]?.array?.count == 1)
    }
}
