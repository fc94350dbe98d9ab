import CanopyCore
import CanopyViews
import Testing

/// How a body is put together — Group, ForEach, if, view structs, EmptyView, GeometryReader, ScrollView and
/// coordinate spaces — laid out as SwiftUI does; frames derived by hand on a 200 × 200 canvas.
extension LayoutFidelityTests {
    @Test func groupsForEachAndIfAreFlattenedIntoTheirStack() throws {
        // Five views in the row: (200 − 4 × 8) / 5 = 33.6 each, at 0, 41.6, 83.2, 124.8, 166.4.
        try Self.check("""
            HStack {
                Group {
                    Color.red.measure("g0")
                    Color.green.measure("g1")
                }
                ForEach(0..<2) { i in
                    Color.blue.measure("f\\(i)")
                }
                if shown {
                    Color.yellow.measure("shown")
                } else {
                    Color.black.measure("hidden")
                }
                if !shown {
                    Color.black.measure("absent")
                }
            }
            """, state: "let shown = true", [
                "g0": [0, 0, 33.6, 200], "g1": [41.6, 0, 33.6, 200], "f0": [83.2, 0, 33.6, 200],
                "f1": [124.8, 0, 33.6, 200], "shown": [166.4, 0, 33.6, 200],
            ])
    }

