import Testing

@testable import CanopyLayout

/// Frames, padding, overlays, fixedSize, offset, position, aspectRatio, GeometryReader, ScrollView and the root,
/// with hand-derived frames on a 393 × 852 canvas unless said otherwise.
@Suite struct ModifierTests {
    @Test func aFixedFrameProposesAndReportsItsDimensions() throws {
        let b = TreeBuilder()
        let color = b.color()
        let frame = b.frame(color, width: 200)
        try b.layout(frame)
        #expect(close(b.exact(frame), rect(96.5, 0, 200, 852)))
        #expect(b.tree.proposal(of: color) == ProposedSize(width: 200, height: 852))
    }

    @Test func aFrameAlignsAChildSmallerThanItself() throws {
        let b = TreeBuilder()
        let box = b.box(100, 100)
        let frame = b.flexibleFrame(box, maxWidth: .infinity, maxHeight: .infinity, alignment: .bottomTrailing)
        try b.layout(frame)
        #expect(b.frame(frame) == rect(0, 0, 393, 852))
        #expect(b.frame(box) == rect(293, 752, 100, 100))
    }

    @Test func aFlexibleFrameClampsItsProposal() throws {
        let b = TreeBuilder()
        let color = b.color()
        let frame = b.flexibleFrame(color, maxWidth: .infinity, maxHeight: 200)
        try b.layout(frame)
        #expect(b.frame(frame) == rect(0, 326, 393, 200))
        #expect(b.frame(color) == rect(0, 326, 393, 200))
    }

    @Test func aFlexibleFrameWithMinAboveMaxTakesItsChildsWidth() throws {
        // SwiftUI's clamps: max < ideal → ideal, but a missing ideal counts as 0, so min 100 / max 50 stays
        // contradictory; the frame then takes its child's width, and the child was proposed 393 clamped to 50.
        let b = TreeBuilder()
        let color = b.color()
        let frame = b.flexibleFrame(color, minWidth: 100, maxWidth: 50)
        try b.layout(frame)
        #expect(close(b.exact(frame), rect(171.5, 0, 50, 852)))
    }

    @Test func aFlexibleFrameClampsANegativeMinimumAndAnIdealAboveTheMaximum() throws {
        // min −10 → 0; ideal 5; max 3 < ideal → 5. Proposed nil (fixedSize): the ideal 5 × the child's 10.
        let b = TreeBuilder()
        let frame = b.flexibleFrame(b.color(), minWidth: -10, idealWidth: 5, maxWidth: 3)
        try b.layout(b.fixedSize(frame))
        #expect(b.frame(frame) == rect(194, 421, 5, 10))
    }

    @Test func aFlexibleFrameBetweenItsBoundsLetsTheChildKeepItsIdealWhenProposedNil() throws {
        // FlexFrameIdealSizing: proposed nil, no ideal, size strictly inside min…max → the child is proposed nil.
        let b = TreeBuilder()
        let text = b.text("Hi")
        let frame = b.flexibleFrame(text, minWidth: 5, maxWidth: 500)
        try b.layout(b.fixedSize(frame))
        #expect(b.tree.proposal(of: text)?.width == nil)
    }

    @Test func paddingInsetsTheProposalAndAddsToTheSize() throws {
        let b = TreeBuilder(width: 200, height: 200)
        let box = b.box(50, 30)
        let padded = b.padding(box)
        try b.layout(b.background(padded, b.color()))
        #expect(b.frame(padded) == rect(59, 69, 82, 62))
        #expect(b.frame(box) == rect(75, 85, 50, 30))
    }

    @Test func negativePaddingShrinksTheBox() throws {
        let b = TreeBuilder()
        let box = b.box(50, 30)
        let padded = b.padding(box, EdgeInsets(all: -10))
        try b.layout(padded)
        #expect(b.tree.size(of: padded) == LayoutSize(width: 30, height: 10))
        #expect(close(b.exact(box), rect(171.5, 411, 50, 30)))
    }

    @Test func anOverlayIsProposedThePrimarysSizeAndAligned() throws {
        let b = TreeBuilder()
        let box = b.box(100, 100)
        let badge = b.box(20, 20)
        let overlaid = b.overlay(box, badge, .topTrailing)
        try b.layout(overlaid)
        #expect(close(b.exact(overlaid), rect(146.5, 376, 100, 100)))
        #expect(close(b.exact(badge), rect(226.5, 376, 20, 20)))
        #expect(b.tree.proposal(of: badge) == ProposedSize(width: 100, height: 100))
    }

