import CanopyCore
import CanopyViews
import Testing

/// What cannot be laid out as SwiftUI does is a compile error that names it, never a different frame; and the
/// frames on the wire (the snapshot's, not a proxy's) follow the same arguments.
extension LayoutFidelityTests {
    @Test(arguments: [
        ("Grid { GridRow { Color.red } }", "'Grid'"), ("VStack { GridRow { Color.red } }", "'GridRow'"),
        ("Color.red.alignmentGuide(.leading) { d in d[.trailing] }", "'alignmentGuide'"),
        ("Color.red.safeAreaInset(edge: .bottom) { Color.blue }", "'safeAreaInset'"),
        ("Color.red.safeAreaPadding(10)", "'safeAreaPadding'"),
        ("Color.red.containerRelativeFrame(.horizontal)", "'containerRelativeFrame'"),
        ("ScrollView { Color.red }.contentMargins(10)", "'contentMargins'"),
        ("ScrollView { Color.red }.defaultScrollAnchor(.bottom)", "'defaultScrollAnchor'"),
        ("LazyVGrid(columns: []) { Color.red }", "'LazyVGrid'"),
        ("ViewThatFits { Color.red }", "'ViewThatFits'"),
        ("Color.red.matchedGeometryEffect(id: 1, in: namespace)", "'matchedGeometryEffect'"),
        ("Color.red.rotation3DEffect(.degrees(45), axis: (x: 1, y: 0, z: 0))", "'rotation3DEffect'"),
        ("Color.red.projectionEffect(.init())", "'projectionEffect'"),
        ("Color.red.transformEffect(.identity)", "'transformEffect'"),
        ("Color.red.frame(width: 10, height: 10, alignment: Alignment(.leading))", "Alignment takes (horizontal:vertical:)"),
    ])
    func unsupportedLayoutIsACompileErrorNamingIt(content: String, named: String) throws {
        do {
            _ = try Self.start(content)
            Issue.record("\(content) compiled")
        } catch let error as CanopyError {
            #expect(error.code == .compileError)
            #expect(error.message.contains(named), "\(error.message)")
        }
    }

    @Test func theSnapshotsFramesFollowTheSameArguments() throws {
        // No GeometryReader here (so no geometry prelude compiled but what the source needs): the frames the
        // client sees. `.padding(.init(…))` is an EdgeInsets, `100 / 8` a CGFloat (12.5), `.init(horizontal:
        // vertical:)` an alignment.
        let p = try ProgramFixture("""
            import SwiftUI
            struct ContentView: View {
                var body: some View {
                    VStack(spacing: 100 / 8) {
                        Color.red.frame(width: 50, height: 30).padding(.init(top: 1, leading: 2, bottom: 3, trailing: 4))
                        Color.blue.frame(width: 20, height: 20)
                            .frame(width: 100, height: 40, alignment: .init(horizontal: .trailing, vertical: .top))
                    }
                }
            }
            """, view: "ContentView", canvas: CanvasSpec(width: 200, height: 200))
        // Padded box 56 × 34 over the 100 × 40 frame, 12.5 apart: 86.5 high from y = 56.75, 100 wide from x = 50.
        let table = try #require(p.program.frameTable)
        #expect(table.frames["ContentView/0:VStack"] == [50, 57, 100, 86])
        #expect(table.frames["ContentView/0:VStack/0:Color"] == [72, 57, 56, 34])
        #expect(table.modifierFrames["ContentView/0:VStack/0:Color"]?.first?.frame == [74, 58, 50, 30])
        #expect(table.modifierFrames["ContentView/0:VStack/1:Color"]?.first?.frame == [130, 103, 20, 20])
    }

    @Test func aShapeStyleChainIsAColour() throws {
        try Self.check("""
            Color.red.frame(width: 100, height: 60)
                .background(.blue.opacity(0.5))
                .overlay(.red.opacity(0.2).measure("layer"))
                .measure("box")
            """, ["box": [50, 70, 100, 60], "layer": [50, 70, 100, 60]])
    }
}

/// RobustnessTests through programs: invalid values the program hands the layout are neutralised, never a NaN or
/// an infinite frame.
extension LayoutFidelityTests {
    @Test func invalidValuesAreNeutralised() throws {
        // Infinite spacing is the default 8; infinite padding none; a NaN offset none on its axis; a NaN minimum
        // length the default 8; a NaN priority 0. Fixed size: 20 + 8 + 20 + 8 + 20 = 76 high, centred at (90, 62).
        let p = try Self.start("""
            VStack(spacing: .infinity) {
                Color.red.frame(width: 20, height: 20).padding(.infinity).measure("padded")
                Color.blue.frame(width: 20, height: 20).measure("moved").offset(x: .nan, y: 3)
                Spacer(minLength: .nan).measure("spacer")
                Color.green.frame(width: 20, height: 20).layoutPriority(.nan).measure("last")
            }
            .fixedSize()
            """)
        Self.expect(
            p,
            [
                "padded": [90, 62, 20, 20], "moved": [90, 93, 20, 20], "spacer": [100, 110, 0, 8],
                "last": [90, 118, 20, 20],
            ],
            warnings: [
                "Invalid padding (non-finite); 0 is used.", "Invalid offset (non-finite); 0 is used.",
                "Invalid Spacer minLength (non-finite); the default is used.", "Invalid layout priority (NaN); 0 is used.",
                "Invalid stack spacing (non-finite); the default is used.",
            ])
    }

    @Test func invalidFrameDimensionsAreIgnoredWithSwiftUIsWarning() throws {
        try Self.check("Color.red.frame(width: -5, height: .nan).measure(\"color\").frame(width: 30, height: 30)",
            ["color": [85, 85, 30, 30]], warnings: ["Invalid frame dimension (negative or non-finite)."])
        try Self.check("Color.red.frame(width: .infinity, height: 30).measure(\"color\")",
            ["color": [0, 85, 200, 30]], warnings: ["Invalid frame dimension (negative or non-finite)."])
    }
}