    @Test func aForEachElementMayMakeSeveralViews() throws {
        // Two elements of two views each, 10 high, spaced 8: 4 × 10 + 3 × 8 = 64, from y = 68.
        try Self.check("""
            VStack {
                ForEach(["a", "b"], id: \\.self) { name in
                    Color.red.frame(width: 50, height: 10).measure(name + "1")
                    Color.blue.frame(width: 30, height: 10).measure(name + "2")
                }
            }
            """, ["a1": [75, 68, 50, 10], "a2": [85, 86, 30, 10], "b1": [75, 104, 50, 10], "b2": [85, 122, 30, 10]])
        // Views of one type in an element are told apart by their place in it; a view of a type of its own keeps
        // `[id]:Type`.
        let p = try Self.start("""
            VStack {
                ForEach(["a"], id: \\.self) { name in
                    Color.red
                    Rectangle()
                    Color.blue
                }
            }
            """)
        #expect(
            p.kids("ContentView/0:VStack/0:ForEach") == [
                "ContentView/0:VStack/0:ForEach/[a]-0:Color", "ContentView/0:VStack/0:ForEach/[a]:Rectangle",
                "ContentView/0:VStack/0:ForEach/[a]-2:Color",
            ])
    }

    @Test func aGroupsModifiersApplyToEachOfItsViews() throws {
        // SwiftUI applies `Group { … }.padding(5)` to each view: two 20 × 20 boxes padded to 30 × 30, 8 apart:
        // 68 wide from x = 66, at y = 85.
        try Self.check("""
            HStack {
                Group {
                    Color.red.frame(width: 20, height: 20).measure("a")
                    Color.blue.frame(width: 20, height: 20).measure("b")
                }
                .padding(5)
            }
            .measure("row")
            """, ["row": [66, 85, 68, 30], "a": [71, 90, 20, 20], "b": [109, 90, 20, 20]])
    }

    static let row = """
        struct Row: View {
            let name: String
            var body: some View {
                HStack {
                    Color.red.frame(width: 20, height: 20).measure(name + "-icon")
                    Color.blue.frame(height: 20)
                }
            }
        }
        """

    @Test func aViewStructWhoseBodyIsAStackIsThatStack() throws {
        // Rows of 200 × 20 (the blue colour takes the width the icon leaves), 4 apart: 2 × 20 + 4 = 44 from y = 78;
        // the padded one is 190 wide from x = 10.
        try Self.check("""
            VStack(spacing: 4) {
                Row(name: "first").measure("first")
                Row(name: "second").padding(.leading, 10).measure("second")
            }
            """, declarations: Self.row, [
                "first": [0, 78, 200, 20], "first-icon": [0, 78, 20, 20],
                "second": [0, 102, 200, 20], "second-icon": [10, 102, 20, 20],
            ])
    }

    static let tiles = """
        struct Badge: View {
            var body: some View {
                Color.red.frame(width: 20, height: 20)
            }
        }

        struct Tile: View {
            let name: String
            var body: some View {
                Badge()
                    .measure(name + "-badge")
                    .padding(5)
                    .background(Color.gray)
                    .measure(name)
            }
        }

        struct Nothing: View {
            var body: some View { EmptyView() }
        }
        """

    @Test func nestedViewStructsKeepTheirModifiers() throws {
        // Tiles of 30 × 30; the third in a 50-wide frame, with Nothing (no view, no spacing) before it:
        // 30 + 8 + 30 + 8 + 50 = 126 wide from x = 37, y = 85. The offset moves the second tile by 5.
        try Self.check("""
            HStack {
                Tile(name: "a")
                Tile(name: "b").offset(x: 5)
                Nothing()
                Tile(name: "c").frame(width: 50)
            }
            """, declarations: Self.tiles, [
                "a": [37, 85, 30, 30], "a-badge": [42, 90, 20, 20], "b": [80, 85, 30, 30], "b-badge": [85, 90, 20, 20],
                "c": [123, 85, 30, 30], "c-badge": [128, 90, 20, 20],
            ])
    }

    @Test func emptyViewsAndEmptyBranchesTakeNoRoomAndNoSpacing() throws {
        try Self.check("""
            VStack {
                Color.red.frame(width: 10, height: 10).measure("top")
                EmptyView()
                if false {
                    Color.black
                }
                Nothing()
                Color.blue.frame(width: 10, height: 10).measure("bottom")
            }
            """, declarations: Self.tiles, ["top": [95, 86, 10, 10], "bottom": [95, 104, 10, 10]])
    }

    @Test func proxySizeIsTheReadersSize() throws {
        try Self.check("""
            GeometryReader { proxy in
                Color.red.preference(key: FramesKey.self, value: [
                    "size": CGRect(origin: .zero, size: proxy.size),
                    "local": proxy.frame(in: .local),
                    "global": proxy.frame(in: .global),
                ])
            }
            .frame(width: 120, height: 80)
            """, ["size": [0, 0, 120, 80], "local": [0, 0, 120, 80], "global": [40, 60, 120, 80]])
    }

    @Test func nestedGeometryReadersSeeTheirOwnBoxes() throws {
        // The outer reader is 160 × 160 at (20, 20); a quarter of its height (40) goes to the red bar, the inner
        // reader takes the rest: 160 × 120 at (20, 60); half of that is 80 × 60.
        try Self.check("""
            GeometryReader { outer in
                VStack(spacing: 0) {
                    Color.red.frame(height: outer.size.height / 4)
                    GeometryReader { inner in
                        Color.blue.frame(width: inner.size.width / 2, height: inner.size.height / 2).measure("half")
                    }
                    .measure("inner")
                }
            }
            .measure("outer")
            .padding(20)
            """, ["outer": [20, 20, 160, 160], "inner": [20, 60, 160, 120], "half": [20, 60, 80, 60]])
    }

    @Test func framesInANamedSpaceAreRelativeToIt() throws {
        // The card is the padded row: 200 × 150 at (0, 50); its row starts 10 in, the blue after the 30-wide red.
        let expected: [String: [Double]] = [
            "inCard": [40, 10, 150, 130], "global": [40, 60, 150, 130], "undeclared": [40, 60, 150, 130],
            "local": [0, 0, 150, 130],
        ]
        for declaration in [".coordinateSpace(name: \"card\")", ".coordinateSpace(.named(\"card\"))"] {
            try Self.check("""
                VStack(spacing: 0) {
                    Color.gray.frame(height: 50)
                    HStack(spacing: 0) {
                        Color.red.frame(width: 30)
                        Color.blue
                            .measure("inCard", in: .named("card"))
                            .measure("global")
                            .measure("undeclared", in: .named("nowhere"))
                            .measure("local", in: .local)
                    }
                    .padding(10)
                    \(declaration)
                }
                """, expected)
        }
    }

    @Test func aViewStructCanNameACoordinateSpace() throws {
        // The Row names its own box: its icon is at (0, 0) in it, wherever the row is.
        try Self.check("""
            VStack(spacing: 0) {
                Color.gray.frame(height: 30)
                Panel().coordinateSpace(name: "panel")
            }
            .frame(height: 100)
            """, declarations: """
                struct Panel: View {
                    var body: some View {
                        HStack(spacing: 0) {
                            Color.red.frame(width: 20, height: 20).measure("icon", in: .named("panel"))
                            Color.blue.frame(height: 20).measure("bar", in: .named("panel"))
                        }
                    }
                }
                """, ["icon": [0, 0, 20, 20], "bar": [20, 0, 180, 20]])
    }

    @Test func aScrollViewOfSeveralViewsStacksThem() throws {
        // SwiftUI wraps them in an implicit VStack (spacing 8); a narrow content makes a narrow scroll view,
        // centred (docs/layout.md, ScrollView).
        try Self.check("""
            ScrollView {
                Color.red.frame(height: 100).measure("a")
                Color.blue.frame(height: 100).measure("b")
            }
            """, ["a": [0, 0, 200, 100], "b": [0, 108, 200, 100]])
        try Self.check("ScrollView { Color.red.frame(width: 50, height: 50).measure(\"box\") }.measure(\"scroll\")",
            ["scroll": [75, 0, 50, 200], "box": [75, 0, 50, 50]])
    }

    @Test func aHorizontalScrollViewScrollsItsRow() throws {
        // The row is 5 × 60 + 4 × 10 = 340 × 40; the scroll view takes the proposed width and the row's height,
        // centred: 200 × 40 at y = 80. Scrolling moves the row; at most 340 − 200 = 140.
        for axes in [".horizontal", ".horizontal, showsIndicators: false", "Axis.Set.horizontal"] {
            var p = try Self.start("""
                ScrollView(\(axes)) {
                    HStack(spacing: 10) {
                        ForEach(0..<5) { i in
                            Color.red.frame(width: 60, height: 40).measure("item\\(i)")
                        }
                    }
                }
                .measure("scroll")
                .coordinateSpace(name: "scroll")
                """)
            Self.expect(p, ["scroll": [0, 80, 200, 40], "item0": [0, 80, 60, 40], "item4": [280, 80, 60, 40]])
            try p.send("ContentView/0:ScrollView", "scroll", ["x": 100, "y": 50])
            #expect(p.last.scroll.first?.offset == [100, 0])
            Self.expect(p, ["scroll": [0, 80, 200, 40], "item2": [40, 80, 60, 40], "item4": [180, 80, 60, 40]])
            try p.send("ContentView/0:ScrollView", "scroll", ["x": 1000])
            #expect(p.last.scroll.first?.offset == [140, 0])
            Self.expect(p, ["item4": [140, 80, 60, 40]])
        }
    }

    @Test func aScrollViewOnBothAxesProposesNilBothWays() throws {
        // The 300 × 300 content is its ideal size; the scroll view takes the canvas.
        var p = try Self.start("""
            ScrollView([.horizontal, .vertical]) {
                Color.red.frame(width: 300, height: 300).measure("content")
            }
            .measure("scroll")
            """)
        Self.expect(p, ["scroll": [0, 0, 200, 200], "content": [0, 0, 300, 300]])
        try p.send("ContentView/0:ScrollView", "scroll", ["x": 40, "y": 500])
        Self.expect(p, ["content": [-40, -100, 300, 300]])
    }
}

