import Testing

@testable import CanopyLayout

/// Cases from OpenSwiftUI's UI tests (Example/OpenSwiftUIUITests/Layout, compared with real SwiftUI pixel for pixel
/// on a 200 × 200 host) and Tokamak's layout tests (Tests/TokamakLayoutTests, compared with NSHostingView on
/// 500 × 500). The views are restated here; the expected frames are derived by hand from the rules.
@Suite struct OpenSwiftUIReferenceTests {
    // SpacerUITests.spacerInHStack
    @Test func spacerInHStack() throws {
        let b = TreeBuilder(width: 200, height: 200)
        let red = b.box(50, 50)
        let spacer = b.spacer()
        let blue = b.box(50, 50)
        try b.layout(b.frame(b.hstack(red, spacer, blue), width: 200, height: 80))
        #expect(b.frame(red) == rect(0, 75, 50, 50))
        #expect(b.frame(spacer) == rect(50, 100, 100, 0))
        #expect(b.frame(blue) == rect(150, 75, 50, 50))
    }

    // SpacerUITests.multipleSpacersInHStack
    @Test func multipleSpacersInHStack() throws {
        let b = TreeBuilder(width: 200, height: 200)
        let boxes = (0..<3).map { _ in b.box(40, 50) }
        let spacers = (0..<2).map { _ in b.spacer() }
        let stack = b.hstack(boxes[0], spacers[0], boxes[1], spacers[1], boxes[2])
        try b.layout(b.frame(stack, width: 250, height: 80))
        // The frame (250 wide) overflows the 200 host: it is centred at x = −25.
        #expect(b.frame(boxes[0]) == rect(-25, 75, 40, 50))
        #expect(b.frame(spacers[0]) == rect(15, 100, 65, 0))
        #expect(b.frame(boxes[1]) == rect(80, 75, 40, 50))
        #expect(b.frame(boxes[2]) == rect(185, 75, 40, 50))
    }

    // SpacerUITests.spacerWithZeroMinLength
    @Test func spacerWithZeroMinLength() throws {
        let b = TreeBuilder(width: 200, height: 200)
        let red = b.box(80, 50)
        let spacer = b.spacer(0)
        let blue = b.box(80, 50)
        try b.layout(b.frame(b.hstack(red, spacer, blue), width: 160, height: 80))
        #expect(b.frame(red) == rect(20, 75, 80, 50))
        #expect(b.frame(spacer) == rect(100, 100, 0, 0))
        #expect(b.frame(blue) == rect(100, 75, 80, 50))
    }

    // SpacerUITests.spacerInVStackWithoutFrame
    @Test func spacerInVStackWithoutFrame() throws {
        let b = TreeBuilder(width: 200, height: 200)
        let red = b.box(50, 50)
        let spacer = b.spacer()
        let blue = b.box(50, 50)
        let stack = b.vstack(red, spacer, blue)
        try b.layout(b.background(stack, b.color()))
        #expect(b.frame(stack) == rect(75, 0, 50, 200))
        #expect(b.frame(spacer) == rect(100, 50, 0, 100))
        #expect(b.frame(blue) == rect(75, 150, 50, 50))
    }

    // SpacerUITests.nestedStacksWithSpacers
    @Test func nestedStacksWithSpacers() throws {
        let b = TreeBuilder(width: 200, height: 200)
        let red = b.box(40, 40)
        let blue = b.box(40, 40)
        let top = b.hstack(red, b.spacer(), blue)
        let middle = b.spacer()
        let green = b.box(40, 40)
        let yellow = b.box(40, 40)
        let bottom = b.hstack(b.spacer(), green, b.spacer(), yellow, b.spacer())
        try b.layout(b.frame(b.vstack(top, middle, bottom), width: 200, height: 200))
        #expect(b.frame(top) == rect(0, 0, 200, 40))
        #expect(b.frame(blue) == rect(160, 0, 40, 40))
        #expect(b.frame(middle) == rect(100, 40, 0, 120))
        #expect(b.frame(green) == rect(40, 160, 40, 40))
        #expect(b.frame(yellow) == rect(120, 160, 40, 40))
    }

