// The example trees in config/examples, which the daemon loads at first start: each file must be a valid
// `createTree` body with a title and a description, build a tree, and show exactly the reader values (and, where
// the description promises it, the reduce calls and skips) it was designed to show.

import Testing

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import CanopyCore

// MARK: - Loading

/// `<repository>/config/examples`, found from this file: `<repository>/Tests/CanopyCoreTests/ExampleTests.swift`.
private let examplesDirectory: String = {
    var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return (parts + ["config", "examples"]).joined(separator: "/")
}()

/// Every example, by tree id (= file name without `.json`). A new example needs a test of its own below.
private let exampleNames = [
    "signup-form", "numeric-reducers", "message-priority-modifiers", "message-priority-background",
    "navigation-overrides", "laziness",
]

/// Examples whose keys are written in Swift: CanopyCore alone cannot compile them, so
/// Tests/CanopyScriptTests/SwiftKeyExampleTests.swift tests them.
private let swiftExampleNames = ["swift-keys"]

/// The program examples (`.swift`, run as program trees): Tests/CanopyViewsTests/ExampleProgramsTests.swift runs them.
private let programExampleNames = [
    "validated-signup", "numeric-keys", "priority-messages", "environment-preview", "controls-gallery", "size-reader",
    "collapsing-header", "equal-width-columns", "tab-underline", "tag-flow",
]

private struct Example {
    var text: String
    var document: JSONObject
    var keys: [KeyDeclaration]
    var root: Node
    var tree: Tree
}

