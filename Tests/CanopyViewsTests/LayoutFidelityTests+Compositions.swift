import CanopyCore
import CanopyViews
import Testing

/// The compositions real code is made of — a row pushed to the leading edge, a bar under a header, a square
/// thumbnail in a row, a button around a shape, state that resizes a box — with frames derived by hand on a
/// 200 × 200 canvas.
extension LayoutFidelityTests {
    @Test func aRowInAFlexibleFrameLinesUpAtItsAlignment() throws {
        // The row is 10 + 8 + 10 = 28 wide; the frame takes the 200 and puts it at the leading edge (y: 95).
        try Self.check("""
            HStack {
                Color.red.frame(width: 10, height: 10).measure("a")
                Color.blue.frame(width: 10, height: 10).measure("b")
            }
            .frame(maxWidth: .infinity, alignment: .leading)
            .measure("frame")
            """, ["frame": [0, 95, 200, 10], "a": [0, 95, 10, 10], "b": [18, 95, 10, 10]])
    }

    @Test func aSpacerPushesTheContentToTheTop() throws {
        // The Spacer takes all but the box's 50 (no spacing next to it).
        try Self.check("""
            VStack {
                Color.red.frame(width: 50, height: 50).measure("box")
                Spacer().measure("spacer")
            }
            """, ["box": [75, 0, 50, 50], "spacer": [100, 50, 0, 150]])
        // A Spacer in a frame is as long as the frame says, still without spacing.
        try Self.check("""
            VStack {
                Color.red.frame(width: 50, height: 50).measure("top")
                Spacer().frame(height: 10)
                Color.blue.frame(width: 50, height: 50).measure("bottom")
            }
            """, ["top": [75, 45, 50, 50], "bottom": [75, 105, 50, 50]])
    }

    @Test func aSpacerOutsideAStackTakesWhatItIsOffered() throws {
        // In a ZStack (not a stack with an axis) a Spacer is max(proposal, 8) both ways.
        try Self.check("ZStack { Spacer().measure(\"spacer\") }", ["spacer": [0, 0, 200, 200]])
    }

    @Test func aDividerIsOnePixelAcrossItsStack() throws {
        // At @1x one pixel is 1 point: the colours share 199, 99.5 each.
        try Self.check("""
            VStack(spacing: 0) {
                Color.red.measure("top")
                Divider().measure("divider")
                Color.blue.measure("bottom")
            }
            """, ["top": [0, 0, 200, 99.5], "divider": [0, 99.5, 200, 1], "bottom": [0, 100.5, 200, 99.5]])
    }

    @Test func aSquareThumbnailBesideAColumn() throws {
        // The row is 80 high: the square (aspect ratio 1, fit) is the less flexible (80 wide at most), so it is
        // proposed (200 − 8) / 2 = 96 × 80 first and takes 80 × 80; the column takes the other 112 and is
        // 20 + 4 + 12 = 36 high, centred: y = 60 + 22.
        try Self.check("""
            HStack {
                Color.red.aspectRatio(1, contentMode: .fit).measure("thumbnail")
                VStack(alignment: .leading, spacing: 4) {
                    Color.gray.frame(height: 20).measure("title")
                    Color.gray.frame(width: 60, height: 12).measure("subtitle")
                }
                .measure("column")
            }
            .frame(height: 80)
            """, [
                "thumbnail": [0, 60, 80, 80], "column": [88, 82, 112, 36], "title": [88, 82, 112, 20],
                "subtitle": [88, 106, 60, 12],
            ])
    }

    @Test func anOffsetInAStackLeavesItsSiblingsWhereTheyWere() throws {
        try Self.check("""
            HStack(spacing: 0) {
                Color.red.frame(width: 50, height: 50).measure("moved").offset(y: -10)
                Color.blue.frame(width: 50, height: 50).measure("still")
            }
            """, ["moved": [50, 65, 50, 50], "still": [100, 75, 50, 50]])
    }

    @Test func aPositionedViewInAStackTakesTheRoomLeft() throws {
        // The position node is flexible: it gets 200 − 50 − 8 = 142 and centres the box at (20, 20) in it.
        try Self.check("""
            VStack {
                Color.red.frame(height: 50)
                Color.blue.frame(width: 10, height: 10).measure("dot").position(x: 20, y: 20).measure("area")
            }
            """, ["area": [0, 58, 200, 142], "dot": [15, 73, 10, 10]])
    }

