import CanopyCore
import Testing

@testable import CanopyProtocol

/// Keys written in Swift through the machine (with `FakeKeyCompiler`): created, declared, faulting, rolled back and
/// restored, and their errors on the wire with their details.
@Suite struct SwiftKeyMachineTests {
    static let sumKey: JSON = ["key": "K", "swift": "sum"]
    /// Reads K at the root; `a` writes 1, `b` writes 2 through a Swift transform adding 10: the root reads 13.
    static let root: JSON = [
        "id": "root", "type": "VStack", "modifiers": [["kind": "onPreferenceChange", "key": "K"]],
        "children": [
            ["id": "a", "type": "Text", "modifiers": [["kind": "preference", "key": "K", "value": 1]]],
            [
                "id": "b", "type": "Text",
                "modifiers": [
                    ["kind": "preference", "key": "K", "value": 2],
                    ["kind": "transformPreference", "key": "K", "transform": ["swift": "{ $0 += 10 }"]],
                ],
            ],
        ],
    ]

    static func harness(_ configure: (inout HubConfiguration) -> Void = { _ in }) -> MachineHarness {
        var h = MachineHarness {
            $0.keyCompiler = FakeKeyCompiler()
            configure(&$0)
        }
        h.open(1)
        return h
    }

    static func create(_ keys: [JSON] = [sumKey], rid: JSON = 1) -> JSON {
        ["type": "createTree", "tree": "demo", "keys": .array(keys), "root": root, "rid": rid]
    }

    static func setA(_ value: Int, seq: Int) -> JSON {
        [
            "type": "edit", "tree": "demo", "seq": .int(Int64(seq)),
            "ops": [["op": "setPreference", "node": "a", "key": "K", "value": .int(Int64(value))]],
        ]
    }

    /// The root reader's value in a fresh snapshot of the tree.
    static func rootValue(_ h: inout MachineHarness, session: SessionID = 1) -> JSON? {
        let snapshot = h.send(session, ["type": "subscribe", "tree": "demo"]).to(session).first
        return snapshot?["readers"]?.array?.first?["value"]
    }

    @Test func aTreeWithASwiftKeyIsCreatedAndItsReaderGetsTheValue() {
        var h = Self.harness()
        let created = h.send(1, Self.create())
        guard case .createTree(_, _, let snapshot)? = created.persists.first?.1 else {
            Issue.record("no createTree write")
            return
        }
        // The stored snapshot keeps the key's source.
        let stored = try? JSONParser.parse(bytes: snapshot)
        #expect(stored?["keys"] == [Self.sumKey])
        #expect(h.commit(created.persists[0].0).to(1) == [["type": "created", "tree": "demo", "version": 0, "rid": 1]])
        let subscribed = h.send(1, ["type": "subscribe", "tree": "demo"]).to(1).first
        #expect(subscribed?["keys"] == [Self.sumKey])
        #expect(subscribed?["readers"]?.array?.first?["value"] == 13)

        let edited = h.commitAll(h.send(1, Self.setA(5, seq: 1))).to(1).first
        #expect(edited?["version"] == 1)
        #expect(edited?["changes"]?.array?.first?["value"] == 17)
    }

    @Test func aSwiftKeyThatDoesNotCompileAnswersCreateTreeWithItsDiagnosticsAndCreatesNothing() {
        var h = Self.harness()
        let answer = h.send(1, Self.create([["key": "K", "swift": "struct K: PreferenceKey {"]]))
        #expect(answer.persists.isEmpty)
        let error = answer.to(1).first
        #expect(error?["type"] == "error")
        #expect(error?["code"] == "compile_error")
        #expect(error?["rid"] == 1)
        #expect(error?["diagnostics"] == FakeKeyCompiler.diagnostics)
        #expect(h.machine.tree("demo") == nil)
        #expect(h.send(1, ["type": "listTrees"]).to(1).first?["trees"] == [])
        // The id is still free.
        #expect(h.send(1, Self.create()).persists.count == 1)
    }

    @Test func aDaemonWithoutACompilerRefusesSwiftKeys() {
        var h = MachineHarness()
        h.open(1)
        let answer = h.send(1, Self.create())
        #expect(answer.persists.isEmpty)
        #expect(answer.to(1).first?["code"] == "compile_error")
        #expect(h.machine.tree("demo") == nil)
    }

