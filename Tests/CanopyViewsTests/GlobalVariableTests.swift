import CanopyCore
import Testing

/// A top-level `var` is program-wide state: one per tree, read by bodies that re-run when it changes, reported in
/// the transaction's `state` under node "", and restored like a cell.
@Suite struct GlobalVariableTests {
    static let source = """
        import SwiftUI

        var taps = 0
        var history: [String] = []

        func record(_ what: String) {
            taps += 1
            history.append(what)
        }

        struct Counter: View {
            var body: some View {
                VStack {
                    Button("Tap") { record("tap") }
                    Text("\\(taps) taps, last: \\(history.last ?? "none")")
                }
            }
        }
        """

    @Test func aBodyThatReadsItRunsAgainWhenItChanges() throws {
        var p = try ProgramFixture(Self.source, view: "Counter")
        #expect(p.node("Counter/0:VStack/1:Text")?.props["text"] == "0 taps, last: none")
        try p.send("Counter/0:VStack/0:Button", "tap")
        try p.send("Counter/0:VStack/0:Button", "tap")
        #expect(p.node("Counter/0:VStack/1:Text")?.props["text"] == "2 taps, last: tap")
        #expect(p.cell("", "taps") == 2)
        #expect(p.last.state.map(\.node) == ["", ""])
    }

    @Test func itComesBackAfterARestart() throws {
        var p = try ProgramFixture(Self.source, view: "Counter")
        try p.send("Counter/0:VStack/0:Button", "tap")
        let again = try ProgramFixture(Self.source, view: "Counter", cells: p.program.cells)
        #expect(again.cell("", "taps") == 1)
        #expect(again.cell("", "history") == ["tap"])
        #expect(again.node("Counter/0:VStack/1:Text")?.props["text"] == "1 taps, last: tap")
    }

    @Test func twoTreesOfOneProgramHaveTheirOwn() throws {
        var a = try ProgramFixture(Self.source, view: "Counter")
        let b = try ProgramFixture(Self.source, view: "Counter")
        try a.send("Counter/0:VStack/0:Button", "tap")
        #expect(a.cell("", "taps") == 1)
        #expect(b.cell("", "taps") == 0)
    }
}
