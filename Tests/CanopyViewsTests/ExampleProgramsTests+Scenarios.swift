// The example programs of config/examples, continued: priority messages, environment with a preview context, and
// the controls gallery (ExampleProgramsTests.swift has the loader and the first two).

import CanopyCore
import Testing

// MARK: - priority-messages

@Suite struct PriorityMessagesExampleTests {
    static let banner = "CheckoutView/0:VStack/0:Text"
    static let shipping = "CheckoutView/0:VStack/1:Form/0:ShippingSection"
    static let shippingToggle = shipping + "/0:Section/0:Toggle"
    static let cardToggle = "CheckoutView/0:VStack/1:Form/1:Section/0:Toggle"
    static let card = "CheckoutView/0:VStack/1:Form/1:Section/1:If/0-0:Text"

    static func message(_ text: String, _ priority: Int) -> JSON {
        ["text": .string(text), "priority": .int(Int64(priority))]
    }

    @Test func theHiddenBackgroundCarriesTheMessageAndTheHighestPriorityWins() throws {
        let p = try ExamplePrograms.start("priority-messages")
        let S = Self.self
        // message(_:priority:) is the view itself with a hidden rectangle behind it that writes the preference.
        let text = try #require(p.node(S.card))
        #expect(text.props == ["text": "Visa ending in 4242"])
        guard case .background(let rectangle)? = text.modifiers.first else {
            Issue.record("expected a background, got \(text.modifiers)")
            return
        }
        #expect(rectangle.id == S.card + "/@0:Rectangle" && rectangle.type == "Rectangle")
        #expect(
            rectangle.modifiers == [
                .other(kind: "hidden", args: [:]),
                .preference(key: "TopMessage", value: S.message("Your card has expired", 2)),
            ])
        #expect(p.reader("TopMessage") == S.message("Your card has expired", 2))
        #expect(p.cell("CheckoutView", "top") == S.message("Your card has expired", 2))
        #expect(p.text(S.banner) == "Your card has expired")
        #expect(p.node(S.banner)?.modifiers.last == .other(kind: "foregroundStyle", args: ["_0": "red"]))
    }

    @Test func togglesChangeWhichMessagesArePresentAndTheWinner() throws {
        var p = try ExamplePrograms.start("priority-messages")
        let S = Self.self

        // The expired card goes away: the shipping warning wins.
        try p.send(S.cardToggle, "setValue", false)
        #expect(p.ops.prefix(2) == [#"setProps \#(S.cardToggle) {"isOn":false}"#, "remove \(S.card)"])
        #expect(p.changes == [#"CheckoutView/0:VStack#0 = {"text":"Add a shipping address","priority":1}"#])
        #expect(p.text(S.banner) == "Add a shipping address")
        #expect(p.bodies == ["CheckoutView", "CheckoutView"])

        // The address is entered inside the section (through its binding): two infos tie and the first stays.
        try p.send(S.shippingToggle, "setValue", true)
        #expect(p.cell("CheckoutView", "hasAddress") == true)
        #expect(p.bodies == [S.shipping, "CheckoutView"])
        #expect(p.reader("TopMessage") == S.message("Your order ships tomorrow", 0))
        #expect(
            p.ops == [
                #"setProps \#(S.shippingToggle) {"isOn":true}"#, "remove \(S.shipping)/0:Section/1:If/1-0:Text",
                "insert \(S.shipping)/0:Section/1:If/0-0:Text into \(S.shipping)/0:Section/1:If",
                #"setProps \#(S.banner) {"text":"Your order ships tomorrow"}"#,
            ])

        // The card expires again: the error wins over everything.
        try p.send(S.cardToggle, "setValue", true)
        #expect(p.reader("TopMessage") == S.message("Your card has expired", 2))
        #expect(p.text(S.banner) == "Your card has expired")
        #expect(p.tree.version == 3)
    }
}

// MARK: - environment-preview

@Suite struct EnvironmentPreviewExampleTests {
    static let list = "LibraryView/0:NavigationStack/0:List"
    static let books = list + "/2:Section/0:ForEach"
    static let pinned = list + "/3:Section/0:If/0-0:BookRow"