    @Test func aFrameSmallerThanItsContentAlignsTheOverflow() throws {
        // A 100 × 100 box in a 50 × 50 frame (at 75, 75) hangs out of it as the alignment says.
        for (alignment, x, y) in [("center", 50.0, 50.0), ("topLeading", 75, 75), ("bottomTrailing", 25, 25)] {
            try Self.check("""
                Color.red.frame(width: 100, height: 100).measure("box")
                    .frame(width: 50, height: 50, alignment: .\(alignment))
                    .measure("frame")
                """, ["frame": [75, 75, 50, 50], "box": [x, y, 100, 100]])
        }
    }

    @Test func aButtonIsLaidOutAsItsLabel() throws {
        try Self.check("""
            VStack(spacing: 0) {
                Button(action: {}) {
                    Color.red.frame(width: 40, height: 30)
                }
                .measure("button")
                Button {
                } label: {
                    Color.blue.frame(width: 60, height: 20).padding(5)
                }
                .buttonStyle(.plain)
                .measure("plain")
            }
            """, ["button": [80, 70, 40, 30], "plain": [65, 100, 70, 30]])
    }

    @Test func shapesFillWhatTheyAreOffered() throws {
        // Each takes a quarter of the 2 × 2 grid of 100 × 100 cells; Circle and Capsule are shapes like
        // Rectangle (their drawing, not their frame, is round).
        try Self.check("""
            VStack(spacing: 0) {
                HStack(spacing: 0) {
                    Rectangle().measure("rectangle")
                    RoundedRectangle(cornerRadius: 8).measure("rounded")
                }
                HStack(spacing: 0) {
                    Circle().measure("circle")
                    Capsule().fill(Color.red).measure("capsule")
                }
            }
            """, [
                "rectangle": [0, 0, 100, 100], "rounded": [100, 0, 100, 100], "circle": [0, 100, 100, 100],
                "capsule": [100, 100, 100, 100],
            ])
    }

    @Test func drawingModifiersDoNotChangeTheLayout() throws {
        try Self.check("""
            Color.red.frame(width: 50, height: 40)
                .cornerRadius(8)
                .clipShape(Circle())
                .clipped()
                .shadow(radius: 4)
                .opacity(0.5)
                .border(Color.black)
                .foregroundColor(.blue)
                .zIndex(1)
                .measure("box")
            """, ["box": [75, 80, 50, 40]])
    }

    @Test func stateThatChangesAFrameLaysOutAgain() throws {
        var p = try Self.start("""
            HStack(spacing: 0) {
                Color.red.frame(width: wide ? 150 : 50).measure("box")
                Color.blue.measure("rest")
            }
            .background(Button("Toggle") { wide.toggle() })
            """, state: "@State var wide = false")
        Self.expect(p, ["box": [0, 0, 50, 200], "rest": [50, 0, 150, 200]])
        try p.send("ContentView/0:HStack/@0:Button", "tap")
        Self.expect(p, ["box": [0, 0, 150, 200], "rest": [150, 0, 50, 200]])
    }

    @Test func anIdentifiableForEachInAVStackWithAlignment() throws {
        // Rows of 40, 80 and 60 wide, 10 high, spaced 2, trailing-aligned in a column as wide as the widest:
        // 34 high from y = 83; the column is centred at x = 60.
        try Self.check("""
            VStack(alignment: .trailing, spacing: 2) {
                ForEach(items) { item in
                    Color.red.frame(width: item.width, height: 10).measure(item.id)
                }
            }
            """, state: """
                let items = [Item(id: "a", width: 40), Item(id: "b", width: 80), Item(id: "c", width: 60)]
                """, declarations: """
                struct Item: Identifiable {
                    let id: String
                    let width: CGFloat
                }
                """, ["a": [100, 83, 40, 10], "b": [60, 95, 80, 10], "c": [80, 107, 60, 10]])
    }

    @Test func aLayoutPriorityOnAViewStructIsItsPriority() throws {
        // Two flexible views; the struct with priority 1 takes all but the other's minimum (0).
        try Self.check("""
            HStack(spacing: 0) {
                Color.red.measure("plain")
                Bar().layoutPriority(1).measure("favoured")
            }
            """, declarations: """
                struct Bar: View {
                    var body: some View { Color.blue }
                }
                """, ["plain": [0, 0, 0, 200], "favoured": [0, 0, 200, 200]])
    }

