import CanopyCore
import CanopyViews
import Testing

/// The layout examples of config/examples: their frames and the preference values computed from them, after
/// events, on the default canvas (iPhone 15: 393×852, safe area 59/34, @3x).
@Suite struct LayoutExampleTests {
    static func frame(_ p: ProgramFixture, _ node: String) -> [Double]? { p.program.frameTable?.frames[node] }

    @Test func theSizeReaderLabelFollowsTheBox() throws {
        var p = try ExamplePrograms.start("size-reader")
        // 120 × 80 plus 10 of padding on each side.
        #expect(p.cell("SizeReader", "measured") == ["width": 140, "height": 100])
        #expect(p.text("SizeReader/0:VStack/2:Text") == "The box is 140 × 100 points")
        let box = try #require(Self.frame(p, "SizeReader/0:VStack/1:Color"))
        #expect(box[2] == 140 && box[3] == 100)
        try p.send("SizeReader/0:VStack/0:Stepper", "increment")
        #expect(p.cell("SizeReader", "measured") == ["width": 180, "height": 100])
        #expect(p.text("SizeReader/0:VStack/2:Text") == "The box is 180 × 100 points")
        #expect(Self.frame(p, "SizeReader/0:VStack/1:Color")?[2] == 180)
        #expect(p.last.frames.contains { $0.node == "SizeReader/0:VStack/1:Color" })
    }

    @Test func theHeaderCollapsesAsTheContentScrolls() throws {
        var p = try ExamplePrograms.start("collapsing-header")
        let header = "CollapsingHeader/0:VStack/0:ZStack"
        let scroll = "CollapsingHeader/0:VStack/1:ScrollView"
        #expect(p.cell("CollapsingHeader", "offset") == 0)
        #expect(Self.frame(p, header) == [0, 59, 393, 200])
        try p.send(scroll, "scroll", ["x": 0, "y": 100])
        #expect(p.cell("CollapsingHeader", "offset") == -100)
        #expect(Self.frame(p, header) == [0, 59, 393, 100])
        #expect(Self.frame(p, scroll) == [0, 159, 393, 659])
        // Past the header's minimum, it stays at 60.
        try p.send(scroll, "scroll", ["y": 400])
        #expect(p.cell("CollapsingHeader", "offset") == -400)
        #expect(Self.frame(p, header) == [0, 59, 393, 60])
        // Back to the top.
        try p.send(scroll, "scroll", ["y": -50])
        #expect(p.last.scroll.first?.offset == [0, 0])
        #expect(Self.frame(p, header) == [0, 59, 393, 200])
    }

    @Test func theColumnsShareTheWidestBadgesWidth() throws {
        var p = try ExamplePrograms.start("equal-width-columns")
        let names = ["Ada", "Grace", "Edsger", "Barbara Liskov"]
        func widths() -> [Double] {
            names.compactMap { Self.frame(p, "EqualWidthColumns/0:VStack/0:ForEach/[\($0)]:Text")?[2] }
        }
        let before = try #require(p.cell("EqualWidthColumns", "columnWidth")?.number)
        #expect(widths().count == 3)
        #expect(widths().allSatisfy { abs($0 - before) < 0.34 })
        try p.send("EqualWidthColumns/0:VStack/1:Button", "tap")
        let after = try #require(p.cell("EqualWidthColumns", "columnWidth")?.number)
        #expect(after > before)
        #expect(widths().count == 4)
        #expect(widths().allSatisfy { abs($0 - after) < 0.34 })
    }

    @Test func theUnderlineMovesUnderTheSelectedTab() throws {
        var p = try ExamplePrograms.start("tab-underline")
        let underline = "TabUnderline/0:VStack/0:HStack/@0:overlayPreferenceValue/0:GeometryReader/0:If/0-0:Color"
        func tab(_ i: Int) -> String { "TabUnderline/0:VStack/0:HStack/0:ForEach/[\(i)]:Button" }
        func expectUnder(_ i: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let line = try #require(Self.frame(p, underline), sourceLocation: sourceLocation)
            let button = try #require(Self.frame(p, tab(i)), sourceLocation: sourceLocation)
            let expected = [button[0], button[1] + button[3] - 3, button[2], 3]
            #expect(zip(line, expected).allSatisfy { abs($0 - $1) < 0.34 }, "\(line) vs \(expected)", sourceLocation: sourceLocation)
        }
        try expectUnder(0)
        try p.send(tab(1), "tap")
        #expect(p.cell("TabUnderline", "selected") == 1)
        #expect(p.text("TabUnderline/0:VStack/1:Text") == "Showing Starred")
        try expectUnder(1)
        try p.send(tab(2), "tap")
        try expectUnder(2)
        // The key holds the tabs' anchors as canvas rects.
        let anchors = try #require(p.reader("TabBoundsKey")?.object)
        #expect(anchors.keys.sorted() == ["0", "1", "2"])
    }

    @Test func theFlowLayoutWrapsTagsIntoTheRowsItCounts() throws {
        var p = try ExamplePrograms.start("tag-flow")
        let flow = "TagFlow/0:VStack/1:FlowLayout"
        func tag(_ name: String) -> String { flow + "/0:ForEach/[\(name)]:Text" }
        func tags() -> [String] { p.cell("TagFlow", "tags")?.array?.compactMap(\.string) ?? [] }
        /// The tags' frames: each inside the flow, none overlapping, and rows as many as distinct tops.
        func checkRows(sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
            let box = try #require(Self.frame(p, flow), sourceLocation: sourceLocation)
            let frames = try tags().map { try #require(Self.frame(p, tag($0)), sourceLocation: sourceLocation) }
            for f in frames {
                #expect(f[0] >= box[0] - 0.34 && f[0] + f[2] <= box[0] + box[2] + 0.34, "\(f) outside \(box)", sourceLocation: sourceLocation)
            }
            for (a, b) in zip(frames, frames.dropFirst()) {
                // The next tag is to the right on the same row, or on a lower row at the flow's leading edge.
                #expect(b[1] == a[1] ? b[0] >= a[0] + a[2] + 6 - 0.34 : (b[1] > a[1] + a[3] && abs(b[0] - box[0]) < 0.34), "\(a) then \(b)", sourceLocation: sourceLocation)
            }
            let rows = Set(frames.map { $0[1] }).count
            #expect(p.cell("TagFlow", "rows") == .int(Int64(rows)), sourceLocation: sourceLocation)
            #expect(p.text("TagFlow/0:VStack/0:Text") == .string("\(frames.count) tags in \(rows) rows"), sourceLocation: sourceLocation)
            return rows
        }
        let first = try checkRows()
        #expect(first >= 2)
        for name in ["interpreter", "anchors", "incremental", "websockets"] {
            try p.send("TagFlow/0:VStack/2:HStack/0:TextField", "setText", .string(name))
            try p.send("TagFlow/0:VStack/2:HStack/1:Button", "tap")
        }
        #expect(tags().count == 10)
        let more = try checkRows()
        #expect(more > first)
        try p.send(nil, "resize", ["device": "iPad"])
        let wide = try checkRows()
        #expect(wide < more)
    }
}
