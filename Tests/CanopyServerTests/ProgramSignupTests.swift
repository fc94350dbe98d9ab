import CanopyCore
import Foundation
import Testing

/// The signup scenario of PROGRAMS.md end to end over WebSockets: two clients type into a validated form; the fields'
/// messages go up through a preference key to the form, whose count and status are `@State` set by its reader.
@Suite struct ProgramSignupTests {
    static let source = """
        import SwiftUI

        protocol ValidationRule {
            func validate(_ text: String) -> String?
        }

        struct MinLength: ValidationRule {
            let length: Int
            func validate(_ text: String) -> String? {
                text.count < length ? "needs \\(length) characters" : nil
            }
        }

        struct MustContain: ValidationRule {
            let part: String
            func validate(_ text: String) -> String? {
                text.contains(part) ? nil : "needs \\(part)"
            }
        }

        struct FieldMessagesKey: PreferenceKey {
            static var defaultValue: [String] = []
            static func reduce(value: inout [String], nextValue: () -> [String]) {
                value.append(contentsOf: nextValue())
            }
        }

        struct ValidatedField: View {
            let label: String
            @Binding var text: String
            let rules: [any ValidationRule]

            var body: some View {
                let messages = rules.compactMap { $0.validate(text) }
                VStack(alignment: .leading) {
                    TextField(label, text: $text)
                    ForEach(messages, id: \\.self) { message in
                        Text(message).font(.caption)
                    }
                }
                .preference(key: FieldMessagesKey.self, value: messages.map { "\\(label): \\($0)" })
            }
        }

        struct SignupForm: View {
            @State private var username = ""
            @State private var email = ""
            @State private var errorCount = 0
            @State private var status = "Not ready"

            var body: some View {
                VStack {
                    ValidatedField(label: "Username", text: $username, rules: [MinLength(length: 3)])
                    ValidatedField(label: "Email", text: $email, rules: [MustContain(part: "@"), MinLength(length: 5)])
                    Text(AttributedString(localized: "^[\\(errorCount) error](inflect: true)"))
                    Text(status)
                }
                .onPreferenceChange(FieldMessagesKey.self) { messages in
                    errorCount = messages.count
                    status = messages.isEmpty ? "Ready" : "Not ready"
                }
            }
        }
        """

    static let form = "SignupForm"
    static let stack = "SignupForm/0:VStack"
    static let user = "SignupForm/0:VStack/0:ValidatedField"
    static let email = "SignupForm/0:VStack/1:ValidatedField"
    static let userField = user + "/0:VStack/0:TextField"
    static let emailField = email + "/0:VStack/0:TextField"
    static let count = stack + "/2:Text"
    static let status = stack + "/3:Text"

    /// The messages a field shows, from a snapshot.
    static func messages(_ snapshot: JSON, _ field: String) -> [String] {
        let list = Wire.node(field + "/0:VStack/1:ForEach", in: snapshot["root"])
        return (list?["children"]?.array ?? []).compactMap { $0["props"]?["text"]?.string }
    }

    @Test func twoClientsTypeIntoTheFormAndSeeTheSameThing() throws {
        let daemon = try ProgramDaemon(directory: nil)
        defer { daemon.stop() }
        let alice = try daemon.client("alice")
        let bob = try daemon.client("bob")
        let created = try alice.request(Wire.create("signup", source: Self.source, view: "SignupForm"), rid: "c")
        #expect(created["type"] == "created", "\(created.encoded())")
        var a = try alice.snapshot("signup", trace: true)
        _ = try bob.snapshot("signup", trace: true)

        // A new tree ran its reader's closure: three messages (username too short, email without @ and too short).
        #expect(a["program"]?["view"] == "SignupForm")
        #expect(Wire.cell(a, Self.form, "errorCount") == 3)
        #expect(Wire.cell(a, Self.form, "status") == "Not ready")
        #expect(Wire.node(Self.count, in: a["root"])?["props"]?["text"] == "3 errors")
        #expect(Self.messages(a, Self.user) == ["needs 3 characters"])
        #expect(Self.messages(a, Self.email) == ["needs @", "needs 5 characters"])
        #expect(
            a["readers"]?[0]?["value"] == [
                "Username: needs 3 characters", "Email: needs @", "Email: needs 5 characters",
            ])

