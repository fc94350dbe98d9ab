import CanopyCore
import CanopyViews
import Testing

/// ModifierTests, ScrollViewTests and IncrementalTests (393 × 852 unless said otherwise), as programs.
extension LayoutFidelityTests {
    @Test func aFixedFrameProposesAndReportsItsDimensions() throws {
        try Self.check("Color.red.measure(\"color\").frame(width: 200).measure(\"frame\")", width: 393, height: 852, [
            "frame": [96.5, 0, 200, 852], "color": [96.5, 0, 200, 852],
        ])
    }

    @Test func aFrameAlignsAChildSmallerThanItself() throws {
        try Self.check("""
            Color.red.frame(width: 100, height: 100).measure("box")
                .frame(maxWidth: .infinity, maxHeight: .infinity, alignment: .bottomTrailing)
                .measure("frame")
            """, width: 393, height: 852, ["frame": [0, 0, 393, 852], "box": [293, 752, 100, 100]])
    }

    @Test func aFlexibleFrameClampsItsProposal() throws {
        try Self.check("Color.red.measure(\"color\").frame(maxWidth: .infinity, maxHeight: 200).measure(\"frame\")",
            width: 393, height: 852, ["frame": [0, 326, 393, 200], "color": [0, 326, 393, 200]])
    }

    @Test func aFlexibleFrameWithMinAboveMaxTakesItsChildsWidth() throws {
        // Contradictory (min 100, max 50, no ideal): the child is proposed 393 clamped to 50, and the frame takes
        // the child's 50; SwiftUI logs the contradiction.
        try Self.check("Color.red.frame(minWidth: 100, maxWidth: 50).measure(\"frame\")", width: 393, height: 852,
            ["frame": [171.5, 0, 50, 852]], warnings: ["Contradictory frame constraints specified."])
    }

    @Test func aFlexibleFrameClampsANegativeMinimumAndAnIdealAboveTheMaximum() throws {
        // min −10 → 0; ideal 5; max 3 < ideal → 5. Proposed nil (fixedSize): the ideal 5 × the colour's 10.
        try Self.check("Color.red.frame(minWidth: -10, idealWidth: 5, maxWidth: 3).measure(\"frame\").fixedSize()",
            width: 393, height: 852, ["frame": [194, 421, 5, 10]],
            warnings: ["Contradictory frame constraints specified."])
    }

    @Test func paddingInsetsTheProposalAndAddsToTheSize() throws {
        try Self.check("""
            Color.red.frame(width: 50, height: 30).measure("box")
                .padding()
                .measure("padded")
                .background(Color.gray)
            """, ["padded": [59, 69, 82, 62], "box": [75, 85, 50, 30]])
    }

    @Test func negativePaddingShrinksTheBox() throws {
        // 30 × 10 centred: (181.5, 421); the box hangs 10 out on each side.
        try Self.check("Color.red.frame(width: 50, height: 30).measure(\"box\").padding(-10).measure(\"padded\")",
            width: 393, height: 852, ["padded": [181.5, 421, 30, 10], "box": [171.5, 411, 50, 30]])
    }

    @Test func anOverlayIsProposedThePrimarysSizeAndAligned() throws {
        try Self.check("""
            Color.red.frame(width: 100, height: 100).measure("box")
                .overlay(Color.blue.frame(width: 20, height: 20).measure("badge"), alignment: .topTrailing)
            """, width: 393, height: 852, ["box": [146.5, 376, 100, 100], "badge": [226.5, 376, 20, 20]])
        // What an overlay is proposed: a flexible secondary takes the primary's size.
        try Self.check("""
            Color.red.frame(width: 100, height: 100).overlay(Color.blue.measure("cover"))
            """, width: 393, height: 852, ["cover": [146.5, 376, 100, 100]])
    }

    @Test func aBackgroundDoesNotChangeTheLayout() throws {
        try Self.check("""
            VStack {
                Color.red.frame(width: 100, height: 50).background(Color.blue.measure("background"))
                Color.green
            }
            """, width: 393, height: 852, ["background": [146.5, 0, 100, 50]])
    }