private func loadExample(_ name: String) throws -> Example {
    let path = "\(examplesDirectory)/\(name).json"
    let data = try #require(FileManager.default.contents(atPath: path), "cannot read \(path)")
    let json = try JSONParser.parse(bytes: data)
    let document = try #require(json.object, "\(name): the file must hold one JSON object")
    let keysJSON = try #require(document["keys"]?.array, "\(name): \"keys\" must be an array")
    var keys: [KeyDeclaration] = []
    for k in keysJSON { keys.append(try KeyDeclaration(json: k)) }
    let root = try Node(json: try #require(document["root"], "\(name): \"root\" is missing"))
    let tree = try Tree(keys: keys, root: root)
    return Example(text: String(decoding: data, as: UTF8.self), document: document, keys: keys, root: root, tree: tree)
}

// MARK: - Helpers

private func R(_ reader: String, _ key: String, _ value: JSON?) -> ReaderValue {
    ReaderValue(reader: reader, node: String(reader.prefix { $0 != "#" }), key: key, value: value)
}

private func msg(_ priority: Int64, _ content: String) -> JSON { ["priority": .int(priority), "content": .string(content)] }

private func nodeAndKey(_ e: TraceEvent) -> (node: String, key: String) {
    switch e.kind {
    case .eval(let n, let k, _), .reduce(let n, let k, _, _, _, _), .cached(let n, let k, _, _), .skip(let n, let k, _),
        .fire(_, let n, let k, _):
        return (n, k)
    case .program: return ("", "")
    }
}

/// The skip events of `key` as skipped node ids, sorted (readers may be evaluated in any order).
private func skips(_ trace: Trace, _ key: String) -> [String] {
    trace.events.compactMap {
        if case .skip(let n, let k, _) = $0.kind, k == key { return n }
        return nil
    }.sorted()
}

/// The reduce calls of `key` as `node[#modifier]: r(value, next) = result` (`—` for an unevaluated next), sorted.
private func reduces(_ trace: Trace, _ key: String) -> [String] {
    reducesInOrder(trace, key).sorted()
}

private func reducesInOrder(_ trace: Trace, _ key: String) -> [String] {
    trace.events.compactMap {
        guard case .reduce(let n, let k, let m, let v, let next, let result) = $0.kind, k == key else { return nil }
        let site = m.map { "\(n)#\($0)" } ?? n
        return "\(site): r(\(v.encoded()), \(next?.encoded() ?? "—")) = \(result.encoded())"
    }
}

/// Ids of `node` and everything under it, attached subtrees included.
private func subtreeIDs(_ node: Node) -> Set<String> {
    var ids: Set<String> = [node.id]
    for m in node.modifiers {
        if let a = m.attached { ids.formUnion(subtreeIDs(a)) }
    }
    for c in node.children { ids.formUnion(subtreeIDs(c)) }
    return ids
}

private func fullTrace(_ tree: Tree) throws -> Trace {
    try #require(tree.evaluateFromScratch(trace: true).trace)
}

// MARK: - The set of examples and their shape

@Test func theExamplesFolderHoldsExactlyTheTestedExamples() throws {
    // README.md explains the folder; it is not an example.
    let entries = try FileManager.default.contentsOfDirectory(atPath: examplesDirectory).sorted()
    let expected = (exampleNames + swiftExampleNames).map { "\($0).json" } + programExampleNames.map { "\($0).swift" }
    #expect(entries == (expected + ["README.md"]).sorted())
}

@Test(arguments: exampleNames) func exampleIsAWellFormedCreateTreeBody(_ name: String) throws {
    let ex = try loadExample(name)
    #expect(ex.document.keys == ["tree", "title", "description", "keys", "root"])
    #expect(ex.document["tree"] == .string(name))

    let title = try #require(ex.document["title"]?.string)
    #expect(!title.isEmpty && !title.contains("\n"))
    let description = try #require(ex.document["description"]?.string)
    #expect(!description.contains("\n") && description.hasSuffix("."))
    let sentences = description.split(separator: ". ", omittingEmptySubsequences: false).count
    #expect((2...4).contains(sentences), "\(name): the description has \(sentences) sentences")

    // Pretty-printed with 2-space indentation.
    let lines = ex.text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.first == "{" && lines.dropFirst().first == "  \"tree\": \"\(name)\",")
    for line in lines {
        let indent = line.prefix { $0 == " " }.count
        #expect(indent % 2 == 0 && !line.contains("\t"), "\(name): badly indented line \(line)")
    }

    let tree = ex.tree
    tree.checkInvariants()
    #expect(tree.keys == ex.keys)
    #expect(tree.root == ex.root)
    #expect(tree.nodeCount == ex.root.subtreeCount)
    #expect((20...80).contains(tree.nodeCount), "\(name) has \(tree.nodeCount) nodes")
    // Readable ids: lower-case words joined by hyphens ("email-field").
    for id in subtreeIDs(ex.root) {
        let readable = id.split(separator: "-", omittingEmptySubsequences: false).allSatisfy { word in
            !word.isEmpty && word.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
        }
        #expect(readable, "\(name): id \"\(id)\" is not kebab-case")
    }
    #expect(!tree.readers.isEmpty)
    #expect(tree.readers.allSatisfy { $0.present })
    #expect(tree.evaluateFromScratch().readers == tree.readers)
}

// MARK: - 1. signup-form

@Test func signupFormShowsEveryMessageInViewOrder() throws {
    var tree = try loadExample("signup-form").tree
    let K = "ValidationMessages"
    let password: [JSON] = ["Password must be at least 8 characters", "Password must contain a digit", "Passwords do not match"]
    let all: [JSON] =
        ["Enter a valid email address"] + password
        + ["Company name is required for business accounts", "Accept the terms of service to continue"]
    #expect(tree.readers == [R("signup-form#1", K, .array(all)), R("password-section#0", K, .array(password))])

    let trace = try fullTrace(tree)
    #expect(
        reduces(trace, K)
            == [
                #"password-section: r(["Password must be at least 8 characters","Password must contain a digit"], ["Passwords do not match"]) = ["Password must be at least 8 characters","Password must contain a digit","Passwords do not match"]"#,
                #"signup-form: r(["Enter a valid email address","Password must be at least 8 characters","Password must contain a digit","Passwords do not match","Company name is required for business accounts"], ["Accept the terms of service to continue"]) = ["Enter a valid email address","Password must be at least 8 characters","Password must contain a digit","Passwords do not match","Company name is required for business accounts","Accept the terms of service to continue"]"#,
                #"signup-form: r(["Enter a valid email address","Password must be at least 8 characters","Password must contain a digit","Passwords do not match"], ["Company name is required for business accounts"]) = ["Enter a valid email address","Password must be at least 8 characters","Password must contain a digit","Passwords do not match","Company name is required for business accounts"]"#,
                #"signup-form: r(["Enter a valid email address"], ["Password must be at least 8 characters","Password must contain a digit","Passwords do not match"]) = ["Enter a valid email address","Password must be at least 8 characters","Password must contain a digit","Passwords do not match"]"#,
            ].sorted())
    #expect(skips(trace, K).isEmpty)

    // Emptying the If: the form loses the company message, but the If still folds in with the default [].
    let diff = try tree.apply([.remove(node: "company-row")], trace: true)
    let withoutCompany = all.filter { $0 != "Company name is required for business accounts" }
    #expect(diff.changes == [R("signup-form#1", K, .array(withoutCompany))])
    #expect(tree.readers == tree.evaluateFromScratch().readers)
    let after = try fullTrace(tree)
    #expect(after.summary.reduces == 4)
    #expect(reducesInOrder(after, K).contains { $0.hasPrefix("signup-form: r(") && $0.contains(", []) = ") })
}

