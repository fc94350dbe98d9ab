import CanopyCore
import CanopyViews
import Testing

/// Every way real code writes the arguments of the layout modifiers, on a 200 × 200 canvas; each case is one
/// modifier on a measured box, its expected frame derived from the rule in the comment.
extension LayoutFidelityTests {
    /// Properties of `ContentView` the cases name.
    static let values = """
        let gap: CGFloat = 8
        let insets = EdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4)
        let shift = CGSize(width: -3, height: 4)
        let point = CGPoint(x: 60, y: 70)
        let ratio: CGFloat = 2
        let corner: Alignment = .bottomTrailing
        let none: CGFloat? = nil
        let fixed = true
        """

    // Padding: a 50 × 30 box padded by (top, leading, bottom, trailing) is (50 + l + r) × (30 + t + b), centred;
    // the box is inset by (l, t).
    @Test(arguments: [
        (".padding()", [16.0, 16, 16, 16]), (".padding(8)", [8, 8, 8, 8]), (".padding(8.5)", [8.5, 8.5, 8.5, 8.5]),
        (".padding(10 / 4)", [2.5, 2.5, 2.5, 2.5]), (".padding(gap)", [8, 8, 8, 8]),
        (".padding(.horizontal)", [0, 16, 0, 16]), (".padding(.vertical)", [16, 0, 16, 0]),
        (".padding(.horizontal, 8)", [0, 8, 0, 8]), (".padding(.vertical, gap / 2)", [4, 0, 4, 0]),
        (".padding(.top)", [16, 0, 0, 0]), (".padding(.all, 10)", [10, 10, 10, 10]),
        (".padding(.bottom, 5)", [0, 0, 5, 0]), (".padding(.trailing, 3)", [0, 0, 0, 3]),
        (".padding([.top, .leading], 4)", [4, 4, 0, 0]), (".padding([.horizontal, .bottom], 6)", [0, 6, 6, 6]),
        (".padding([.top])", [16, 0, 0, 0]), (".padding(Edge.Set.horizontal, 8)", [0, 8, 0, 8]),
        (".padding(.leading, -8)", [0, -8, 0, 0]),
        (".padding(EdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4))", [1, 2, 3, 4]),
        (".padding(EdgeInsets())", [0, 0, 0, 0]), (".padding(insets)", [1, 2, 3, 4]),
        (".padding(EdgeInsets(top: 0.5, leading: 10 / 4, bottom: 0, trailing: gap))", [0.5, 2.5, 0, 8]),
        (".padding(8).padding(.top, 2)", [10, 8, 8, 8]), (".padding(.init(top: 1, leading: 2, bottom: 3, trailing: 4))", [1, 2, 3, 4]),
        (".padding(Edge.Set.vertical, 10 / 4)", [2.5, 0, 2.5, 0]),
    ] as [(String, [Double])])
    func paddingForms(modifier: String, insets: [Double]) throws {
        let (t, l, b, r) = (insets[0], insets[1], insets[2], insets[3])
        let (w, h) = (50 + l + r, 30 + t + b)
        let (x, y) = ((200 - w) / 2, (200 - h) / 2)
        let p = try Self.start(
            "Color.red.frame(width: 50, height: 30).measure(\"box\")\(modifier).measure(\"padded\")", state: Self.values)
        Self.expect(p, ["padded": [x, y, w, h], "box": [x + l, y + t, 50, 30]])
    }

