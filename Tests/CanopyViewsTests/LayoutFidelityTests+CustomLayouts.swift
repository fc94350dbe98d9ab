import CanopyCore
import CanopyViews
import Testing

/// Programs' own `Layout`s (LAYOUT.md §4): their `sizeThatFits` and `placeSubviews` run in the layout, with
/// `LayoutSubview`s that answer from it, and the built-in `HStackLayout`/`VStackLayout`/`ZStackLayout` behind an
/// `AnyLayout`. Expected frames are derived by hand from the layout's code and SwiftUI's rules, in the comments.
extension LayoutFidelityTests {
    static let flowLayout = """
        struct FlowLayout: Layout {
            var spacing: CGFloat = 8

            func sizeThatFits(proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) -> CGSize {
                let maxWidth = proposal.width ?? .infinity
                var x: CGFloat = 0
                var y: CGFloat = 0
                var rowHeight: CGFloat = 0
                var widest: CGFloat = 0
                for subview in subviews {
                    let size = subview.sizeThatFits(.unspecified)
                    if x + size.width > maxWidth, x > 0 {
                        y += rowHeight + spacing
                        x = 0
                        rowHeight = 0
                    }
                    x += size.width + spacing
                    widest = max(widest, x - spacing)
                    rowHeight = max(rowHeight, size.height)
                }
                return CGSize(width: widest, height: y + rowHeight)
            }

            func placeSubviews(in bounds: CGRect, proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) {
                var x = bounds.minX
                var y = bounds.minY
                var rowHeight: CGFloat = 0
                for subview in subviews {
                    let size = subview.sizeThatFits(.unspecified)
                    if x + size.width > bounds.maxX, x > bounds.minX {
                        y += rowHeight + spacing
                        x = bounds.minX
                        rowHeight = 0
                    }
                    subview.place(at: CGPoint(x: x, y: y), anchor: .topLeading, proposal: .unspecified)
                    x += size.width + spacing
                    rowHeight = max(rowHeight, size.height)
                }
            }
        }
        """

    @Test func aFlowLayoutWrapsItsSubviews() throws {
        // Five 60 × 30 views in 200: rows of three (0, 68, 136 → 196 wide) and two, 8 apart: 196 × 68, centred at
        // (2, 66); the second row at 66 + 30 + 8 = 104.
        try Self.check("""
            FlowLayout {
                ForEach(0..<5) { i in
                    Color.red.frame(width: 60, height: 30).measure("r\\(i)")
                }
            }
            .measure("flow")
            """, declarations: Self.flowLayout, [
                "flow": [2, 66, 196, 68], "r0": [2, 66, 60, 30], "r1": [70, 66, 60, 30], "r2": [138, 66, 60, 30],
                "r3": [2, 104, 60, 30], "r4": [70, 104, 60, 30],
            ])
    }

    @Test func aLayoutsArgumentsAndAChangeOfStateReachIt() throws {
        // FlowLayout(spacing: 2) with 70-wide views: 70 + 2 + 70 = 142 fits, a third (214) wraps: 142 × 62,
        // centred at (29, 69). Making the views 100 wide puts one per row: 100 × (3 × 30 + 2 × 2) = 94 high.
        var p = try Self.start("""
            VStack {
                FlowLayout(spacing: 2) {
                    ForEach(0..<3) { i in
                        Color.red.frame(width: wide ? 100 : 70, height: 30).measure("r\\(i)")
                    }
                }
                .measure("flow")
                Button("Widen") { wide = true }.frame(width: 0, height: 0)
            }
            """, state: "@State var wide = false", declarations: Self.flowLayout)
        // The VStack: the flow (142 × 62), 8, the 0 × 0 button: 70 high, centred at y = 65.
        Self.expect(p, ["flow": [29, 65, 142, 62], "r0": [29, 65, 70, 30], "r1": [101, 65, 70, 30], "r2": [29, 97, 70, 30]])
        try p.send("ContentView/0:VStack/1:Button", "tap")
        // 100 × 94, and the VStack 102 high at y = 49.
        Self.expect(p, ["flow": [50, 49, 100, 94], "r0": [50, 49, 100, 30], "r1": [50, 81, 100, 30], "r2": [50, 113, 100, 30]])
    }

