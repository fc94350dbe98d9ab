import CanopyCore
import CanopyViews
import Testing

/// Class instances reachable from a program tree's state are stored as a graph (docs/programs.md, "Objects in
/// state"): an object two cells share stays shared after a restart, a cycle survives, a subclass comes back as itself,
/// and the snapshot's state and a transaction's diff show the objects by id.
@Suite struct ObjectStateTests {
    static let shared = shared(counterMembers: "")

    /// Two cells given one `Counter`, whose class has `counterMembers` too.
    static func shared(counterMembers: String) -> String {
        """
        import SwiftUI

        final class Counter {
            var value = 0
            \(counterMembers)
        }

        struct Shared: View {
            @State private var a: Counter
            @State private var b: Counter
            @State private var taps = 0

            init() {
                let one = Counter()
                _a = State(initialValue: one)
                _b = State(initialValue: one)
            }

            var body: some View {
                VStack {
                    Text("a \\(a.value) b \\(b.value) same \\(a === b) taps \\(taps)")
                    Button("Bump a") {
                        a.value += 1
                        taps += 1
                    }
                    Button("Bump b then fault") {
                        b.value += 100
                        taps += 1
                        _ = [1][taps]
                    }
                }
            }
        }
        """
    }

    static let label = "Shared/0:VStack/0:Text"
    static let bump = "Shared/0:VStack/1:Button"
    static let bumpAndFault = "Shared/0:VStack/2:Button"

    @Test func anObjectTwoCellsShareStaysSharedAfterARestart() throws {
        var p = try ProgramFixture(Self.shared, view: "Shared")
        try p.send(Self.bump, "tap")
        #expect(p.node(Self.label)?.props["text"] == "a 1 b 1 same true taps 1")

        var again = try ProgramFixture(Self.shared, view: "Shared", state: p.program.state)
        #expect(again.node(Self.label)?.props["text"] == "a 1 b 1 same true taps 1")
        // Through `a`, read through `b`: one object, as before the restart.
        try again.send(Self.bump, "tap")
        #expect(again.node(Self.label)?.props["text"] == "a 2 b 2 same true taps 2")
    }

    @Test func theStateShowsTheObjectOnceAndTheCellsRefer() throws {
        var p = try ProgramFixture(Self.shared, view: "Shared")
        try p.send(Self.bump, "tap")
        let state = p.program.state
        #expect(state.cells.map(\.value) == [["$object": 1], ["$object": 1], 1])
        #expect(state.objects == ["1": ["class": "Counter", "fields": ["value": 1]]])
        // The transaction stored what it changed: the cell `taps` and object 1, whose value it assigned.
        #expect(p.last.state == [StateCell(node: "Shared", name: "taps", value: 1)])
        #expect(p.last.objects == ["1": ["class": "Counter", "fields": ["value": 1]]])
        let inspected = try p.program.inspect(node: "Shared")
        #expect(inspected["cells"] == [["name": "a", "value": ["$object": 1]], ["name": "b", "value": ["$object": 1]], ["name": "taps", "value": 1]])
        #expect(inspected["objects"] == ["1": ["class": "Counter", "fields": ["value": 1]]])
    }

    @Test func aFaultPutsTheObjectsPropertiesBack() throws {
        var p = try ProgramFixture(Self.shared, view: "Shared")
        try p.send(Self.bump, "tap")
        #expect(p.failure(Self.bumpAndFault, "tap") == .runtimeError)
        #expect(p.node(Self.label)?.props["text"] == "a 1 b 1 same true taps 1")
        #expect(p.program.state.objects == ["1": ["class": "Counter", "fields": ["value": 1]]])
        try p.send(Self.bump, "tap")
        #expect(p.node(Self.label)?.props["text"] == "a 2 b 2 same true taps 2")
    }