    @Test func anOffsetMovesTheDrawnFrameButNotTheLayout() throws {
        try Self.check("""
            Color.red.frame(width: 100, height: 100).measure("box")
                .offset(x: 10, y: -20)
                .background(Color.blue.measure("background"))
            """, width: 393, height: 852, ["box": [156.5, 356, 100, 100], "background": [146.5, 376, 100, 100]])
    }

    @Test func positionTakesTheProposalAndCentresItsChild() throws {
        try Self.check("""
            Color.red.frame(width: 50, height: 50).measure("box")
                .position(x: 100, y: 40)
                .measure("positioned")
            """, width: 393, height: 852, ["positioned": [0, 0, 393, 852], "box": [75, 15, 50, 50]])
    }

    @Test func aspectRatioFitsAndFills() throws {
        // Stack 100 × 208 centred: (146.5, 322). Fit: 100 × 50 centred in 100 × 100; fill: 200 × 100.
        try Self.check("""
            VStack {
                Color.red.measure("fit").aspectRatio(2, contentMode: .fit).frame(width: 100, height: 100)
                Color.blue.measure("fill").aspectRatio(2, contentMode: .fill).frame(width: 100, height: 100)
            }
            """, width: 393, height: 852, ["fit": [146.5, 347, 100, 50], "fill": [96.5, 430, 200, 100]])
    }

    @Test func aNilAspectRatioUsesTheChildsIdealRatio() throws {
        // The child's ideal 30 × 10 scaled to fit 300 × 300 is 300 × 100, but the fixed frame inside stays
        // 30 × 10: centred in the 300 × 300 frame, itself centred at (46.5, 276).
        try Self.check("""
            Color.red.frame(width: 30, height: 10).measure("box")
                .aspectRatio(contentMode: .fit)
                .frame(width: 300, height: 300)
            """, width: 393, height: 852, ["box": [181.5, 421, 30, 10]])
    }

    @Test func aGeometryReaderTakesTheProposalAndPutsChildrenTopLeading() throws {
        try Self.check("""
            VStack(spacing: 0) {
                Color.red.frame(width: 393, height: 100)
                GeometryReader { _ in
                    Color.blue.frame(width: 100, height: 100).measure("half")
                }
                .measure("reader")
            }
            """, width: 393, height: 852, ["reader": [0, 100, 393, 752], "half": [0, 100, 100, 100]])
    }

    @Test func aGeometryReaderProposedNilIsTen() throws {
        try Self.check("""
            ScrollView {
                VStack(spacing: 0) {
                    GeometryReader { _ in Color.red }.measure("reader")
                    Color.blue.frame(width: 50, height: 50)
                }
            }
            """, width: 393, height: 852, ["reader": [0, 0, 393, 10]])
    }

    @Test func theRootIsCentredInTheSafeArea() throws {
        let device = CanvasSpec(width: 393, height: 852, safeArea: .init(top: 59, bottom: 34), scale: 3)
        let small = try Self.start("Color.red.frame(width: 100, height: 50).measure(\"box\")", canvas: device)
        Self.expect(small, ["box": [146.5, 413.5, 100, 50]])
        let large = try Self.start("Color.red.frame(width: 500, height: 1000).measure(\"box\")", canvas: device)
        Self.expect(large, ["box": [-53.5, -61.5, 500, 1000]])
    }

    @Test func framesAreRoundedToThePixelGridOfTheScale() throws {
        // Three equal columns of 392 at @2x: 130.667 each (as the proxies say), drawn with corners at 130.5 and
        // 261.5 (halves up).
        let p = try Self.start("""
            HStack(spacing: 0) {
                Color.red.measure("a")
                Color.green.measure("b")
                Color.blue.measure("c")
            }
            """, canvas: CanvasSpec(width: 392, height: 100, scale: 2))
        let third = 392.0 / 3
        Self.expect(p, ["a": [0, 0, third, 100], "b": [third, 0, third, 100], "c": [2 * third, 0, third, 100]])
        let frames = try #require(p.program.frameTable?.frames)
        #expect(frames["ContentView/0:HStack/0:Color"] == [0, 0, 130.5, 100])
        #expect(frames["ContentView/0:HStack/1:Color"] == [130.5, 0, 131, 100])
        #expect(frames["ContentView/0:HStack/2:Color"] == [261.5, 0, 130.5, 100])
    }