/// Anchors: what `anchorPreference` records and a proxy resolves is the box's frame, exactly.
extension LayoutFidelityTests {
    @Test func anchorsResolveToTheBoxesTheyWereTakenFrom() throws {
        // The column is 80 × 60 at (60, 70): the red box 50 × 20 centred in it, the blue 80 × 30 10 below.
        // Resolved in the overlay's reader, which is the column's box. (Its content first runs with the key's
        // default value, before the anchors are collected: hence `if let`.)
        try Self.check("""
            VStack(spacing: 10) {
                Color.red.frame(width: 50, height: 20)
                    .anchorPreference(key: BoundsKey.self, value: .bounds) { ["red": $0] }
                Color.blue.frame(width: 80, height: 30)
                    .anchorPreference(key: BoundsKey.self, value: .bounds) { ["blue": $0] }
            }
            .overlayPreferenceValue(BoundsKey.self) { anchors in
                GeometryReader { proxy in
                    if let red = anchors["red"], let blue = anchors["blue"] {
                        Color.clear.preference(key: FramesKey.self, value: [
                            "red": proxy[red], "blue": proxy[blue], "reader": proxy.frame(in: .global),
                        ])
                    }
                }
            }
            """, declarations: """
                struct BoundsKey: PreferenceKey {
                    static var defaultValue: [String: Anchor<CGRect>] = [:]
                    static func reduce(value: inout [String: Anchor<CGRect>], nextValue: () -> [String: Anchor<CGRect>]) {
                        value.merge(nextValue()) { $1 }
                    }
                }
                """, ["reader": [60, 70, 80, 60], "red": [15, 0, 50, 20], "blue": [0, 30, 80, 30]])
    }