// MARK: - 2. numeric-reducers

@Test func numericReducersCompareLastFirstAndSum() throws {
    let tree = try loadExample("numeric-reducers").tree
    #expect(
        tree.readers == [
            R("scoreboard#1", "LastScore", 30), R("scoreboard#2", "FirstScore", 10), R("scoreboard#3", "SumScore", 70),
            R("bonus-group#0", "LastScore", 4), R("bonus-group#1", "FirstScore", 1), R("bonus-group#2", "SumScore", 10),
        ])

    let trace = try fullTrace(tree)
    #expect(skips(trace, "FirstScore") == ["bonus-2", "bonus-group", "bonus-pair", "round-2-row", "round-3-row"])
    #expect(skips(trace, "LastScore").isEmpty && skips(trace, "SumScore").isEmpty)
    #expect(
        reduces(trace, "FirstScore")
            == ["bonus-group: r(1, —) = 1", "bonus-group: r(1, —) = 1", "scoreboard: r(10, —) = 10",
                "scoreboard: r(10, —) = 10", "scoreboard: r(10, —) = 10"])
    #expect(
        reduces(trace, "SumScore")
            == ["bonus-group: r(1, 2) = 3", "bonus-group: r(3, 7) = 10", "bonus-pair: r(3, 4) = 7",
                "scoreboard: r(10, 20) = 30", "scoreboard: r(30, 10) = 40", "scoreboard: r(40, 30) = 70"])
    #expect(
        reduces(trace, "LastScore")
            == ["bonus-group: r(1, 2) = 2", "bonus-group: r(2, 4) = 4", "bonus-pair: r(3, 4) = 4",
                "scoreboard: r(10, 20) = 20", "scoreboard: r(20, 4) = 4", "scoreboard: r(4, 30) = 30"])
    // FirstScore never reads the values of the skipped pair.
    #expect(!trace.events.contains { nodeAndKey($0) == ("bonus-3", "FirstScore") || nodeAndKey($0) == ("bonus-4", "FirstScore") })
}

// MARK: - 3. message-priority-modifiers

@Test func messagePriorityWithTwoWritersOnOneView() throws {
    let tree = try loadExample("message-priority-modifiers").tree
    let K = "ValidationMessage"
    let phone = msg(3, "Phone number is required")
    #expect(
        tree.readers == [
            R("settings-form#0", K, phone), R("profile-section#2", K, msg(1, "Review your profile")),
            R("contact-section#0", K, phone), R("address-section#0", K, msg(3, "ZIP code does not match the city")),
        ])

    let trace = try fullTrace(tree)
    // The outer writer wins; the inner writer and the section's content are never evaluated.
    #expect(!trace.events.contains { ["username-field", "bio-field", "avatar-picker"].contains(nodeAndKey($0).node) })
    #expect(
        !trace.events.contains {
            if case .eval("profile-section", _, let m) = $0.kind { return m != 1 }
            return false
        })
    #expect(trace.events.map(\.kind).contains(.eval(node: "profile-section", key: K, modifier: 1)))
    let e = { (p: Int64, c: String) in msg(p, c).encoded() }
    #expect(
        reduces(trace, K)
            == [
                "address-section: r(\(e(2, "")), \(e(3, "ZIP code does not match the city"))) = \(e(3, "ZIP code does not match the city"))",
                "address-section: r(\(e(3, "ZIP code does not match the city")), \(e(3, "Country is not supported yet"))) = \(e(3, "ZIP code does not match the city"))",
                "contact-section: r(\(e(2, "Email address is not verified")), \(e(3, "Phone number is required"))) = \(e(3, "Phone number is required"))",
                "settings-form: r(\(e(1, "Review your profile")), \(e(3, "Phone number is required"))) = \(e(3, "Phone number is required"))",
                "settings-form: r(\(e(3, "Phone number is required")), \(e(3, "ZIP code does not match the city"))) = \(e(3, "Phone number is required"))",
            ].sorted())
}