    @Test func theFirstSnapshotAndTheDiffsGiveTheSameStateAsTheTree() throws {
        var p = try ProgramFixture(Self.shared, view: "Shared")
        var stored = p.program.state
        for _ in 0..<3 {
            try p.send(Self.bump, "tap")
            stored.fold(p.last)
        }
        let again = try ProgramFixture(Self.shared, view: "Shared", state: stored)
        #expect(again.node(Self.label)?.props["text"] == "a 3 b 3 same true taps 3")
        #expect(again.program.state == p.program.state)
    }

    static let chain = """
        import SwiftUI

        final class Node {
            let name: String
            var next: Node?
            var prev: Node?
            init(_ name: String) { self.name = name }
        }

        var first: Node? = nil

        struct Chain: View {
            @State private var last: Node? = nil
            @State private var count = 0

            var body: some View {
                VStack {
                    Text(describe())
                    Button("Add") { add() }
                }
            }

            func add() {
                let n = Node("n\\(count)")
                if let last {
                    last.next = n
                    n.prev = last
                } else {
                    first = n
                }
                last = n
                count += 1
            }

            func describe() -> String {
                var forward: [String] = []
                var node = first
                while let n = node {
                    forward.append(n.name)
                    node = n.next
                }
                var backward: [String] = []
                node = last
                while let n = node {
                    backward.append(n.name)
                    node = n.prev
                }
                let linked = last == nil || last?.prev == nil || last?.prev?.next === last
                return forward.joined(separator: ",") + " / " + backward.joined(separator: ",") + " \\(linked)"
            }
        }
        """
    static let chainText = "Chain/0:VStack/0:Text"
    static let add = "Chain/0:VStack/1:Button"

    @Test func aDoublyLinkedListSurvivesARestoreAsOneList() throws {
        var p = try ProgramFixture(Self.chain, view: "Chain")
        var stored = p.program.state
        for _ in 0..<3 {
            try p.send(Self.add, "tap")
            stored.fold(p.last)
        }
        #expect(p.node(Self.chainText)?.props["text"] == "n0,n1,n2 / n2,n1,n0 true")
        let state = p.program.state
        #expect(state.cells.first { $0.node == "" && $0.name == "first" }?.value == ["$object": 1])
        #expect(state.objects["2"] == ["class": "Node", "fields": ["name": "n1", "next": ["$object": 3], "prev": ["$object": 1]]])

        // From the whole state (a snapshot), and from the first one with the diffs folded in (a kill -9).
        for restored in [state, stored] {
            var again = try ProgramFixture(Self.chain, view: "Chain", state: restored)
            #expect(again.node(Self.chainText)?.props["text"] == "n0,n1,n2 / n2,n1,n0 true")
            try again.send(Self.add, "tap")
            #expect(again.node(Self.chainText)?.props["text"] == "n0,n1,n2,n3 / n3,n2,n1,n0 true")
        }
    }

    @Test func aLongListIsStoredFlatAndComesBack() throws {
        let source = """
            import SwiftUI

            final class Link {
                let n: Int
                var next: Link?
                init(_ n: Int, _ next: Link?) {
                    self.n = n
                    self.next = next
                }
            }

            struct Long: View {
                @State private var head: Link? = nil
                var body: some View {
                    VStack {
                        Text(summary())
                        Button("Build") {
                            var h: Link? = nil
                            for i in 0..<5000 { h = Link(i, h) }
                            head = h
                        }
                    }
                }
                func summary() -> String {
                    var count = 0
                    var node = head
                    while let n = node {
                        count += 1
                        node = n.next
                    }
                    return "\\(count) from \\(head?.n ?? -1)"
                }
            }
            """
        var p = try ProgramFixture(source, view: "Long", trace: false)
        try p.send("Long/0:VStack/1:Button", "tap")
        #expect(p.node("Long/0:VStack/0:Text")?.props["text"] == "5000 from 4999")
        let state = p.program.state
        #expect(state.objects.count == 5000)
        let again = try ProgramFixture(source, view: "Long", state: state, trace: false)
        #expect(again.node("Long/0:VStack/0:Text")?.props["text"] == "5000 from 4999")
    }

