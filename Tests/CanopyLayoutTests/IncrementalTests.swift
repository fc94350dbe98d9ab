import Testing

@testable import CanopyLayout

/// After a change only the path to the root and the siblings whose proposals change are sized again; counted
/// through `laidOut`.
@Suite struct IncrementalTests {
    /// A form: a ScrollView of rows, each HStack { Text; Spacer; Toggle }.
    private func form(rows: Int) throws -> (TreeBuilder, texts: [String], rows: [String]) {
        let b = TreeBuilder()
        var texts: [String] = []
        var rowKeys: [String] = []
        for index in 0..<rows {
            let text = b.text("Setting \(index)", key: "text\(index)")
            let toggle = b.node(.control(.toggle), key: "toggle\(index)")
            rowKeys.append(b.hstack(key: "row\(index)", text, b.spacer(key: "spacer\(index)"), toggle))
            texts.append(text)
        }
        let list = b.node(.stack(.vertical, spacing: nil, alignment: .center), rowKeys, key: "list")
        try b.layout(b.node(.scrollView(horizontal: false, vertical: true), [list], key: "scroll"))
        return (b, texts, rowKeys)
    }

    @Test func aSecondLayoutWithoutChangesDoesNothing() throws {
        let (b, _, _) = try form(rows: 20)
        #expect(try b.tree.layout().isEmpty)
        #expect(b.tree.laidOut.isEmpty)
    }

    @Test func reDeclaringANodeUnchangedKeepsItsCaches() throws {
        let (b, texts, _) = try form(rows: 20)
        b.tree.set(texts[3], kind: .text(TextSpec("Setting 3")), children: [])
        #expect(try b.tree.layout().isEmpty)
        #expect(b.tree.laidOut.isEmpty)
    }

    @Test func changingOneTextSizesOnlyItsRowAndItsAncestors() throws {
        let (b, texts, _) = try form(rows: 50)
        b.tree.set(texts[10], kind: .text(TextSpec("A longer setting name")), children: [])
        let changed = try b.tree.layout()
        let sized = Set(b.tree.laidOut.map(\.key))
        #expect(sized.isSubset(of: ["text10", "spacer10", "toggle10", "row10", "list", "scroll"]))
        #expect(sized.contains("text10") && sized.contains("list"))
        // The Toggle fills what the text leaves (it is flexible, as SwiftUI's is), so it moves too.
        #expect(Set(changed) == ["text10", "spacer10", "toggle10"])
    }

    @Test func aTallerRowMovesTheRowsBelowWithoutSizingThem() throws {
        let (b, texts, _) = try form(rows: 50)
        b.tree.set(
            texts[10], kind: .text(TextSpec("Setting 10", font: FontSpec.textStyle("largeTitle")!)), children: [])
        let changed = try b.tree.layout()
        let sized = Set(b.tree.laidOut.map(\.key))
        #expect(!sized.contains("row11") && !sized.contains("text49"))
        #expect(changed.contains("row11") && changed.contains("text49") && changed.contains("toggle49"))
        #expect(!changed.contains("row9"))
    }

    @Test func aSpacerMovedToAnotherStackTakesItsOrientation() throws {
        let b = TreeBuilder()
        let spacer = b.spacer(key: "spacer")
        let row = b.hstack(key: "row", b.box(10, 10), spacer)
        try b.layout(row)
        #expect(b.tree.size(of: spacer) == LayoutSize(width: 383, height: 0))
        b.tree.set(
            "row", kind: .stack(.vertical, spacing: nil, alignment: .center),
            children: b.tree.nodes["row"]!.children.map(\.key))
        try b.tree.layout()
        #expect(b.tree.size(of: spacer) == LayoutSize(width: 0, height: 842))
    }

    @Test func aRemovedNodeHasNoFrameAndItsParentIsLaidOutAgain() throws {
        let b = TreeBuilder()
        let first = b.color(key: "first")
        let second = b.color(key: "second")
        try b.layout(b.vstack(key: "stack", first, second))
        b.tree.remove(second)
        b.tree.set("stack", kind: .stack(.vertical, spacing: nil, alignment: .center), children: [first])
        try b.tree.layout()
        #expect(b.frame(second) == nil)
        #expect(b.frame(first) == rect(0, 0, 393, 852))
        #expect(b.tree.count == 2)
    }

    @Test func resizingTheCanvasLaysOutAgain() throws {
        let b = TreeBuilder()
        let color = b.color()
        try b.layout(color)
        b.tree.canvas = LayoutTree.Canvas(width: 852, height: 393)
        #expect(try b.tree.layout() == [color])
        #expect(b.frame(color) == rect(0, 0, 852, 393))
    }
}
