import CanopyCore
import CanopyViews
import Testing

/// Geometry effects and the safe area through programs, measured as real code measures (`measure(_:in:)`: a
/// background GeometryReader's `frame(in:)` into a preference read by the root). Expected numbers are derived by hand
/// from SwiftUI's rules (OpenSwiftUI `_ScaleEffect`, `_RotationEffect`, `ViewTransform`, `SafeAreaInsets`,
/// `_SafeAreaRegionsIgnoringLayout`); EffectTests and SafeAreaTests restate them for the engine.
extension LayoutFidelityTests {
    static let iPhone = CanvasSpec.standard

    static func checkOnIPhone(
        _ content: String, state: String = "", declarations: String = "", _ expected: [String: [Double]],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let p = try start(content, state: state, declarations: declarations, canvas: iPhone)
        expect(p, expected, sourceLocation: sourceLocation)
    }

    // MARK: scaleEffect and rotationEffect

    @Test func aScaledViewReportsItsScaledFrame() throws {
        // 100 × 50 centred below the 59 inset at (146.5, 413.5), scaled 2 around its centre; outside the effect the
        // frame is the layout's.
        try Self.checkOnIPhone("""
            Rectangle().frame(width: 100, height: 50)
                .measure("inside")
                .scaleEffect(2)
                .measure("outside")
            """, ["inside": [96.5, 388.5, 200, 100], "outside": [146.5, 413.5, 100, 50]])
    }

    @Test func everyFormOfScaleEffect() throws {
        // 40 × 20 centred in 200 × 200 at (80, 90).
        let box = "Color.red.frame(width: 40, height: 20).measure(\"box\")"
        for (effect, frame) in [
            ("scaleEffect(2)", [60.0, 80, 80, 40]),
            ("scaleEffect(0.5, anchor: .bottomTrailing)", [100.0, 100, 20, 10]),
            ("scaleEffect(x: 3, y: 0.5, anchor: .topLeading)", [80.0, 90, 120, 10]),
            ("scaleEffect(CGSize(width: 3, height: 0.5), anchor: .topLeading)", [80.0, 90, 120, 10]),
            ("scaleEffect(.init(width: 3, height: 0.5), anchor: UnitPoint(x: 0, y: 0))", [80.0, 90, 120, 10]),
            ("scaleEffect(x: -1)", [80.0, 90, 40, 20]),
            ("scaleEffect(y: 2, anchor: .top)", [80.0, 90, 40, 40]),
        ] {
            try Self.check("\(box).\(effect)", ["box": frame])
        }
        try Self.check(
            "\(box).scaleEffect(size)", state: "let size = CGSize(width: 2, height: 1)", ["box": [60, 90, 80, 20]])
    }

    @Test func aQuarterTurnIsExactAndTheLayoutIsUnchanged() throws {
        // 100 × 50 turned 90° around its centre (196.5, 438.5): 50 × 100, with no floating-point noise.
        for angle in [".degrees(90)", "Angle(degrees: 90)", ".radians(.pi / 2)", "Angle(radians: Double.pi / 2)",
            ".degrees(-270)", "Angle.degrees(45) * 2"]
        {
            let p = try Self.start(
                "Rectangle().frame(width: 100, height: 50).measure(\"box\").rotationEffect(\(angle))", canvas: Self.iPhone)
            #expect(GeometryTests.frames(p)["box"] == [171.5, 388.5, 50, 100], "\(angle)")
        }
        // Around the top-leading corner (146.5, 413.5): x ↦ −y, y ↦ x.
        try Self.checkOnIPhone("""
            Rectangle().frame(width: 100, height: 50).measure("box").rotationEffect(.degrees(90), anchor: .topLeading)
            """, ["box": [96.5, 413.5, 50, 100]])
    }

