import CanopyCore
import CanopyViews
import Testing

/// The layout cases of Tests/CanopyLayoutTests that have no Text in them, and many more, run as the SwiftUI a user
/// writes: the program's body is laid out through ProgramLayout, and the frames are read the way real code and the
/// acceptance checks read them (GeometryTests: a `.background(GeometryReader { … })` writes `proxy.frame(in:)` into
/// a `[String: CGRect]` preference read by the root's `onPreferenceChange` into a cell), on a bare canvas of the
/// case's size. Each expected frame is the layout-level test's number, or derived by hand in a comment.
///
/// This file: the harness and the cases from OpenSwiftUI's UI tests (ReferenceTests). The other files extend the
/// suite by topic.
@Suite struct LayoutFidelityTests {
    /// A program whose root `ContentView` shows `content`; `declarations` (view structs, constants) follow it.
    /// `state` declares more properties of `ContentView`.
    static func program(_ content: String, state: String = "", declarations: String = "") -> String {
        GeometryTests.measuring + """
            struct ContentView: View {
                @State var frames: [String: CGRect] = [:]
                \(state)
                var body: some View {
                    \(content)
                        .onPreferenceChange(FramesKey.self) { frames = $0 }
                }
            }

            \(declarations)
            """
    }

    static func start(
        _ content: String, state: String = "", declarations: String = "", width: Double = 200, height: Double = 200,
        canvas: CanvasSpec? = nil
    ) throws -> ProgramFixture {
        try ProgramFixture(
            program(content, state: state, declarations: declarations), view: "ContentView",
            canvas: canvas ?? CanvasSpec(width: width, height: height))
    }

    /// Expects the named frames (`[x, y, width, height]`, as `proxy.frame(in:)` reports them) within floating-point
    /// noise, and no warning unless one is expected.
    static func expect(
        _ p: ProgramFixture, _ expected: [String: [Double]], warnings: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let measured = GeometryTests.frames(p)
        for (name, frame) in expected.sorted(by: { $0.key < $1.key }) {
            guard let got = measured[name] else {
                Issue.record("no frame measured for \(name)", sourceLocation: sourceLocation)
                continue
            }
            let same = got.count == 4 && zip(got, frame).allSatisfy { abs($0 - $1) <= 1e-9 }
            #expect(same, "\(name): \(got) instead of \(frame)", sourceLocation: sourceLocation)
        }
        #expect(p.last.warnings == warnings, sourceLocation: sourceLocation)
    }

    /// Lays `content` out on a `width` × `height` canvas and expects the frames.
    static func check(
        _ content: String, state: String = "", declarations: String = "", width: Double = 200, height: Double = 200,
        _ expected: [String: [Double]], warnings: [String] = [], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let p = try start(content, state: state, declarations: declarations, width: width, height: height)
        expect(p, expected, warnings: warnings, sourceLocation: sourceLocation)
    }

    // MARK: OpenSwiftUI's UI tests (200 × 200 host), as ReferenceTests restates them

    @Test func spacerInHStack() throws {
        try Self.check("""
            HStack {
                Color.red.frame(width: 50, height: 50).measure("red")
                Spacer().measure("spacer")
                Color.blue.frame(width: 50, height: 50).measure("blue")
            }
            .frame(width: 200, height: 80)
            """, ["red": [0, 75, 50, 50], "spacer": [50, 100, 100, 0], "blue": [150, 75, 50, 50]])
    }

    @Test func multipleSpacersInHStack() throws {
        // The 250-wide frame overflows the 200 host: it is centred at x = −25.
        try Self.check("""
            HStack {
                Color.red.frame(width: 40, height: 50).measure("a")
                Spacer().measure("s")
                Color.green.frame(width: 40, height: 50).measure("b")
                Spacer()
                Color.blue.frame(width: 40, height: 50).measure("c")
            }
            .frame(width: 250, height: 80)
            """, ["a": [-25, 75, 40, 50], "s": [15, 100, 65, 0], "b": [80, 75, 40, 50], "c": [185, 75, 40, 50]])
    }