    @Test func aBackgroundDoesNotChangeTheLayout() throws {
        let b = TreeBuilder()
        let box = b.box(100, 50)
        let background = b.color()
        let stack = b.vstack(b.background(box, background), b.color())
        try b.layout(stack)
        #expect(close(b.exact(background), rect(146.5, 0, 100, 50)))
    }

    @Test func fixedSizeProposesNilOnItsAxes() throws {
        let b = TreeBuilder()
        let text = b.text("A long line of text that would wrap in a narrow frame")
        let fixed = b.fixedSize(text, horizontal: true, vertical: false)
        try b.layout(b.frame(fixed, width: 100))
        #expect(b.tree.proposal(of: text) == ProposedSize(width: nil, height: 852))
        #expect(b.tree.size(of: text)!.width > 100)
        #expect(b.tree.size(of: text)!.height == 61.0 / 3)
    }

    @Test func anOffsetMovesTheDrawnFrameButNotTheLayout() throws {
        let b = TreeBuilder()
        let box = b.box(100, 100)
        let moved = b.offset(box, x: 10, y: -20)
        let background = b.color()
        let root = b.background(moved, background)
        try b.layout(root)
        #expect(close(b.exact(moved), rect(156.5, 356, 100, 100)))
        #expect(close(b.exact(box), rect(156.5, 356, 100, 100)))
        // The background is placed at the layout frame, not the offset one.
        #expect(close(b.exact(background), rect(146.5, 376, 100, 100)))
    }

    @Test func positionTakesTheProposalAndCentresItsChild() throws {
        let b = TreeBuilder()
        let box = b.box(50, 50)
        let positioned = b.position(box, x: 100, y: 40)
        try b.layout(positioned)
        #expect(b.frame(positioned) == rect(0, 0, 393, 852))
        #expect(b.frame(box) == rect(75, 15, 50, 50))
        #expect(b.tree.proposal(of: box) == ProposedSize(width: 393, height: 852))
    }

    @Test func aspectRatioFitsAndFills() throws {
        let b = TreeBuilder()
        let fit = b.color()
        let fill = b.color()
        let fitFrame = b.frame(b.aspectRatio(fit, 2), width: 100, height: 100)
        let fillFrame = b.frame(b.aspectRatio(fill, 2, fill: true), width: 100, height: 100)
        try b.layout(b.vstack(fitFrame, fillFrame))
        // Stack 100 × 208 centred: (146.5, 322). Fit: 100 × 50 centred in 100 × 100; fill: 200 × 100.
        #expect(close(b.exact(fit), rect(146.5, 347, 100, 50)))
        #expect(close(b.exact(fill), rect(96.5, 430, 200, 100)))
    }

    @Test func aNilAspectRatioUsesTheChildsIdealRatio() throws {
        let b = TreeBuilder()
        let box = b.frame(b.color(), width: 30, height: 10)
        let ratio = b.aspectRatio(box, nil)
        let stretched = b.frame(ratio, width: 300, height: 300)
        try b.layout(stretched)
        // The child's ideal 30 × 10 scaled to fit 300 × 300 is 300 × 100; the fixed frame inside stays 30 × 10.
        #expect(b.tree.proposal(of: box) == ProposedSize(width: 300, height: 100))
        #expect(b.tree.size(of: ratio) == LayoutSize(width: 30, height: 10))
    }

    @Test func aGeometryReaderTakesTheProposalAndPutsChildrenTopLeading() throws {
        let b = TreeBuilder()
        let half = b.box(100, 100)
        let reader = b.node(.geometryReader, [half])
        let header = b.box(393, 100)
        try b.layout(b.vstack(spacing: 0, header, reader))
        #expect(b.frame(reader) == rect(0, 100, 393, 752))
        #expect(b.frame(half) == rect(0, 100, 100, 100))
    }

    @Test func aGeometryReaderProposedNilIsTen() throws {
        let b = TreeBuilder()
        let reader = b.node(.geometryReader, [b.color()])
        let content = b.vstack(spacing: 0, reader, b.box(50, 50))
        let scroll = b.node(.scrollView(horizontal: false, vertical: true), [content])
        try b.layout(scroll)
        #expect(b.tree.size(of: reader) == LayoutSize(width: 393, height: 10))
    }