    @Test func anyOtherAngleIsTheBoundingBox() throws {
        // A 100 × 100 square turned 45° around its centre (100, 100): 100√2 wide.
        let side = 100 * 2.0.squareRoot()
        try Self.check("""
            Color.red.frame(width: 100, height: 100).measure("box").rotationEffect(.degrees(45))
            """, ["box": [100 - side / 2, 100 - side / 2, side, side]])
    }

    @Test func cornersGoThroughEveryEffectBeforeTheBoundingBox() throws {
        // 30° inside 15° is a 45° turn: a 20 × 20 square around (100, 100) spans 20√2 (ViewTransform maps the
        // corners through every step, then takes their bounding box).
        let side = 20 * 2.0.squareRoot()
        try Self.check("""
            Color.red.frame(width: 20, height: 20).measure("box").rotationEffect(.degrees(30)).rotationEffect(.degrees(15))
            """, ["box": [100 - side / 2, 100 - side / 2, side, side]])
    }

    @Test func nestedEffectsAndNamedSpacesCompose() throws {
        // box.rotationEffect(90°).offset(x: 30).scaleEffect(2, anchor: .topLeading), 20 × 10 at (90, 95) in
        // 200 × 200. The scale maps (x, y) ↦ (2x + 90, 2y + 95); the offset puts the rotation at (30, 0) in it; the
        // rotation around (10, 5) maps (x, y) ↦ (15 − y, x − 5). A space named inside an effect does not see it;
        // one named outside does.
        try Self.check("""
            Color.red.frame(width: 20, height: 10)
                .measure("global")
                .measure("inBox", in: .named("box"))
                .measure("inOffset", in: .named("offset"))
                .measure("inScale", in: .named("scale"))
                .coordinateSpace(name: "box")
                .rotationEffect(.degrees(90))
                .offset(x: 30)
                .coordinateSpace(name: "offset")
                .scaleEffect(2, anchor: .topLeading)
                .coordinateSpace(name: "scale")
            """, [
                "global": [160, 85, 20, 40], "inBox": [0, 0, 20, 10], "inOffset": [35, -5, 10, 20],
                "inScale": [70, -10, 20, 40],
            ])
    }

    @Test func aSpaceNamedInsideTheSameEffectIsUntransformed() throws {
        // In a scaled card, a row's frame in the card's space is its layout position; in the canvas it is scaled.
        try Self.check("""
            VStack(spacing: 0) {
                Color.red.frame(width: 40, height: 20)
                Color.blue.frame(width: 40, height: 20).measure("row", in: .named("card")).measure("global")
            }
            .coordinateSpace(name: "card")
            .scaleEffect(2)
            """, ["row": [0, 20, 40, 20], "global": [60, 100, 80, 40]])
    }

    @Test func aProgramsLayoutInsideAnEffect() throws {
        // The column is 40 × 40 at (80, 80); its bounds are in the scale's space, its subviews placed in them and
        // drawn scaled 2 around (100, 100).
        try Self.check("""
            Column {
                Color.red.frame(width: 40, height: 20).measure("a")
                Color.blue.frame(width: 40, height: 20).measure("b")
            }
            .scaleEffect(2)
            """, declarations: """
                struct Column: Layout {
                    func sizeThatFits(proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) -> CGSize {
                        var height: CGFloat = 0
                        var width: CGFloat = 0
                        for s in subviews {
                            let d = s.sizeThatFits(.unspecified)
                            height += d.height
                            width = max(width, d.width)
                        }
                        return CGSize(width: width, height: height)
                    }
                    func placeSubviews(in bounds: CGRect, proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) {
                        var y = bounds.minY
                        for s in subviews {
                            s.place(at: CGPoint(x: bounds.minX, y: y), proposal: .unspecified)
                            y += s.sizeThatFits(.unspecified).height
                        }
                    }
                }
                """, ["a": [60, 60, 80, 40], "b": [60, 100, 80, 40]])
    }