    @Test func theSharedContextReachesTheViewsAndANearerOverrideWins() throws {
        let p = try ExamplePrograms.start("environment-preview")
        let S = Self.self
        // The preview modifier's body put the sample library into the environment of the root view.
        let library = try #require(p.tree.root.modifiers.first?.json.object?["args"]?.object)
        #expect(library["key"] == "library")
        #expect(library["value"]?.object?["owner"] == "Preview reader")
        #expect(p.node(S.list + "/0:OwnerBadge/0:Label")?.props["title"] == "Preview reader · 3 books")
        #expect(p.node(S.books)?.children.map(\.id) == [1, 2, 3].map { "\(S.books)/[\($0)]:BookRow" })
        // The list says regular rows; the pinned section's nearer override says compact.
        #expect(
            p.node(S.list)?.modifiers.first == .other(kind: "environment", args: ["key": "rowDensity", "value": "regular"]))
        #expect(p.text(S.books + "/[2]:BookRow/0:If/1-0:VStack/1:Text") == "450 pages")
        #expect(p.text(S.pinned + "/0:If/0-0:Text") == "Dune")
        #expect(p.node(S.pinned + "/0:If")?.children.count == 1)
    }

    @Test func changingTheListsDensityReRunsOnlyTheRowsThatReadIt() throws {
        var p = try ExamplePrograms.start("environment-preview")
        let S = Self.self
        try p.send(S.list + "/1:Toggle", "setValue", true)
        // The rows under the list's value run again; the pinned row (overridden) and the badge (library only) do not.
        #expect(p.bodies == ["LibraryView"] + [1, 2, 3].map { "\(S.books)/[\($0)]:BookRow" })
        #expect(
            p.ops.first == #"setModifiers \#(S.list) [{"kind":"environment","args":{"key":"rowDensity","value":"compact"}},"#
                + #"{"kind":"navigationTitle","args":{"_0":"Library"}}]"#)
        #expect(p.ops.contains("remove \(S.books)/[3]:BookRow/0:If/1-0:VStack"))
        #expect(p.ops.contains("insert \(S.books)/[3]:BookRow/0:If/0-0:Text into \(S.books)/[3]:BookRow/0:If"))
        #expect(!p.ops.contains { $0.contains(S.pinned) })
        #expect(p.text(S.books + "/[3]:BookRow/0:If/0-0:Text") == "Middlemarch")
        #expect(p.state == ["compact = true"])
    }

    @Test func thePreviewContextIsComputedOnceAndReusedByTheNextTree() throws {
        // A source of its own, so no other test's tree computed its context first.
        let extra = "\n// reused by the second tree\n"
        let first = try ExamplePrograms.start("environment-preview", extra: extra)
        #expect(first.program.previewContexts == [PreviewContextUse(modifier: "SampleLibrary", reused: false)])
        let second = try ExamplePrograms.start("environment-preview", extra: extra)
        #expect(second.program.previewContexts == [PreviewContextUse(modifier: "SampleLibrary", reused: true)])
        #expect(second.tree.root == first.tree.root)
    }
}

// MARK: - controls-gallery

@Suite struct ControlsGalleryExampleTests {
    static func id(_ section: Int, _ row: Int, _ type: String) -> String {
        "ControlsGallery/0:Form/\(section):Section/\(row):\(type)"
    }

