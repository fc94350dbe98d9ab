import CanopyCore
import Testing

@testable import CanopyProtocol

/// Program trees through the machine (with `FakeProgramRuntime`): created from source, driven by events and source
/// changes through the sequencer, their errors on the wire, and their snapshots.
@Suite struct ProgramMachineTests {
    static func harness(
        durable: Bool = true, _ configure: (inout HubConfiguration) -> Void = { _ in }
    )
        -> MachineHarness
    {
        var h = MachineHarness(durable: durable) {
            $0.programs = FakeProgramRuntime()
            configure(&$0)
        }
        h.open(1)
        return h
    }

    static func create(_ source: String = "counter", rid: JSON = 1) -> JSON {
        [
            "type": "createTree", "tree": "p", "source": .string(source),
            "previewModifiers": ["SampleData"], "rid": rid,
        ]
    }

    static func tap(seq: Int, node: String = "button", event: String = "tap") -> JSON {
        [
            "type": "event", "tree": "p", "seq": .int(Int64(seq)), "node": .string(node),
            "event": .string(event),
        ]
    }

    static func setSource(_ source: String, seq: Int) -> JSON {
        ["type": "setSource", "tree": "p", "seq": .int(Int64(seq)), "source": .string(source)]
    }

    /// A harness with tree `p` (a counter) created and committed, and session 2 subscribed to it.
    static func created() -> MachineHarness {
        var h = harness()
        _ = h.commitAll(h.send(1, create()))
        h.open(2)
        _ = h.send(2, ["type": "subscribe", "tree": "p"])
        return h
    }

    static func label(_ h: MachineHarness) -> JSON? {
        h.machine.tree("p")?.root.children.first?.props["text"]
    }

