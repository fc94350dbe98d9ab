// The example programs in config/examples (*.swift), which the daemon loads at first start as program trees: each
// one runs, shows the tree it was written to show, and its events do what its scenario promises.

import CanopyCore
import CanopyViews
import Testing

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Loading the example programs from `<repository>/config/examples`.
enum ExamplePrograms {
    static let names = [
        "validated-signup", "numeric-keys", "priority-messages", "environment-preview", "controls-gallery",
    ]

    /// Found from this file: `<repository>/Tests/CanopyViewsTests/ExampleProgramsTests.swift`.
    static let directory: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return (parts + ["config", "examples"]).joined(separator: "/")
    }()

    static func source(_ name: String) throws -> String {
        let path = "\(directory)/\(name).swift"
        let data = try #require(FileManager.default.contents(atPath: path), "cannot read \(path)")
        return String(decoding: data, as: UTF8.self)
    }

    /// A new tree of the example, run as its header says; `extra` is appended to the source (a distinct program).
    static func start(_ name: String, extra: String = "") throws -> ProgramFixture {
        let source = try source(name) + extra
        return try ProgramFixture(source, view: try ProgramHeader(source: source).view)
    }
}

/// An op as `kind node [details]`, to compare a diff's ops readably.
func opSummary(_ op: Op) -> String {
    switch op {
    case .insert(let parent, let node, _): return "insert \(node.id) into \(parent)"
    case .remove(let node): return "remove \(node)"
    case .move(let node, let parent, _): return "move \(node) into \(parent)"
    case .setProps(let node, let props): return "setProps \(node) \(JSON.object(props).encoded())"
    case .setModifiers(let node, let modifiers):
        return "setModifiers \(node) \(JSON.array(modifiers.map(\.json)).encoded())"
    case .setPreference(let node, let key, let value): return "setPreference \(node) \(key) \(value.encoded())"
    case .removePreference(let node, let key): return "removePreference \(node) \(key)"
    case .declareKey(let k): return "declareKey \(k.key)"
    }
}

extension ProgramFixture {
    var ops: [String] { last.diff.ops.map(opSummary) }
    var changes: [String] { last.diff.changes.map { "\($0.reader) = \($0.value?.encoded() ?? "absent")" } }
    var state: [String] { last.state.map { "\($0.name) = \($0.value.encoded())" } }
    func text(_ id: String) -> JSON? { node(id)?.props["text"] }
    func reader(_ key: String) -> JSON? { tree.readers.first { $0.key == key }?.value }
    /// The engine's evaluations in the last transaction, as `node key`.
    var evaluated: [String] {
        (last.diff.trace?.events ?? []).compactMap {
            if case .eval(let n, let k, _) = $0.kind { return "\(n) \(k)" }
            return nil
        }
    }
}

@Suite struct ExampleProgramShapeTests {
    @Test(arguments: ExamplePrograms.names) func everyExampleHasAHeaderAndRuns(_ name: String) throws {
        let source = try ExamplePrograms.source(name)
        let header = try ProgramHeader(source: source)
        #expect(ProgramHeader.treeID(forFile: "\(name).swift") == name)
        let title = try #require(header.title)
        #expect(!title.isEmpty)
        let description = try #require(header.description)
        #expect(description.hasSuffix(".") && description.split(separator: ". ").count >= 2)
        let p = try ExamplePrograms.start(name)
        #expect(p.tree.root.id == p.program.spec.view)
        #expect(p.last.warnings.isEmpty)
        p.tree.checkInvariants()
        #expect(p.tree.readers.allSatisfy { $0.present })
    }
}

// MARK: - validated-signup

@Suite struct ValidatedSignupExampleTests {
    static let form = "SignupForm/0:Form"
    static let email = "SignupForm/0:Form/0:Section/0:ValidatedField"
    static let password = "SignupForm/0:Form/0:Section/1:ValidatedField"
    static let confirmation = "SignupForm/0:Form/0:Section/2:ValidatedField"
    static let emailText = email + "/0:VStack/0:If/1-0:TextField"
    static let passwordText = password + "/0:VStack/0:If/0-0:SecureField"
    static let confirmationText = confirmation + "/0:VStack/0:If/0-0:SecureField"
    static let count = "SignupForm/0:Form/1:Section/0:Text"
    static let status = "SignupForm/0:Form/1:Section/1:Text"
    static let button = "SignupForm/0:Form/1:Section/2:Button"

