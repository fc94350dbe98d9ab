import CanopyCore
import Testing

/// `ProgramInstance.inspect`: a node's view struct, cells, bindings (with the cell each one writes) and environment
/// (with the node that set each value), read without changing anything.
@Suite struct InspectTests {
    static let source = """
        import SwiftUI
        struct Model { var name: String; var age: Int }
        struct Leaf: View {
            @Binding var value: String
            var body: some View { TextField("Leaf", text: $value) }
        }
        struct Middle: View {
            @Binding var value: String
            var body: some View { Leaf(value: $value) }
        }
        struct Badge: View {
            @Environment(\\.colorScheme) var scheme
            var body: some View { Text("\\(scheme)") }
        }
        struct Holder: View {
            @Binding var value: String
            var body: some View { Text("holds a binding it never reads") }
        }
        struct Root: View {
            @State var model = Model(name: "Ann", age: 3)
            @State var on = false
            @State var level = 0.5
            @State var scores = [1, 2, 3]
            @State var touched = ""
            var body: some View {
                VStack {
                    Middle(value: $model.name)
                    TextField("Shout", text: Binding(get: { model.name.uppercased() }, set: { model.name = $0 }))
                    Toggle("On", isOn: $on)
                    Slider(value: $level)
                    Stepper("Score", value: $scores[1])
                    TextField("Fixed", text: .constant("x"))
                    Badge()
                    Badge().environment(\\.colorScheme, .dark)
                    Holder(value: Binding(get: { touched = "inspected"; return "v" }, set: { _ in }))
                }
            }
        }
        """

    static let stack = "Root/0:VStack"
    static let leaf = stack + "/0:Middle/0:Leaf"

    static func inspect(_ p: ProgramFixture, _ node: String) throws -> JSON {
        .object(try p.program.inspect(node: node))
    }

