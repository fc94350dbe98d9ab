import CanopyCore
import CanopyViews
import Testing

/// Tokamak's layout tests (500 × 500, as ReferenceTests restates them) and StackTests (393 × 852), as programs.
extension LayoutFidelityTests {
    // MARK: Tokamak

    @Test func tokamakStacksOfRectangles() throws {
        try Self.check("""
            VStack {
                Rectangle().measure("top")
                Rectangle().measure("bottom")
            }
            """, width: 500, height: 500, ["top": [0, 0, 500, 246], "bottom": [0, 254, 500, 246]])
        try Self.check("""
            HStack(spacing: 0) {
                Rectangle().measure("left")
                Rectangle().measure("right")
            }
            """, width: 500, height: 500, ["left": [0, 0, 250, 500], "right": [250, 0, 250, 500]])
    }

    @Test(arguments: [("leading", 0.0), ("center", 225), ("trailing", 450)])
    func tokamakVStackAlignment(alignment: String, x: Double) throws {
        try Self.check("""
            VStack(alignment: .\(alignment)) {
                Rectangle()
                Rectangle().frame(width: 50).measure("narrow")
            }
            """, width: 500, height: 500, ["narrow": [x, 254, 50, 246]])
    }

    @Test func tokamakStackPriority() throws {
        try Self.check("""
            VStack {
                Rectangle().frame(minHeight: 50).measure("minimum")
                Rectangle().layoutPriority(1).measure("favoured")
            }
            """, width: 500, height: 500, ["minimum": [0, 0, 500, 50], "favoured": [0, 58, 500, 442]])
        try Self.check("""
            HStack {
                Rectangle().frame(minHeight: 50).measure("tall")
                Rectangle().layoutPriority(1).measure("wide")
            }
            """, width: 500, height: 500, ["tall": [0, 0, 0, 500], "wide": [8, 0, 492, 500]])
    }

    @Test(arguments: [
        (".frame(width: 200, height: 100)", [150.0, 200, 200, 100]),
        (".frame(width: 200)", [150, 0, 200, 500]),
        (".frame(minWidth: 0, maxWidth: 200, minHeight: 0, maxHeight: 100)", [150, 200, 200, 100]),
        (".frame(minWidth: 0, maxWidth: 200)", [150, 0, 200, 500]),
    ])
    func tokamakFrames(modifier: String, frame: [Double]) throws {
        try Self.check("Color.red.measure(\"c\")\(modifier)", width: 500, height: 500, ["c": frame])
    }

    @Test(arguments: [
        ("topLeading", 0.0, 0.0), ("center", 200, 200), ("bottomTrailing", 400, 400), ("top", 200, 0), ("trailing", 400, 200),
    ])
    func tokamakFrameAlignment(alignment: String, x: Double, y: Double) throws {
        try Self.check("""
            Color.red.frame(width: 100, height: 100).measure("box")
                .frame(maxWidth: .infinity, maxHeight: .infinity, alignment: .\(alignment))
                .background(Color.black)
            """, width: 500, height: 500, ["box": [x, y, 100, 100]])
    }

    @Test(arguments: [
        ("1, contentMode: .fit", 200.0, 100.0, 100.0, 100.0), ("1.5, contentMode: .fit", 100, 100, 100, 200.0 / 3),
        ("1.5, contentMode: .fill", 100, 100, 150, 100), ("0.5, contentMode: .fit", 100, 100, 50, 100),
        ("0.5, contentMode: .fill", 100, 100, 100, 200),
    ])
    func tokamakAspectRatio(arguments: String, frameWidth: Double, frameHeight: Double, width: Double, height: Double)
        throws
    {
        // Centred on the canvas's centre (250, 250).
        try Self.check("""
            Rectangle().measure("shape")
                .aspectRatio(\(arguments))
                .frame(width: \(frameWidth), height: \(frameHeight))
            """, width: 500, height: 500, ["shape": [250 - width / 2, 250 - height / 2, width, height]])
    }

    @Test(arguments: [
        ("topLeading", 200.0, 200.0), ("center", 225, 225), ("bottomTrailing", 250, 250), ("bottom", 225, 250),
    ])
    func tokamakContainedLayers(alignment: String, x: Double, y: Double) throws {
        for layer in ["overlay", "background"] {
            try Self.check("""
                Color.red.frame(width: 100, height: 100).measure("primary")
                    .\(layer)(Color.blue.frame(width: 50, height: 50).measure("secondary"), alignment: .\(alignment))
                """, width: 500, height: 500, ["primary": [200, 200, 100, 100], "secondary": [x, y, 50, 50]])
        }
    }

    // MARK: StackTests (393 × 852)

    @Test func aFixedBoxAndAColorShareAVStack() throws {
        // 852 − 8 = 844; the box (inflexible) goes first and takes 50, the color the remaining 794; the box is
        // centred at (393 − 100) / 2 = 146.5.
        try Self.check("""
            VStack {
                Color.red.frame(width: 100, height: 50).measure("box")
                Color.blue.measure("color")
            }
            """, width: 393, height: 852, ["box": [146.5, 0, 100, 50], "color": [0, 58, 393, 794]])
    }

    @Test func aSpacerYieldsToItsSiblingsAndHasNoSpacingAroundIt() throws {
        try Self.check("""
            HStack {
                Color.red.frame(width: 50).measure("box")
                Spacer().measure("spacer")
                Color.blue.measure("color")
            }
            """, width: 393, height: 852,
            ["box": [0, 0, 50, 852], "spacer": [50, 426, 8, 0], "color": [58, 0, 335, 852]])
    }