    @Test func theEmptyFormCountsTheMessagesOfItsFields() throws {
        let p = try ExamplePrograms.start("validated-signup")
        let S = Self.self
        #expect(p.node("SignupForm/0:Form/0:Section")?.children.map(\.id) == [S.email, S.password, S.confirmation])
        // A field's node shows its stored properties: the rules are structs behind `any ValidationRule`.
        #expect(p.node(S.email)?.props == ["title": "Email", "isSecure": false, "rules": [["field": "Email"], [:]]])
        #expect(p.node(S.password)?.props["rules"] == [["field": "Password"], ["field": "Password", "length": 8], [:]])
        #expect(p.node(S.emailText)?.type == "TextField" && p.node(S.passwordText)?.type == "SecureField")
        #expect(p.node(S.emailText)?.props == ["title": "Email", "text": ""])
        let writer = try #require(p.node(S.email + "/0:VStack")?.modifiers.first)
        #expect(writer == .preference(key: "ValidationMessages", value: ["Email is required"]))
        #expect(
            p.node(S.password + "/0:VStack/1:ForEach")?.children.map(\.id) == [
                S.password + "/0:VStack/1:ForEach/[Password is required]:Text",
                S.password + "/0:VStack/1:ForEach/[Password must contain a digit]:Text",
            ])

        let all: JSON = ["Email is required", "Password is required", "Password must contain a digit"]
        #expect(
            p.tree.readers == [ReaderValue(reader: S.form + "#0", node: S.form, key: "ValidationMessages", value: all)])
        #expect(p.cell("SignupForm", "messages") == all)
        #expect(p.text(S.count) == "3 errors")
        #expect(p.text(S.status) == "Fix the fields above to continue")
        #expect(p.node(S.button)?.modifiers == [.other(kind: "disabled", args: ["_0": true])])
        // The form ran, its fields ran, and the form ran again once its reader's closure stored the messages.
        #expect(p.bodies == ["SignupForm", S.email, S.password, S.confirmation, "SignupForm"])
    }

    @Test func typingChangesTheFieldsMessagesAndTheFormsCount() throws {
        var p = try ExamplePrograms.start("validated-signup")
        let S = Self.self

        // A new message in place of the old one: the count stays, the form still stores the new list.
        try p.send(S.emailText, "setText", "a")
        #expect(p.bodies == [S.email, "SignupForm"])
        #expect(
            p.ops == [
                #"setModifiers \#(S.email)/0:VStack [{"kind":"preference","key":"ValidationMessages","value":"#
                    + #"["Enter a valid email address"]}]"#,
                #"setProps \#(S.emailText) {"text":"a"}"#,
                "remove \(S.email)/0:VStack/1:ForEach/[Email is required]:Text",
                "insert \(S.email)/0:VStack/1:ForEach/[Enter a valid email address]:Text"
                    + " into \(S.email)/0:VStack/1:ForEach",
            ])
        #expect(
            p.changes == [
                #"\#(S.form)#0 = ["Enter a valid email address","Password is required","Password must contain a digit"]"#
            ])
        #expect(p.text(S.count) == "3 errors")

        // Same messages: only the typed field's body runs, and the only op is its text.
        try p.send(S.emailText, "setText", "an")
        #expect(p.bodies == [S.email])
        #expect(p.ops == [#"setProps \#(S.emailText) {"text":"an"}"#])
        #expect(p.changes.isEmpty)
        #expect(p.state == [#"email = "an""#])

        try p.send(S.emailText, "setText", "ann@example.com")
        #expect(p.bodies == [S.email, "SignupForm"])
        #expect(p.text(S.count) == "2 errors")
        #expect(p.ops.last == #"setProps \#(S.count) {"text":"2 errors"}"#)
        #expect(
            p.state == [
                #"email = "ann@example.com""#, #"messages = ["Password is required","Password must contain a digit"]"#,
            ])

        // The form reads the password (the confirmation's rule holds it), so it runs first; one error is singular.
        try p.send(S.passwordText, "setText", "secret12")
        #expect(p.bodies == ["SignupForm", S.password, S.confirmation, "SignupForm"])
        #expect(p.node(S.confirmation)?.props["rules"] == [["other": "secret12"]])
        #expect(p.reader("ValidationMessages") == ["Passwords do not match"])
        #expect(p.text(S.count) == "1 error")
        #expect(p.text(S.status) == "Fix the fields above to continue")

        try p.send(S.confirmationText, "setText", "secret12")
        #expect(p.bodies == [S.confirmation, "SignupForm"])
        #expect(p.reader("ValidationMessages") == [])
        #expect(
            p.ops.suffix(3) == [
                #"setProps \#(S.count) {"text":"0 errors"}"#,
                #"setProps \#(S.status) {"text":"Ready to create your account"}"#,
                #"setModifiers \#(S.button) [{"kind":"disabled","args":{"_0":false}}]"#,
            ])
        #expect(p.cell("SignupForm", "confirmation") == "secret12")
        #expect(p.tree.version == 5)
    }

    @Test func aShortPasswordWithoutADigitHasTwoMessages() throws {
        var p = try ExamplePrograms.start("validated-signup")
        try p.send(Self.passwordText, "setText", "abc")
        #expect(p.reader("ValidationMessages") == [
            "Email is required", "Password must be at least 8 characters", "Password must contain a digit",
            "Passwords do not match",
        ])
        #expect(p.text(Self.count) == "4 errors")
    }
}

