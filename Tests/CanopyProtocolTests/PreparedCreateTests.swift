import CanopyCore
import Testing

@testable import CanopyProtocol

/// A large `createTree` of data is built off the service thread (`prepareCreate`) and handed to the machine as
/// `.prepared`: the outcome is exactly that of the message handled in one go (issue 16).
@Suite struct PreparedCreateTests {
    static let body: JSON = [
        "type": "createTree", "tree": "t", "title": "T", "keys": [MachineHarness.sumKey], "root": MachineHarness.root,
        "rid": 7,
    ]

    @Test func aPreparedTreeIsCreatedAsTheMessageWouldBe() throws {
        let (light, prepared) = try #require(ProtocolMachine.prepareCreate(Self.body, limits: Limits(), durable: true))
        #expect(light["root"] == nil && light["keys"] == nil && light["tree"] == "t" && light["rid"] == 7)
        var h = MachineHarness()
        h.open(1)
        let created = Actions(h.machine.received(1, .prepared(light, prepared), now: 0))
        let persisted = try #require(created.persists.first)
        guard case .createTree(let id, _, let snapshot) = persisted.1 else { Issue.record("no createTree write"); return }
        #expect(id == "t")
        #expect(snapshot == prepared.snapshot)
        let released = h.commitAll(created)
        #expect(released.to(1).first?["type"] == "created" && released.to(1).first?["rid"] == 7)
        #expect(h.machine.tree("t")?.root.json == MachineHarness.treeJSON(after: 1))

        var direct = MachineHarness()
        direct.open(1)
        let same = direct.send(1, Self.body)
        guard case .createTree(_, _, let directSnapshot) = try #require(same.persists.first).1 else { return }
        #expect(directSnapshot == snapshot)
    }

    @Test func aTreeThatCannotBeBuiltIsAnsweredAsBeforeAndAnExistingIdFirst() throws {
        var fields = Self.body.object!
        fields["root"] = ["id": "r"]  // no type
        let bad = JSON.object(fields)
        let (light, prepared) = try #require(ProtocolMachine.prepareCreate(bad, limits: Limits(), durable: true))
        var h = MachineHarness()
        h.open(1)
        let answer = Actions(h.machine.received(1, .prepared(light, prepared), now: 0))
        var direct = MachineHarness()
        direct.open(1)
        #expect(answer.to(1) == direct.send(1, bad).to(1))
        #expect(answer.to(1).first?["code"] == "bad_message")
        h.createTree("t")
        let again = Actions(h.machine.received(1, .prepared(light, prepared), now: 0))
        #expect(again.to(1).first?["code"] == "tree_exists")
    }

    @Test func programsAndSwiftKeysAreNotPrepared() {
        let program: JSON = ["type": "createTree", "tree": "p", "source": "struct ContentView: View { var body: some View { Text(\"x\") } }"]
        #expect(ProtocolMachine.prepareCreate(program, limits: Limits(), durable: true) == nil)
        let swiftKey: JSON = ["type": "createTree", "tree": "k", "keys": [["key": "K", "swift": "struct K: PreferenceKey {}"]]]
        #expect(ProtocolMachine.prepareCreate(swiftKey, limits: Limits(), durable: true) == nil)
        #expect(ProtocolMachine.prepareCreate(["type": "edit", "tree": "t"], limits: Limits(), durable: true) == nil)
    }
}
