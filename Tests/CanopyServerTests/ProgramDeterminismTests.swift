import CanopyCore
import Foundation
import Testing

/// Determinism of program trees (PROGRAMS.md §3, §8): seeded random events, chosen from what each snapshot shows, on
/// this suite's programs and every `config/examples/*.swift`. A daemon restarted on the store shows the same tree
/// and cells, and the same events sent to a fresh daemon give the same answers, diffs and final tree.
@Suite struct ProgramDeterminismTests {
    /// A program to drive: its name in messages and the `createTree` body.
    struct Subject: CustomTestStringConvertible, Sendable {
        let name: String
        let create: JSONObject
        /// The daemons' `limits.fuel`.
        var fuel = Limits.default.fuel
        var testDescription: String { name }
    }

    static let steps = 40

    /// The seed: `CANOPY_TEST_SEED` when set (to replay a failure), else fixed.
    static var seed: UInt64 { ProcessInfo.processInfo.environment["CANOPY_TEST_SEED"].flatMap(UInt64.init) ?? 14 }

    /// The package's `config/examples` folder, found from this file's path.
    static var examplesDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("config/examples")
    }

    static var subjects: [Subject] {
        var out = [
            Subject(
                name: "signup",
                create: ProgramHeader(view: "SignupForm").createTree(tree: "t", source: ProgramSignupTests.source)),
            Subject(
                name: "lab",
                create: ProgramHeader(view: "Lab").createTree(tree: "t", source: ProgramTransactionTests.source),
                fuel: ProgramTransactionTests.fuel),
        ]
        let files = (try? FileManager.default.contentsOfDirectory(atPath: examplesDirectory.path)) ?? []
        for file in files.sorted() where file.hasSuffix(".swift") {
            let path = examplesDirectory.appendingPathComponent(file).path
            guard let source = try? String(contentsOfFile: path, encoding: .utf8),
                let header = try? ProgramHeader(source: source)
            else { continue }
            out.append(Subject(name: file, create: header.createTree(tree: "t", source: source)))
        }
        return out
    }

    @Test(arguments: subjects)
    func randomEventsGiveTheSameTreeAfterARestartAndInAFreshDaemon(_ subject: Subject) throws {
        let directory = try ProgramDaemon.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var random = SplitMix64(seed: Self.seed &+ subject.name.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) })

        // The original run: events chosen from each snapshot, every answer kept.
        let first = try ProgramDaemon(directory: directory) {
            $0.limits.fuel = subject.fuel
            $0.snapshotEveryBatches = 7  // the restore folds the diffs after a stored snapshot in
        }
        let client = try first.client("random")
        let created = try client.request(.object(subject.create), rid: "c")
        try #require(created["type"] == "created", "\(subject.name): \(created.encoded())")
        var sent: [JSON] = []
        var answers: [JSON] = []
        for seq in 1...Self.steps {
            let snapshot = try client.snapshot("t")
            // Half-way, a hot reload of the same program with a comment added: the views keep their cells.
            let reload = seq == Self.steps / 2
            guard
                let event = reload
                    ? Self.reload(subject, seq: seq) : RandomEvents.pick(from: snapshot, seq: seq, &random)
            else { break }
            sent.append(event)
            answers.append(try client.batch(event))
            if reload {
                let after = try client.snapshot("t")
                #expect(answers.last?["type"] == "diff", "\(subject.name): \(answers.last?.encoded() ?? "")")
                #expect(after["state"] == snapshot["state"], "\(subject.name)")
                #expect(after["root"] == snapshot["root"], "\(subject.name)")
            }
        }
        let last = try client.snapshot("t")
        let diffs = answers.filter { $0["type"] == "diff" }.count
        #expect(sent.isEmpty || diffs > 0, "\(subject.name): every event was rejected: \(answers.map { $0.encoded() })")
        #expect(last["version"] == .int(Int64(diffs)))
        #expect(first.stop())

        // The same store in a new daemon.
        let second = try ProgramDaemon(directory: directory) { $0.limits.fuel = subject.fuel }
        #expect(second.daemon.restoredTrees == ["t"])
        let restored = try second.client("check").snapshot("t")
        Self.expectSameTree(restored, last, subject)
        second.stop()

        // The same events in a fresh daemon without a store.
        let fresh = try ProgramDaemon(directory: nil) { $0.limits.fuel = subject.fuel }
        defer { fresh.stop() }
        let replay = try fresh.client("random")
        #expect(try replay.request(.object(subject.create), rid: "c")["type"] == "created")
        for (event, answer) in zip(sent, answers) {
            let again = try replay.batch(event)
            #expect(Self.stripped(again) == Self.stripped(answer), "\(subject.name): \(event.encoded())")
        }
        let replayed = try replay.snapshot("t")
        Self.expectSameTree(replayed, last, subject)
    }

    /// Expects two snapshots to show the same tree, cells and reader values; says where they differ.
    static func expectSameTree(
        _ a: JSON, _ b: JSON, _ subject: Subject, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let difference = Wire.difference(Wire.comparable(a), Wire.comparable(b))
        #expect(difference == nil, "\(subject.name), seed \(seed): \(difference ?? "")", sourceLocation: sourceLocation)
    }

    /// A `setSource` of the subject's source with a comment added.
    static func reload(_ subject: Subject, seq: Int) -> JSON {
        let source = (subject.create["source"]?.string ?? "") + "\n// reloaded\n"
        return ["type": "setSource", "tree": "t", "seq": .int(Int64(seq)), "source": .string(source)]
    }

    /// An answer without what names the session.
    static func stripped(_ answer: JSON) -> JSON {
        var o = answer.object ?? [:]
        o["author"] = nil
        // Each daemon's transactions have their own time and seed; what they computed must not differ.
        o["inputs"] = nil
        o["bodyInputs"] = nil
        o["message"] = nil  // may quote the session-independent error, but keep comparisons to codes and data
        return .object(o)
    }
}

