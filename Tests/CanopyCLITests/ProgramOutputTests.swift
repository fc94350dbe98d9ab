import CanopyCore
import Testing

@testable import canopy

/// What `watch`, `history`, `event` and `run` print for program trees, from canned daemon messages.
@Suite struct ProgramOutputTests {
    static let snapshot: JSON = [
        "type": "snapshot", "tree": "greeter", "version": 0,
        "keys": [["key": "Errors", "swift": "struct Errors: PreferenceKey {}"]],
        "root": ["id": "r", "type": "Greeter", "children": [["id": "r/0", "type": "TextField"]]],
        "readers": [["reader": "r#0", "node": "r", "key": "Errors", "present": true, "value": 1]],
        "clients": [["session": "s1", "client": "alice"]],
        "program": ["view": "Greeter", "source": "struct Greeter: View {\n}\n"],
        "state": [["node": "r", "name": "name", "value": ""]],
        "previewContexts": [["modifier": "SampleData", "reused": true]],
    ]

    static let diff: JSON = [
        "type": "diff", "tree": "greeter", "version": 1, "author": "s1", "seq": 7,
        "event": ["node": "r/0", "event": "setText"],
        "ops": [["op": "setProps", "node": "r/0", "props": ["text": "bob"]]],
        "changes": [["reader": "r#0", "node": "r", "key": "Errors", "present": true, "value": 0]],
        "state": [["node": "r", "name": "name", "value": "bob"], ["node": "r/1", "name": "shown", "dropped": true]],
        "warnings": ["the preference loop stopped after 16 rounds"],
    ]

    @Test func watchShowsTheProgramOfASnapshot() {
        var values = TreeValues()
        let lines = Canopy.Watch.lines(Self.snapshot, values: &values, trace: false)
        #expect(lines == [
            "greeter at version 0: 2 nodes; keys: Errors (Swift)",
            "  program Greeter (3 lines of Swift); preview contexts: SampleData (reused)",
            "  state r name = \"\"",
            "  r#0 Errors = 1",
            "clients: s1 alice",
        ])
    }

    @Test func watchShowsTheEventStateChangesAndWarningsOfADiff() {
        var values = TreeValues()
        _ = Canopy.Watch.lines(Self.snapshot, values: &values, trace: false)
        let lines = Canopy.Watch.lines(Self.diff, values: &values, trace: false)
        #expect(lines == [
            "v1 by s1 seq 7",
            "  event setText on r/0",
            "  state r name = \"bob\"  (was \"\")",
            "  state r/1 shown dropped",
            "  setProps r/0 {\"text\":\"bob\"}",
            "  → r#0 Errors = 0  (was 1)",
            "  warning: the preference loop stopped after 16 rounds",
        ])
        #expect(values.cells["r name"] == "bob")
    }

    @Test func aPostIsShownWithItsName() {
        var values = TreeValues()
        let post: JSON = [
            "type": "diff", "version": 2, "author": "s1", "seq": 8,
            "event": ["event": "post", "name": "UIApplication.didBecomeActiveNotification"], "ops": [],
        ]
        #expect(Canopy.Watch.lines(post, values: &values, trace: false) == [
            "v2 by s1 seq 8", "  event post UIApplication.didBecomeActiveNotification",
        ])
    }

    @Test func aDiffOfADataTreeLooksAsBefore() {
        var values = TreeValues()
        let diff: JSON = [
            "type": "diff", "version": 3, "author": "s2", "seq": 1,
            "ops": [["op": "remove", "node": "a"]], "changes": [],
        ]
        #expect(Canopy.Watch.lines(diff, values: &values, trace: false) == ["v3 by s2 seq 1", "  remove a"])
    }

    @Test func eventPrintsTheVersionStateAndReaderChanges() {
        #expect(Canopy.Event.lines(tree: "greeter", diff: Self.diff) == [
            "greeter version 1: setText on r/0",
            "  state r name = \"bob\"",
            "  state r/1 shown dropped",
            "  → r#0 Errors = 0",
            "  warning: the preference loop stopped after 16 rounds",
        ])
        let quiet: JSON = ["type": "diff", "version": 4, "event": ["node": "b", "event": "tap"], "ops": []]
        #expect(Canopy.Event.lines(tree: "t", diff: quiet) == ["t version 4: tap on b", "  nothing changed"])
    }

    @Test func aRuntimeErrorShowsWhereAndTheStack() {
        let rejected: JSON = [
            "type": "rejected", "rid": 1, "seq": 7, "code": "runtime_error",
            "message": "Swift fault: index out of range", "line": 12, "column": 9,
            "stack": ["Greeter.check() at 12:9", "Greeter.body at 4:5"],
        ]
        #expect(Format.rejection(rejected) == [
            "runtime_error: Swift fault: index out of range", "  at 12:9", "  in Greeter.check() at 12:9",
            "  in Greeter.body at 4:5",
        ])
        let description = ServerError(rejected).description
        #expect(description.hasPrefix("runtime_error: Swift fault: index out of range\n  at 12:9"))
    }

    @Test func aRejectionThatSaysWhereIsNotRepeated() {
        let rejected: JSON = [
            "type": "rejected", "code": "runtime_error", "message": "Swift fault at 12:9: boom", "line": 12,
            "column": 9, "stack": [],
        ]
        #expect(Format.rejection(rejected) == ["runtime_error: Swift fault at 12:9: boom"])
        let bad: JSON = ["type": "rejected", "code": "bad_event", "message": "a Text has no tap"]
        #expect(ServerError(bad).description == "bad_event: a Text has no tap")
    }

    @Test func runSummarizesTheNewTree() {
        let created: JSON = ["type": "created", "tree": "greeter", "version": 0]
        #expect(Canopy.Run.summary(created: created, snapshot: Self.snapshot, file: "Greeter.swift") == [
            "created greeter (version 0) from Greeter.swift",
            "  program Greeter (3 lines of Swift); preview contexts: SampleData (reused)",
            "  2 nodes, 1 state cell, 1 reader",
            "  state r name = \"\"",
        ])
        var many = Self.snapshot.object!
        many["state"] = .array((0..<3).map { ["node": .string("n\($0)"), "name": "x", "value": .int(Int64($0))] })
        let lines = Canopy.Run.summary(created: created, snapshot: .object(many), file: "G.swift", maxCells: 2)
        #expect(
            lines.suffix(3) == ["  state n0 x = 0", "  state n1 x = 1", "  … 1 more cells (canopy watch greeter)"])
    }
}