    @Test func aBindingPassedDownNamesTheCellAndPathItWrites() throws {
        var p = try ProgramFixture(Self.source, view: "Root")
        let name: JSON = [["name": "value", "value": "Ann", "cell": ["node": "Root", "name": "model"], "path": ["name"]]]
        #expect(try Self.inspect(p, Self.stack + "/0:Middle")["bindings"] == name)
        #expect(try Self.inspect(p, Self.leaf)["bindings"] == name)
        let field = try Self.inspect(p, Self.leaf + "/0:TextField")
        #expect(
            field == [
                "cells": [], "environment": [],
                "bindings": [["name": "text", "value": "Ann", "cell": ["node": "Root", "name": "model"], "path": ["name"]]],
            ])
        try p.send(Self.leaf + "/0:TextField", "setText", "Bo")
        #expect(try Self.inspect(p, Self.leaf)["bindings"]?[0]?["value"] == "Bo")
        #expect(try Self.inspect(p, Self.leaf)["view"] == "Leaf")
        #expect(try Self.inspect(p, "Root")["cells"]?[0] == ["name": "model", "value": ["name": "Bo", "age": 3]])
    }

    @Test func controlsShowTheirBindingProps() throws {
        let p = try ProgramFixture(Self.source, view: "Root")
        func bindings(_ position: String) throws -> JSON? { try Self.inspect(p, Self.stack + "/" + position)["bindings"] }
        #expect(try bindings("1:TextField") == [["name": "text", "value": "ANN", "computed": true]])
        #expect(try bindings("2:Toggle") == [["name": "isOn", "value": false, "cell": ["node": "Root", "name": "on"]]])
        #expect(try bindings("3:Slider") == [["name": "value", "value": 0.5, "cell": ["node": "Root", "name": "level"]]])
        #expect(
            try bindings("4:Stepper")
                == [["name": "value", "value": 2, "cell": ["node": "Root", "name": "scores"], "path": [1]]])
        #expect(try bindings("5:TextField") == [["name": "text", "value": "x", "constant": true]])
    }

    @Test func readingAComputedBindingChangesNothing() throws {
        let p = try ProgramFixture(Self.source, view: "Root")
        let holder = try Self.inspect(p, Self.stack + "/8:Holder")
        #expect(holder["bindings"] == [["name": "value", "value": "v", "computed": true]])
        // Its getter assigns a cell; the inspector's read does not.
        #expect(p.cell("Root", "touched") == "")
        #expect(p.tree.version == 0)
    }

    @Test func anEnvironmentValueNobodySetIsItsDefaultWithoutFrom() throws {
        let p = try ProgramFixture(Self.source, view: "Root")
        let plain = try Self.inspect(p, Self.stack + "/6:Badge")
        #expect(plain == ["view": "Badge", "cells": [], "bindings": [], "environment": [["key": "colorScheme", "value": "light"]]])
        #expect(
            try Self.inspect(p, Self.stack + "/7:Badge")["environment"]
                == [["key": "colorScheme", "value": "dark", "from": .string(Self.stack + "/7:Badge")]])
        // The Text inside reads nothing and sees nothing set.
        #expect(try Self.inspect(p, Self.stack + "/6:Badge/0:Text")["environment"] == [])
        #expect(try Self.inspect(p, Self.stack + "/7:Badge/0:Text")["environment"]?[0]?["value"] == "dark")
    }

    @Test func anUnknownNodeIsNoSuchNode() throws {
        let p = try ProgramFixture(Self.source, view: "Root")
        #expect(errorCode { _ = try p.program.inspect(node: "Root/9:Nothing") } == .noSuchNode)
    }

    // MARK: The examples

    @Test func validatedSignupsFieldsWriteTheFormsCells() throws {
        var p = try ExamplePrograms.start("validated-signup")
        let S = ValidatedSignupExampleTests.self
        let email: JSON = ["node": "SignupForm", "name": "email"]
        #expect(try Self.inspect(p, S.emailText)["bindings"] == [["name": "text", "value": "", "cell": email]])
        let field = try Self.inspect(p, S.email)
        #expect(field["view"] == "ValidatedField")
        #expect(field["cells"] == [])
        #expect(field["bindings"] == [["name": "text", "value": "", "cell": email]])
        let password: JSON = ["node": "SignupForm", "name": "password"]
        #expect(try Self.inspect(p, S.passwordText)["bindings"]?[0]?["cell"] == password)

        try p.send(S.emailText, "setText", "ann@example.com")
        #expect(try Self.inspect(p, S.email)["bindings"]?[0]?["value"] == "ann@example.com")
        let form = try Self.inspect(p, "SignupForm")
        #expect(form["view"] == "SignupForm")
        #expect(
            form["cells"] == [
                ["name": "email", "value": "ann@example.com"], ["name": "password", "value": ""],
                ["name": "confirmation", "value": ""],
                ["name": "messages", "value": ["Password is required", "Password must contain a digit"]],
            ])
        #expect(form["bindings"] == [] && form["environment"] == [])
        #expect(try Self.inspect(p, S.count)["view"] == nil)
    }

    @Test func environmentPreviewNamesTheNodeThatSetEachValue() throws {
        var p = try ExamplePrograms.start("environment-preview")
        let list = "LibraryView/0:NavigationStack/0:List"
        let pinned = list + "/3:Section/0:If/0-0:BookRow"
        let first = list + "/2:Section/0:ForEach/[1]:BookRow"
        // The preview modifier's `.environment(\.library, context)` is on the root view itself.
        let library = try #require(try Self.inspect(p, "LibraryView")["environment"]?[0])
        #expect(library["key"] == "library" && library["from"] == "LibraryView")
        #expect(library["value"]?["owner"] == "Preview reader")
        #expect(try Self.inspect(p, "LibraryView")["cells"] == [["name": "compact", "value": false]])

        func density(_ node: String) throws -> JSON? {
            try Self.inspect(p, node)["environment"]?.array?.first { $0["key"] == "rowDensity" }
        }
        // The nearer override wins: the pinned section's, not the list's.
        #expect(try density(pinned) == ["key": "rowDensity", "value": "compact", "from": .string(list + "/3:Section")])
        #expect(try density(first) == ["key": "rowDensity", "value": "regular", "from": .string(list)])
        #expect(try Self.inspect(p, first)["environment"]?.array?.map { $0["key"] } == ["library", "rowDensity"])
        #expect(try Self.inspect(p, pinned + "/0:If/0-0:Text")["environment"]?.array?.count == 2)

        try p.send(list + "/1:Toggle", "setValue", true)
        #expect(try density(first) == ["key": "rowDensity", "value": "compact", "from": .string(list)])
        #expect(try Self.inspect(p, list + "/1:Toggle")["bindings"]?[0]?["cell"] == ["node": "LibraryView", "name": "compact"])
    }
}