    // Frames of a Colour (which takes any proposal) on the 200 × 200 canvas, centred.
    @Test(arguments: [
        (".frame(width: 50, height: 30)", [75.0, 85, 50, 30]), (".frame(width: 50)", [75, 0, 50, 200]),
        (".frame(height: 30)", [0, 85, 200, 30]), (".frame(width: nil, height: 30)", [0, 85, 200, 30]),
        (".frame(width: none, height: 30)", [0, 85, 200, 30]),
        (".frame(width: 100 / 3)", [(200 - 100.0 / 3) / 2, 0, 100.0 / 3, 200]),
        (".frame(width: gap * 5, height: gap + 2)", [80, 95, 40, 10]),
        (".frame(maxWidth: 50)", [75, 0, 50, 200]), (".frame(maxWidth: .infinity)", [0, 0, 200, 200]),
        (".frame(maxWidth: CGFloat.infinity, maxHeight: 50)", [0, 75, 200, 50]),
        (".frame(maxWidth: Double.infinity, maxHeight: 50)", [0, 75, 200, 50]),
        (".frame(maxWidth: .greatestFiniteMagnitude, maxHeight: 50)", [0, 75, 200, 50]),
        // min 300 > the proposed 200: the child is proposed 300 and the frame is max(min(200, 300), 300) = 300.
        (".frame(minWidth: 300)", [-50, 0, 300, 200]),
        (".frame(minWidth: 0, maxWidth: .infinity, minHeight: 0, maxHeight: .infinity)", [0, 0, 200, 200]),
        (".frame(minHeight: 20, maxHeight: 60)", [0, 70, 200, 60]),
        // Proposed nil, a flexible frame is its ideal.
        (".frame(idealWidth: 80, idealHeight: 40).fixedSize()", [60, 80, 80, 40]),
        (".frame(width: 50, height: 30, alignment: .topLeading)", [75, 85, 50, 30]),
        (".frame(width: true ? 50 : nil, height: false ? 10 : nil)", [75, 0, 50, 200]),
    ] as [(String, [Double])])
    func frameForms(modifier: String, frame: [Double]) throws {
        let p = try Self.start("Color.red\(modifier).measure(\"frame\")", state: Self.values)
        Self.expect(p, ["frame": frame])
    }

    // Flexible frames around a 50 × 50 box, where the bounds decide the frame's size: a maximum of ∞ (however it is
    // written) takes the proposed 200, a finite one clamps it, a minimum above the box's size wins, both bounds
    // clamp the proposal (200 → 80).
    @Test(arguments: [
        (".frame(maxWidth: .infinity)", [0.0, 75, 200, 50]), (".frame(maxWidth: CGFloat.infinity)", [0, 75, 200, 50]),
        (".frame(maxWidth: .greatestFiniteMagnitude)", [0, 75, 200, 50]),
        (".frame(maxWidth: CGFloat.greatestFiniteMagnitude)", [0, 75, 200, 50]),
        (".frame(maxWidth: Double.infinity, maxHeight: .infinity)", [0, 0, 200, 200]),
        (".frame(maxWidth: 120)", [40, 75, 120, 50]), (".frame(minWidth: 80)", [60, 75, 80, 50]),
        (".frame(minWidth: 10, maxWidth: 30)", [85, 75, 30, 50]), (".frame(minWidth: 100 / 8)", [75, 75, 50, 50]),
        (".frame(minWidth: 0, idealWidth: 70, maxWidth: .infinity).fixedSize()", [65, 75, 70, 50]),
        (".frame(minHeight: 60, maxHeight: 80)", [75, 60, 50, 80]),
        (".frame(maxWidth: .infinity, maxHeight: 50 * 2)", [0, 50, 200, 100]),
    ] as [(String, [Double])])
    func flexibleFrameForms(modifier: String, frame: [Double]) throws {
        let p = try Self.start(
            "Color.red.frame(width: 50, height: 50)\(modifier).measure(\"frame\")", state: Self.values)
        Self.expect(p, ["frame": frame])
    }

    // A 20 × 20 box aligned in a 100 × 100 frame at (50, 50).
    @Test(arguments: [
        ("topLeading", 50.0, 50.0), ("Alignment.topLeading", 50, 50),
        ("Alignment(horizontal: .leading, vertical: .top)", 50, 50), (".init(horizontal: .trailing, vertical: .center)", 130, 90),
        ("Alignment(horizontal: HorizontalAlignment.center, vertical: VerticalAlignment.bottom)", 90, 130),
        ("corner", 130, 130), (".leading", 50, 90), (".center", 90, 90), (".bottom", 90, 130),
        ("Alignment(horizontal: .trailing, vertical: .firstTextBaseline)", 130, 130), (".leadingLastTextBaseline", 50, 130),
    ] as [(String, Double, Double)])
    func alignmentForms(alignment: String, x: Double, y: Double) throws {
        let written = alignment.first!.isLetter && alignment.first!.isLowercase && alignment != "corner" ? "." + alignment : alignment
        for frame in ["width: 100, height: 100", "minWidth: 100, maxWidth: 100, minHeight: 100, maxHeight: 100"] {
            let p = try Self.start(
                "Color.red.frame(width: 20, height: 20).measure(\"box\").frame(\(frame), alignment: \(written))",
                state: Self.values)
            Self.expect(p, ["box": [x, y, 20, 20]])
        }
        let p = try Self.start(
            "ZStack(alignment: \(written)) { Color.blue.frame(width: 100, height: 100); Color.red.frame(width: 20, height: 20).measure(\"box\") }",
            state: Self.values)
        Self.expect(p, ["box": [x, y, 20, 20]])
    }