        // Alice types into the username (still too short): only that field's body runs, the count stays.
        var version = 0
        func step(_ by: ProgramClient, _ other: ProgramClient, _ node: String, _ text: String) throws -> JSON {
            version += 1
            let mine = try by.batch(Wire.event("signup", seq: version, node, "setText", .string(text)))
            #expect(mine["type"] == "diff", "\(mine.encoded())")
            #expect(mine["version"] == .int(Int64(version)))
            let theirs = try other.diff("signup", version: version)
            #expect(theirs["ops"] == mine["ops"])
            #expect(theirs["state"] == mine["state"])
            #expect(theirs["changes"] == mine["changes"])
            return mine
        }
        var d = try step(alice, bob, Self.userField, "al")
        #expect(d["event"] == ["event": "setText", "node": .string(Self.userField)])
        #expect(d["state"] == [["node": .string(Self.form), "name": "username", "value": "al"]])
        #expect(Wire.bodies(d) == [Self.user])
        #expect(d["ops"] == [["op": "setProps", "node": .string(Self.userField), "props": ["text": "al"]]])

        // Bob types into the email, fixing one of its two messages: the count changes, so the form's body runs too.
        d = try step(bob, alice, Self.emailField, "b@")
        #expect(Wire.bodies(d) == [Self.email, Self.form])
        #expect(
            d["state"] == [
                ["node": .string(Self.form), "name": "email", "value": "b@"],
                ["node": .string(Self.form), "name": "errorCount", "value": 2],
            ])
        a = try alice.snapshot("signup", trace: true)
        #expect(Wire.node(Self.count, in: a["root"])?["props"]?["text"] == "2 errors")
        #expect(Self.messages(a, Self.email) == ["needs 5 characters"])

        // Both now type into the same field, one after the other: the last text wins, both converge.
        d = try step(alice, bob, Self.userField, "alice")
        #expect(Wire.bodies(d) == [Self.user, Self.form])
        d = try step(bob, alice, Self.userField, "bob")
        #expect(Wire.bodies(d) == [Self.user])
        d = try step(alice, bob, Self.emailField, "bob@example.com")
        #expect(Wire.bodies(d) == [Self.email, Self.form])
        #expect(d["state"]?.array?.contains(["node": .string(Self.form), "name": "status", "value": "Ready"]) == true)

        a = try alice.snapshot("signup")
        let b = try bob.snapshot("signup")
        #expect(Wire.comparable(a) == Wire.comparable(b))
        #expect(a["version"] == 5)
        #expect(Wire.cell(a, Self.form, "username") == "bob")
        #expect(Wire.cell(a, Self.form, "email") == "bob@example.com")
        #expect(Wire.cell(a, Self.form, "errorCount") == 0)
        #expect(Wire.node(Self.count, in: a["root"])?["props"]?["text"] == "0 errors")
        #expect(Wire.node(Self.status, in: a["root"])?["props"]?["text"] == "Ready")
        #expect(Self.messages(a, Self.user) == [])
        #expect(Self.messages(a, Self.email) == [])
        #expect(a["readers"]?[0]?["value"] == [])
    }

    @Test func twoClientsTypingAtOnceIntoOneFieldConverge() throws {
        let daemon = try ProgramDaemon(directory: nil)
        defer { daemon.stop() }
        let alice = try daemon.client("alice")
        let bob = try daemon.client("bob")
        let created = try alice.request(Wire.create("signup", source: Self.source, view: "SignupForm"), rid: "c")
        #expect(created["type"] == "created", "\(created.encoded())")
        _ = try alice.snapshot("signup")
        _ = try bob.snapshot("signup")
        // Both pipeline five keystrokes into the username without waiting: the daemon orders them, one version each.
        let words = ["a", "al", "ali", "alic", "alice"]
        for (i, word) in words.enumerated() {
            try alice.send(Wire.event("signup", seq: i + 1, Self.userField, "setText", .string(word)))
            try bob.send(Wire.event("signup", seq: i + 1, Self.userField, "setText", .string(word.uppercased())))
        }
        let versions = 1...(2 * words.count)
        let seenByAlice = try versions.map { try alice.diff("signup", version: $0) }
        let seenByBob = try versions.map { try bob.diff("signup", version: $0) }
        #expect(seenByAlice == seenByBob)
        // Each client's keystrokes keep their order.
        for client in [alice, bob] {
            let own = seenByAlice.filter { $0["author"]?.string == client.session }.map { $0["seq"] ?? .null }
            #expect(own == [1, 2, 3, 4, 5])
        }
        let last = try #require(seenByAlice.last)
        let a = try alice.snapshot("signup")
        let b = try bob.snapshot("signup")
        #expect(Wire.comparable(a) == Wire.comparable(b))
        let lastWord = last["author"]?.string == alice.session ? "alice" : "ALICE"
        #expect(Wire.cell(a, Self.form, "username") == .string(lastWord))
        #expect(Wire.node(Self.userField, in: a["root"])?["props"]?["text"] == .string(lastWord))
        #expect(Self.messages(a, Self.user) == [])
    }
}