    // HVStackUITests.elementFrameAlignmentHVStack
    @Test func elementFrameAlignmentHVStack() throws {
        let b = TreeBuilder(width: 200, height: 200)
        let red = b.box(30, 30)
        let blue = b.box(40, 40)
        let green = b.box(50, 50)
        let yellow = b.box(60, 60)
        let row = b.hstack(alignment: .top, green, yellow)
        let stack = b.vstack(alignment: .leading, red, blue, row)
        let black = b.color()
        try b.layout(b.background(stack, black))
        #expect(b.frame(black) == rect(41, 27, 118, 146))
        #expect(b.frame(red) == rect(41, 27, 30, 30))
        #expect(b.frame(blue) == rect(41, 65, 40, 40))
        #expect(b.frame(green) == rect(41, 113, 50, 50))
        #expect(b.frame(yellow) == rect(99, 113, 60, 60))
    }

    // HVStackUITests.stackFrameElementFrameHVStack
    @Test func stackFrameElementFrameHVStack() throws {
        let b = TreeBuilder(width: 200, height: 200)
        let red = b.box(40, 40)
        let blue = b.box(40, 40)
        let green = b.box(40, 40)
        let yellow = b.box(40, 40)
        let stack = b.vstack(red, blue, b.hstack(green, yellow))
        try b.layout(b.frame(stack, width: 150, height: 150))
        #expect(b.frame(stack) == rect(56, 32, 88, 136))
        #expect(b.frame(red) == rect(80, 32, 40, 40))
        #expect(b.frame(blue) == rect(80, 80, 40, 40))
        #expect(b.frame(green) == rect(56, 128, 40, 40))
        #expect(b.frame(yellow) == rect(104, 128, 40, 40))
    }

    // HVStackUITests.defaultHVStack
    @Test func defaultHVStack() throws {
        let b = TreeBuilder(width: 200, height: 200)
        let red = b.color()
        let blue = b.color()
        let green = b.color()
        let yellow = b.color()
        let row = b.hstack(green, yellow)
        try b.layout(b.vstack(red, blue, row))
        // (200 − 16) / 3 = 61.333 each.
        #expect(close(b.exact(blue), rect(0, 184.0 / 3 + 8, 200, 184.0 / 3)))
        #expect(close(b.exact(row), rect(0, 2 * (184.0 / 3 + 8), 200, 184.0 / 3), tolerance: 1e-9))
        #expect(close(b.exact(yellow), rect(104, 2 * (184.0 / 3 + 8), 96, 184.0 / 3), tolerance: 1e-9))
    }

    // HVStackUITests.layoutPriorityForHVStack
    @Test func layoutPriorityForHVStack() throws {
        let b = TreeBuilder(width: 200, height: 200)
        let red = b.color()
        let blue = b.priority(b.color(), 1)
        let row = b.hstack(b.color(), b.color())
        try b.layout(b.vstack(red, blue, row))
        #expect(b.frame(red) == rect(0, 0, 200, 0))
        #expect(b.frame(blue) == rect(0, 8, 200, 184))
        #expect(b.frame(row) == rect(0, 200, 200, 0))
    }

    // HVStackUITests.sameSizeInVStack
    @Test func sameSizeInVStack() throws {
        let b = TreeBuilder(width: 200, height: 200)
        let red = b.color()
        let yellow = b.box(10, 10)
        let blue = b.color()
        try b.layout(b.vstack(spacing: 20, red, yellow, blue))
        #expect(b.frame(red) == rect(0, 0, 200, 75))
        #expect(b.frame(yellow) == rect(95, 95, 10, 10))
        #expect(b.frame(blue) == rect(0, 125, 200, 75))
    }

    // ZStackUITests.alignment
    @Test(arguments: [
        (Alignment.center, 90.0, 90.0), (.top, 90, 70), (.bottom, 90, 110), (.leading, 70, 90), (.trailing, 110, 90),
        (.topLeading, 70, 70), (.topTrailing, 110, 70), (.bottomLeading, 70, 110), (.bottomTrailing, 110, 110),
    ])
    func zstackAlignment(alignment: Alignment, x: Double, y: Double) throws {
        let b = TreeBuilder(width: 200, height: 200)
        let red = b.box(60, 60)
        let blue = b.box(20, 20)
        try b.layout(b.zstack(alignment: alignment, red, blue))
        #expect(b.frame(red) == rect(70, 70, 60, 60))
        #expect(b.frame(blue) == rect(x, y, 20, 20))
    }

