import Testing

@testable import CanopyLayout

/// HStack and VStack on a 393 × 852 canvas without a safe area; every expected frame is derived by hand from the
/// rules in docs/layout.md.
@Suite struct StackTests {
    @Test func aFixedBoxAndAColorShareAVStack() throws {
        let b = TreeBuilder()
        let box = b.box(100, 50)
        let color = b.color()
        try b.layout(b.vstack(box, color))
        // 852 − 8 spacing = 844; the box (inflexible) goes first and takes 50, the color the remaining 794.
        // The box is centred: x = (393 − 100) / 2 = 146.5, drawn at 146.667 on the @3x grid (SwiftUI rounds
        // both corners to the nearest pixel, halves up).
        #expect(close(b.exact(box), rect(146.5, 0, 100, 50)))
        #expect(close(b.frame(box), rect(440.0 / 3, 0, 100, 50)))
        #expect(b.frame(color) == rect(0, 58, 393, 794))
    }

    @Test func aSpacerYieldsToItsSiblingsAndHasNoSpacingAroundIt() throws {
        let b = TreeBuilder()
        let box = b.frame(b.color(), width: 50)
        let spacer = b.spacer()
        let color = b.color()
        try b.layout(b.hstack(box, spacer, color))
        // Spacer: priority −∞, so its minimum 8 is reserved first; 0 spacing on both sides.
        #expect(b.frame(box) == rect(0, 0, 50, 852))
        #expect(b.frame(spacer) == rect(50, 426, 8, 0))
        #expect(b.frame(color) == rect(58, 0, 335, 852))
    }

    @Test func aHigherPriorityTakesEverythingButTheOthersMinimums() throws {
        let b = TreeBuilder()
        let low = b.color()
        let high = b.priority(b.color(), 1)
        try b.layout(b.vstack(low, high))
        #expect(b.frame(low) == rect(0, 0, 393, 0))
        #expect(b.frame(high) == rect(0, 8, 393, 844))
    }

    @Test func priorityGroupsReserveTheMinimumsOfLowerGroups() throws {
        let b = TreeBuilder()
        // The middle child's minimum (its fixed 60) is reserved while the high one is sized.
        let high = b.priority(b.color(), 2)
        let middle = b.priority(b.frame(b.color(), width: 60), 1)
        let low = b.flexibleFrame(b.color(), minWidth: 40)
        try b.layout(b.hstack(low, middle, high))
        // 393 − 16 = 377; minimums of lower groups: 60 + 40 → high gets 277, middle 60, low 40.
        #expect(b.frame(high) == rect(116, 0, 277, 852))
        #expect(b.frame(middle) == rect(48, 0, 60, 852))
        #expect(b.frame(low) == rect(0, 0, 40, 852))
    }

    @Test func equalSharesGoToTheLeastFlexibleFirst() throws {
        let b = TreeBuilder()
        let a = b.color()
        let wide = b.flexibleFrame(b.color(), maxWidth: 100)
        let c = b.color()
        try b.layout(b.hstack(spacing: 0, a, wide, c))
        // wide (0…100) is less flexible than the colours (0…∞): it gets 393 / 3 = 131, keeps 100; the
        // colours then share 293: 146.5 each.
        #expect(close(b.exact(wide), rect(146.5, 0, 100, 852)))
        #expect(close(b.exact(a), rect(0, 0, 146.5, 852)))
        #expect(close(b.exact(c), rect(246.5, 0, 146.5, 852)))
    }

    @Test func aSpacersMinimumLengthWinsOverALargerChild() throws {
        let b = TreeBuilder(width: 200, height: 200)
        let red = b.box(30, 50)
        let spacer = b.spacer(100)
        let blue = b.box(30, 50)
        let stack = b.hstack(red, spacer, blue)
        try b.layout(b.frame(stack, width: 200, height: 80))
        #expect(b.frame(red) == rect(0, 75, 30, 50))
        #expect(b.frame(spacer) == rect(30, 100, 140, 0))
        #expect(b.frame(blue) == rect(170, 75, 30, 50))
    }

    @Test(arguments: [
        (HorizontalAlignment.leading, 0.0), (.center, 146.5), (.trailing, 293.0),
    ])
    func aVStackAlignsItsChildren(alignment: HorizontalAlignment, x: Double) throws {
        let b = TreeBuilder()
        let box = b.box(100, 50)
        let color = b.color()
        try b.layout(b.vstack(alignment: alignment, box, color))
        #expect(close(b.exact(box), rect(x, 0, 100, 50)))
    }