    @Test func aSiblingsNameIsNotASpaceAroundTheView() throws {
        // SwiftUI finds a name among the views around a view only (ViewTransform's chain): a sibling's is global.
        try Self.check("""
            HStack(spacing: 0) {
                Color.red.frame(width: 40, height: 20).coordinateSpace(name: "left")
                Color.blue.frame(width: 40, height: 20).measure("right", in: .named("left"))
            }
            """, ["right": [100, 90, 40, 20]])
    }

    @Test func theProxySizeIsTheLayoutSize() throws {
        try Self.check("""
            GeometryReader { proxy in
                Color.clear.preference(key: FramesKey.self, value: ["size": CGRect(origin: .zero, size: proxy.size)])
            }
            .frame(width: 100, height: 50)
            .scaleEffect(2)
            """, ["size": [0, 0, 100, 50]])
    }

    @Test func anchorsGoThroughTheEffects() throws {
        // The VStack is 40 × 40 at (80, 80); its first box scaled 2 is drawn at (60, 70, 80, 40): an anchor taken
        // inside the scale is that rect; one taken outside is the layout box. Turned 90°, a box's top-leading corner
        // is at (110, 80), not the bounding box's (90, 80).
        let source = Self.measuringAnchors("""
            VStack(spacing: 0) {
                Color.red.frame(width: 40, height: 20)
                    .anchorPreference(key: BoxKey.self, value: .bounds) { ["inside": $0] }
                    .scaleEffect(2)
                Color.blue.frame(width: 40, height: 20)
                    .scaleEffect(2)
                    .anchorPreference(key: BoxKey.self, value: .bounds) { ["outside": $0] }
            }
            """)
        let p = try ProgramFixture(source, view: "ContentView", canvas: CanvasSpec(width: 200, height: 200))
        Self.expect(p, ["inside": [-20, -10, 80, 40], "outside": [0, 20, 40, 20]])
        let corner = try ProgramFixture(Self.measuringAnchors("""
            VStack {
                Color.red.frame(width: 40, height: 20)
                    .anchorPreference(key: PointKey.self, value: .topLeading) { ["corner": $0] }
                    .rotationEffect(.degrees(90))
            }
            """), view: "ContentView", canvas: CanvasSpec(width: 200, height: 200))
        Self.expect(corner, ["corner": [30, -10, 0, 0]])
    }

    /// A program whose root overlays a GeometryReader that resolves `BoxKey`'s rect anchors and `PointKey`'s point
    /// anchors into its own space and writes them into `FramesKey`.
    static func measuringAnchors(_ content: String) -> String {
        GeometryTests.measuring + """
            struct BoxKey: PreferenceKey {
                static var defaultValue: [String: Anchor<CGRect>] = [:]
                static func reduce(value: inout [String: Anchor<CGRect>], nextValue: () -> [String: Anchor<CGRect>]) {
                    value.merge(nextValue()) { $1 }
                }
            }
            struct PointKey: PreferenceKey {
                static var defaultValue: [String: Anchor<CGPoint>] = [:]
                static func reduce(value: inout [String: Anchor<CGPoint>], nextValue: () -> [String: Anchor<CGPoint>]) {
                    value.merge(nextValue()) { $1 }
                }
            }
            struct ContentView: View {
                @State var frames: [String: CGRect] = [:]
                var body: some View {
                    \(content)
                    .overlayPreferenceValue(BoxKey.self) { boxes in
                        GeometryReader { proxy in
                            Color.clear.preference(key: FramesKey.self, value: boxes.mapValues { proxy[$0] })
                        }
                    }
                    .backgroundPreferenceValue(PointKey.self) { points in
                        GeometryReader { proxy in
                            Color.clear.preference(
                                key: FramesKey.self,
                                value: points.mapValues { CGRect(origin: proxy[$0], size: .zero) })
                        }
                    }
                    .onPreferenceChange(FramesKey.self) { frames = $0 }
                }
            }
            """
    }