    static let zoo = """
        import SwiftUI

        class Animal {
            let name: String
            init(name: String) { self.name = name }
            func sound() -> String { "..." }
        }

        final class Dog: Animal {
            var tricks = 0
            override func sound() -> String { "woof" }
        }

        struct Zoo: View {
            @State private var pet = Animal(name: "generic")
            var body: some View {
                VStack {
                    Text("\\(pet.name) \\(pet.sound()) \\(pet is Dog) \\((pet as? Dog)?.tricks ?? -1)")
                    Button("Adopt") {
                        let dog = Dog(name: "rex")
                        dog.tricks = 2
                        pet = dog
                    }
                }
            }
        }
        """

    @Test func aSubclassInstanceComesBackAsTheSubclass() throws {
        var p = try ProgramFixture(Self.zoo, view: "Zoo")
        try p.send("Zoo/0:VStack/1:Button", "tap")
        #expect(p.node("Zoo/0:VStack/0:Text")?.props["text"] == "rex woof true 2")
        let state = p.program.state
        #expect(state.cells == [StateCell(node: "Zoo", name: "pet", value: ["$object": 2])])
        #expect(state.objects == ["2": ["class": "Dog", "fields": ["name": "rex", "tricks": 2]]])
        let again = try ProgramFixture(Self.zoo, view: "Zoo", state: state)
        #expect(again.node("Zoo/0:VStack/0:Text")?.props["text"] == "rex woof true 2")
    }

    @Test func aHotReloadKeepsObjectsSharedAndReadsThemWithTheNewClass() throws {
        var p = try ProgramFixture(Self.shared, view: "Shared")
        try p.send(Self.bump, "tap")
        let next = Self.shared(counterMembers: "var note: String?")
        let t = try p.program.setSource(next, tree: &p.tree, trace: false)
        #expect(t.objects == ["1": ["class": "Counter", "fields": ["value": 1, "note": .null]]])
        #expect(p.node(Self.label)?.props["text"] == "a 1 b 1 same true taps 1")
        try p.send(Self.bump, "tap")
        #expect(p.node(Self.label)?.props["text"] == "a 2 b 2 same true taps 2")
    }

    @Test func aHotReloadStartsOverTheCellsWhoseObjectsNoLongerFit() throws {
        var p = try ProgramFixture(Self.shared, view: "Shared")
        try p.send(Self.bump, "tap")
        // `value` is now a String: the stored Counter does not decode, so both cells that share it start over.
        let next = Self.shared.replacingAll("var value = 0", with: "var value = \"\"").replacingAll(
            "a.value += 1", with: "a.value += \"!\"")
        let t = try p.program.setSource(next, tree: &p.tree, trace: false)
        #expect(p.node(Self.label)?.props["text"] == "a  b  same true taps 1")
        #expect(t.state.map(\.name) == ["a", "b"])
        #expect(t.objects == ["2": ["class": "Counter", "fields": ["value": ""]]])
        try p.send(Self.bump, "tap")
        #expect(p.node(Self.label)?.props["text"] == "a ! b ! same true taps 2")
    }

    @Test func aStateTooDeepToStoreIsRefusedAndChangesNothing() throws {
        let source = """
            import SwiftUI

            struct Nest {
                var inner: [Nest] = []
            }

            struct Deep: View {
                @State private var nest = Nest()
                @State private var levels = 0
                var body: some View {
                    VStack {
                        Text("\\(levels)")
                        Button("Deepen") {
                            var n = Nest()
                            for _ in 0..<200 { n = Nest(inner: [n]) }
                            nest = n
                            levels = 200
                        }
                    }
                }
            }
            """
        var p = try ProgramFixture(source, view: "Deep", trace: false)
        do {
            try p.send("Deep/0:VStack/1:Button", "tap")
            Issue.record("a state 400 levels deep was stored")
        } catch let error as CanopyError {
            #expect(error.code == .tooDeep)
            #expect(error.message == "the state cannot be stored: the value of cell nest of Deep nests deeper than 256 arrays and objects")
        }
        #expect(p.tree.version == 0)
        #expect(p.node("Deep/0:VStack/0:Text")?.props["text"] == "0")
        #expect(p.cell("Deep", "nest") == ["inner": []])
    }