    @Test func spacerWithZeroMinLength() throws {
        try Self.check("""
            HStack {
                Color.red.frame(width: 80, height: 50).measure("red")
                Spacer(minLength: 0).measure("spacer")
                Color.blue.frame(width: 80, height: 50).measure("blue")
            }
            .frame(width: 160, height: 80)
            """, ["red": [20, 75, 80, 50], "spacer": [100, 100, 0, 0], "blue": [100, 75, 80, 50]])
    }

    @Test func spacerInVStackWithoutFrame() throws {
        try Self.check("""
            VStack {
                Color.red.frame(width: 50, height: 50)
                Spacer().measure("spacer")
                Color.blue.frame(width: 50, height: 50).measure("blue")
            }
            .measure("stack")
            .background(Color.black)
            """, ["stack": [75, 0, 50, 200], "spacer": [100, 50, 0, 100], "blue": [75, 150, 50, 50]])
    }

    @Test func nestedStacksWithSpacers() throws {
        try Self.check("""
            VStack {
                HStack {
                    Color.red.frame(width: 40, height: 40)
                    Spacer()
                    Color.blue.frame(width: 40, height: 40).measure("blue")
                }
                .measure("top")
                Spacer().measure("middle")
                HStack {
                    Spacer()
                    Color.green.frame(width: 40, height: 40).measure("green")
                    Spacer()
                    Color.yellow.frame(width: 40, height: 40).measure("yellow")
                    Spacer()
                }
            }
            .frame(width: 200, height: 200)
            """, [
                "top": [0, 0, 200, 40], "blue": [160, 0, 40, 40], "middle": [100, 40, 0, 120],
                "green": [40, 160, 40, 40], "yellow": [120, 160, 40, 40],
            ])
    }

    @Test func elementFrameAlignmentHVStack() throws {
        try Self.check("""
            VStack(alignment: .leading) {
                Color.red.frame(width: 30, height: 30).measure("red")
                Color.blue.frame(width: 40, height: 40).measure("blue")
                HStack(alignment: .top) {
                    Color.green.frame(width: 50, height: 50).measure("green")
                    Color.yellow.frame(width: 60, height: 60).measure("yellow")
                }
            }
            .background(Color.black.measure("black"))
            """, [
                "black": [41, 27, 118, 146], "red": [41, 27, 30, 30], "blue": [41, 65, 40, 40],
                "green": [41, 113, 50, 50], "yellow": [99, 113, 60, 60],
            ])
    }

    @Test func stackFrameElementFrameHVStack() throws {
        try Self.check("""
            VStack {
                Color.red.frame(width: 40, height: 40).measure("red")
                Color.blue.frame(width: 40, height: 40).measure("blue")
                HStack {
                    Color.green.frame(width: 40, height: 40).measure("green")
                    Color.yellow.frame(width: 40, height: 40).measure("yellow")
                }
            }
            .measure("stack")
            .frame(width: 150, height: 150)
            """, [
                "stack": [56, 32, 88, 136], "red": [80, 32, 40, 40], "blue": [80, 80, 40, 40],
                "green": [56, 128, 40, 40], "yellow": [104, 128, 40, 40],
            ])
    }

    @Test func defaultHVStack() throws {
        // (200 − 16) / 3 = 61.333 each.
        let third = 184.0 / 3
        try Self.check("""
            VStack {
                Color.red
                Color.blue.measure("blue")
                HStack {
                    Color.green
                    Color.yellow.measure("yellow")
                }
                .measure("row")
            }
            """, [
                "blue": [0, third + 8, 200, third], "row": [0, 2 * (third + 8), 200, third],
                "yellow": [104, 2 * (third + 8), 96, third],
            ])
    }

    @Test func layoutPriorityForHVStack() throws {
        try Self.check("""
            VStack {
                Color.red.measure("red")
                Color.blue.layoutPriority(1).measure("blue")
                HStack {
                    Color.green
                    Color.yellow
                }
                .measure("row")
            }
            """, ["red": [0, 0, 200, 0], "blue": [0, 8, 200, 184], "row": [0, 200, 200, 0]])
    }

    @Test func sameSizeInVStack() throws {
        try Self.check("""
            VStack(spacing: 20) {
                Color.red.measure("red")
                Color.yellow.frame(width: 10, height: 10).measure("yellow")
                Color.blue.measure("blue")
            }
            """, ["red": [0, 0, 200, 75], "yellow": [95, 95, 10, 10], "blue": [0, 125, 200, 75]])
    }