// MARK: - 4. message-priority-background

@Test func messagePriorityWithAHiddenBackground() throws {
    let tree = try loadExample("message-priority-background").tree
    let K = "ValidationMessage"
    let expired = msg(2, "Card has expired")
    let cvc = msg(3, "CVC is required")
    #expect(
        tree.readers == [
            R("checkout-form#0", K, cvc), R("card-number-field#1", K, msg(2, "Card number is incomplete")),
            R("expiry-field#4", K, expired), R("expiry-field#5", "LayerOrder", "((background field) overlay)"),
            R("cvc-field#2", K, cvc),
        ])

    // The writer sits on a hidden attached root, and it still propagates.
    let check = try #require(tree.node("card-number-check"))
    #expect(check.modifiers.contains(.other(kind: "hidden", args: [:])))

    let trace = try fullTrace(tree)
    #expect(trace.events.map(\.kind).contains(.eval(node: "card-number-check", key: K, modifier: 0)))
    #expect(
        !trace.events.contains { if case .reduce("card-number-field", _, _, _, _, _) = $0.kind { true } else { false } })
    let e = { (p: Int64, c: String) in msg(p, c).encoded() }
    // Background first (the reduce's value), overlay second (its nextValue); ties keep the first.
    #expect(
        reducesInOrder(trace, K).filter { $0.hasPrefix("expiry-field") }
            == [
                "expiry-field#2: r(\(e(2, "Card has expired")), \(e(2, "Month must be between 01 and 12"))) = \(e(2, "Card has expired"))",
                "expiry-field#3: r(\(e(2, "Card has expired")), \(e(2, "Expiry date is invalid"))) = \(e(2, "Card has expired"))",
            ])
    #expect(
        reducesInOrder(trace, "LayerOrder")
            == [
                #"expiry-field#2: r("background", "field") = "(background field)""#,
                #"expiry-field#3: r("(background field)", "overlay") = "((background field) overlay)""#,
            ])
    #expect(
        reducesInOrder(trace, K).filter { $0.hasPrefix("cvc-field") }
            == ["cvc-field#1: r(\(e(1, "CVC should be 3 digits")), \(e(3, "CVC is required"))) = \(e(3, "CVC is required"))"])
    #expect(
        reduces(trace, K).filter { $0.hasPrefix("checkout-form") }
            == [
                "checkout-form: r(\(e(2, "Card number is incomplete")), \(e(2, "Card has expired"))) = \(e(2, "Card number is incomplete"))",
                "checkout-form: r(\(e(2, "Card number is incomplete")), \(e(3, "CVC is required"))) = \(e(3, "CVC is required"))",
            ])
    #expect(trace.summary.reduces == 7)
}

// MARK: - 5. navigation-overrides