    @Test func aHigherPriorityTakesEverythingButTheOthersMinimums() throws {
        try Self.check("""
            VStack {
                Color.red.measure("low")
                Color.blue.layoutPriority(1).measure("high")
            }
            """, width: 393, height: 852, ["low": [0, 0, 393, 0], "high": [0, 8, 393, 844]])
    }

    @Test func priorityGroupsReserveTheMinimumsOfLowerGroups() throws {
        // 393 − 16 = 377; minimums of lower groups: 60 + 40 → high gets 277, middle 60, low 40.
        try Self.check("""
            HStack {
                Color.red.frame(minWidth: 40).measure("low")
                Color.green.frame(width: 60).layoutPriority(1).measure("middle")
                Color.blue.layoutPriority(2).measure("high")
            }
            """, width: 393, height: 852,
            ["high": [116, 0, 277, 852], "middle": [48, 0, 60, 852], "low": [0, 0, 40, 852]])
    }

    @Test func equalSharesGoToTheLeastFlexibleFirst() throws {
        // The 0…100 frame is less flexible than the colours: it gets 393 / 3 = 131, keeps 100; the colours share
        // the 293 left: 146.5 each.
        try Self.check("""
            HStack(spacing: 0) {
                Color.red.measure("a")
                Color.green.frame(maxWidth: 100).measure("wide")
                Color.blue.measure("c")
            }
            """, width: 393, height: 852,
            ["a": [0, 0, 146.5, 852], "wide": [146.5, 0, 100, 852], "c": [246.5, 0, 146.5, 852]])
    }

    @Test func aSpacersMinimumLengthWinsOverALargerChild() throws {
        try Self.check("""
            HStack {
                Color.red.frame(width: 30, height: 50).measure("red")
                Spacer(minLength: 100).measure("spacer")
                Color.blue.frame(width: 30, height: 50).measure("blue")
            }
            .frame(width: 200, height: 80)
            """, ["red": [0, 75, 30, 50], "spacer": [30, 100, 140, 0], "blue": [170, 75, 30, 50]])
    }

    @Test(arguments: [("leading", 0.0), ("center", 146.5), ("trailing", 293)])
    func aVStackAlignsItsChildren(alignment: String, x: Double) throws {
        try Self.check("""
            VStack(alignment: .\(alignment)) {
                Color.red.frame(width: 100, height: 50).measure("box")
                Color.blue
            }
            """, width: 393, height: 852, ["box": [x, 0, 100, 50]])
    }

    @Test(arguments: [("top", 0.0), ("center", 25), ("bottom", 50)])
    func anHStackAlignsItsChildren(alignment: String, y: Double) throws {
        // The stack is 28 × 100, centred in the canvas: (182.5, 376).
        try Self.check("""
            HStack(alignment: .\(alignment)) {
                Color.red.frame(width: 10, height: 50).measure("small")
                Color.blue.frame(width: 10, height: 100)
            }
            .measure("stack")
            """, width: 393, height: 852, ["stack": [182.5, 376, 28, 100], "small": [182.5, 376 + y, 10, 50]])
    }

    @Test func anEmptyViewTakesNoSpaceAndNoSpacing() throws {
        // 10 + 8 + 10 = 28 wide, centred: x = 182.5, y = (852 − 10) / 2 = 421.
        try Self.check("""
            HStack {
                Color.red.frame(width: 10, height: 10).measure("first")
                EmptyView()
                Color.blue.frame(width: 10, height: 10).measure("second")
            }
            .measure("stack")
            """, width: 393, height: 852,
            ["stack": [182.5, 421, 28, 10], "first": [182.5, 421, 10, 10], "second": [200.5, 421, 10, 10]])
    }

    @Test(arguments: [
        // Between two ordinary views 8; next to a Spacer 0, also through a frame around it; a padded Spacer is an
        // ordinary view on its padded edges (10 + 8 + (1 + 8 + 1) + 8 + 10 = 46); an explicit spacing wins; an empty
        // stack has no spacing.
        ("HStack", "box\nbox", 28.0), ("HStack", "box\nSpacer()\nbox", 28),
        ("HStack", "box\nSpacer().frame(width: 20)\nbox", 40), ("HStack", "box\nSpacer().padding(1)\nbox", 46),
        ("HStack(spacing: 3)", "box\nbox", 23), ("HStack", "box\nHStack {}\nbox", 20),
    ])
    func spacingFollowsSwiftUIsSpacingPreferences(stack: String, content: String, width: Double) throws {
        let body = content.replacing("box", with: "Color.red.frame(width: 10, height: 10)")
        try Self.check("\(stack) {\n\(body)\n}\n.fixedSize()\n.measure(\"s\")", width: 393, height: 852, [
            "s": [(393 - width) / 2, 421, width, 10]
        ])
    }

    @Test func aNilProposalMakesEveryChildIdeal() throws {
        // Proposed nil, the colour is ideal (10) wide and takes the stack's 40 across: 10 + 8 + 30 = 48 × 40.
        try Self.check("""
            HStack {
                Color.red.measure("color")
                Color.blue.frame(width: 30, height: 40)
            }
            .fixedSize()
            .measure("stack")
            """, width: 393, height: 852, ["stack": [172.5, 406, 48, 40], "color": [172.5, 406, 10, 40]])
    }

    @Test func nestedStacksDivideTheCanvas() throws {
        // 844 / 2 = 422 each; the row's 393 − 8 = 385 → 192.5 each.
        try Self.check("""
            VStack {
                Color.red.measure("top")
                HStack {
                    Color.green.measure("left")
                    Color.blue.measure("right")
                }
            }
            """, width: 393, height: 852,
            ["top": [0, 0, 393, 422], "left": [0, 430, 192.5, 422], "right": [200.5, 430, 192.5, 422]])
    }
}
