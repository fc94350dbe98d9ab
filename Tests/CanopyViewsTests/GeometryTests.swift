import CanopyCore
import CanopyViews
import Testing

/// Frames measured the way real code measures them (LAYOUT.md, Fidelity): a `.background(GeometryReader { … })`
/// writes `proxy.frame(in:)` into a `[String: CGRect]` key, read by the root's `onPreferenceChange` into a cell,
/// on a bare canvas. The expected numbers follow from SwiftUI's rules (LAYOUT.md §3), derived by hand.
@Suite struct GeometryTests {
    static let measuring = """
        import SwiftUI

        struct FramesKey: PreferenceKey {
            static var defaultValue: [String: CGRect] = [:]
            static func reduce(value: inout [String: CGRect], nextValue: () -> [String: CGRect]) {
                value.merge(nextValue()) { $1 }
            }
        }

        extension View {
            func measure(_ name: String, in space: CoordinateSpace = .global) -> some View {
                background(
                    GeometryReader { proxy in
                        Color.clear.preference(key: FramesKey.self, value: [name: proxy.frame(in: space)])
                    }
                )
            }
        }

        """

    /// A program measuring with `measure(_:)`, its root `ContentView` with `content` as the view the cell reads.
    static func program(_ content: String) -> String {
        measuring + """
            struct ContentView: View {
                @State var frames: [String: CGRect] = [:]
                var body: some View {
                    \(content)
                        .onPreferenceChange(FramesKey.self) { frames = $0 }
                }
            }
            """
    }

    /// The measured frames as `[x, y, width, height]` by name.
    static func frames(_ p: ProgramFixture) -> [String: [Double]] {
        var out: [String: [Double]] = [:]
        guard let o = p.cell("ContentView", "frames")?.object else { return out }
        for name in o.keys {
            guard let r = o[name], let origin = r["origin"], let size = r["size"] else { continue }
            out[name] = [origin["x"], origin["y"], size["width"], size["height"]].map { $0?.number ?? .nan }
        }
        return out
    }

    static func start(_ content: String, width: Double = 200, height: Double = 200) throws -> ProgramFixture {
        try ProgramFixture(program(content), view: "ContentView", canvas: CanvasSpec(width: width, height: height))
    }

    @Test func anHStackGivesTheFlexibleChildWhatTheFixedOneLeaves() throws {
        let p = try Self.start("""
            HStack(spacing: 0) {
                Color.red.frame(width: 50).measure("a")
                Color.blue.measure("b")
            }
            .frame(height: 100)
            .measure("stack")
            """)
        let f = Self.frames(p)
        #expect(f["a"] == [0, 50, 50, 100])
        #expect(f["b"] == [50, 50, 150, 100])
        #expect(f["stack"] == [0, 50, 200, 100])
    }

    @Test func paddingAndAVStackAreCentredInTheCanvas() throws {
        let p = try Self.start("""
            VStack(spacing: 10) {
                Color.red.frame(width: 100, height: 40).measure("a")
                Color.green.frame(width: 60, height: 20).measure("b")
            }
            .padding(20)
            .measure("padded")
            """)
        let f = Self.frames(p)
        #expect(f["padded"] == [30, 45, 140, 110])
        #expect(f["a"] == [50, 65, 100, 40])
        #expect(f["b"] == [70, 115, 60, 20])
    }

    @Test func aRootLargerThanTheCanvasIsCentredToo() throws {
        let p = try Self.start("Color.red.frame(width: 300, height: 100).measure(\"r\")")
        #expect(Self.frames(p)["r"] == [-50, 50, 300, 100])
    }

    @Test func anOffsetMovesWhatItModifiesButNotABackgroundAddedAfterIt() throws {
        let p = try Self.start("""
            ZStack {
                Color.red.frame(width: 50, height: 50).measure("inside").offset(x: 10, y: 20)
                Color.blue.frame(width: 50, height: 50).offset(x: 10, y: 20).measure("outside")
            }
            """)
        let f = Self.frames(p)
        #expect(f["inside"] == [85, 95, 50, 50])
        #expect(f["outside"] == [75, 75, 50, 50])
    }