    @Test func createTreeWithSourceStartsTheProgramAndAnswersAfterTheCommit() {
        var h = Self.harness()
        let sent = h.send(1, Self.create())
        #expect(sent.to(1).isEmpty)
        guard case .createTree(let id, _, let bytes)? = sent.persists.first?.1 else {
            Issue.record("no createTree write")
            return
        }
        #expect(id == "p")
        // The stored snapshot carries the program's spec (view resolved) and its cells next to keys and root.
        let stored = try? SnapshotEncoding.parse(bytes)
        #expect(
            stored?["program"] == [
                "source": "counter", "view": "ContentView", "previewModifiers": ["SampleData"],
            ])
        #expect(stored?["state"] == [["node": "root", "name": "count", "value": 0]])
        #expect(stored?["root"]?["children"]?.array?.count == 2)
        let released = h.commitAll(sent)
        #expect(released.to(1) == [["type": "created", "tree": "p", "version": 0, "rid": 1]])
        let trees = h.send(1, ["type": "listTrees"]).to(1).first?["trees"]?.array
        #expect(trees?.first?["program"] == true)
        #expect(Self.label(h) == "0")
    }

    @Test func aCompileErrorIsAnErrorWithItsDiagnosticsAndCreatesNothing() {
        var h = Self.harness()
        let sent = h.send(1, Self.create("counter step x", rid: 4))
        #expect(sent.persists.isEmpty)
        let error = sent.to(1).first
        #expect(error?["type"] == "error")
        #expect(error?["code"] == "compile_error")
        #expect(error?["rid"] == 4)
        #expect(error?["diagnostics"] == FakeProgramRuntime.diagnostics)
        #expect(h.machine.tree("p") == nil)
        #expect(h.send(1, ["type": "listTrees"]).to(1).first?["trees"] == [])
    }

    @Test func sourceWithKeysOrRootOrWithoutARuntimeIsRefused() {
        var h = Self.harness()
        let withRoot: JSON = [
            "type": "createTree", "tree": "p", "source": "counter", "root": ["id": "r", "type": "X"],
        ]
        #expect(h.send(1, withRoot).to(1).first?["code"] == "bad_message")
        let withKeys: JSON = ["type": "createTree", "tree": "p", "source": "counter", "keys": []]
        #expect(h.send(1, withKeys).to(1).first?["code"] == "bad_message")
        var bare = MachineHarness()
        bare.open(1)
        let refused = bare.send(1, Self.create()).to(1).first
        #expect(refused?["code"] == "bad_message")
        #expect(refused?["message"]?.string?.contains("no program runtime") == true)
        #expect(h.machine.tree("p") == nil && bare.machine.tree("p") == nil)
    }

    @Test func anEditOfAProgramTreeIsRejectedBeforeItsOpsAreRead() {
        var h = Self.created()
        let edit: JSON = ["type": "edit", "tree": "p", "seq": 3, "ops": "not even ops"]
        let answer = h.send(1, edit)
        #expect(answer.persists.isEmpty)
        let rejected = answer.to(1).first
        #expect(rejected?["type"] == "rejected")
        #expect(rejected?["code"] == "program_tree")
        #expect(rejected?["seq"] == 3)
        #expect(h.machine.tree("p")?.version == 0)
    }

    @Test func anEventIsOneVersionWhoseDiffGoesToEverySubscriberAfterTheCommit() {
        var h = Self.created()
        let sent = h.send(1, Self.tap(seq: 7))
        #expect(sent.to(1).isEmpty && sent.to(2).isEmpty)
        #expect(h.machine.tree("p")?.version == 1)
        guard case .append(_, let version, _, let seq, let bytes)? = sent.persists.first?.1 else {
            Issue.record("no append")
            return
        }
        #expect(version == 1 && seq == "7")
        let released = h.commitAll(sent)
        let diff = released.to(2).first
        #expect(released.to(1) == [diff!])  // the author (not subscribed) recognises it by author and seq
        #expect(diff?["type"] == "diff")
        #expect(diff?["author"] == "s1")
        #expect(diff?["seq"] == 7)
        #expect(diff?["version"] == 1)
        #expect(diff?["event"] == ["event": "tap", "node": "button"])
        #expect(diff?["state"] == [["node": "root", "name": "count", "value": 1]])
        #expect(diff?["changes"]?.array?.map { $0["value"] } == [1])
        #expect(diff?["ops"]?.array?.map { $0["op"] } == ["setProps", "setModifiers"])
        #expect(diff?["warnings"] == nil && diff?["source"] == nil)
        // What is stored is what was broadcast.
        #expect((try? JSONParser.parse(bytes: bytes)) == diff)
        #expect(Self.label(h) == "1")
    }

    @Test func aTracedSubscriberGetsTheTransactionsTrace() {
        var h = Self.created()
        h.open(3)
        _ = h.send(3, ["type": "subscribe", "tree": "p", "trace": true])
        let released = h.commitAll(h.send(1, Self.tap(seq: 1)))
        #expect(released.to(3).first?["trace"] != nil)
        #expect(released.to(2).first?["trace"] == nil)
    }

    @Test func aFailedEventIsRejectedWithItsDetailsAndChangesNothing() {
        var h = Self.created()
        let answer = h.send(1, Self.tap(seq: 5, event: "fault"))
        #expect(answer.persists.isEmpty)
        let rejected = answer.to(1).first
        #expect(rejected?["type"] == "rejected")
        #expect(rejected?["seq"] == 5)
        #expect(rejected?["code"] == "runtime_error")
        #expect(rejected?["line"] == 7 && rejected?["column"] == 9)
        #expect(rejected?["stack"] == FakeProgramRuntime.faultDetails["stack"])
        #expect(h.send(1, Self.tap(seq: 6, node: "label")).to(1).first?["code"] == "bad_event")
        #expect(h.send(1, Self.tap(seq: 7, node: "nowhere")).to(1).first?["code"] == "no_such_node")
        let unnamed: JSON = ["type": "event", "tree": "p", "seq": 8, "event": "tap"]
        #expect(h.send(1, unnamed).to(1).first?["code"] == "bad_event")
        #expect(h.machine.tree("p")?.version == 0)
        #expect(h.send(1, ["type": "subscribe", "tree": "p"]).to(1).first?["state"]?[0]?["value"] == 0)
        // The version was not used up: the next event is version 1.
        #expect(h.commitAll(h.send(1, Self.tap(seq: 9))).to(2).first?["version"] == 1)
    }

    @Test func eventsAndSetSourceOnATreeOfDataAreBadMessages() {
        var h = Self.harness()
        h.createTree("p")
        let event = h.send(1, Self.tap(seq: 1)).to(1).first
        #expect(event?["type"] == "rejected" && event?["code"] == "bad_message" && event?["seq"] == 1)
        let source = h.send(1, Self.setSource("counter", seq: 2)).to(1).first
        #expect(
            source?["type"] == "rejected" && source?["code"] == "bad_message" && source?["seq"] == 2)
    }

    @Test func warningsOfATransactionAreInItsDiff() {
        var h = Self.created()
        let diff = h.commitAll(h.send(1, Self.tap(seq: 1, event: "loop"))).to(2).first
        #expect(diff?["warnings"] == ["stopped after 16 rounds"])
        #expect(diff?["state"] == nil)  // nothing changed: no state entries
        #expect(diff?["version"] == 1)
    }

    @Test func setSourceReplacesTheProgramKeepingItsCellsAndCarriesTheSource() {
        var h = Self.created()
        _ = h.commitAll(h.send(1, Self.tap(seq: 1)))
        let released = h.commitAll(h.send(1, Self.setSource("counter step 5", seq: 2)))
        let diff = released.to(2).first
        #expect(diff?["source"] == "counter step 5")
        #expect(diff?["event"] == nil)
        #expect(diff?["version"] == 2)
        #expect(diff?["ops"] == [["op": "setProps", "node": "button", "props": ["title": "+5"]]])
        #expect(diff?["state"] == nil)  // the count survived
        #expect(h.commitAll(h.send(1, Self.tap(seq: 3))).to(2).first?["state"]?[0]?["value"] == 6)
        // A source that does not compile is rejected with its diagnostics and changes nothing.
        let rejected = h.send(1, Self.setSource("nonsense", seq: 4)).to(1).first
        #expect(rejected?["type"] == "rejected" && rejected?["code"] == "compile_error")
        #expect(rejected?["diagnostics"] == FakeProgramRuntime.diagnostics)
        #expect(h.machine.tree("p")?.version == 3)
        #expect(
            h.send(1, ["type": "subscribe", "tree": "p"]).to(1).first?["program"]?["source"]
                == "counter step 5")
    }

    @Test func setSourceNeedsTheAdminRoleAndEventsTheEditorRole() {
        var h = Self.harness {
            $0.tokens = [
                TokenGrant(token: "a", role: .admin), TokenGrant(token: "e", role: .editor),
                TokenGrant(token: "v", role: .viewer),
            ]
        }
        _ = h.send(1, ["type": "hello", "token": "a"])
        for (s, token) in [(2, "e"), (3, "v")] as [(SessionID, String)] {
            h.open(s)
            _ = h.send(s, ["type": "hello", "token": .string(token)])
        }
        _ = h.commitAll(h.send(1, Self.create()))
        #expect(h.send(3, Self.tap(seq: 1)).to(3).first?["code"] == "forbidden")
        #expect(h.send(2, Self.setSource("counter step 2", seq: 2)).to(2).first?["code"] == "forbidden")
        #expect(h.send(2, Self.tap(seq: 3)).persists.count == 1)
        #expect(h.send(1, Self.setSource("counter step 2", seq: 4)).persists.count == 1)
    }

    @Test func aResubmittedSeqIsADuplicateAndRunsNothingAgain() {
        var h = Self.created()
        _ = h.send(1, ["type": "hello", "client": "alice"])
        let first = h.commitAll(h.send(1, Self.tap(seq: 1))).to(1).first
        let again = h.send(1, Self.tap(seq: 1))
        #expect(again.persists.isEmpty)
        #expect(again.to(1).first?["duplicate"] == true)
        #expect(again.to(1).first?["state"] == first?["state"])
        #expect(h.machine.tree("p")?.version == 1)
        #expect(Self.label(h) == "1")
    }

    @Test func theSnapshotShowsProgramStateAndPreviewContexts() {
        var h = Self.created()
        _ = h.commitAll(h.send(1, Self.tap(seq: 1)))
        let snapshot = h.send(1, ["type": "subscribe", "tree": "p"]).to(1).first
        #expect(snapshot?["type"] == "snapshot")
        #expect(snapshot?["version"] == 1)
        #expect(
            snapshot?["program"] == [
                "source": "counter", "view": "ContentView", "previewModifiers": ["SampleData"],
            ])
        #expect(snapshot?["state"] == [["node": "root", "name": "count", "value": 1]])
        #expect(snapshot?["previewContexts"] == [["modifier": "SampleData", "reused": false]])
        #expect(snapshot?["readers"]?[0]?["value"] == 1)
        #expect(h.machine.counters.previewContextsComputed == 1 && h.machine.counters.previewContextsReused == 0)
        var plain = MachineHarness()
        plain.open(1)
        plain.createTree("d")
        let data = plain.send(1, ["type": "subscribe", "tree": "d"]).to(1).first
        #expect(data?["program"] == nil && data?["state"] == nil && data?["previewContexts"] == nil)
    }
}