    // Stacks of a 10 × 50 box ("small") and a 10 × 100 one ("tall") in a row, or 50 × 10 and 100 × 10 in a column.
    @Test(arguments: [
        // 10 + 4 + 10 = 24 wide at x = 88, 100 high at y = 50.
        ("HStack(alignment: .top, spacing: 4)", [88.0, 50, 10, 50], [102.0, 50, 10, 100]),
        ("HStack(alignment: VerticalAlignment.bottom, spacing: 0)", [90, 100, 10, 50], [100, 50, 10, 100]),
        ("HStack(spacing: gap * 2)", [82, 75, 10, 50], [108, 50, 10, 100]),
        // Views without text align their bottoms on a text baseline.
        ("HStack(alignment: .firstTextBaseline)", [86, 100, 10, 50], [104, 50, 10, 100]),
        ("HStack(alignment: .lastTextBaseline, spacing: 0)", [90, 100, 10, 50], [100, 50, 10, 100]),
        ("HStack(spacing: 2.5)", [88.75, 75, 10, 50], [101.25, 50, 10, 100]),
    ] as [(String, [Double], [Double])])
    func hstackForms(stack: String, small: [Double], tall: [Double]) throws {
        let p = try Self.start("""
            \(stack) {
                Color.red.frame(width: 10, height: 50).measure("small")
                Color.blue.frame(width: 10, height: 100).measure("tall")
            }
            """, state: Self.values)
        Self.expect(p, ["small": small, "tall": tall])
    }

    @Test(arguments: [
        // 100 wide at x = 50; 10 + s + 10 high.
        ("VStack(alignment: .leading, spacing: 0)", [50.0, 90, 50, 10], [50.0, 100, 100, 10]),
        ("VStack(alignment: HorizontalAlignment.trailing, spacing: 2)", [100, 89, 50, 10], [50, 101, 100, 10]),
        ("VStack(spacing: gap)", [75, 86, 50, 10], [50, 104, 100, 10]),
        ("VStack(alignment: .center)", [75, 86, 50, 10], [50, 104, 100, 10]),
        ("LazyVStack(alignment: .leading, spacing: 0)", [50, 90, 50, 10], [50, 100, 100, 10]),
    ] as [(String, [Double], [Double])])
    func vstackForms(stack: String, small: [Double], wide: [Double]) throws {
        let p = try Self.start("""
            \(stack) {
                Color.red.frame(width: 50, height: 10).measure("small")
                Color.blue.frame(width: 100, height: 10).measure("wide")
            }
            .fixedSize()
            """, state: Self.values)
        Self.expect(p, ["small": small, "wide": wide])
    }

    // A 50 × 50 box at (75, 75), offset.
    @Test(arguments: [
        (".offset(x: 10, y: 20)", 85.0, 95.0), (".offset(x: 10)", 85, 75), (".offset(y: -5)", 75, 70),
        (".offset(CGSize(width: 10, height: 20))", 85, 95), (".offset(shift)", 72, 79), (".offset(.zero)", 75, 75),
        (".offset(CGSize.zero)", 75, 75), (".offset(x: gap / 2, y: -gap)", 79, 67),
        (".offset(x: 10).offset(y: 10)", 85, 85), (".offset(.init(width: 10, height: 20))", 85, 95),
        (".offset(x: 10 / 4)", 77.5, 75),
    ] as [(String, Double, Double)])
    func offsetForms(modifier: String, x: Double, y: Double) throws {
        let p = try Self.start(
            "Color.red.frame(width: 50, height: 50).measure(\"box\")\(modifier).background(Color.gray.measure(\"layout\"))",
            state: Self.values)
        // The offset moves the box, not the layout: a background added after it stays at (75, 75).
        Self.expect(p, ["box": [x, y, 50, 50], "layout": [75, 75, 50, 50]])
    }