    @Test func anObjectInAViewsPropertiesThatContainsItselfShowsTheCycle() throws {
        let source = """
            import SwiftUI

            final class Ring {
                var next: Ring?
            }

            struct Row: View {
                let ring: Ring
                var body: some View { Text("row") }
            }

            struct Holder: View {
                @State private var ring: Ring = {
                    let r = Ring()
                    r.next = r
                    return r
                }()
                var body: some View { Row(ring: ring) }
            }
            """
        let p = try ProgramFixture(source, view: "Holder")
        #expect(p.node("Holder/0:Row")?.props["ring"] == ["next": ["$cycle": "Ring"]])
        #expect(p.program.state.objects == ["1": ["class": "Ring", "fields": ["next": ["$object": 1]]]])
    }

    @Test func objectsThatDoNotFitTheProgramAreRefused() throws {
        func refusal(_ state: ProgramState) -> String? {
            do {
                _ = try ProgramFixture(Self.zoo, view: "Zoo", state: state)
                return nil
            } catch let error as CanopyError {
                return error.code == .badMessage ? error.message : "\(error.code): \(error.message)"
            } catch {
                return "\(error)"
            }
        }
        let pet = StateCell(node: "Zoo", name: "pet", value: ["$object": 9])
        #expect(
            refusal(ProgramState(cells: [pet], objects: ["1": ["class": "Dog", "fields": ["name": "a", "tricks": 1]]]))
                == "the stored state does not fit the program: cell pet of Zoo: value refers to object 9, which is not stored")
        #expect(
            refusal(ProgramState(cells: [pet], objects: ["9": ["class": "Cat", "fields": [:]]]))
                == "the stored objects do not fit the program: object 9 is a Cat, which is not a class of the program")
        #expect(
            refusal(ProgramState(cells: [pet], objects: ["9": ["class": "Dog", "fields": ["name": 3, "tricks": 1]]]))
                == "the stored objects do not fit the program: object 9 (Dog): value.name is number, expected String")
        #expect(
            refusal(ProgramState(cells: [pet], objects: ["nine": ["class": "Dog", "fields": [:]]]))
                == "the stored objects cannot be read: the table has the object id \"nine\" (a positive integer, once)")
        #expect(
            refusal(ProgramState(cells: [pet], objects: ["9": "Dog"]))
                == "the stored objects cannot be read: the table has object 9 as string, expected {\"class\",\"fields\"}")
    }

    @Test func aStateStoredBeforeObjectsWereAGraphStillRestores() throws {
        // An object as its stored properties, as canopyd wrote it before: a new instance of the declared class.
        let old = ProgramState(cells: [StateCell(node: "Zoo", name: "pet", value: ["name": "old"])])
        let p = try ProgramFixture(Self.zoo, view: "Zoo", state: old)
        #expect(p.node("Zoo/0:VStack/0:Text")?.props["text"] == "old ... false -1")
        #expect(p.program.state.objects == ["1": ["class": "Animal", "fields": ["name": "old"]]])
    }
}

extension String {
    /// This text with every `target` replaced.
    func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

extension ProgramState {
    /// A logged transaction folded in, as a restore folds the diffs after a snapshot (StoredProgram.fold).
    mutating func fold(_ t: ProgramTransaction) {
        for cell in t.state {
            let i = cells.firstIndex { $0.node == cell.node && $0.name == cell.name }
            switch (i, cell.dropped) {
            case (let i?, true): cells.remove(at: i)
            case (let i?, false): cells[i] = cell
            case (nil, false): cells.append(cell)
            case (nil, true): break
            }
        }
        objects.merge(t.objects)
    }
}