    @Test func theWireFramesAreDrawnThroughTheEffect() throws {
        // On the pixel grid (1/3): 171.5 → 171.667, 388.5 → 388.667.
        let p = try ProgramFixture("""
            import SwiftUI
            struct ContentView: View {
                var body: some View {
                    Rectangle().frame(width: 100, height: 50).rotationEffect(.degrees(90))
                }
            }
            """, view: "ContentView", canvas: Self.iPhone)
        let table = try #require(p.program.frameTable)
        let frame = try #require(table.frames["ContentView/0:Rectangle"])
        #expect(zip(frame, [515.0 / 3, 1166.0 / 3, 50, 100]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(frame)")
        #expect(ViewRuntime.layoutDifference(p.program) == nil)
    }

    @Test func changingAnEffectReRunsTheReaders() throws {
        var p = try Self.start("""
            Button("grow") { big.toggle() }
                .frame(width: 40, height: 20)
                .measure("button")
                .scaleEffect(big ? 2 : 1)
            """, state: "@State var big = false")
        Self.expect(p, ["button": [80, 90, 40, 20]])
        let button = try #require(Self.find(p.tree.root, type: "Button"))
        try p.send(button, "tap")
        Self.expect(p, ["button": [60, 80, 80, 40]])
        #expect(ViewRuntime.layoutDifference(p.program) == nil)
    }

    @Test func aProgramsOwnAngleShadowsSwiftUIs() throws {
        // In Swift a program's type shadows SwiftUI's; the geometry prelude leaves `Angle` out then.
        let p = try ProgramFixture("""
            import SwiftUI
            struct Angle { var turns: Double }
            struct ContentView: View {
                let angle = Angle(turns: 2)
                var body: some View {
                    GeometryReader { proxy in Text("\\(angle.turns)") }
                }
            }
            """, view: "ContentView", canvas: CanvasSpec(width: 200, height: 200))
        #expect(p.program.frameTable?.frames["ContentView"] == [0, 0, 200, 200])
    }

    static func find(_ node: Node, type: String) -> String? {
        if node.type == type { return node.id }
        for child in node.children + node.modifiers.compactMap(\.attached) {
            if let found = find(child, type: type) { return found }
        }
        return nil
    }

    // MARK: The safe area

    static let insetsReader = """
        GeometryReader { proxy in
            Color.clear.preference(key: FramesKey.self, value: [name: CGRect(
                x: proxy.safeAreaInsets.leading, y: proxy.safeAreaInsets.top,
                width: proxy.safeAreaInsets.trailing, height: proxy.safeAreaInsets.bottom)])
        }
        """

    static let insetsDeclarations = """
        extension View {
            func insets(_ name: String) -> some View {
                background(\(insetsReader))
            }
        }
        """

    @Test func aViewFlushWithTheSafeAreasEdgeReportsTheInset() throws {
        // The root reader fills 393 × 759 at y = 59: top 59, bottom 34 (as [leading, top, trailing, bottom]). A
        // small centred view reaches no edge: 0.
        try Self.checkOnIPhone("""
            ZStack {
                Color.clear.insets("root")
                Color.red.frame(width: 100, height: 50).insets("small")
            }
            """, declarations: Self.insetsDeclarations, ["root": [0, 59, 0, 34], "small": [0, 0, 0, 0]])
    }

    @Test func insetsAreAQuestionTheBodyRunsAgainFor() throws {
        // A taller canvas with a taller bottom inset: the root is proposed and placed as before, so the reader's
        // frame is the same, but its bottom inset is 82, not 34.
        var p = try Self.start(
            "Color.clear.insets(\"root\")", declarations: Self.insetsDeclarations, canvas: Self.iPhone)
        Self.expect(p, ["root": [0, 59, 0, 34]])
        try p.send(nil, "resize", ["width": 393, "height": 900, "safeArea": ["top": 59, "bottom": 82], "scale": 3])
        Self.expect(p, ["root": [0, 59, 0, 82]])
        #expect(ViewRuntime.layoutDifference(p.program) == nil)
    }

