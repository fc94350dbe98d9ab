import Testing

@testable import CanopyLayout

/// Invalid values never crash nor reach a frame; deep trees are refused, not overflowed.
@Suite struct RobustnessTests {
    @Test func invalidFrameDimensionsAreDroppedWithSwiftUIsWarning() {
        let (kind, warnings) = LayoutKind.validated(.frame(width: -5, height: .nan, alignment: .center))
        #expect(kind == .frame(width: nil, height: nil, alignment: .center))
        #expect(warnings == ["Invalid frame dimension (negative or non-finite)."])
        let (flexible, flexibleWarnings) = LayoutKind.validated(
            .flexibleFrame(
                minWidth: .infinity, idealWidth: nil, maxWidth: .infinity, minHeight: 50, idealHeight: nil,
                maxHeight: 10, alignment: .center))
        #expect(
            flexible
                == .flexibleFrame(
                    minWidth: nil, idealWidth: nil, maxWidth: .infinity, minHeight: 50, idealHeight: nil, maxHeight: 10,
                    alignment: .center))
        #expect(
            flexibleWarnings == [
                "Invalid frame dimension (negative or non-finite).", "Contradictory frame constraints specified.",
            ])
    }

    @Test func nonFiniteInsetsOffsetsAndRatiosBecomeNeutral() {
        #expect(LayoutKind.validated(.padding(EdgeInsets(all: .infinity))).0 == .padding(.zero))
        #expect(LayoutKind.validated(.padding(EdgeInsets(all: -4))).warnings.isEmpty)
        #expect(LayoutKind.validated(.offset(x: .nan, y: 3)).0 == .offset(x: 0, y: 3))
        #expect(LayoutKind.validated(.position(x: .infinity, y: 3)).0 == .position(x: 0, y: 3))
        #expect(LayoutKind.validated(.aspectRatio(0, fill: true)).0 == .aspectRatio(nil, fill: true))
        #expect(LayoutKind.validated(.layoutPriority(.nan)).0 == .layoutPriority(0))
        #expect(LayoutKind.validated(.spacer(minLength: .nan)).0 == .spacer(minLength: nil))
        #expect(
            LayoutKind.validated(.stack(.vertical, spacing: .infinity, alignment: .center)).0
                == .stack(.vertical, spacing: nil, alignment: .center))
        #expect(
            LayoutKind.validated(.text(TextSpec("a", font: FontSpec(size: .nan), lineLimit: 0))).0
                == .text(TextSpec("a", font: FontSpec(size: 17), lineLimit: 1)))
    }

    @Test func layoutCleansWhatItIsGivenAndNeverMakesNaN() throws {
        let b = TreeBuilder()
        let color = b.color()
        let frame = b.node(.frame(width: .nan, height: .infinity, alignment: .center), [color])
        let moved = b.node(.offset(x: .nan, y: .infinity), [frame])
        // A child whose ideal is 0 wide, filled to a one-sided proposal: SwiftUI would propose 0 × ∞ = NaN.
        let thin = b.frame(b.color(), width: 0, height: 5)
        let filled = b.aspectRatio(thin, nil, fill: true)
        let stack = b.vstack(moved, b.frame(filled, width: 100), b.padding(b.color(), EdgeInsets(all: .nan)))
        try b.layout(stack)
        for key in [color, frame, moved, thin, filled, stack] {
            let frame = try #require(b.tree.unroundedFrame(of: key))
            for value in [frame.x, frame.y, frame.width, frame.height] { #expect(value.isFinite) }
            #expect(frame.width >= 0 && frame.height >= 0)
        }
    }

    @Test func aBadCanvasIsCleaned() throws {
        let b = TreeBuilder(width: .nan, height: -3, scale: 0)
        let color = b.color()
        try b.layout(color)
        #expect(b.frame(color) == rect(0, 0, 0, 0))
        #expect(b.tree.canvas.scale == 1)
    }

    @Test func tenThousandNestedStacksAreRefusedNotOverflowed() throws {
        let tree = LayoutTree(canvas: .init(width: 393, height: 852))
        tree.set("leaf", kind: .shape, children: [])
        var child = "leaf"
        for level in 0..<10_000 {
            tree.set("s\(level)", kind: .stack(.vertical, spacing: nil, alignment: .center), children: [child])
            child = "s\(level)"
        }
        tree.setRoot(child)
        #expect(throws: LayoutError.self) { try tree.layout() }
        do {
            try tree.layout()
        } catch let error as LayoutError {
            #expect(error.code == .tooDeep)
        }
    }

    @Test func fiveHundredNestedStacksAreLaidOut() throws {
        let tree = LayoutTree(canvas: .init(width: 393, height: 852))
        tree.set("leaf", kind: .shape, children: [])
        var child = "leaf"
        for level in 0..<(LayoutTree.maxDepth - 1) {
            let kind: LayoutKind =
                level % 2 == 0
                ? .stack(.vertical, spacing: nil, alignment: .center) : .padding(EdgeInsets(all: 0.25))
            tree.set("s\(level)", kind: kind, children: [child])
            child = "s\(level)"
        }
        tree.setRoot(child)
        try tree.layout()
        #expect(tree.size(of: "leaf")?.width == 393 - 0.5 * Double((LayoutTree.maxDepth - 1) / 2))
    }

    @Test func aCycleIsLeftOutAndAnUnknownChildIsCreatedEmpty() throws {
        let tree = LayoutTree(canvas: .init(width: 100, height: 100))
        tree.set("a", kind: .stack(.vertical, spacing: nil, alignment: .center), children: ["b"])
        tree.set("b", kind: .stack(.vertical, spacing: nil, alignment: .center), children: ["a", "c"])
        tree.setRoot("a")
        try tree.layout()
        #expect(tree.frame(of: "c") == rect(50, 50, 0, 0))
        tree._checkInvariants()
    }
}