/// Events chosen at random from the nodes of a program tree's snapshot (PROGRAMS.md §6).
enum RandomEvents {
    static let texts = ["", "a", "ab", "abc", "bob", "x@y", "alice@example.com", "12", "hello world"]

    /// One event for a random node that takes events (or a post of a notification the tree listens to); nil when
    /// the tree has none.
    static func pick(from snapshot: JSON, seq: Int, _ random: inout SplitMix64) -> JSON? {
        var nodes: [JSON] = []
        var posts: [String] = []
        func visit(_ node: JSON) {
            if ["Button", "TextField", "SecureField", "Toggle", "Slider", "Stepper"].contains(
                node["type"]?.string ?? "")
            {
                nodes.append(node)
            }
            for m in node["modifiers"]?.array ?? [] where m["kind"] == "onReceive" {
                if let name = m["args"]?["name"]?.string { posts.append(name) }
            }
            for child in (node["children"]?.array ?? []) + Wire.attached(node) { visit(child) }
        }
        if let root = snapshot["root"] { visit(root) }
        let choices = nodes.count + (posts.isEmpty ? 0 : 1)
        guard choices > 0 else { return nil }
        let choice = Int(random.next() % UInt64(choices))
        if choice == nodes.count {
            let name = posts[Int(random.next() % UInt64(posts.count))]
            return ["type": "event", "tree": "t", "seq": .int(Int64(seq)), "event": "post", "name": .string(name)]
        }
        let node = nodes[choice]
        let id = node["id"]?.string
        let (event, value) = Self.event(for: node["type"]?.string ?? "", &random)
        return Wire.event("t", seq: seq, id, event, value)
    }

    static func event(for type: String, _ random: inout SplitMix64) -> (String, JSON?) {
        func one<T>(_ list: [T]) -> T { list[Int(random.next() % UInt64(list.count))] }
        switch type {
        case "Button": return ("tap", nil)
        case "TextField":
            return one([
                ("setText", .string(one(texts))), ("setText", .string(one(texts))),
                ("focus", .bool(one([true, false]))), ("commit", nil),
            ])
        case "SecureField": return one([("setText", .string(one(texts))), ("commit", nil)])
        case "Toggle": return ("setValue", .bool(one([true, false])))
        case "Slider":
            return one([
                ("setValue", .double(Double(Int(random.next() % 240)) / 2 - 10)), ("focus", .bool(one([true, false]))),
            ])
        default:  // Stepper
            return one([
                ("increment", nil), ("decrement", nil), ("increment", nil), ("focus", .bool(one([true, false]))),
            ])
        }
    }
}