// MARK: - numeric-keys

@Suite struct NumericKeysExampleTests {
    static let rows = "LapBoard/0:VStack/0:VStack"

    @Test func fiveReduceBodiesOverTheSameLaps() throws {
        let p = try ExamplePrograms.start("numeric-keys")
        let R = Self.rows
        #expect(
            p.tree.readers.map { "\($0.reader) \($0.key) = \($0.value?.encoded() ?? "absent")" } == [
                "\(R)#0 TotalPoints = 37", "\(R)#1 HighScore = 15", "\(R)#2 LatestLap = 3", "\(R)#3 OpeningLap = 1",
                #"\#(R)#4 LapStats = {"count":3,"totalTime":213.75,"fastest":70.5}"#,
            ])
        #expect(p.node(R + "/0:ForEach")?.children.map(\.id) == [1, 2, 3].map { "\(R)/0:ForEach/[\($0)]:LapRow" })
        #expect(p.node(R + "/0:ForEach/[2]:LapRow")?.props == ["lap": ["id": 2, "seconds": 70.5, "points": 15]])
        #expect(p.text(R + "/0:ForEach/[2]:LapRow/0:HStack/2:Text") == "70.5 s")
        #expect(
            (2...6).map { p.text("LapBoard/0:VStack/\($0):Text") } == [
                "Total: 37 points", "High score: 15 points", "Latest lap: 3", "Opening lap: 1",
                "3 laps, fastest 70.5 s, average 71.25 s",
            ])
        #expect(p.cell("LapBoard", "summary") == ["count": 3, "totalTime": 213.75, "fastest": 70.5])

        // First wins never asks for the later laps; the other keys read every lap.
        let trace = try #require(p.tree.evaluateFromScratch(trace: true).trace)
        let skipped = trace.events.compactMap { e -> String? in
            if case .skip(let n, let k, _) = e.kind { return "\(n) \(k)" }
            return nil
        }
        #expect(skipped == ["\(R)/0:ForEach/[2]:LapRow OpeningLap", "\(R)/0:ForEach/[3]:LapRow OpeningLap"])
    }

    @Test func addingALapChangesEveryKeyButTheFirst() throws {
        var p = try ExamplePrograms.start("numeric-keys")
        let R = Self.rows
        try p.send("LapBoard/0:VStack/7:Button", "tap")
        #expect(p.cell("LapBoard", "laps")?.array?.last == ["id": 4, "seconds": 70.0, "points": 20])
        #expect(
            p.changes == [
                "\(R)#0 = 57", "\(R)#1 = 20", "\(R)#2 = 4", #"\#(R)#4 = {"count":4,"totalTime":283.75,"fastest":70}"#,
            ])
        #expect(p.reader("OpeningLap") == 1)
        // The rows already there keep their bodies; the new row's body runs, then the board's with the new values.
        #expect(p.bodies == ["LapBoard", "\(R)/0:ForEach/[4]:LapRow", "LapBoard"])
        #expect(p.ops.contains("insert \(R)/0:ForEach/[4]:LapRow into \(R)/0:ForEach"))
        #expect(!p.ops.contains { $0.contains("Opening lap") })
        #expect(p.text("LapBoard/0:VStack/6:Text") == "4 laps, fastest 70.0 s, average 70.9375 s")
        #expect(p.evaluated.contains("\(R)/0:ForEach/[4]:LapRow/0:HStack TotalPoints"))
        #expect(!p.evaluated.contains { $0.hasPrefix("\(R)/0:ForEach/[4]") && $0.hasSuffix("OpeningLap") })
    }
}