    // ZStackUITests.layoutPriority
    @Test func zstackLayoutPriority() throws {
        let b = TreeBuilder(width: 200, height: 200)
        let blue = b.priority(b.box(100, 100), -0.1)
        let red = b.box(60, 60)
        let green = b.priority(b.box(40, 40), 1)
        let stack = b.zstack(alignment: .leading, blue, red, green)
        let black = b.box(20, 20)
        try b.layout(b.overlay(stack, black))
        #expect(b.frame(stack) == rect(80, 80, 40, 40))
        #expect(b.frame(blue) == rect(80, 50, 100, 100))
        #expect(b.frame(red) == rect(80, 70, 60, 60))
        #expect(b.frame(green) == rect(80, 80, 40, 40))
        #expect(b.frame(black) == rect(90, 90, 20, 20))
    }

    // ZStackUITests.overlayAndBackground
    @Test func overlayAndBackground() throws {
        let b = TreeBuilder(width: 200, height: 200)
        let stack = b.zstack(alignment: .leading, b.box(200, 200))
        let green = b.box(100, 100)
        let blue = b.box(100, 100)
        try b.layout(b.background(b.overlay(stack, green, .topLeading), blue, .bottomTrailing))
        #expect(b.frame(green) == rect(0, 0, 100, 100))
        #expect(b.frame(blue) == rect(100, 100, 100, 100))
    }

    // PositionLayoutUITests.positionInZStack
    @Test func positionInZStack() throws {
        let b = TreeBuilder(width: 200, height: 200)
        let red = b.box(50, 50)
        let green = b.box(50, 50)
        let blue = b.box(50, 50)
        let black = b.box(50, 50)
        let stack = b.zstack(
            b.position(red), b.position(green, x: 50), b.position(blue, y: 50), b.position(black, x: 50, y: 50))
        try b.layout(b.frame(stack, width: 100, height: 100))
        #expect(b.frame(red) == rect(25, 25, 50, 50))
        #expect(b.frame(green) == rect(75, 25, 50, 50))
        #expect(b.frame(blue) == rect(25, 75, 50, 50))
        #expect(b.frame(black) == rect(75, 75, 50, 50))
    }

    // AspectRatioLayoutUITests.aspectRatioHalfInRect
    @Test func aspectRatioHalfInRect() throws {
        let b = TreeBuilder(width: 200, height: 200)
        let red = b.color()
        let green = b.color()
        let stack = b.zstack(
            b.frame(b.aspectRatio(red, 0.5), width: 100, height: 50),
            b.frame(b.aspectRatio(green, 0.5, fill: true), width: 50, height: 100))
        try b.layout(b.frame(stack, width: 100, height: 100))
        #expect(close(b.exact(red), rect(87.5, 75, 25, 50)))
        #expect(b.frame(green) == rect(75, 50, 50, 100))
    }

    // AspectRatioLayoutUITests.aspectRatioTwoInSquare
    @Test func aspectRatioTwoInSquare() throws {
        let b = TreeBuilder(width: 200, height: 200)
        let red = b.color()
        let green = b.color()
        let stack = b.zstack(
            b.frame(b.aspectRatio(red, 2), width: 100, height: 50),
            b.frame(b.aspectRatio(green, 20.0 / 10, fill: true), width: 50, height: 100))
        try b.layout(b.frame(stack, width: 100, height: 100))
        #expect(b.frame(red) == rect(50, 75, 100, 50))
        #expect(b.frame(green) == rect(0, 50, 200, 100))
    }

    // AspectRatioLayoutUITests.aspectRatioNilInSquare
    @Test func aspectRatioNilInSquare() throws {
        let b = TreeBuilder(width: 200, height: 200)
        let red = b.color()
        let green = b.color()
        let stack = b.zstack(
            b.frame(b.aspectRatio(red, nil), width: 100, height: 50),
            b.frame(b.aspectRatio(green, nil, fill: true), width: 50, height: 100))
        try b.layout(b.frame(stack, width: 200, height: 200))
        #expect(b.frame(red) == rect(75, 75, 50, 50))
        #expect(b.frame(green) == rect(50, 50, 100, 100))
    }

