import CanopyCore
import Testing

/// `inspect` over a WebSocket, on a daemon with the real view runtime: what a client reads about a node of the signup
/// form while another client types into it, and the errors of trees and nodes it cannot inspect.
@Suite struct ProgramInspectDaemonTests {
    static func inspect(_ node: String, tree: String = "signup") -> JSON {
        ["type": "inspect", "tree": .string(tree), "node": .string(node)]
    }

    @Test func aClientInspectsTheFieldAnotherClientTypesInto() throws {
        let daemon = try ProgramDaemon(directory: nil)
        defer { daemon.stop() }
        let alice = try daemon.client("alice")
        let bob = try daemon.client("bob")
        let S = ProgramSignupTests.self
        let created = try alice.request(Wire.create("signup", source: S.source, view: "SignupForm"), rid: "c")
        #expect(created["type"] == "created", "\(created.encoded())")
        let typed = try alice.batch(Wire.event("signup", seq: 1, S.userField, "setText", "al"))
        #expect(typed["version"] == 1)

        let username: JSON = ["node": "SignupForm", "name": "username"]
        let field = try bob.request(Self.inspect(S.user), rid: "f")
        #expect(
            field == [
                "type": "inspected", "tree": "signup", "version": 1, "node": .string(S.user), "view": "ValidatedField",
                "cells": [], "bindings": [["name": "text", "value": "al", "cell": username]], "environment": [],
                "rid": "f",
            ])
        let text = try bob.request(Self.inspect(S.userField), rid: "t")
        #expect(text["view"] == nil)
        #expect(text["bindings"] == [["name": "text", "value": "al", "cell": username]])
        let form = try bob.request(Self.inspect(S.form), rid: "s")
        #expect(
            form["cells"] == [
                ["name": "username", "value": "al"], ["name": "email", "value": ""], ["name": "errorCount", "value": 3],
                ["name": "status", "value": "Not ready"],
            ])

        let ghost = try bob.request(Self.inspect("SignupForm/9:Ghost"), rid: "g")
        #expect(ghost["type"] == "error" && ghost["code"] == "no_such_node" && ghost["rid"] == "g")
        let data = try alice.request(["type": "createTree", "tree": "data"], rid: "d")
        #expect(data["type"] == "created")
        let notProgram = try bob.request(Self.inspect("root", tree: "data"), rid: "n")
        #expect(notProgram["code"] == "bad_message")
        #expect(notProgram["message"] == #"inspect: "data" is not a program tree"#)
    }
}