    @Test func everyControlsEventRunsItsClosureOrBinding() throws {
        var p = try ExamplePrograms.start("controls-gallery")
        let id = Self.id
        let form = "ControlsGallery/0:Form"
        #expect(p.text(id(0, 1, "Text")) == "Tapped 0 times")
        let bounds: JSON = ["lowerBound": 0, "upperBound": 10]
        #expect(p.node(id(3, 0, "Slider"))?.props == ["value": 5.0, "in": bounds, "step": 0.5])
        #expect(p.node(id(4, 0, "Stepper"))?.props == ["title": "Quantity: 2", "value": 2, "in": bounds, "step": 2])
        let receive = Modifier.other(kind: "onReceive", args: ["name": "UIApplication.didBecomeActiveNotification"])
        #expect(p.node(form)?.modifiers.last == receive)

        try p.send(id(0, 0, "Button"), "tap")
        #expect(p.ops == [#"setProps \#(id(0, 1, "Text")) {"text":"Tapped 1 time"}"#])

        // TextField: editing, a custom Binding(get:set:) that lower-cases, commit.
        try p.send(id(1, 0, "TextField"), "focus", true)
        #expect(p.text(id(1, 1, "Text")) == "Editing…")
        try p.send(id(1, 0, "TextField"), "setText", "Ann_B")
        #expect(p.cell("ControlsGallery", "handle") == "ann_b")
        #expect(p.ops == [#"setProps \#(id(1, 0, "TextField")) {"text":"ann_b"}"#])
        try p.send(id(1, 0, "TextField"), "commit")
        #expect(p.state == [#"submittedHandle = "ann_b""#] && p.ops.isEmpty)
        try p.send(id(1, 0, "TextField"), "focus", false)
        #expect(p.text(id(1, 1, "Text")) == "Submitted: ann_b")

        // SecureField: text, then commit.
        try p.send(id(1, 2, "SecureField"), "setText", "1234")
        #expect(p.text(id(1, 3, "Text")) == "4 of 4 digits")
        try p.send(id(1, 2, "SecureField"), "commit")
        #expect(p.text(id(1, 3, "Text")) == "PIN accepted")

        // Toggle: the binding, then onChange(of:) with the new value, in one transaction.
        try p.send(id(2, 0, "Toggle"), "setValue", false)
        #expect(p.state == ["notifications = false", #"lastChange = "notifications off""#])
        #expect(p.bodies == ["ControlsGallery", "ControlsGallery"])
        #expect(p.text(id(5, 0, "Text")) == "Last change: notifications off")

        // Slider: editing, a value rounded to the step, a value clamped to the bounds.
        try p.send(id(3, 0, "Slider"), "focus", true)
        try p.send(id(3, 0, "Slider"), "setValue", 7.3)
        #expect(p.cell("ControlsGallery", "volume") == 7.5)
        #expect(p.text(id(3, 1, "Text")) == "Volume 7.5…")
        try p.send(id(3, 0, "Slider"), "setValue", 42)
        #expect(p.cell("ControlsGallery", "volume") == 10.0)
        try p.send(id(3, 0, "Slider"), "focus", false)
        #expect(p.text(id(3, 1, "Text")) == "Volume 10.0")

        // Stepper with a value: ± its step, and onChange sees old and new.
        try p.send(id(4, 0, "Stepper"), "increment")
        #expect(p.state == ["quantity = 4", #"lastChange = "quantity 2 → 4""#])
        try p.send(id(4, 0, "Stepper"), "decrement")
        #expect(p.cell("ControlsGallery", "quantity") == 2)

        // Stepper with closures: they clamp at 5 themselves; at the bound nothing changes but a version is made.
        try p.send(id(4, 1, "Stepper"), "increment")
        try p.send(id(4, 1, "Stepper"), "increment")
        #expect(p.node(id(4, 1, "Stepper"))?.props["title"] == "Rating: 5")
        let version = p.tree.version
        try p.send(id(4, 1, "Stepper"), "increment")
        #expect(p.tree.version == version + 1 && p.ops.isEmpty && p.state.isEmpty && p.bodies.isEmpty)
        try p.send(id(4, 1, "Stepper"), "decrement")
        #expect(p.cell("ControlsGallery", "rating") == 4)

        // A posted notification reaches onReceive.
        try p.send(nil, "post", name: "UIApplication.didBecomeActiveNotification")
        #expect(p.state == ["activations = 1"])
        #expect(p.text(id(5, 1, "Text")) == "Became active 1 time")
        try p.send(nil, "post", name: "UIApplication.didBecomeActiveNotification")
        #expect(p.text(id(5, 1, "Text")) == "Became active 2 times")
    }

    @Test func eventsAControlDoesNotTakeAreRejected() throws {
        var p = try ExamplePrograms.start("controls-gallery")
        let id = Self.id
        #expect(throws: CanopyError.self) { try p.send(id(0, 1, "Text"), "tap") }
        #expect(throws: CanopyError.self) { try p.send(id(2, 0, "Toggle"), "setValue", "yes") }
        #expect(p.tree.version == 0 && p.cell("ControlsGallery", "notifications") == true)
    }
}