    @Test func theRootIsCentredInTheSafeArea() throws {
        let safe = EdgeInsets(top: 59, leading: 0, bottom: 34, trailing: 0)
        let small = TreeBuilder(safeArea: safe)
        let box = small.box(100, 50)
        try small.layout(box)
        #expect(close(small.exact(box), rect(146.5, 413.5, 100, 50)))
        let large = TreeBuilder(safeArea: safe)
        let big = large.box(500, 1000)
        try large.layout(big)
        #expect(close(large.exact(big), rect(-53.5, -61.5, 500, 1000)))
        let fill = TreeBuilder(safeArea: safe)
        let color = fill.color()
        try fill.layout(color)
        #expect(fill.frame(color) == rect(0, 59, 393, 759))
    }

    @Test func framesAreRoundedToThePixelGridOfTheScale() throws {
        // Three equal columns of 393: 131 each; of 392 at @2x: 130.667 → corners at 130.5 and 261.5 (halves up).
        let b = TreeBuilder(width: 392, height: 100, scale: 2)
        let columns = (0..<3).map { _ in b.color() }
        try b.layout(b.node(.stack(.horizontal, spacing: 0, alignment: .center), columns))
        #expect(b.frame(columns[0]) == rect(0, 0, 130.5, 100))
        #expect(b.frame(columns[1]) == rect(130.5, 0, 131, 100))
        #expect(b.frame(columns[2]) == rect(261.5, 0, 130.5, 100))
    }
}

/// ScrollView: proposes nil along its axes, takes its proposal along them and its content's size across.
@Suite struct ScrollViewTests {
    private func rows(_ b: TreeBuilder) -> (scroll: String, rows: [String]) {
        let rows = (0..<20).map { _ in b.frame(b.color(), height: 100) }
        let content = b.node(.stack(.vertical, spacing: 0, alignment: .center), rows)
        return (b.node(.scrollView(horizontal: false, vertical: true), [content], key: "scroll"), rows)
    }

    @Test func theContentIsProposedNilAlongTheScrollAxis() throws {
        let b = TreeBuilder()
        let (scroll, rows) = rows(b)
        try b.layout(scroll)
        #expect(b.frame(scroll) == rect(0, 0, 393, 852))
        #expect(b.tree.proposal(of: rows[0]) == ProposedSize(width: 393, height: nil))
        #expect(b.frame(rows[19]) == rect(0, 1900, 393, 100))
    }

    @Test func theScrollOffsetMovesTheContent() throws {
        let b = TreeBuilder()
        let (scroll, rows) = rows(b)
        try b.layout(scroll)
        b.tree.setScrollOffset(scroll, LayoutPoint(x: 30, y: 500))
        let changed = try b.tree.layout()
        #expect(b.frame(rows[5]) == rect(0, 0, 393, 100))
        #expect(b.tree.scrollOffset(of: scroll) == LayoutPoint(x: 0, y: 500))
        #expect(changed.contains(rows[5]) && !changed.contains(scroll))
        #expect(b.tree.laidOut.isEmpty)
    }

    @Test func theScrollOffsetIsClampedToTheContent() throws {
        let b = TreeBuilder()
        let (scroll, rows) = rows(b)
        b.tree.setScrollOffset(scroll, LayoutPoint(x: 0, y: 5000))
        try b.layout(scroll)
        #expect(b.tree.scrollOffset(of: scroll) == LayoutPoint(x: 0, y: 1148))
        #expect(b.frame(rows[19]) == rect(0, 752, 393, 100))
        b.tree.setScrollOffset(scroll, LayoutPoint(x: 0, y: -40))
        try b.tree.layout()
        #expect(b.tree.scrollOffset(of: scroll) == .zero)
    }

    @Test func aVerticalScrollViewIsAsWideAsItsContent() throws {
        let b = TreeBuilder()
        let text = b.text("Short")
        let scroll = b.node(.scrollView(horizontal: false, vertical: true), [text])
        try b.layout(scroll)
        #expect(b.tree.size(of: scroll)!.width == b.tree.size(of: text)!.width)
        #expect(b.tree.size(of: scroll)!.height == 852)
    }
}