    // FixedSizeLayoutUITests.colorFixedSize
    @Test func colorFixedSize() throws {
        let b = TreeBuilder(width: 200, height: 200)
        let red = b.color()
        let green = b.color()
        let blue = b.color()
        try b.layout(
            b.zstack(
                b.frame(b.fixedSize(red, horizontal: true, vertical: false), width: 100, height: 100),
                b.frame(b.fixedSize(green, horizontal: false, vertical: true), width: 100, height: 100),
                b.frame(b.fixedSize(blue, horizontal: false, vertical: false), width: 100, height: 100)))
        #expect(b.frame(red) == rect(95, 50, 10, 100))
        #expect(b.frame(green) == rect(50, 95, 100, 10))
        #expect(b.frame(blue) == rect(50, 50, 100, 100))
    }

    // GeometryReaderUITests.overlapView
    @Test func geometryReaderOverlap() throws {
        let b = TreeBuilder(width: 200, height: 200)
        let blue = b.box(100, 100)
        let red = b.box(200.0 / 3, 200.0 / 3)
        try b.layout(b.node(.geometryReader, [blue, red]))
        #expect(b.frame(blue) == rect(0, 0, 100, 100))
        #expect(close(b.frame(red), rect(0, 0, 200.0 / 3, 200.0 / 3)))
    }

    // PaddingLayoutUITests.edgeInsetsPadding, nestedPadding, paddingInHStack
    @Test func paddingCases() throws {
        let b = TreeBuilder(width: 200, height: 200)
        let blue = b.box(50, 30)
        let padded = b.padding(blue, EdgeInsets(top: 10, leading: 20, bottom: 30, trailing: 15))
        try b.layout(b.background(padded, b.color()))
        #expect(close(b.exact(padded), rect(57.5, 65, 85, 70)))
        #expect(close(b.exact(blue), rect(77.5, 75, 50, 30)))
        // Drawn on the @3x grid: 57.5 rounds (half up) to 57.667.
        #expect(close(b.frame(padded), rect(173.0 / 3, 65, 85, 70)))

        let n = TreeBuilder(width: 200, height: 200)
        let inner = n.box(50, 30)
        let tight = n.padding(inner, EdgeInsets(all: 10))
        let loose = n.padding(n.background(tight, n.color()), EdgeInsets(all: 20))
        try n.layout(n.background(loose, n.color()))
        #expect(n.frame(loose) == rect(45, 55, 110, 90))
        #expect(n.frame(inner) == rect(75, 85, 50, 30))

        let h = TreeBuilder(width: 200, height: 200)
        let left = h.frame(h.color(), width: 50)
        let right = h.frame(h.color(), width: 50)
        let stack = h.hstack(
            spacing: 0,
            h.background(h.padding(left, EdgeInsets(top: 0, leading: 0, bottom: 0, trailing: 25)), h.color()),
            h.background(h.padding(right, EdgeInsets(top: 0, leading: 15, bottom: 0, trailing: 0)), h.color()))
        try h.layout(stack)
        #expect(h.frame(left) == rect(30, 0, 50, 200))
        #expect(h.frame(right) == rect(120, 0, 50, 200))
    }
}

@Suite struct TokamakReferenceTests {
    // StackTests.testVStack and testHStackSpacing
    @Test func stacksOfRectangles() throws {
        let v = TreeBuilder(width: 500, height: 500)
        let top = v.color()
        let bottom = v.color()
        try v.layout(v.vstack(top, bottom))
        #expect(v.frame(top) == rect(0, 0, 500, 246))
        #expect(v.frame(bottom) == rect(0, 254, 500, 246))
        let h = TreeBuilder(width: 500, height: 500)
        let left = h.color()
        let right = h.color()
        try h.layout(h.hstack(spacing: 0, left, right))
        #expect(h.frame(right) == rect(250, 0, 250, 500))
    }

    // StackTests.testVStackAlignment
    @Test(arguments: [(HorizontalAlignment.leading, 0.0), (.center, 225), (.trailing, 450)])
    func vstackAlignment(alignment: HorizontalAlignment, x: Double) throws {
        let b = TreeBuilder(width: 500, height: 500)
        let narrow = b.frame(b.color(), width: 50)
        try b.layout(b.vstack(alignment: alignment, b.color(), narrow))
        #expect(b.frame(narrow) == rect(x, 254, 50, 246))
    }