    @Test func aDeclareKeyThatDoesNotCompileIsRejectedWithItsDiagnosticsAndChangesNothing() {
        var h = Self.harness()
        _ = h.commitAll(h.send(1, Self.create()))
        let bad: JSON = [
            "type": "edit", "tree": "demo", "seq": 1,
            "ops": [
                ["op": "setPreference", "node": "a", "key": "K", "value": 5],
                ["op": "declareKey", "key": "Q", "swift": "nonsense"],
            ],
        ]
        let answer = h.send(1, bad)
        #expect(answer.persists.isEmpty)
        let rejected = answer.to(1).first
        #expect(rejected?["type"] == "rejected")
        #expect(rejected?["code"] == "compile_error")
        #expect(rejected?["seq"] == 1)
        #expect(rejected?["op"] == 1)
        #expect(rejected?["diagnostics"] == FakeKeyCompiler.diagnostics)
        #expect(h.machine.tree("demo")?.version == 0)
        #expect(h.machine.tree("demo")?.keys.map(\.key) == ["K"])
        #expect(Self.rootValue(&h) == 13)

        // A declaration that compiles is accepted and takes the version the rejected batch did not use.
        let good: JSON = [
            "type": "edit", "tree": "demo", "seq": 2, "ops": [["op": "declareKey", "key": "Q", "swift": "last"]],
        ]
        let accepted = h.commitAll(h.send(1, good)).to(1).first
        #expect(accepted?["version"] == 1)
        #expect(accepted?["ops"] == [["op": "declareKey", "key": "Q", "swift": "last"]])
        #expect(h.machine.tree("demo")?.keys.map(\.key) == ["K", "Q"])
    }

    @Test func aBatchWhoseReduceFaultsIsRejectedWithTheFaultAndTheNextBatchGetsItsVersion() {
        var h = Self.harness()
        _ = h.commitAll(h.send(1, Self.create()))
        h.open(2)
        _ = h.send(2, ["type": "subscribe", "tree": "demo"])
        // 2000 + 12 passes the fake's overflow bound.
        let answer = h.send(1, Self.setA(2000, seq: 1))
        #expect(answer.persists.isEmpty)
        #expect(answer.to(2).isEmpty)
        let rejected = answer.to(1).first
        #expect(rejected?["type"] == "rejected")
        #expect(rejected?["code"] == "runtime_error")
        #expect(rejected?["seq"] == 1)
        for m in FakeKeyCompiler.faultDetails.members { #expect(rejected?[m.key] == m.value) }
        #expect(h.machine.tree("demo")?.version == 0)
        #expect(h.machine.counters.editsApplied == 0)

        let next = h.commitAll(h.send(1, Self.setA(7, seq: 2)))
        #expect(next.to(1).first?["version"] == 1)
        #expect(next.to(2).first?["changes"]?.array?.first?["value"] == 19)
    }

    @Test func aBatchThatRunsOutOfFuelIsRejectedAsTooExpensive() {
        // Creating the tree reduces once and transforms once; a batch adding three more writers needs four reduces.
        var h = Self.harness { $0.limits.fuel = 3 }
        _ = h.commitAll(h.send(1, Self.create()))
        let writers: [JSON] = (0..<3).map { i in
            let writes: JSON = ["kind": "preference", "key": "K", "value": 1]
            let node: JSON = ["id": .string("w\(i)"), "type": "Text", "modifiers": [writes]]
            return ["op": "insert", "parent": "root", "node": node]
        }
        let answer = h.send(1, ["type": "edit", "tree": "demo", "seq": 1, "ops": .array(writers)])
        #expect(answer.persists.isEmpty)
        #expect(answer.to(1).first?["code"] == "too_expensive")
        #expect(h.machine.tree("demo")?.nodeCount == 3)
        // Logged once, as a limit the session hit.
        #expect(answer.all.contains { if case .log(.notice, _) = $0 { true } else { false } })
        #expect(h.commitAll(h.send(1, Self.setA(3, seq: 2))).to(1).first?["version"] == 1)
    }

    @Test func aProbeThatFaultsIsAnsweredWithTheFault() {
        var h = Self.harness()
        let big: JSON = [
            "id": "root", "type": "VStack",
            "children": [
                ["id": "a", "type": "Text", "modifiers": [["kind": "preference", "key": "K", "value": 600]]],
                ["id": "b", "type": "Text", "modifiers": [["kind": "preference", "key": "K", "value": 600]]],
            ],
        ]
        // No reader, so creation does not reduce; a probe of the root does, and faults.
        _ = h.commitAll(h.send(1, ["type": "createTree", "tree": "demo", "keys": [Self.sumKey], "root": big]))
        let error = h.send(1, ["type": "probe", "tree": "demo", "node": "root", "key": "K", "rid": "p"]).to(1).first
        #expect(error?["type"] == "error")
        #expect(error?["code"] == "runtime_error")
        #expect(error?["rid"] == "p")
        #expect(error?["line"] == 4)
        #expect(error?["column"] == 17)
    }
}