    @Test(arguments: [(VerticalAlignment.top, 0.0), (.center, 25.0), (.bottom, 50.0)])
    func anHStackAlignsItsChildren(alignment: VerticalAlignment, y: Double) throws {
        let b = TreeBuilder()
        let small = b.box(10, 50)
        let tall = b.box(10, 100)
        let stack = b.hstack(alignment: alignment, small, tall)
        try b.layout(stack)
        // The stack is 28 × 100, centred in the canvas: (182.5, 376).
        #expect(close(b.exact(stack), rect(182.5, 376, 28, 100)))
        #expect(close(b.exact(small), rect(182.5, 376 + y, 10, 50)))
    }

    @Test func anEmptyViewTakesNoSpaceAndNoSpacing() throws {
        let b = TreeBuilder()
        let first = b.box(10, 10)
        let nothing = b.empty()
        let second = b.box(10, 10)
        let stack = b.hstack(first, nothing, second)
        try b.layout(stack)
        #expect(b.tree.size(of: stack) == LayoutSize(width: 28, height: 10))
        #expect(b.frame(second)?.x == b.frame(first)!.x + 18)
    }

    @Test func spacingFollowsSwiftUIsSpacingPreferences() throws {
        // Between two ordinary views 8; next to a Spacer 0, also through a frame around it; a padded Spacer is an
        // ordinary view on its padded edges; an explicit spacing wins.
        func width(_ build: (TreeBuilder) -> [String], spacing: Double? = nil) throws -> Double {
            let b = TreeBuilder()
            let stack = b.node(
                .stack(.horizontal, spacing: spacing, alignment: .center), build(b))
            try b.layout(b.fixedSize(stack))
            return b.tree.size(of: stack)!.width
        }
        #expect(try width { [$0.box(10, 10), $0.box(10, 10)] } == 28)
        #expect(try width { [$0.box(10, 10), $0.text("a"), $0.text("b")] } > 10 + 8 + 8)
        #expect(try width { [$0.box(10, 10), $0.spacer(), $0.box(10, 10)] } == 28)
        #expect(try width { [$0.box(10, 10), $0.frame($0.spacer(), width: 20), $0.box(10, 10)] } == 40)
        #expect(try width { [$0.box(10, 10), $0.padding($0.spacer(), EdgeInsets(all: 1)), $0.box(10, 10)] } == 46)
        #expect(try width({ [$0.box(10, 10), $0.box(10, 10)] }, spacing: 3) == 23)
        #expect(try width { [$0.box(10, 10), $0.hstack(), $0.box(10, 10)] } == 20)
    }

    @Test func aNilProposalMakesEveryChildIdeal() throws {
        let b = TreeBuilder()
        let color = b.color()
        let box = b.box(30, 40)
        let stack = b.hstack(color, box)
        try b.layout(b.fixedSize(stack))
        #expect(b.tree.size(of: stack) == LayoutSize(width: 48, height: 40))
        #expect(b.tree.proposal(of: color) == ProposedSize(width: nil, height: 40))
    }

    @Test func nestedStacksDivideTheCanvas() throws {
        let b = TreeBuilder()
        let top = b.color()
        let left = b.color()
        let right = b.color()
        let row = b.hstack(left, right)
        try b.layout(b.vstack(top, row))
        // 844 / 2 = 422 each; the row's 393 − 8 = 385 → 192.5 each.
        #expect(b.frame(top) == rect(0, 0, 393, 422))
        #expect(close(b.exact(left), rect(0, 430, 192.5, 422)))
        #expect(close(b.exact(right), rect(200.5, 430, 192.5, 422)))
        #expect(close(b.frame(right), rect(602.0 / 3, 430, 393 - 602.0 / 3, 422)))
    }

    @Test func textBaselinesAlignAcrossAnHStack() throws {
        let b = TreeBuilder()
        let big = b.text("Big", FontSpec.textStyle("largeTitle")!)
        let small = b.text("small", FontSpec.textStyle("caption")!)
        try b.layout(b.hstack(alignment: .firstTextBaseline, big, small))
        let bigBaseline = b.exact(big)!.y + 34 * 1950 / 2048
        let smallBaseline = b.exact(small)!.y + 12 * 1950 / 2048
        #expect(abs(bigBaseline - smallBaseline) < 1e-9)
    }
}