    // MARK: ScrollViewTests

    static let twentyRows = """
        ScrollView {
            VStack(spacing: 0) {
                ForEach(0..<20) { i in
                    Color.red.frame(height: 100).measure("row\\(i)")
                }
            }
        }
        .measure("scroll")
        """

    @Test func theScrollContentIsProposedNilAlongTheScrollAxis() throws {
        try Self.check(Self.twentyRows, width: 393, height: 852, [
            "scroll": [0, 0, 393, 852], "row0": [0, 0, 393, 100], "row19": [0, 1900, 393, 100],
        ])
    }

    @Test func theScrollOffsetMovesTheContentAndIsClamped() throws {
        var p = try Self.start(Self.twentyRows, width: 393, height: 852)
        let scroll = "ContentView/0:ScrollView"
        try p.send(scroll, "scroll", ["x": 30, "y": 500])
        #expect(p.last.scroll.first?.offset == [0, 500])
        Self.expect(p, ["row5": [0, 0, 393, 100], "scroll": [0, 0, 393, 852]])
        // 2000 − 852 = 1148 at most.
        try p.send(scroll, "scroll", ["y": 5000])
        #expect(p.last.scroll.first?.offset == [0, 1148])
        Self.expect(p, ["row19": [0, 752, 393, 100]])
        try p.send(scroll, "scroll", ["y": -40])
        #expect(p.last.scroll.first?.offset == [0, 0])
        Self.expect(p, ["row0": [0, 0, 393, 100]])
    }

    // MARK: IncrementalTests

    @Test func aSpacerMovedToAnotherStackTakesItsOrientation() throws {
        // In an HStack the Spacer is 393 − 10 − 0 = 383 wide and 0 high (at the centre line, y = 426); in a VStack
        // 0 wide (at x = 196.5) and 852 − 10 = 842 high.
        var p = try Self.start("""
            Group {
                if vertical {
                    VStack {
                        Color.red.frame(width: 10, height: 10)
                        Spacer().measure("spacer")
                    }
                } else {
                    HStack {
                        Color.red.frame(width: 10, height: 10)
                        Spacer().measure("spacer")
                    }
                }
            }
            .background(Button("Flip") { vertical.toggle() })
            """, state: "@State var vertical = false", width: 393, height: 852)
        Self.expect(p, ["spacer": [10, 426, 383, 0]])
        try p.send("ContentView/0:Group/@0:Button", "tap")
        Self.expect(p, ["spacer": [196.5, 10, 0, 842]])
    }

    @Test func aRemovedViewGivesItsRoomBack() throws {
        // Two colours share 852 − 8: 422 each; without the second the first takes all 852.
        var p = try Self.start("""
            VStack {
                Color.red.measure("first")
                if shown {
                    Color.blue.measure("second")
                }
            }
            .background(Button("Hide") { shown = false })
            """, state: "@State var shown = true", width: 393, height: 852)
        Self.expect(p, ["first": [0, 0, 393, 422], "second": [0, 430, 393, 422]])
        try p.send("ContentView/0:VStack/@0:Button", "tap")
        Self.expect(p, ["first": [0, 0, 393, 852]])
        #expect(GeometryTests.frames(p)["second"] == nil)
    }

    @Test func resizingTheCanvasLaysOutAgain() throws {
        var p = try Self.start("Color.red.measure(\"color\")", width: 393, height: 852)
        try p.send(nil, "resize", ["width": 852, "height": 393])
        Self.expect(p, ["color": [0, 0, 852, 393]])
    }
}
