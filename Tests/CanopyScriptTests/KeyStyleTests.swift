import CanopyCore
import CanopyScript
import Testing

// Keys in the styles SwiftUI developers write their `reduce`: each compiled, run in a tree with writers, its reader
// values and reduce calls (from the trace) checked, then edited incrementally and compared with a from-scratch run.

@Suite struct KeyStyleTests {
    @Test func appendContentsOfCollectsInOrder() throws {
        let source = """
            struct TitlesKey: PreferenceKey {
                static var defaultValue: [String] = []

                static func reduce(value: inout [String], nextValue: () -> [String]) {
                    value.append(contentsOf: nextValue())
                }
            }
            """
        var k = try KeyTree(["TitlesKey": source], [writer("a", ["A"], key: "TitlesKey"), writer("b", ["B", "C"], key: "TitlesKey"),
                                                    writer("c", [], key: "TitlesKey")])
        #expect(k.value("TitlesKey") == ["A", "B", "C"])
        let calls = k.reduceCalls
        #expect(calls.map(\.value) == [["A"], ["A", "B", "C"]])
        #expect(calls.map(\.next) == [.some(["B", "C"]), .some([])])
        try k.set("b", ["X"], key: "TitlesKey")
        #expect(k.value("TitlesKey") == ["A", "X"])
        try k.apply([.insert(parent: "root", node: writer("d", ["D"], key: "TitlesKey"), position: .index(0))])
        #expect(k.value("TitlesKey") == ["D", "A", "X"])
    }

    @Test func assignNextValueKeepsTheLast() throws {
        let source = """
            struct SelectedTabKey: PreferenceKey {
                static var defaultValue: String = ""
                static func reduce(value: inout String, nextValue: () -> String) {
                    value = nextValue()
                }
            }
            """
        var k = try KeyTree(["SelectedTabKey": source], ["home", "search", "profile"].map {
            writer($0, .string($0), key: "SelectedTabKey")
        })
        #expect(k.value("SelectedTabKey") == "profile")
        #expect(k.reduceCalls.map(\.next) == [.some("search"), .some("profile")])
        let d = try k.apply([.remove(node: "profile")])
        #expect(d.changes.map(\.value) == [.some("search")])
    }

    @Test func anEmptyReduceKeepsTheFirstAndNeverReadsTheRest() throws {
        let source = """
            struct FirstWidthKey: PreferenceKey {
                static var defaultValue: CGFloat = 0
                static func reduce(value _: inout CGFloat, nextValue _: () -> CGFloat) {}
            }
            """
        let key = "FirstWidthKey"
        var k = try KeyTree([key: source], [writer("a", 7, key: key), writer("b", 9, key: key), writer("c", 11, key: key)])
        #expect(k.value(key) == 7)
        let calls = k.reduceCalls
        #expect(calls.count == 2)
        #expect(calls.allSatisfy { $0.next == nil })
        // Nothing read `b`, so editing it re-runs nothing and fires nothing.
        let d = try k.set("b", 100, key: key)
        #expect(d.changes.isEmpty)
        #expect(d.summary.reduces == 0)
        let d2 = try k.set("a", 1, key: key)
        #expect(d2.changes.map(\.value) == [.some(1)])
    }

    @Test func plusEqualsOverDoubles() throws {
        let source = """
            struct TotalKey: PreferenceKey {
                static var defaultValue: Double = 0
                static func reduce(value: inout Double, nextValue: () -> Double) {
                    value += nextValue()
                }
            }
            """
        var k = try KeyTree(["TotalKey": source], [
            writer("a", 1.5, key: "TotalKey"), Node(id: "g", type: "Group", children: [writer("b", 2, key: "TotalKey"), writer("c", 0.25, key: "TotalKey")]),
        ])
        #expect(k.value("TotalKey") == 3.75)
        // The inner group folds inside the outer reduce's nextValue: r(a, ⟦r(b, c)⟧).
        #expect(k.reduceCalls.map(\.value) == [2, 1.5])
        try k.set("c", 10, key: "TotalKey")
        #expect(k.value("TotalKey") == 13.5)
        try k.apply([.move(node: "a", parent: "g", position: .end)])
        #expect(k.value("TotalKey") == 13.5)
    }

    /// An optional struct with a `Comparable` enum: keeps the most severe issue (the first of equals), with two
    /// `guard`s that look at both values.
    @Test func optionalStructWithComparableEnumAndGuards() throws {
        let source = """
            enum Severity: Int, Comparable {
                case info, warning, error

                static func < (lhs: Severity, rhs: Severity) -> Bool {
                    lhs.rawValue < rhs.rawValue
                }
            }

            struct Problem: Equatable {
                var severity: Severity
                var message: String
            }

            struct WorstProblemKey: PreferenceKey {
                static var defaultValue: Problem? = nil

                static func reduce(value: inout Problem?, nextValue: () -> Problem?) {
                    guard let next = nextValue() else { return }
                    guard let current = value, current.severity >= next.severity else {
                        value = next
                        return
                    }
                }
            }
            """
        func problem(_ s: Int, _ m: String) -> JSON { ["severity": .int(Int64(s)), "message": .string(m)] }
        let key = "WorstProblemKey"
        var k = try KeyTree([key: source], [
            writer("a", problem(1, "slow"), key: key), writer("b", .null, key: key),
            writer("c", problem(2, "offline"), key: key), writer("d", problem(2, "later"), key: key),
            writer("e", problem(0, "hint"), key: key),
        ])
        #expect(k.value(key) == problem(2, "offline"))
        #expect(k.reduceCalls.count == 4)
        try k.set("c", problem(0, "fine"), key: key)
        #expect(k.value(key) == problem(2, "later"))
        try k.set("a", .null, key: key)
        try k.set("d", .null, key: key)
        #expect(k.value(key) == problem(0, "fine"))
        // A severity that is not a raw value of the enum does not decode.
        let e = thrown { try k.set("e", problem(7, "?"), key: key) }
        #expect(e?.code == .typeMismatch)
    }

    @Test func nextValueCalledTwiceReadsTheSiblingOnce() throws {
        let source = """
            struct PeakKey: PreferenceKey {
                static var defaultValue = 0
                static func reduce(value: inout Int, nextValue: () -> Int) {
                    if nextValue() > value {
                        value = nextValue()
                    }
                }
            }
            """
        let inner = Node(id: "g", type: "Group", children: [writer("b", 4, key: "PeakKey"), writer("c", 6, key: "PeakKey")])
        var k = try KeyTree(["PeakKey": source], [writer("a", 5, key: "PeakKey"), inner])
        #expect(k.value("PeakKey") == 6)
        // `g`'s fold is the operand of the root's reduce: computed once although nextValue() ran twice.
        #expect(k.evaluations(of: "g") == 1)
        let calls = k.reduceCalls
        #expect(calls.map(\.value) == [4, 5])
        #expect(calls.map(\.next) == [.some(6), .some(6)])
        try k.set("c", 2, key: "PeakKey")
        #expect(k.value("PeakKey") == 5)
    }
}
