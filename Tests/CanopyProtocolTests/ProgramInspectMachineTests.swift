import CanopyCore
import Testing

@testable import CanopyProtocol

/// `inspect` through the machine (with `FakeProgramRuntime`): a read like `probe`, answered with `inspected`
/// carrying what the program says about the node, and its errors.
@Suite struct ProgramInspectMachineTests {
    static func inspect(_ node: String = "root", tree: String = "p", rid: JSON = 7) -> JSON {
        ["type": "inspect", "tree": .string(tree), "node": .string(node), "rid": rid]
    }

    /// Tree `p` (a counter) created by session 1 (token `a`, admin); session 2 holds token `v` (viewer) and
    /// session 3 token `o` (viewer of tree `other` only).
    static func harness() -> MachineHarness {
        var h = ProgramMachineTests.harness {
            $0.tokens = [
                TokenGrant(token: "a", role: .admin), TokenGrant(token: "v", role: .viewer),
                TokenGrant(token: "o", role: .viewer, trees: ["other"]),
            ]
        }
        _ = h.send(1, ["type": "hello", "token": "a"])
        for (s, token) in [(2, "v"), (3, "o")] as [(SessionID, String)] {
            h.open(s)
            _ = h.send(s, ["type": "hello", "token": .string(token)])
        }
        _ = h.commitAll(h.send(1, ProgramMachineTests.create()))
        return h
    }

    @Test func aViewerInspectsANodeAndSeesTheCurrentVersion() {
        var h = Self.harness()
        let answer = h.send(2, Self.inspect())
        #expect(answer.persists.isEmpty)
        #expect(
            answer.to(2) == [
                [
                    "type": "inspected", "tree": "p", "version": 0, "node": "root", "view": "ContentView",
                    "cells": [["name": "count", "value": 0]], "bindings": [], "environment": [], "rid": 7,
                ]
            ])
        _ = h.commitAll(h.send(1, ProgramMachineTests.tap(seq: 1)))
        let after = h.send(2, Self.inspect()).to(2).first
        #expect(after?["version"] == 1)
        #expect(after?["cells"] == [["name": "count", "value": 1]])
        let button = h.send(2, Self.inspect("button", rid: "b")).to(2).first
        #expect(button == ["type": "inspected", "tree": "p", "version": 1, "node": "button", "cells": [], "bindings": [],
                           "environment": [], "rid": "b"])
    }

    @Test func aTreeOutsideTheTokensPatternsIsForbiddenAndAMissingOneNoSuchTree() {
        var h = Self.harness()
        #expect(h.send(3, Self.inspect()).to(3).first?["code"] == "forbidden")
        let missing = h.send(2, Self.inspect(tree: "nope")).to(2).first
        #expect(missing?["type"] == "error" && missing?["code"] == "no_such_tree" && missing?["rid"] == 7)
    }

    @Test func anUnknownNodeIsNoSuchNodeAndAMissingOneBadMessage() {
        var h = Self.harness()
        let unknown = h.send(2, Self.inspect("ghost")).to(2).first
        #expect(unknown?["type"] == "error" && unknown?["code"] == "no_such_node" && unknown?["rid"] == 7)
        let noNode = h.send(2, ["type": "inspect", "tree": "p", "rid": 8]).to(2).first
        #expect(noNode?["code"] == "bad_message" && noNode?["message"] == #"inspect: "node" must be a string"#)
    }

    @Test func aTreeOfDataIsNotInspected() {
        var h = MachineHarness()
        h.open(1)
        h.createTree("demo")
        let answer = h.send(1, Self.inspect("a", tree: "demo")).to(1).first
        #expect(answer?["type"] == "error" && answer?["code"] == "bad_message" && answer?["rid"] == 7)
        #expect(answer?["message"] == #"inspect: "demo" is not a program tree"#)
    }

    @Test func anUnknownTypeListsInspect() {
        var h = MachineHarness()
        h.open(1)
        let answer = h.send(1, ["type": "frob"]).to(1).first
        #expect(answer?["code"] == "unknown_type")
        #expect(answer?["message"]?.string?.contains("probe, inspect, history") == true)
    }
}
