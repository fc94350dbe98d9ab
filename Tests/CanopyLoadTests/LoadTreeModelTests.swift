import CanopyCore
import Testing

@testable import CanopyLoad

/// The scratch trees' shapes, the batches that create them, the edits made on them, and the cheap scan of a diff's
/// first members.
@Suite struct LoadTreeModelTests {
    /// Parses every creation message and rebuilds the tree: parents before children, every leaf writes Total.
    private func rebuild(_ model: LoadTreeModel) throws -> (depth: [String: Int], leaves: Int, batches: Int) {
        var depth = ["root": 0]
        var leaves = 0
        let messages = model.creationMessages()
        let create = try JSONParser.parse(bytes: messages[0])
        #expect(create["type"] == "createTree")
        #expect(create["root"]?["modifiers"] == [["kind": "onPreferenceChange", "key": "Total"]])
        for (i, bytes) in messages.dropFirst().enumerated() {
            #expect(bytes.count < LoadTreeModel.creationBatchBytes + 1000)
            let edit = try JSONParser.parse(bytes: bytes)
            #expect(edit["seq"] == .int(Int64(i + 1)))
            for op in edit["ops"]?.array ?? [] {
                let parent = op["parent"]?.string ?? ""
                let id = op["node"]?["id"]?.string ?? ""
                let parentDepth = try #require(depth[parent], "\(id) comes before its parent \(parent)")
                depth[id] = parentDepth + 1
                if op["node"]?["modifiers"]?[0]?["kind"] == "preference" { leaves += 1 }
            }
        }
        return (depth, leaves, messages.count - 1)
    }

    @Test func aBalancedTreeHasFanoutChildrenPerInnerNode() throws {
        let model = LoadTreeModel.scratch(id: "t", shape: .balanced, nodes: 100, fanout: 8)
        let (depth, leaves, batches) = try rebuild(model)
        #expect(depth.count == 100)
        #expect(depth.values.max() == 3)  // 1 + 8 + 64 + 27
        #expect(leaves == model.leaves.count)
        #expect(leaves + model.targets.count == 100)
        #expect(batches == 1)
    }

    @Test func aWideTreeHangsEveryLeafOffTheRoot() throws {
        let model = LoadTreeModel.scratch(id: "t", shape: .wide, nodes: 50, fanout: 8)
        let (depth, leaves, _) = try rebuild(model)
        #expect(depth.values.max() == 1)
        #expect(leaves == 49)
        #expect(model.targets == [0])
    }

    @Test func aDeepTreeHasItsLeavesAtTheBottomOfAChain() throws {
        let model = LoadTreeModel.scratch(id: "t", shape: .deep, nodes: 1000, fanout: 8)
        let (depth, leaves, _) = try rebuild(model)
        #expect(leaves == 1000 - 1 - LoadTreeModel.deepChainLength)
        #expect(depth.values.max() == LoadTreeModel.deepChainLength + 1)
        let leafDepths = Set(model.leaves.map { depth[model.names[Int($0)].trimmingCharacters(in: "\"")]! })
        #expect(leafDepths.min()! > LoadTreeModel.deepChainLength * 9 / 10)
    }

    @Test func aLargeTreeIsCreatedInBatchesUnderTheMessageLimit() throws {
        let model = LoadTreeModel.scratch(id: "big", shape: .balanced, nodes: 30_000, fanout: 16)
        let (depth, _, batches) = try rebuild(model)
        #expect(depth.count == 30_000)
        #expect(batches > 1)
    }

    /// With every leaf named by a batch still in flight and the tree above its size, a remove has nothing to take
    /// and falls back to an insert, which must not turn back into a remove (that recursed until the stack ran out).
    @Test func whenEveryLeafIsInFlightOpsFallBackToInsertsAndTerminate() throws {
        let model = LoadTreeModel.scratch(id: "t", shape: .wide, nodes: 6, fanout: 4)
        let mix = try OpMix(parsing: "insert=1,remove=1,move=1")
        var random = SplitMix64(seed: 3)
        var inserts = 0
        for seq in 1...200 {  // nothing is ever accepted: everything stays locked
            var bytes: [UInt8] = []
            let changes = model.writeBatch(seq: Int64(seq), count: 2, mix: mix, random: &random, into: &bytes)
            #expect(try JSONParser.parse(bytes: bytes)["ops"]?.array?.count == 2)
            if case .insert? = changes.last { inserts += 1 }
        }
        #expect(inserts > 150)  // after the few free leaves are taken, every op is an insert
    }

    @Test func editsFollowTheMixAndKeepTheSizeNearItsStart() throws {
        let model = LoadTreeModel.scratch(id: "t", shape: .balanced, nodes: 200, fanout: 4)
        let start = model.leaves.count
        let mix = try OpMix(parsing: "set=40,insert=30,remove=10,move=20")
        var random = SplitMix64(seed: 7)
        var kinds: [String: Int] = [:]
        for seq in 1...2000 {
            var bytes: [UInt8] = []
            let changes = model.writeBatch(seq: Int64(seq), count: 3, mix: mix, random: &random, into: &bytes)
            let edit = try JSONParser.parse(bytes: bytes)
            #expect(edit["seq"] == .int(Int64(seq)))
            #expect(edit["ops"]?.array?.count == 3)
            for op in edit["ops"]?.array ?? [] { kinds[op["op"]?.string ?? "", default: 0] += 1 }
            if seq % 5 == 0 { model.undo(changes) } else { model.accept(changes) }
        }
        #expect(Set(kinds.keys) == ["setPreference", "insert", "remove", "move"])
        #expect(abs(model.leaves.count - start) <= max(2, start / 100) + 3)
    }

    @Test func theHeadOfADiffIsReadWithoutParsingTheRest() {
        let diff =
            #"{"type":"diff","tree":"load-1-0","version":13,"author":"s7","seq":1795331164963,"ops":[{"op":"x"}]}"#
        #expect(
            MessageHead(scanning: Array(diff.utf8))
                == MessageHead(type: "diff", tree: "load-1-0", version: 13, author: "s7", seq: 1_795_331_164_963))
        let rejected = #"{"type":"rejected","tree":"t","seq":5,"code":"cycle","message":"no"}"#
        #expect(
            MessageHead(scanning: Array(rejected.utf8))
                == MessageHead(type: "rejected", tree: "t", seq: 5, code: "cycle"))
        // An escaped tree id stops the scan; the full parser takes over.
        let escaped = #"{"type":"diff","tree":"a\"b","version":2,"author":"s1","seq":3}"#
        #expect(MessageHead(scanning: Array(escaped.utf8)) == MessageHead(type: "diff"))
        #expect(
            LoadDriver.fullHead(Array(escaped.utf8))
                == MessageHead(type: "diff", tree: "a\"b", version: 2, author: "s1", seq: 3))
        #expect(MessageHead(scanning: Array("[1]".utf8)) == MessageHead())
        #expect(
            MessageHead(scanning: Array(#"{"type":"diff","version":1.5,"seq":2}"#.utf8)) == MessageHead(type: "diff"))
    }
}

extension String {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        String(drop { $0 == character }.reversed().drop { $0 == character }.reversed())
    }
}