    @Test(arguments: [
        ("center", 90.0, 90.0), ("top", 90, 70), ("bottom", 90, 110), ("leading", 70, 90), ("trailing", 110, 90),
        ("topLeading", 70, 70), ("topTrailing", 110, 70), ("bottomLeading", 70, 110), ("bottomTrailing", 110, 110),
    ])
    func zstackAlignment(alignment: String, x: Double, y: Double) throws {
        try Self.check("""
            ZStack(alignment: .\(alignment)) {
                Color.red.frame(width: 60, height: 60).measure("red")
                Color.blue.frame(width: 20, height: 20).measure("blue")
            }
            """, ["red": [70, 70, 60, 60], "blue": [x, y, 20, 20]])
    }

    @Test func zstackLayoutPriority() throws {
        try Self.check("""
            ZStack(alignment: .leading) {
                Color.blue.frame(width: 100, height: 100).layoutPriority(-0.1).measure("blue")
                Color.red.frame(width: 60, height: 60).measure("red")
                Color.green.frame(width: 40, height: 40).layoutPriority(1).measure("green")
            }
            .measure("stack")
            .overlay(Color.black.frame(width: 20, height: 20).measure("black"))
            """, [
                "stack": [80, 80, 40, 40], "blue": [80, 50, 100, 100], "red": [80, 70, 60, 60],
                "green": [80, 80, 40, 40], "black": [90, 90, 20, 20],
            ])
    }

    @Test func overlayAndBackground() throws {
        let expected: [String: [Double]] = ["green": [0, 0, 100, 100], "blue": [100, 100, 100, 100]]
        // The `.overlay(_:alignment:)` form…
        try Self.check("""
            ZStack(alignment: .leading) {
                Color.red.frame(width: 200, height: 200)
            }
            .overlay(Color.green.frame(width: 100, height: 100).measure("green"), alignment: .topLeading)
            .background(Color.blue.frame(width: 100, height: 100).measure("blue"), alignment: .bottomTrailing)
            """, expected)
        // … and iOS 15's `.overlay(alignment:content:)`.
        try Self.check("""
            ZStack(alignment: .leading) {
                Color.red.frame(width: 200, height: 200)
            }
            .overlay(alignment: .topLeading) {
                Color.green.frame(width: 100, height: 100).measure("green")
            }
            .background(alignment: .bottomTrailing) {
                Color.blue.frame(width: 100, height: 100).measure("blue")
            }
            """, expected)
    }

    @Test func positionInZStack() throws {
        try Self.check("""
            ZStack {
                Color.red.frame(width: 50, height: 50).measure("red").position()
                Color.green.frame(width: 50, height: 50).measure("green").position(x: 50)
                Color.blue.frame(width: 50, height: 50).measure("blue").position(y: 50)
                Color.black.frame(width: 50, height: 50).measure("black").position(x: 50, y: 50)
            }
            .frame(width: 100, height: 100)
            """, ["red": [25, 25, 50, 50], "green": [75, 25, 50, 50], "blue": [25, 75, 50, 50], "black": [75, 75, 50, 50]])
    }

    @Test func aspectRatioHalfInRect() throws {
        try Self.check("""
            ZStack {
                Color.red.measure("red").aspectRatio(0.5, contentMode: .fit).frame(width: 100, height: 50)
                Color.green.measure("green").aspectRatio(0.5, contentMode: .fill).frame(width: 50, height: 100)
            }
            .frame(width: 100, height: 100)
            """, ["red": [87.5, 75, 25, 50], "green": [75, 50, 50, 100]])
    }

    @Test func aspectRatioTwoInSquare() throws {
        try Self.check("""
            ZStack {
                Color.red.measure("red").aspectRatio(2, contentMode: .fit).frame(width: 100, height: 50)
                Color.green.measure("green")
                    .aspectRatio(CGSize(width: 20, height: 10), contentMode: .fill)
                    .frame(width: 50, height: 100)
            }
            .frame(width: 100, height: 100)
            """, ["red": [50, 75, 100, 50], "green": [0, 50, 200, 100]])
    }