    @Test func aZStackOfBranchesIsAsBigAsTheBranchShown() throws {
        var p = try Self.start("""
            ZStack(alignment: .topLeading) {
                if big {
                    Color.red.frame(width: 120, height: 80).measure("shown")
                } else {
                    Color.blue.frame(width: 40, height: 40).measure("shown")
                }
                Color.green.frame(width: 10, height: 10).measure("corner")
            }
            .measure("stack")
            .background(Button("Grow") { big.toggle() })
            """, state: "@State var big = false")
        Self.expect(p, ["stack": [80, 80, 40, 40], "corner": [80, 80, 10, 10]])
        try p.send("ContentView/0:ZStack/@1:Button", "tap")
        Self.expect(p, ["stack": [40, 60, 120, 80], "shown": [40, 60, 120, 80], "corner": [40, 60, 10, 10]])
    }
}

/// Sharing out a stack and sizing layers, where the order of the rules matters; frames derived by hand.
extension LayoutFidelityTests {
    @Test func flexibleFramesAreSizedLeastFlexibleFirst() throws {
        // 300 wide, no spacing: the 0…50 frame goes first (300 / 3 = 100 → 50), then the 0…100 one
        // (250 / 2 = 125 → 100), then the colour (150).
        try Self.check("""
            HStack(spacing: 0) {
                Color.red.measure("color")
                Color.green.frame(maxWidth: 100).measure("hundred")
                Color.blue.frame(maxWidth: 50).measure("fifty")
            }
            """, width: 300, height: 100,
            ["color": [0, 0, 150, 100], "hundred": [150, 0, 100, 100], "fifty": [250, 0, 50, 100]])
    }

    @Test func aMinimumWidthIsKeptInsideAnEqualShare() throws {
        // Both are infinitely flexible; the one with the larger minimum goes first: offered 100, it keeps its
        // 150; the colour gets the 50 left.
        try Self.check("""
            HStack(spacing: 0) {
                Color.red.measure("color")
                Color.blue.frame(minWidth: 150).measure("wide")
            }
            """, ["color": [0, 0, 50, 200], "wide": [50, 0, 150, 200]])
    }

    @Test func anOverlayLargerThanItsPrimaryOverhangsCentred() throws {
        try Self.check("""
            Color.red.frame(width: 100, height: 100)
                .overlay(Color.blue.frame(width: 150, height: 150).measure("overlay"))
                .measure("primary")
            """, ["primary": [50, 50, 100, 100], "overlay": [25, 25, 150, 150]])
    }

    @Test func aGeometryReaderInAStackSharesLikeAColour() throws {
        try Self.check("""
            HStack {
                GeometryReader { proxy in
                    Color.red.frame(width: proxy.size.width / 2).measure("half")
                }
                .measure("reader")
                Color.blue.frame(width: 40)
            }
            """, ["reader": [0, 0, 152, 200], "half": [0, 0, 76, 200]])
    }

    @Test func anyViewIsTransparent() throws {
        // AnyView(Spacer()) is still a Spacer (no spacing, yields), and its priority passes through.
        try Self.check("""
            HStack {
                Color.red.frame(width: 20, height: 20).measure("left")
                AnyView(Spacer())
                AnyView(Color.blue.frame(width: 20, height: 20).measure("right"))
            }
            """, ["left": [0, 90, 20, 20], "right": [180, 90, 20, 20]])
        try Self.check("""
            VStack(spacing: 0) {
                Color.red.measure("low")
                AnyView(Color.blue.layoutPriority(1)).measure("high")
            }
            """, ["low": [0, 0, 200, 0], "high": [0, 0, 200, 200]])
    }

    @Test func aContainerViewPadsWhatItIsGiven() throws {
        // Card adds 8 on each side: 66 × 66 around the 50 × 50 box, centred.
        try Self.check("""
            Card {
                Color.red.frame(width: 50, height: 50).measure("inner")
            }
            .measure("card")
            """, declarations: """
                struct Card<Content: View>: View {
                    let content: Content
                    init(@ViewBuilder content: () -> Content) {
                        self.content = content()
                    }
                    var body: some View {
                        content
                            .padding(8)
                            .background(Color.gray)
                    }
                }
                """, ["card": [67, 67, 66, 66], "inner": [75, 75, 50, 50]])
    }
}