    // StackTests.testVStackPriority and testHStackPriority
    @Test func stackPriority() throws {
        let v = TreeBuilder(width: 500, height: 500)
        let minimum = v.flexibleFrame(v.color(), minHeight: 50)
        let favoured = v.priority(v.color(), 1)
        try v.layout(v.vstack(minimum, favoured))
        #expect(v.frame(minimum) == rect(0, 0, 500, 50))
        #expect(v.frame(favoured) == rect(0, 58, 500, 442))
        let h = TreeBuilder(width: 500, height: 500)
        let tall = h.flexibleFrame(h.color(), minHeight: 50)
        let wide = h.priority(h.color(), 1)
        try h.layout(h.hstack(tall, wide))
        #expect(h.frame(tall) == rect(0, 0, 0, 500))
        #expect(h.frame(wide) == rect(8, 0, 492, 500))
    }

    // FrameTests: testFixedFrame, testFixedWidth, testFlexibleFrame, testFlexibleWidth
    @Test func frames() throws {
        func placed(_ build: (TreeBuilder, String) -> String) throws -> LayoutRect? {
            let b = TreeBuilder(width: 500, height: 500)
            let color = b.color()
            try b.layout(build(b, color))
            return b.frame(color)
        }
        #expect(try placed { $0.frame($1, width: 200, height: 100) } == rect(150, 200, 200, 100))
        #expect(try placed { $0.frame($1, width: 200) } == rect(150, 0, 200, 500))
        #expect(
            try placed { $0.flexibleFrame($1, minWidth: 0, maxWidth: 200, minHeight: 0, maxHeight: 100) }
                == rect(150, 200, 200, 100))
        #expect(try placed { $0.flexibleFrame($1, minWidth: 0, maxWidth: 200) } == rect(150, 0, 200, 500))
    }

    // FrameTests.testAlignment
    @Test(arguments: [
        (Alignment.topLeading, 0.0, 0.0), (.center, 200, 200), (.bottomTrailing, 400, 400), (.top, 200, 0),
        (.trailing, 400, 200),
    ])
    func frameAlignment(alignment: Alignment, x: Double, y: Double) throws {
        let b = TreeBuilder(width: 500, height: 500)
        let box = b.box(100, 100)
        let frame = b.flexibleFrame(box, maxWidth: .infinity, maxHeight: .infinity, alignment: alignment)
        try b.layout(b.background(frame, b.color()))
        #expect(b.frame(box) == rect(x, y, 100, 100))
    }

    // AspectRatioTests: testAspectRatio, testWideRatio, testTallRatio
    @Test(arguments: [
        (1.0, false, 100.0, 100.0), (1.5, false, 100, 200.0 / 3), (1.5, true, 150, 100), (0.5, false, 50, 100),
        (0.5, true, 100, 200),
    ])
    func aspectRatio(ratio: Double, fill: Bool, width: Double, height: Double) throws {
        let b = TreeBuilder(width: 500, height: 500)
        let shape = b.color()
        let fixed: (Double, Double) = ratio == 1 ? (200, 100) : (100, 100)
        try b.layout(b.frame(b.aspectRatio(shape, ratio, fill: fill), width: fixed.0, height: fixed.1))
        let exact = b.exact(shape)!
        #expect(abs(exact.width - width) < 1e-9 && abs(exact.height - height) < 1e-9)
        #expect(abs(exact.midX - 250) < 1e-9 && abs(exact.midY - 250) < 1e-9)
    }

    // ContainedZLayoutTests.testBackground and testOverlay
    @Test(arguments: [
        (Alignment.topLeading, 200.0, 200.0), (.center, 225, 225), (.bottomTrailing, 250, 250), (.bottom, 225, 250),
    ])
    func containedLayers(alignment: Alignment, x: Double, y: Double) throws {
        for overlay in [false, true] {
            let b = TreeBuilder(width: 500, height: 500)
            let primary = b.box(100, 100)
            let secondary = b.box(50, 50)
            try b.layout(
                overlay ? b.overlay(primary, secondary, alignment) : b.background(primary, secondary, alignment))
            #expect(b.frame(primary) == rect(200, 200, 100, 100))
            #expect(b.frame(secondary) == rect(x, y, 50, 50))
        }
    }
}