    @Test func theSafeAreaInsetsTheRoot() throws {
        let canvas = CanvasSpec(width: 393, height: 852, safeArea: .init(top: 59, bottom: 34), scale: 3)
        let p = try ProgramFixture(
            Self.program("Color.red.measure(\"all\")"), view: "ContentView", canvas: canvas)
        #expect(Self.frames(p)["all"] == [0, 59, 393, 759])
    }

    @Test func aScrollOffsetMovesTheContentInANamedSpaceAndIsClamped() throws {
        var p = try Self.start("""
            ScrollView {
                VStack(spacing: 0) {
                    ForEach(0..<10, id: \\.self) { i in
                        Color.red.frame(height: 50).measure("row\\(i)", in: .named("scroll"))
                    }
                }
            }
            .coordinateSpace(name: "scroll")
            """)
        #expect(Self.frames(p)["row2"] == [0, 100, 200, 50])
        let scroll = "ContentView/0:ScrollView"
        try p.send(scroll, "scroll", ["x": 0, "y": 120])
        #expect(Self.frames(p)["row2"] == [0, -20, 200, 50])
        #expect(p.last.scroll.first?.offset == [0, 120])
        try p.send(scroll, "scroll", ["y": 1000])
        #expect(p.last.scroll.first?.offset == [0, 300])
        #expect(Self.frames(p)["row9"] == [0, 150, 200, 50])
    }

    @Test func aResizeLaysTheTreeOutAgainAndTheReadersSeeIt() throws {
        var p = try Self.start("Color.red.measure(\"all\")")
        #expect(Self.frames(p)["all"] == [0, 0, 200, 200])
        try p.send(nil, "resize", ["width": 300, "height": 100])
        #expect(Self.frames(p)["all"] == [0, 0, 300, 100])
        #expect(p.last.canvas?.width == 300)
        #expect(p.last.frames.contains { $0.node == "ContentView" && $0.frame == [0, 0, 300, 100] })
    }

    @Test func badScrollsAndResizesChangeNothing() throws {
        var p = try Self.start("ScrollView { Color.red.frame(height: 500) }")
        let version = p.tree.version
        #expect(p.failure(nil, "resize", ["width": -1, "height": 100]) == .badEvent)
        #expect(p.failure(nil, "resize", ["device": "Nokia 3310"]) == .badEvent)
        #expect(p.failure("ContentView/0:ScrollView", "scroll", ["y": "far"]) == .typeMismatch)
        #expect(p.failure("ContentView/0:ScrollView/0:Color", "scroll", ["y": 1]) == .badEvent)
        #expect(p.tree.version == version)
    }

    @Test func everyNodeOfTheSnapshotHasItsFrame() throws {
        let p = try Self.start("VStack { Color.red.frame(width: 20, height: 20).padding(5) }")
        let table = try #require(p.program.frameTable)
        #expect(table.frames["ContentView/0:VStack/0:Color"] == [85, 85, 30, 30])
        #expect(table.modifierFrames["ContentView/0:VStack/0:Color"]?.map(\.modifier) == [0, 1])
        #expect(table.modifierFrames["ContentView/0:VStack/0:Color"]?.first?.frame == [90, 90, 20, 20])
        #expect(table.textModel.hasPrefix("canopy-text-"))
    }

    @Test func invalidFrameDimensionsAreIgnoredWithAWarningAsSwiftUILogsThem() throws {
        let p = try Self.start("Color.red.frame(width: -10, height: .nan).frame(width: 20, height: 20).measure(\"c\")")
        #expect(p.last.warnings.contains { $0.contains("Invalid frame dimension") })
        #expect(Self.frames(p)["c"] == [90, 90, 20, 20])
    }