@Test func navigationTitleAndColorSchemeOverriddenInside() throws {
    let ex = try loadExample("navigation-overrides")
    let tree = ex.tree
    #expect(
        tree.readers == [
            R("mail-app#0", "NavigationTitle", "Re: Lunch on Friday?"), R("mail-app#1", "ColorScheme", "dark"),
        ])

    let trace = try fullTrace(tree)
    #expect(
        reduces(trace, "NavigationTitle")
            == [
                #"nav-stack: r("Inbox", "Re: Lunch on Friday?") = "Re: Lunch on Friday?""#,
                #"nav-stack: r("Mailboxes", "Inbox") = "Inbox""#,
                #"thread-stack: r("Thread (3)", "Re: Lunch on Friday?") = "Re: Lunch on Friday?""#,
            ])
    #expect(reduces(trace, "ColorScheme") == [#"nav-stack: r("light", "dark") = "dark""#])
    // The writer on inbox-screen hides everything inside it: "Unread" is never read.
    let inbox = try #require(tree.node("inbox-screen"))
    let inside = subtreeIDs(inbox).subtracting(["inbox-screen"])
    #expect(!trace.events.contains { inside.contains(nodeAndKey($0).node) })
}

// MARK: - 6. laziness

@Test func lazinessSkipsWholeSubtreesAndNeverComputesAnUnreadKey() throws {
    var tree = try loadExample("laziness").tree
    #expect(
        tree.readers == [
            R("checkout-flow#0", "CanCheckout", false), R("checkout-flow#1", "FirstError", "Password is too short"),
            R("payment-step#0", "DefaultCard", "visa-4242"),
        ])

    let trace = try fullTrace(tree)
    #expect(skips(trace, "CanCheckout") == ["payment-step", "review-step", "shipping-step"])
    #expect(skips(trace, "FirstError") == ["payment-step", "review-step", "shipping-step"])
    #expect(skips(trace, "DefaultCard") == ["card-amex-row", "card-mastercard-row", "new-card-form"])
    #expect(trace.summary.skipped == 9)

    // Nothing inside a skipped subtree is evaluated for the key that skipped it.
    var skippedFor: [String: Set<String>] = [:]
    for (key, roots) in [
        ("CanCheckout", ["shipping-step", "payment-step", "review-step"]),
        ("FirstError", ["shipping-step", "payment-step", "review-step"]),
        ("DefaultCard", ["card-amex-row", "card-mastercard-row", "new-card-form"]),
    ] {
        for r in roots { skippedFor[key, default: []].formUnion(subtreeIDs(try #require(tree.node(r)))) }
    }
    for event in trace.events {
        let (node, key) = nodeAndKey(event)
        if case .skip = event.kind { continue }
        #expect(!(skippedFor[key]?.contains(node) ?? false), "\(event) is inside a subtree skipped for \(key)")
    }

    // The empty If yields each key's default, which is the first value of checkout-flow's fold.
    #expect(
        reducesInOrder(trace, "CanCheckout").filter { $0.hasPrefix("checkout-flow") }
            == ["checkout-flow: r(true, false) = false"]
            + Array(repeating: "checkout-flow: r(false, —) = false", count: 3))
    #expect(
        reducesInOrder(trace, "FirstError")
            == [#"checkout-flow: r(null, "Password is too short") = "Password is too short""#]
            + Array(repeating: #"checkout-flow: r("Password is too short", —) = "Password is too short""#, count: 3))

    // DebugLabel has writers and no reader: not a single event, and no reduce call.
    #expect(!trace.events.contains { nodeAndKey($0).key == "DebugLabel" })
    #expect(trace.summary.reduces == 12)

    // Edits inside skipped subtrees, or of the unread key, re-run nothing and fire nothing.
    var diff = try tree.apply([.setPreference(node: "shipping-method", key: "CanCheckout", value: true)], trace: true)
    #expect(diff.changes.isEmpty && diff.summary.reduces == 0)
    diff = try tree.apply([.setPreference(node: "card-amex-label", key: "DefaultCard", value: "amex-9999")], trace: true)
    #expect(diff.changes.isEmpty && diff.summary.reduces == 0)
    diff = try tree.apply([.setPreference(node: "order-summary", key: "DebugLabel", value: "3 items")], trace: true)
    #expect(diff.changes.isEmpty && diff.summary.reduces == 0 && diff.trace?.events.isEmpty == true)
    // Removing the early error moves firstNonNull on to the next subtree.
    diff = try tree.apply([.removePreference(node: "account-password", key: "FirstError")], trace: true)
    #expect(diff.changes == [R("checkout-flow#1", "FirstError", "Choose a shipping method")])
    #expect(tree.readers == tree.evaluateFromScratch().readers)
}