    static let equalWidths = """
        struct EqualWidths: Layout {
            struct Widest {
                var size: CGSize
            }

            func makeCache(subviews: Subviews) -> Widest {
                var widest = CGSize.zero
                for subview in subviews {
                    let size = subview.sizeThatFits(.unspecified)
                    widest = CGSize(width: max(widest.width, size.width), height: max(widest.height, size.height))
                }
                return Widest(size: widest)
            }

            func gaps(_ subviews: Subviews) -> [CGFloat] {
                subviews.indices.map { i in
                    i == subviews.count - 1 ? 0 : subviews[i].spacing.distance(to: subviews[i + 1].spacing, along: .horizontal)
                }
            }

            func sizeThatFits(proposal: ProposedViewSize, subviews: Subviews, cache: inout Widest) -> CGSize {
                let total = gaps(subviews).reduce(0, +) + cache.size.width * CGFloat(subviews.count)
                return CGSize(width: total, height: cache.size.height)
            }

            func placeSubviews(in bounds: CGRect, proposal: ProposedViewSize, subviews: Subviews, cache: inout Widest) {
                let each = ProposedViewSize(width: cache.size.width, height: cache.size.height)
                var x = bounds.minX + cache.size.width / 2
                let gaps = gaps(subviews)
                for index in subviews.indices {
                    subviews[index].place(at: CGPoint(x: x, y: bounds.midY), anchor: .center, proposal: each)
                    x += cache.size.width + gaps[index]
                }
            }
        }
        """

    @Test func aLayoutWithACacheProposesEveryViewTheWidest() throws {
        // Ideal widths 20, 40, 60 (flexible frames): the widest is 60, each gap 8 (`ViewSpacing.distance`, ordinary
        // views): 196 × 10, centred at (2, 95); each view proposed 60 × 10 takes it.
        try Self.check("""
            EqualWidths {
                Color.blue.frame(idealWidth: 20).frame(height: 10).measure("a")
                Color.blue.frame(idealWidth: 40).frame(height: 10).measure("b")
                Color.blue.frame(idealWidth: 60).frame(height: 10).measure("c")
            }
            .measure("row")
            """, declarations: Self.equalWidths, [
                "row": [2, 95, 196, 10], "a": [2, 95, 60, 10], "b": [70, 95, 60, 10], "c": [138, 95, 60, 10],
            ])
    }

    @Test func anyLayoutSwitchesBetweenStackLayouts() throws {
        let content = """
            layout {
                Color.red.frame(width: 50, height: 50).measure("a")
                Color.blue.frame(width: 30, height: 30).measure("b")
            }
            """
        func state(_ wide: Bool) -> String {
            """
            var wide = \(wide)
            var layout: AnyLayout {
                wide ? AnyLayout(HStackLayout(spacing: 0)) : AnyLayout(VStackLayout(alignment: .leading, spacing: 4))
            }
            """
        }
        // HStack: 80 × 50 at (60, 75), b centred vertically at y = 85. VStack(.leading, 4): 50 × 84 at (75, 58).
        try Self.check(content, state: state(true), ["a": [60, 75, 50, 50], "b": [110, 85, 30, 30]])
        try Self.check(content, state: state(false), ["a": [75, 58, 50, 50], "b": [75, 112, 30, 30]])
    }

    @Test func anUnplacedSubviewIsCentredWithTheLayoutsProposal() throws {
        // "If you don't call this method for a subview, the subview appears at the center of its layout container
        // and uses the layout container's size proposal" (LayoutSubview.place(at:anchor:proposal:)).
        try Self.check("""
            Lazy {
                Color.red.frame(width: 40, height: 20).measure("fixed")
                Color.blue.measure("flexible")
            }
            .measure("layout")
            """, declarations: """
            struct Lazy: Layout {
                func sizeThatFits(proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) -> CGSize {
                    proposal.replacingUnspecifiedDimensions(by: CGSize(width: 100, height: 100))
                }
                func placeSubviews(in bounds: CGRect, proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) {}
            }
            """, ["layout": [0, 0, 200, 200], "fixed": [80, 90, 40, 20], "flexible": [0, 0, 200, 200]])
    }