    // A 50 × 50 box centred at the position (in the 200 × 200 canvas, which the position takes whole).
    @Test(arguments: [
        (".position(x: 60, y: 70)", 60.0, 70.0), (".position(CGPoint(x: 60, y: 70))", 60, 70), (".position(point)", 60, 70),
        (".position(x: 60)", 60, 0), (".position(y: 70)", 0, 70), (".position(.zero)", 0, 0),
        (".position(CGPoint.zero)", 0, 0), (".position(x: 100 / 3, y: gap)", 100.0 / 3, 8),
        (".position(.init(x: 60, y: 70))", 60, 70), (".position(CGPoint(x: 100 / 3, y: 70))", 100.0 / 3, 70),
    ] as [(String, Double, Double)])
    func positionForms(modifier: String, x: Double, y: Double) throws {
        let p = try Self.start(
            "Color.red.frame(width: 50, height: 50).measure(\"box\")\(modifier).measure(\"positioned\")",
            state: Self.values)
        Self.expect(p, ["box": [x - 25, y - 25, 50, 50], "positioned": [0, 0, 200, 200]])
    }

    // A Colour in a 100 × 100 frame (at 50, 50), its size scaled to fit or fill the ratio, centred.
    @Test(arguments: [
        (".aspectRatio(2, contentMode: .fit)", 100.0, 50.0), (".aspectRatio(2, contentMode: .fill)", 200, 100),
        (".aspectRatio(0.5)", 50, 100), (".aspectRatio(ratio, contentMode: ContentMode.fit)", 100, 50),
        (".aspectRatio(CGSize(width: 16, height: 9), contentMode: .fit)", 100, 56.25),
        (".aspectRatio(16 / 9, contentMode: .fit)", 100, 56.25), (".aspectRatio(16.0 / 9.0)", 100, 56.25),
        (".aspectRatio(CGSize(width: 4, height: 3), contentMode: .fill)", 400.0 / 3, 100),
        // No ratio: the Colour's ideal 10 × 10, a square.
        (".aspectRatio(contentMode: .fit)", 100, 100), (".aspectRatio(nil, contentMode: .fill)", 100, 100),
        (".scaledToFit()", 100, 100), (".scaledToFill()", 100, 100),
        (".frame(width: 30, height: 10).scaledToFit()", 30, 10), (".aspectRatio(.init(width: 1, height: 2))", 50, 100),
        (".aspectRatio(4 / 3, contentMode: .fill)", 400.0 / 3, 100), (".aspectRatio(1 / 2)", 50, 100),
    ] as [(String, Double, Double)])
    func aspectRatioForms(modifier: String, width: Double, height: Double) throws {
        let p = try Self.start(
            "Color.red.measure(\"color\")\(modifier).frame(width: 100, height: 100)", state: Self.values)
        Self.expect(p, ["color": [100 - width / 2, 100 - height / 2, width, height]])
    }

    // fixedSize on a Colour: its ideal 10 on the fixed axes, the proposal on the others.
    @Test(arguments: [
        (".fixedSize()", [95.0, 95, 10, 10]), (".fixedSize(horizontal: true, vertical: false)", [95, 0, 10, 200]),
        (".fixedSize(horizontal: false, vertical: true)", [0, 95, 200, 10]),
        (".fixedSize(horizontal: fixed, vertical: !fixed)", [95, 0, 10, 200]),
    ] as [(String, [Double])])
    func fixedSizeForms(modifier: String, frame: [Double]) throws {
        let p = try Self.start("Color.red.measure(\"color\")\(modifier)", state: Self.values)
        Self.expect(p, ["color": frame])
    }

    // Two Colours in an HStack without spacing; the second's priority decides who goes first.
    @Test(arguments: [
        (".layoutPriority(1)", 0.0), (".layoutPriority(0.5)", 0), (".layoutPriority(Double(2))", 0),
        (".layoutPriority(-1)", 200), (".layoutPriority(0)", 100), (".layoutPriority(1 / 2)", 0),
    ] as [(String, Double)])
    func layoutPriorityForms(modifier: String, firstWidth: Double) throws {
        let p = try Self.start("""
            HStack(spacing: 0) {
                Color.red.measure("first")
                Color.blue\(modifier).measure("second")
            }
            """, state: Self.values)
        Self.expect(p, [
            "first": [0, 0, firstWidth, 200], "second": [firstWidth, 0, 200 - firstWidth, 200],
        ])
    }