    @Test func aViewIgnoringTheSafeAreaFillsTheCanvas() throws {
        try Self.checkOnIPhone(
            "Color.red.measure(\"color\").ignoresSafeArea().measure(\"modifier\")",
            ["color": [0, 0, 393, 852], "modifier": [0, 59, 393, 759]])
        try Self.checkOnIPhone(
            "Color.red.measure(\"color\").edgesIgnoringSafeArea(.all)", ["color": [0, 0, 393, 852]])
        try Self.checkOnIPhone(
            "Color.red.measure(\"color\").ignoresSafeArea(.container, edges: .bottom)", ["color": [0, 59, 393, 793]])
        // The keyboard's region alone: nothing to ignore.
        try Self.checkOnIPhone(
            "Color.red.measure(\"color\").ignoresSafeArea(.keyboard)", ["color": [0, 59, 393, 759]])
        // Filling the canvas, it reaches beyond no safe edge: its insets are 0.
        try Self.checkOnIPhone(
            "Color.red.insets(\"insets\").ignoresSafeArea()", declarations: Self.insetsDeclarations,
            ["insets": [0, 0, 0, 0]])
    }

    @Test func aBarIgnoringTheTopEdge() throws {
        try Self.checkOnIPhone("""
            VStack(spacing: 0) {
                Color.red.measure("bar").ignoresSafeArea(edges: .top).frame(height: 100).measure("frame")
                Spacer().measure("rest")
            }
            """, ["bar": [0, 0, 393, 159], "frame": [0, 59, 393, 100], "rest": [196.5, 159, 0, 659]])
    }

    @Test func aViewReachingIntoTheUnsafeAreaGetsTheRestOfIt() throws {
        // Its top at 39, 20 points into the 59-point unsafe band: its inset is the 39 above it, and ignoring the
        // safe area grows it to the canvas's top.
        try Self.checkOnIPhone("""
            ZStack {
                Color.red.frame(width: 50, height: 50).insets("box").position(x: 100, y: 5)
                Color.blue.measure("grown").ignoresSafeArea().frame(width: 50, height: 50).position(x: 300, y: 5)
            }
            """, declarations: Self.insetsDeclarations, ["box": [0, 39, 0, 0], "grown": [275, 0, 50, 89]])
    }

    @Test func aShapeStyleBackgroundGrowsIntoTheSafeArea() throws {
        // SwiftUI's `background(_:ignoresSafeAreaEdges: .all)`: the layer, not the view, reaches the canvas's edges.
        // The view form (a closure, an alignment) and `ignoresSafeAreaEdges: []` do not.
        for (modifier, grows) in [
            (".background(Color.blue)", true), (".background(.blue)", true), (".overlay(.blue.opacity(0.5))", true),
            (".background(Color.blue.opacity(0.5))", true), (".background(Color(red: 1, green: 0, blue: 0))", true),
            (".background(Color.blue, ignoresSafeAreaEdges: [])", false),
            (".background(Color.blue, ignoresSafeAreaEdges: .top)", true),
            (".background { Color.blue }", false), (".background(Color.blue, alignment: .center)", false),
        ] {
            let p = try ProgramFixture("""
                import SwiftUI
                struct ContentView: View {
                    var body: some View {
                        Color.clear.frame(maxWidth: .infinity, maxHeight: .infinity)\(modifier)
                    }
                }
                """, view: "ContentView", canvas: Self.iPhone)
            let table = try #require(p.program.frameTable)
            let layer = table.frames.first { $0.key.hasSuffix(":Color") && $0.key.contains("@") }?.value
            let expected: [Double] =
                grows ? (modifier.contains(".top") ? [0, 0, 393, 818] : [0, 0, 393, 852]) : [0, 59, 393, 759]
            #expect(layer == expected, "\(modifier): \(table.frames)")
        }
    }
}