    @Test func dimensionsGiveTheGuidesOfASubview() throws {
        // Each view is placed so that its trailing guide is at the previous one's centre: a (50 × 20) at x 0, b
        // (30 × 40) with its trailing at 25 → x −5, its vertical centre at a's bottom (20) → y 0.
        try Self.check("""
            Chain {
                Color.red.frame(width: 50, height: 20).measure("a")
                Color.blue.frame(width: 30, height: 40).measure("b")
            }
            .measure("chain")
            """, declarations: """
            struct Chain: Layout {
                func sizeThatFits(proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) -> CGSize {
                    CGSize(width: 100, height: 100)
                }
                func placeSubviews(in bounds: CGRect, proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) {
                    let a = subviews[0].dimensions(in: .unspecified)
                    let b = subviews[1].dimensions(in: .unspecified)
                    subviews[0].place(at: bounds.origin, proposal: .unspecified)
                    let x = bounds.minX + a[HorizontalAlignment.center] - b[.trailing]
                    let y = bounds.minY + a[.bottom] - b[VerticalAlignment.center]
                    subviews[1].place(at: CGPoint(x: x, y: y), proposal: .unspecified)
                }
            }
            """, ["chain": [50, 50, 100, 100], "a": [50, 50, 50, 20], "b": [45, 50, 30, 40]])
    }

    @Test func boundsAreInTheCanvasAsSwiftUIGivesThem() throws {
        // A layout that places at absolute points (forgetting bounds.minX, a common bug) puts the view there in
        // SwiftUI too: bounds are in the parent's space, not the layout's own.
        try Self.check("""
            Absolute { Color.red.frame(width: 10, height: 10).measure("dot") }
                .padding(30)
            """, declarations: """
            struct Absolute: Layout {
                func sizeThatFits(proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) -> CGSize {
                    CGSize(width: 40, height: 40)
                }
                func placeSubviews(in bounds: CGRect, proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) {
                    subviews[0].place(at: CGPoint(x: 5, y: bounds.minY), proposal: .unspecified)
                }
            }
            """, ["dot": [5, 80, 10, 10]])
    }

    @Test func aLayoutThatNeverEndsRunsOutOfFuelAndChangesNothing() throws {
        let source = Self.program("Forever { Color.red }", declarations: """
            struct Forever: Layout {
                func sizeThatFits(proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) -> CGSize {
                    var n = 0
                    while true { n += 1 }
                    return .zero
                }
                func placeSubviews(in bounds: CGRect, proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) {}
            }
            """)
        var limits = Limits.default
        limits.fuel = 100_000
        do {
            _ = try ProgramFixture(source, view: "ContentView", limits: limits, canvas: CanvasSpec(width: 200, height: 200))
            Issue.record("a layout that never ends was laid out")
        } catch let error as CanopyError {
            #expect(error.message.contains("fuel"), "\(error.message)")
        }
    }

    @Test func whatCanopyDoesNotRunOfTheLayoutProtocolIsACompileError() throws {
        let cases: [(String, String)] = [
            ("func explicitAlignment(of guide: HorizontalAlignment, in bounds: CGRect, proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) -> CGFloat? { nil }", "explicitAlignment"),
            ("func spacing(subviews: Subviews, cache: inout ()) -> ViewSpacing { ViewSpacing() }", "spacing(subviews:cache:)"),
        ]
        do {
            _ = try Self.start("Half { Color.red }", declarations: """
                struct Half: Layout {
                    func sizeThatFits(proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) -> CGSize { .zero }
                }
                """)
            Issue.record("a Layout without placeSubviews compiled")
        } catch let error as CanopyError {
            #expect(error.message.contains("does not conform to protocol 'Layout': add placeSubviews"), "\(error.message)")
        }
        for (member, named) in cases {
            let declarations = """
                struct Row: Layout {
                    func sizeThatFits(proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) -> CGSize { .zero }
                    func placeSubviews(in bounds: CGRect, proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) {}
                    \(member)
                }
                """
            do {
                _ = try Self.start("Row { Color.red }", declarations: declarations)
                Issue.record("\(named) compiled")
            } catch let error as CanopyError {
                #expect(error.code == .compileError)
                #expect(error.message.contains(named), "\(error.message)")
            }
        }
    }
}