    @Test func aspectRatioNilInSquare() throws {
        let expected: [String: [Double]] = ["red": [75, 75, 50, 50], "green": [50, 50, 100, 100]]
        try Self.check("""
            ZStack {
                Color.red.measure("red").aspectRatio(contentMode: .fit).frame(width: 100, height: 50)
                Color.green.measure("green").aspectRatio(nil, contentMode: .fill).frame(width: 50, height: 100)
            }
            .frame(width: 200, height: 200)
            """, expected)
        try Self.check("""
            ZStack {
                Color.red.measure("red").scaledToFit().frame(width: 100, height: 50)
                Color.green.measure("green").scaledToFill().frame(width: 50, height: 100)
            }
            .frame(width: 200, height: 200)
            """, expected)
    }

    @Test func colorFixedSize() throws {
        try Self.check("""
            ZStack {
                Color.red.measure("red").fixedSize(horizontal: true, vertical: false).frame(width: 100, height: 100)
                Color.green.measure("green").fixedSize(horizontal: false, vertical: true).frame(width: 100, height: 100)
                Color.blue.measure("blue").fixedSize(horizontal: false, vertical: false).frame(width: 100, height: 100)
            }
            """, ["red": [95, 50, 10, 100], "green": [50, 95, 100, 10], "blue": [50, 50, 100, 100]])
    }

    @Test func geometryReaderOverlap() throws {
        // `200 / 3` is a CGFloat division in Swift (66.667), not an integer one.
        let third = 200.0 / 3
        let expected: [String: [Double]] = ["blue": [0, 0, 100, 100], "red": [0, 0, third, third]]
        try Self.check("""
            GeometryReader { proxy in
                Color.blue.frame(width: 100, height: 100).measure("blue")
                Color.red.frame(width: proxy.size.width / 3, height: proxy.size.height / 3).measure("red")
            }
            """, expected)
        try Self.check("""
            GeometryReader { _ in
                Color.blue.frame(width: 100, height: 100).measure("blue")
                Color.red.frame(width: 200 / 3, height: 200 / 3).measure("red")
            }
            """, expected)
    }

    @Test func edgeInsetsPadding() throws {
        try Self.check("""
            Color.blue.frame(width: 50, height: 30).measure("blue")
                .padding(EdgeInsets(top: 10, leading: 20, bottom: 30, trailing: 15))
                .measure("padded")
                .background(Color.black)
            """, ["padded": [57.5, 65, 85, 70], "blue": [77.5, 75, 50, 30]])
    }

    @Test func nestedPadding() throws {
        try Self.check("""
            Color.blue.frame(width: 50, height: 30).measure("inner")
                .padding(10)
                .background(Color.red)
                .padding(20)
                .measure("loose")
                .background(Color.black)
            """, ["loose": [45, 55, 110, 90], "inner": [75, 85, 50, 30]])
    }

    @Test func paddingInHStack() throws {
        try Self.check("""
            HStack(spacing: 0) {
                Color.red.frame(width: 50).measure("left")
                    .padding(.trailing, 25)
                    .background(Color.gray)
                Color.blue.frame(width: 50).measure("right")
                    .padding(.leading, 15)
                    .background(Color.gray)
            }
            """, ["left": [30, 0, 50, 200], "right": [120, 0, 50, 200]])
    }

    @Test func drawnFramesAreRoundedToThePixelGrid() throws {
        // The padded box of edgeInsetsPadding at @3x: 57.5 is drawn at 57.667 (halves up); the proxy says 57.5.
        let p = try Self.start("""
            Color.blue.frame(width: 50, height: 30)
                .padding(EdgeInsets(top: 10, leading: 20, bottom: 30, trailing: 15))
                .measure("padded")
            """, canvas: CanvasSpec(width: 200, height: 200, scale: 3))
        Self.expect(p, ["padded": [57.5, 65, 85, 70]])
        let table = try #require(p.program.frameTable)
        let padding = try #require(table.modifierFrames["ContentView/0:Color"]?.first { $0.modifier == 1 })
        #expect(padding.frame == [173.0 / 3, 65, 85, 70])
    }
}