    @Test func aUnitPointAnchorIsThatPointOfTheBox() throws {
        // The column is 80 × 60 at (60, 70): the red box 50 × 20 at (75, 70), the blue 80 × 30 at (60, 100).
        // `UnitPoint(x: 1, y: 0.5)` is red's trailing centre, (125, 80); `UnitPoint.center` blue's, (100, 115).
        // Resolved in the column's reader: (65, 10) and (40, 45), as zero-size rects of the points.
        try Self.check("""
            VStack(spacing: 10) {
                Color.red.frame(width: 50, height: 20)
                    .anchorPreference(key: PointsKey.self, value: UnitPoint(x: 1, y: 0.5)) { ["red": $0] }
                Color.blue.frame(width: 80, height: 30)
                    .anchorPreference(key: PointsKey.self, value: UnitPoint.center) { ["blue": $0] }
            }
            .overlayPreferenceValue(PointsKey.self) { anchors in
                GeometryReader { proxy in
                    if let red = anchors["red"], let blue = anchors["blue"] {
                        Color.clear.preference(key: FramesKey.self, value: [
                            "red": CGRect(origin: proxy[red], size: .zero), "blue": CGRect(origin: proxy[blue], size: .zero),
                        ])
                    }
                }
            }
            """, declarations: """
                struct PointsKey: PreferenceKey {
                    static var defaultValue: [String: Anchor<CGPoint>] = [:]
                    static func reduce(value: inout [String: Anchor<CGPoint>], nextValue: () -> [String: Anchor<CGPoint>]) {
                        value.merge(nextValue()) { $1 }
                    }
                }
                """, ["red": [65, 10, 0, 0], "blue": [40, 45, 0, 0]])
    }

    static let boundsKey = """
        struct BoundsKey: PreferenceKey {
            static var defaultValue: [String: Anchor<CGRect>] = [:]
            static func reduce(value: inout [String: Anchor<CGRect>], nextValue: () -> [String: Anchor<CGRect>]) {
                value.merge(nextValue()) { $1 }
            }
        }
        """

    @Test func transformAnchorPreferenceAddsToTheValueInsideIt() throws {
        // Each row adds its own anchor under a captured name; the column adds its own to what its rows collected
        // (the transform runs on the value inside it). The column is 50 × 50 at (75, 75), rows 20 high, 10 apart;
        // resolved in the overlay's reader, the column's box.
        var p = try Self.start("""
            VStack(spacing: 10) {
                ForEach(["red", "blue"], id: \\.self) { name in
                    Color.gray.frame(width: 50, height: 20)
                        .transformAnchorPreference(key: BoundsKey.self, value: .bounds) { value, anchor in
                            value[prefix + name] = anchor
                        }
                }
                Button("Rename \\(prefix)") { prefix = "new " }.frame(width: 0, height: 0)
            }
            .transformAnchorPreference(key: BoundsKey.self, value: .bounds) { value, anchor in
                value["column"] = anchor
            }
            .overlayPreferenceValue(BoundsKey.self) { anchors in
                GeometryReader { proxy in
                    Color.clear.preference(
                        key: FramesKey.self,
                        value: anchors.mapValues { proxy[$0] }.merging(["reader": proxy.frame(in: .global)]) { $1 })
                }
            }
            """, state: "@State var prefix = \"\"", declarations: Self.boundsKey)
        // With the 0 × 0 button 10 below the blue row: 60 high at y 70.
        Self.expect(p, [
            "reader": [75, 70, 50, 60], "column": [0, 0, 50, 60], "red": [0, 0, 50, 20], "blue": [0, 30, 50, 20],
        ])
        #expect(Set(GeometryTests.frames(p).keys) == ["reader", "column", "red", "blue"])
        try p.send("ContentView/0:VStack/1:Button", "tap")
        Self.expect(p, ["new red": [0, 0, 50, 20], "new blue": [0, 30, 50, 20], "column": [0, 0, 50, 60]])
        #expect(Set(GeometryTests.frames(p).keys) == ["reader", "column", "new red", "new blue"])
    }

    @Test func aHotReloadThatChangesATransformsCodeRunsTheNewCode() throws {
        // The closure starts at the same line and column in both sources; only its body differs.
        func source(_ name: String) -> String {
            Self.program("""
                Color.gray.frame(width: 50, height: 20)
                    .transformAnchorPreference(key: BoundsKey.self, value: .bounds) { value, anchor in value["\(name)"] = anchor }
                    .overlayPreferenceValue(BoundsKey.self) { anchors in
                        GeometryReader { proxy in
                            Color.clear.preference(key: FramesKey.self, value: anchors.mapValues { proxy[$0] })
                        }
                    }
                """, declarations: Self.boundsKey)
        }
        var p = try ProgramFixture(source("old"), view: "ContentView", canvas: CanvasSpec(width: 200, height: 200))
        #expect(Set(GeometryTests.frames(p).keys) == ["old"])
        p.last = try p.program.setSource(source("new"), tree: &p.tree, trace: false)
        #expect(Set(GeometryTests.frames(p).keys) == ["new"])
        Self.expect(p, ["new": [0, 0, 50, 20]])
    }
}
