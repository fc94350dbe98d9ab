import CanopyCore
import Testing

@testable import CanopyScript

/// Values with their class instances as a graph (docs/programs.md, "Objects in state"): one table entry per object,
/// `{"$object":ID}` wherever a value holds it, read back as one instance per id.
@Suite struct ObjectGraphCodingTests {
    static let source = """
        class Node {
            var name: String
            var next: Node?
            var prev: Node?
            init(_ name: String) { self.name = name }
        }
        final class Leaf: Node {
            var weight = 1
        }
        struct Pair {
            var left: Node
            var right: Node
            var tags: [String: Int]
        }
        enum Shape { case dot, line(Int, Int) }
        struct Plain {
            var numbers: [Int]
            var shape: Shape
            var nested: [[String]]
            var maybe: Double?
        }

        /// a ⇄ b, and a pair holding a and b.
        func ring() -> Pair {
            let a = Node("a")
            let b = Leaf("b")
            a.next = b
            b.prev = a
            b.next = a
            return Pair(left: a, right: b, tags: ["x": 1])
        }
        func chain(_ n: Int) -> Node {
            let head = Node("0")
            var last = head
            for i in 1..<n {
                let next = Node("\\(i)")
                last.next = next
                last = next
            }
            return head
        }
        func plain() -> Plain { Plain(numbers: [1, 2], shape: .line(3, 4), nested: [["a"], []], maybe: nil) }
        func anything() -> [Any] { let n = Node("any"); return [n, n, 3] }
        """

    let script: Script
    var program: Program { script.program }

    init() throws { script = try Script.compile(Self.source) }

    func value(_ function: String) throws -> Value {
        let m = Machine()
        m.program = program
        var args: [Value] = []
        return try m.call(program.functions[function]!, &args, site: .unknown)
    }

    func type(_ name: String) -> TypeRef { .named(program.type(named: name)!.id) }

    @Test func aCycleIsAReferenceBackAndComesBackAsOneGraph() throws {
        var encoder = ObjectGraphEncoder(program: program, ids: ObjectIDs(), scope: .all)
        let json = try encoder.encode(try value("ring()"))
        #expect(json == ["left": ["$object": 1], "right": ["$object": 2], "tags": ["x": 1]])
        let table = try encoder.table()
        #expect(
            table == [
                "1": ["class": "Node", "fields": ["name": "a", "next": ["$object": 2], "prev": .null]],
                "2": ["class": "Leaf", "fields": ["name": "b", "next": ["$object": 1], "prev": ["$object": 1], "weight": 1]],
            ])

        let decoder = try ObjectGraphDecoder(program: program, table: table)
        guard case .success(.record(_, let fields)) = program.decode(json, as: type("Pair"), objects: decoder),
            case .object(let a) = fields[0], case .object(let b) = fields[1],
            case .object(let aNext) = a.fields[1], case .object(let bPrev) = b.fields[2], case .object(let bNext) = b.fields[1]
        else {
            Issue.record("the pair did not decode")
            return
        }
        #expect(aNext === b && bPrev === a && bNext === a)
        #expect(program.types[b.type].name == "Leaf")
        #expect(b.fields[3] == .int(1))
    }

    @Test func aValueWithoutObjectsEncodesAsItAlwaysDid() throws {
        let v = try value("plain()")
        var encoder = ObjectGraphEncoder(program: program, ids: ObjectIDs(), scope: .changes)
        let json = try encoder.encode(v)
        #expect(json == program.encode(v))
        #expect(json == ["numbers": [1, 2], "shape": ["case": "line", "values": [3, 4]], "nested": [["a"], []], "maybe": .null])
        #expect(try encoder.table().isEmpty)
    }

    @Test func objectsInUntypedPlacesAreReferencesToo() throws {
        var encoder = ObjectGraphEncoder(program: program, ids: ObjectIDs(), scope: .all)
        let json = try encoder.encode(try value("anything()"))
        #expect(json == [["$object": 1], ["$object": 1], 3])
        let decoder = try ObjectGraphDecoder(program: program, table: try encoder.table())
        guard case .success(.array(let items)) = program.decode(json, as: .array(.unknown), objects: decoder),
            case .object(let first) = items[0], case .object(let second) = items[1]
        else {
            Issue.record("the array did not decode")
            return
        }
        #expect(first === second)
    }

    @Test func aTransactionWritesOnlyNewObjectsAndThoseItChanged() throws {
        var all = ObjectGraphEncoder(program: program, ids: ObjectIDs(), scope: .all)
        let v = try value("ring()")
        _ = try all.encode(v)
        _ = try all.table()
        var changes = ObjectGraphEncoder(program: program, ids: all.ids, scope: .changes)
        #expect(try changes.encode(v) == ["left": ["$object": 1], "right": ["$object": 2], "tags": ["x": 1]])
        #expect(try changes.table().isEmpty)
        guard case .record(_, let fields) = v, case .object(let b) = fields[1] else { return }
        changes.include(b)
        #expect(try changes.table().keys == ["2"])
    }

    @Test func theLimitsAreErrorsNotCrashes() throws {
        let m = Machine()
        m.program = program
        var args: [Value] = [.int(20_000)]
        let chain = try m.call(program.functions["chain(_:)"]!, &args, site: .unknown)
        var flat = ObjectGraphEncoder(program: program, ids: ObjectIDs(), scope: .all, maxDepth: 8)
        #expect(try flat.encode(chain) == ["$object": 1])
        #expect(try flat.table().count == 20_000)

        var few = ObjectGraphEncoder(program: program, ids: ObjectIDs(), scope: .all, maxObjects: 100)
        _ = try few.encode(chain)
        #expect(throws: CodingLimit.self) { try few.table() }

        var shallow = ObjectGraphEncoder(program: program, ids: ObjectIDs(), scope: .all, maxDepth: 2)
        #expect(throws: CodingLimit.self) { try shallow.encode(try value("plain()")) }
        // Shown (a prop, a trace): cut where it is too deep, never a crash.
        #expect(program.encode(chain)["next"]?["next"]?["name"] == "2")
    }

    @Test func aReferenceThatDoesNotFitIsAMismatch() throws {
        let table: JSONObject = [
            "1": ["class": "Node", "fields": ["name": "a", "next": ["$object": 7]]],
            "2": ["class": "Node", "fields": ["name": "b", "next": ["$object": 1]]],
            "3": ["class": "Node", "fields": ["name": "c"]],
        ]
        let decoder = try ObjectGraphDecoder(program: program, table: table)
        #expect(decoder.broken[1] == "object 1 (Node): value.next refers to object 7, which is not stored")
        #expect(decoder.broken[2] == "object 2 refers to object 1, which cannot be read")
        #expect(decoder.broken[3] == nil)
        guard case .failure(let leaf) = program.decode(["$object": 3], as: type("Leaf"), objects: decoder) else {
            Issue.record("a Node read as a Leaf")
            return
        }
        #expect(leaf.message == "value refers to object 3, a Node, where a Leaf is expected")
        #expect(decoder.unresolved == 1)
        guard case .success(.object(let c)) = program.decode(["$object": 3], as: type("Node"), objects: decoder) else {
            Issue.record("object 3 did not decode")
            return
        }
        #expect(c.fields[0] == .string("c"))
    }
}