    @Test func aTreeTooDeepToLayOutIsAnErrorAndNothingIsMade() throws {
        let source = """
            import SwiftUI
            struct Nest: View {
                let n: Int
                var body: some View {
                    if n > 0 { VStack { Nest(n: n - 1).padding(1) } } else { Color.red }
                }
            }
            struct ContentView: View {
                var body: some View { Nest(n: 200) }
            }
            """
        let code = errorCode { _ = try ProgramFixture(source, view: "ContentView", canvas: CanvasSpec(width: 100, height: 100)) }
        #expect(code == .runtimeError || code == .tooDeep)
    }

    @Test func aRestartedTreeIsScrolledWhereItWas() throws {
        let source = Self.program("""
            ScrollView {
                VStack(spacing: 0) {
                    ForEach(0..<10, id: \\.self) { i in Color.red.frame(height: 50).measure("row\\(i)") }
                }
            }
            """)
        var spec = ProgramSpec(source: source, view: "ContentView", canvas: CanvasSpec(width: 200, height: 200))
        spec.scrollOffsets = ["ContentView/0:ScrollView": [0, 120]]
        let start = try ViewRuntime().start(spec, state: ProgramState(), version: 0, limits: .default, trace: false)
        #expect(start.program.frameTable?.frames["ContentView/0:ScrollView/0:VStack"] == [0, -120, 200, 500])
    }

    @Test func onGeometryChangeRunsItsActionWhenTheValueChanges() throws {
        let source = """
            import SwiftUI
            struct ContentView: View {
                @State var width: CGFloat = 0
                @State var changes = 0
                var body: some View {
                    Color.red
                        .padding(10)
                        .onGeometryChange(for: CGFloat.self) { proxy in proxy.size.width } action: { old, new in
                            width = new
                            changes += 1
                        }
                }
            }
            """
        var p = try ProgramFixture(source, view: "ContentView", canvas: CanvasSpec(width: 200, height: 100))
        #expect(p.cell("ContentView", "width") == 200)
        #expect(p.cell("ContentView", "changes") == 1)
        try p.send(nil, "resize", ["width": 300, "height": 100])
        #expect(p.cell("ContentView", "width") == 300)
        #expect(p.cell("ContentView", "changes") == 2)
        // Same width: the action does not run.
        try p.send(nil, "resize", ["width": 300, "height": 150])
        #expect(p.cell("ContentView", "changes") == 2)
        // A restart with those cells runs nothing again.
        let restarted = try ProgramFixture(
            source, view: "ContentView", state: p.program.state, canvas: CanvasSpec(width: 300, height: 150))
        #expect(restarted.cell("ContentView", "changes") == 2)
    }

    @Test func aPreferenceValueOverlayRunsOnceTheValueIsThere() throws {
        let source = Self.measuring + """
            struct BoxKey: PreferenceKey {
                static var defaultValue: [String: Anchor<CGRect>] = [:]
                static func reduce(value: inout [String: Anchor<CGRect>], nextValue: () -> [String: Anchor<CGRect>]) {
                    value.merge(nextValue()) { $1 }
                }
            }
            struct ContentView: View {
                @State var frames: [String: CGRect] = [:]
                var body: some View {
                    VStack(spacing: 0) {
                        Color.red.frame(width: 40, height: 20).anchorPreference(key: BoxKey.self, value: .bounds) { ["box": $0] }
                        Color.blue.frame(width: 60, height: 30)
                    }
                    .overlayPreferenceValue(BoxKey.self) { anchors in
                        GeometryReader { proxy in
                            let r = proxy[anchors["box"]!]
                            Color.green.frame(width: r.width, height: 2).measure("line").offset(x: r.minX, y: r.maxY)
                        }
                    }
                    .onPreferenceChange(FramesKey.self) { frames = $0 }
                }
            }
            """
        let p = try ProgramFixture(source, view: "ContentView", canvas: CanvasSpec(width: 200, height: 200))
        // The VStack is 60 × 50 at (70, 75); the red box 40 × 20 at (80, 75); the line under it.
        #expect(Self.frames(p)["line"] == [80, 95, 40, 2])
        let restarted = try ProgramFixture(
            source, view: "ContentView", state: p.program.state, canvas: CanvasSpec(width: 200, height: 200))
        #expect(Self.frames(restarted)["line"] == [80, 95, 40, 2])
    }
}