    // A 20 × 20 secondary on a 100 × 100 primary at (50, 50).
    @Test(arguments: [
        (".overlay(badge)", 90.0, 90.0), (".overlay(badge, alignment: .topTrailing)", 130, 50),
        (".overlay(alignment: .topTrailing) { badge }", 130, 50), (".overlay { badge }", 90, 90),
        (".overlay(alignment: Alignment.bottom) { badge }", 90, 130),
        (".background(badge, alignment: .bottomLeading)", 50, 130), (".background(alignment: .leading) { badge }", 50, 90),
        (".background { badge }", 90, 90), (".background(badge)", 90, 90),
        // Several views stand in an implicit ZStack, centred; the alignment places that stack (60 × 60 at the
        // bottom-trailing corner: (90, 90)), not each view.
        (".overlay(alignment: .bottomTrailing) { Color.clear.frame(width: 60, height: 60); badge }", 110, 110),
        (".overlay(alignment: .bottom) { ForEach([60, 20], id: \\.self) { s in Color.clear.frame(width: s, height: s); badge } }", 90, 110),
        (".border(Color.gray, width: 2).overlay(badge, alignment: corner)", 130, 130),
        (".overlay(alignment: .init(horizontal: .leading, vertical: .bottom)) { badge }", 50, 130),
        (".background(alignment: Alignment(horizontal: .trailing, vertical: .top)) { badge }", 130, 50),
    ] as [(String, Double, Double)])
    func overlayForms(modifier: String, x: Double, y: Double) throws {
        let secondary = modifier.replacing(
            "badge", with: "Color.blue.frame(width: 20, height: 20).measure(\"badge\")")
        let p = try Self.start(
            "Color.red.frame(width: 100, height: 100).measure(\"primary\")\(secondary)", state: Self.values)
        Self.expect(p, ["primary": [50, 50, 100, 100], "badge": [x, y, 20, 20]])
    }

    // Shapes and colours as secondaries take the primary's size.
    @Test(arguments: [
        ".background(Color.blue.measure(\"layer\"))", ".overlay(Circle().stroke(Color.red, lineWidth: 2).measure(\"layer\"))",
        ".background(RoundedRectangle(cornerRadius: 8).fill(Color.blue).measure(\"layer\"))",
        ".overlay(Capsule().measure(\"layer\"), alignment: .top)", ".background(Ellipse().measure(\"layer\"))",
        ".background(Rectangle().foregroundColor(.blue).measure(\"layer\"))",
        ".background(Color.blue.opacity(0.5).measure(\"layer\"))", ".overlay { Color.clear.measure(\"layer\") }",
        ".background(Image(systemName: \"star\").resizable().measure(\"layer\"))",
    ] as [String])
    func layersTakeThePrimarysSize(modifier: String) throws {
        let p = try Self.start("Color.red.frame(width: 100, height: 60)\(modifier)")
        Self.expect(p, ["layer": [50, 70, 100, 60]])
    }

    // Shape styles, and shapes filled with one, are layers too: they take the primary's size and change nothing.
    @Test(arguments: [
        ".background(.blue)", ".overlay(.red)", ".background(.blue, in: Capsule())",
        ".background(Color.blue, in: RoundedRectangle(cornerRadius: 8))", ".background(in: Circle())",
    ])
    func shapeStylesAreLayoutNeutral(modifier: String) throws {
        let p = try Self.start("Color.red.frame(width: 100, height: 60)\(modifier).measure(\"box\")")
        Self.expect(p, ["box": [50, 70, 100, 60]])
        // The layer is a node of its own (a Color, or the shape), as big as the box.
        let layer = try #require(p.node("ContentView/0:Color")?.modifiers.compactMap(\.attached).first)
        #expect(p.program.frameTable?.frames[layer.id] == [50, 70, 100, 60])
    }

    // Spacer's minimum length, written every way.
    @Test(arguments: [
        ("Spacer()", 8.0), ("Spacer(minLength: 0)", 0), ("Spacer(minLength: 20)", 20), ("Spacer(minLength: gap * 3)", 24),
        ("Spacer(minLength: nil)", 8),
    ] as [(String, Double)])
    func spacerForms(spacer: String, length: Double) throws {
        // A fixed-size HStack: 10 + length + 10, centred.
        let p = try Self.start("""
            HStack {
                Color.red.frame(width: 10, height: 10)
                \(spacer).measure("spacer")
                Color.blue.frame(width: 10, height: 10)
            }
            .fixedSize()
            """, state: Self.values)
        let x = (200 - 20 - length) / 2 + 10
        Self.expect(p, ["spacer": [x, 100, length, 0]])
    }
}
