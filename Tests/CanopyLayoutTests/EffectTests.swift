import Testing

@testable import CanopyLayout

extension TreeBuilder {
    func effect(_ child: String, _ effect: GeometryEffect, key: String? = nil) -> String {
        node(.effect(effect), [child], key: key)
    }
    func scale(_ child: String, _ x: Double, _ y: Double? = nil, anchor: UnitPoint = .center, key: String? = nil)
        -> String
    {
        effect(child, .scale(x: x, y: y ?? x, anchor: anchor), key: key)
    }
    func rotation(_ child: String, degrees: Double, anchor: UnitPoint = .center, key: String? = nil) -> String {
        effect(child, .rotation(radians: degrees * (.pi / 180), anchor: anchor), key: key)
    }
    func ignoresSafeArea(_ child: String, _ edges: Edges = .all, key: String? = nil) -> String {
        node(.ignoresSafeArea(edges), [child], key: key)
    }
    func reader(_ children: String..., key: String? = nil) -> String {
        node(.geometryReader, children, key: key)
    }

    /// A box's frame as a GeometryProxy in it reports it, in the canvas or in an ancestor's coordinates.
    func global(_ key: String, in ancestor: String? = nil) -> LayoutRect? {
        let size = tree.size(of: key) ?? .zero
        return tree.convert(LayoutRect(origin: .zero, size: size), from: key, to: ancestor)
    }
}

/// The iPhone 15's safe area (docs/layout.md, the canvas presets).
let iPhoneSafeArea = EdgeInsets(top: 59, leading: 0, bottom: 34, trailing: 0)

/// scaleEffect and rotationEffect (OpenSwiftUI `_ScaleEffect`, `_RotationEffect`, `makeGeometryEffect`): layout is
/// the child's; the subtree is drawn through the effect, and frames in any space go through it (ViewTransform:
/// corners mapped, bounding box).
@Suite struct EffectTests {
    @Test func aScaleDoesNotChangeLayoutButScalesTheFramesInside() throws {
        // A VStack of the 100 × 50 box and a Color fills 393 × 759 below the 59 inset; the box is at (146.5, 59),
        // scaled 2 around its centre (196.5, 84): (96.5, 34, 200, 100).
        let b = TreeBuilder(safeArea: iPhoneSafeArea)
        let box = b.box(100, 50)
        let reader = b.reader()
        let scaled = b.scale(b.background(box, reader), 2)
        let after = b.color()
        try b.layout(b.vstack(spacing: 0, scaled, after))
        // The stack is sized as without the effect: the scaled box is 100 × 50 in it.
        #expect(b.tree.size(of: scaled) == LayoutSize(width: 100, height: 50))
        #expect(close(b.global(reader), rect(96.5, 34, 200, 100)))
        #expect(close(b.exact(box), rect(96.5, 34, 200, 100)))
        // The proxy's size is the layout size.
        #expect(b.tree.size(of: reader) == LayoutSize(width: 100, height: 50))
        // What follows in the stack is where it would be without the effect.
        #expect(close(b.exact(after), rect(0, 109, 393, 709)))
    }

    @Test func theScaledRootOnAnIPhone() throws {
        let b = TreeBuilder(safeArea: iPhoneSafeArea)
        let reader = b.reader()
        let scaled = b.scale(b.background(b.box(100, 50), reader), 2)
        try b.layout(scaled)
        #expect(close(b.global(reader), rect(96.5, 388.5, 200, 100)))
        // The wire rounds to the pixel grid (1/3): 96.5 → 96.667, 388.5 → 388.667.
        #expect(close(b.frame(scaled), rect(290.0 / 3, 1166.0 / 3, 200, 100)))
    }

    @Test func anchorsAndUnevenScales() throws {
        // 40 × 20 centred in 200 × 200 at (80, 90); x 3, y 0.5 around the top-leading corner: (80, 90, 120, 10).
        let b = TreeBuilder(width: 200, height: 200)
        let reader = b.reader()
        try b.layout(b.scale(b.background(b.box(40, 20), reader), 3, 0.5, anchor: .topLeading))
        #expect(close(b.global(reader), rect(80, 90, 120, 10)))
        // A negative scale flips: around the bottom-trailing corner (120, 110), x −1: (120, 90, 40, 20).
        let c = TreeBuilder(width: 200, height: 200)
        let flipped = c.reader()
        try c.layout(c.scale(c.background(c.box(40, 20), flipped), -1, 1, anchor: .bottomTrailing))
        #expect(close(c.global(flipped), rect(120, 90, 40, 20)))
    }

    @Test func aQuarterTurnIsExact() throws {
        // 100 × 50 at (146.5, 413.5) turned 90° around its centre (196.5, 438.5): 50 × 100 around it, with no
        // floating-point noise.
        let b = TreeBuilder(safeArea: iPhoneSafeArea)
        let reader = b.reader()
        try b.layout(b.rotation(b.background(b.box(100, 50), reader), degrees: 90))
        #expect(b.global(reader) == rect(171.5, 388.5, 50, 100))
        for degrees in [180.0, 270, -90, 450, 3600] {
            let c = TreeBuilder(safeArea: iPhoneSafeArea)
            let inner = c.reader()
            try c.layout(c.rotation(c.background(c.box(100, 50), inner), degrees: degrees))
            let turned = Int(degrees / 90) % 2 != 0
            #expect(
                c.global(inner) == (turned ? rect(171.5, 388.5, 50, 100) : rect(146.5, 413.5, 100, 50)),
                "\(degrees)°")
        }
    }

    @Test func anyOtherAngleGivesTheBoundingBox() throws {
        // A 100 × 100 square turned 45° around its centre (100, 100) on a 200 × 200 canvas: 100√2 wide.
        let b = TreeBuilder(width: 200, height: 200)
        let reader = b.reader()
        try b.layout(b.rotation(b.background(b.box(100, 100), reader), degrees: 45))
        let side = 100 * 2.0.squareRoot()
        #expect(close(b.global(reader), rect(100 - side / 2, 100 - side / 2, side, side)))
        // Around the top-leading corner (50, 50), 30°: corners (50, 50), (136.6, 100), (86.6, 186.6), (0, 136.6).
        let c = TreeBuilder(width: 200, height: 200)
        let inner = c.reader()
        try c.layout(c.rotation(c.background(c.box(100, 100), inner), degrees: 30, anchor: .topLeading))
        let cos30 = 3.0.squareRoot() / 2
        #expect(close(c.global(inner), rect(0, 50, 50 + 100 * cos30, 50 + 100 * cos30), tolerance: 1e-9))
    }

    @Test func nestedEffectsCompose() throws {
        // box.rotationEffect(90°).offset(x: 30).scaleEffect(2, anchor: .topLeading), 20 × 10 centred in 200 × 200
        // at (90, 95). Scale: (x, y) ↦ (2x + 90, 2y + 95). The offset puts the rotation's view at (30, 0) in it;
        // the rotation around (10, 5) maps (x, y) ↦ (15 − y, x − 5). Corners → (180, 85) … (160, 125).
        let b = TreeBuilder(width: 200, height: 200)
        let reader = b.reader()
        let box = b.background(b.box(20, 10), reader)
        let turned = b.rotation(box, degrees: 90)
        let moved = b.offset(turned, x: 30)
        let scaled = b.scale(moved, 2, anchor: .topLeading)
        try b.layout(scaled)
        #expect(b.global(reader) == rect(160, 85, 20, 40))
        // In the offset's box (outside the offset, inside the scale): the rotation and the offset, not the scale.
        #expect(b.global(reader, in: moved) == rect(35, -5, 10, 20))
        // In the rotation's own box (outside the rotation): only the rotation.
        #expect(b.global(reader, in: turned) == rect(5, -5, 10, 20))
        // In the box itself: untransformed.
        #expect(b.global(reader, in: box) == rect(0, 0, 20, 10))
        // In the scale's box, a space named outside the scale: everything, ((45 − y) × 2, (x − 5) × 2).
        #expect(b.global(reader, in: scaled) == rect(70, -10, 20, 40))
        // A box that is not around the reader names no space of it: the canvas.
        #expect(b.global(reader, in: "nowhere") == rect(160, 85, 20, 40))
    }

    @Test func cornersGoThroughEveryEffectBeforeTheBoundingBox() throws {
        // 30° inside 15° is 45°: a 20 × 20 square around (100, 100) spans 20√2 — not the box of the 30° box turned.
        let b = TreeBuilder(width: 200, height: 200)
        let reader = b.reader()
        try b.layout(b.rotation(b.rotation(b.background(b.box(20, 20), reader), degrees: 30), degrees: 15))
        let side = 20 * 2.0.squareRoot()
        #expect(close(b.global(reader), rect(100 - side / 2, 100 - side / 2, side, side)))
    }

    @Test func aBoxIsAskedAboutOutsideItsOwnEffect() throws {
        // `.scaleEffect(2).anchorPreference(…)`, `.offset(x: 10).coordinateSpace(name:)`: the box before its own
        // effect or offset.
        let b = TreeBuilder(width: 200, height: 200)
        let box = b.box(40, 20)
        let scaled = b.scale(box, 2)
        try b.layout(scaled)
        #expect(b.global(scaled) == rect(80, 90, 40, 20))
        #expect(close(b.exact(scaled), rect(60, 80, 80, 40)))
        let c = TreeBuilder(width: 200, height: 200)
        let reader = c.reader()
        let moved = c.offset(c.background(c.box(40, 20), reader), x: 10, y: 5)
        try c.layout(moved)
        #expect(c.global(moved) == rect(80, 90, 40, 20))
        #expect(c.exact(moved) == rect(90, 95, 40, 20))
        #expect(c.global(reader, in: moved) == rect(10, 5, 40, 20))
    }

    @Test func anchorsResolveThroughEffects() throws {
        // A canvas rect carried into a scaled box's coordinates: (96.5, 388.5, 200, 100) is its whole bounds.
        let b = TreeBuilder(safeArea: iPhoneSafeArea)
        let reader = b.reader()
        try b.layout(b.scale(b.background(b.box(100, 50), reader), 2))
        #expect(close(b.tree.convertFromCanvas(rect(96.5, 388.5, 200, 100), to: reader), rect(0, 0, 100, 50)))
        let point = b.tree.convertFromCanvas(LayoutPoint(x: 196.5, y: 438.5), to: reader)
        #expect(point == LayoutPoint(x: 50, y: 25))
        #expect(b.tree.convert(LayoutPoint(x: 100, y: 50), from: reader, to: nil) == LayoutPoint(x: 296.5, y: 488.5))
    }

    @Test func theContentIsPlacedAtItsSizeRoundedToThePixelGrid() throws {
        // OpenSwiftUI `RoundedSize`: a 33.5-wide effect at x = 0 on a 1/3 grid places its content 33.667 wide
        // (33.5 × 3 = 100.5 rounds up to 101).
        let b = TreeBuilder(width: 200, height: 200)
        let reader = b.reader()
        let frame = b.frame(reader, width: 33.5, height: 30)
        let scaled = b.scale(frame, 1)
        try b.layout(b.hstack(spacing: 0, scaled, b.spacer(0)))
        #expect(b.tree.size(of: scaled) == LayoutSize(width: 33.5, height: 30))
        #expect(abs(b.tree.size(of: frame)!.width - 101.0 / 3) < 1e-12)
        // The frame centres its 33.5-wide reader in 33.667.
        #expect(close(b.global(reader), rect((101.0 / 3 - 33.5) / 2, 85, 33.5, 30)))
    }

    @Test func effectsPassTheChildsPriorityAndSpacing() throws {
        // A Spacer inside an effect keeps its −∞ priority and its 0 spacing.
        let b = TreeBuilder(width: 200, height: 200)
        let first = b.box(50, 50)
        let spacer = b.scale(b.spacer(), 2)
        let last = b.box(50, 50)
        try b.layout(b.hstack(first, spacer, last))
        #expect(b.exact(first)?.x == 0)
        #expect(b.exact(last)?.x == 150)
    }

    @Test func invalidEffectValuesAreNeutralised() {
        #expect(
            LayoutKind.validated(.effect(.scale(x: .nan, y: 2, anchor: .center))).0
                == .effect(.scale(x: 1, y: 2, anchor: .center)))
        #expect(
            LayoutKind.validated(.effect(.rotation(radians: .infinity, anchor: UnitPoint(x: .nan, y: 0)))).0
                == .effect(.rotation(radians: 0, anchor: .center)))
    }

    @Test func aZeroScaleIsSwiftUIsSmallestScale() throws {
        let b = TreeBuilder(width: 200, height: 200)
        let reader = b.reader()
        try b.layout(b.scale(b.background(b.box(40, 20), reader), 0))
        // 40 × 1.5e-154 wide around x = 100: below the precision of 100, so 0 wide, as SwiftUI's arithmetic gives.
        #expect(b.global(reader) == rect(100, 100, 0, 0))
    }

    @Test func changingAnEffectMovesTheSubtreeWithoutSizing() throws {
        let b = TreeBuilder(width: 200, height: 200)
        let reader = b.reader()
        let content = b.background(b.box(40, 20), reader)
        let scaled = b.scale(content, 2, key: "effect")
        try b.layout(b.vstack(scaled, b.box(10, 10)))
        b.tree.set("effect", kind: .effect(.scale(x: 1, y: 1, anchor: .center)), children: [content])
        try b.tree.layout()
        #expect(b.tree.laidOut.isEmpty)
        #expect(close(b.global(reader), rect(80, 81, 40, 20)))
    }
}

/// ignoresSafeArea and safe-area insets (OpenSwiftUI `_SafeAreaRegionsIgnoringLayout`, `SafeAreaInsets.resolve`).
@Suite struct SafeAreaTests {
    @Test func aViewFlushWithTheSafeEdgeHasItsInsets() throws {
        // The root reader fills 393 × 759 at y = 59: it reaches the safe area's top and bottom.
        let b = TreeBuilder(safeArea: iPhoneSafeArea)
        let reader = b.reader()
        try b.layout(reader)
        #expect(b.tree.safeAreaInsets(of: reader) == EdgeInsets(top: 59, leading: 0, bottom: 34, trailing: 0))
        // A small centred box reaches no edge.
        let c = TreeBuilder(safeArea: iPhoneSafeArea)
        let box = c.box(100, 50)
        try c.layout(box)
        #expect(c.tree.safeAreaInsets(of: box) == .zero)
    }

    @Test func aViewReachingIntoTheUnsafeAreaHasTheRestOfIt() throws {
        // position(x: 100, y: 5) of a 50 × 50 box: the box's top at 59 − 20 = 39, 39 below the canvas's top.
        let b = TreeBuilder(safeArea: iPhoneSafeArea)
        let box = b.box(50, 50)
        try b.layout(b.position(box, x: 100, y: 5))
        #expect(b.exact(box) == rect(75, 39, 50, 50))
        #expect(b.tree.safeAreaInsets(of: box) == EdgeInsets(top: 39, leading: 0, bottom: 0, trailing: 0))
        // Ignoring the safe area, it grows to the canvas's top.
        let c = TreeBuilder(safeArea: iPhoneSafeArea)
        let inner = c.color()
        let ignoring = c.ignoresSafeArea(inner)
        try c.layout(c.position(c.frame(ignoring, width: 50, height: 50), x: 100, y: 5))
        #expect(c.exact(ignoring) == rect(75, 39, 50, 50))
        #expect(c.exact(inner) == rect(75, 0, 50, 89))
    }

    @Test func aColorIgnoringTheSafeAreaFillsTheCanvas() throws {
        let b = TreeBuilder(safeArea: iPhoneSafeArea)
        let color = b.color()
        let ignoring = b.ignoresSafeArea(color)
        try b.layout(ignoring)
        #expect(b.exact(ignoring) == rect(0, 59, 393, 759))
        #expect(b.exact(color) == rect(0, 0, 393, 852))
        #expect(b.tree.proposal(of: color) == ProposedSize(width: 393, height: 852))
        // Filling the canvas, it reaches beyond no safe edge: its insets are 0.
        #expect(b.tree.safeAreaInsets(of: color) == .zero)
    }

    @Test func onlyTheChosenEdges() throws {
        // VStack(spacing: 0) { Color.red.ignoresSafeArea(edges: .top).frame(height: 100); Spacer() }
        let b = TreeBuilder(safeArea: iPhoneSafeArea)
        let color = b.color()
        let ignoring = b.ignoresSafeArea(color, .top)
        let framed = b.frame(ignoring, height: 100)
        let spacer = b.spacer()
        try b.layout(b.vstack(spacing: 0, framed, spacer))
        #expect(b.exact(framed) == rect(0, 59, 393, 100))
        #expect(b.exact(ignoring) == rect(0, 59, 393, 100))
        #expect(b.exact(color) == rect(0, 0, 393, 159))
        #expect(b.exact(spacer) == rect(196.5, 159, 0, 659))
        // The bottom edge: the frame does not reach it.
        let c = TreeBuilder(safeArea: iPhoneSafeArea)
        let bottom = c.color()
        try c.layout(c.vstack(spacing: 0, c.frame(c.ignoresSafeArea(bottom, .bottom), height: 100), c.spacer()))
        #expect(c.exact(bottom) == rect(0, 59, 393, 100))
    }

    @Test func aViewThatDoesNotFillItsProposalIsPlacedTopLeading() throws {
        // A fixed 50 × 20 box flush with the top of a VStack: proposed 393 × (100 + 59), placed at the top-leading
        // corner of the grown box, i.e. at the ignoring view's x and y = 0.
        let b = TreeBuilder(safeArea: iPhoneSafeArea)
        let box = b.box(50, 20)
        let ignoring = b.ignoresSafeArea(box)
        try b.layout(b.vstack(spacing: 0, ignoring, b.spacer()))
        #expect(b.exact(ignoring) == rect(171.5, 59, 50, 20))
        #expect(b.exact(box) == rect(171.5, 0, 50, 20))
    }

    @Test func aBareCanvasHasNoSafeArea() throws {
        let b = TreeBuilder(width: 200, height: 200)
        let color = b.color()
        try b.layout(b.ignoresSafeArea(color))
        #expect(b.exact(color) == rect(0, 0, 200, 200))
        #expect(b.tree.safeAreaInsets(of: color) == .zero)
    }

    @Test func throughAScaleTheInsetsAreInTheViewsUnits() throws {
        // A 393 × 759 reader scaled by 0.5 around its top-leading corner at (0, 59): its top is on the safe edge,
        // 59 canvas points below the top, 118 of its own.
        let b = TreeBuilder(safeArea: iPhoneSafeArea)
        let reader = b.reader()
        try b.layout(b.scale(reader, 0.5, anchor: .topLeading))
        #expect(b.tree.safeAreaInsets(of: reader) == EdgeInsets(top: 118, leading: 0, bottom: 0, trailing: 0))
    }

    @Test func throughARotationThereAreNoInsets() throws {
        // SwiftUI's rotation matrix is never rectilinear (cos 90° is 6e-17 there): no insets, no growth.
        let b = TreeBuilder(safeArea: iPhoneSafeArea)
        let reader = b.reader()
        try b.layout(b.rotation(reader, degrees: 180))
        #expect(b.tree.safeAreaInsets(of: reader) == .zero)
    }

    @Test func aResizeOrANewSafeAreaPlacesTheIgnoringViewsAgain() throws {
        // A bar at the bottom, flush with the safe area: grown by the 34 below it.
        let b = TreeBuilder(safeArea: iPhoneSafeArea)
        let color = b.color()
        try b.layout(b.vstack(spacing: 0, b.spacer(), b.frame(b.ignoresSafeArea(color, .bottom), height: 100)))
        #expect(b.exact(color) == rect(0, 718, 393, 134))
        // A taller canvas with a taller bottom inset: the root is proposed and placed as before, the bar is not
        // moved, but what is below it changed.
        b.tree.canvas = LayoutTree.Canvas(
            width: 393, height: 900, safeArea: EdgeInsets(top: 59, leading: 0, bottom: 82, trailing: 0))
        try b.tree.layout()
        #expect(b.exact(color) == rect(0, 718, 393, 182))
    }

    @Test func ignoringHasNoPriorityBaselineOrSpacingOfItsChild() throws {
        // A position-aware unary layout: priority 0, `Spacing()`, no explicit alignment (OpenSwiftUI
        // `UnaryPositionAwareLayoutEngine`). A Spacer in it is 8 from its neighbours.
        let b = TreeBuilder(width: 200, height: 200)
        let first = b.box(50, 50)
        let spacer = b.ignoresSafeArea(b.spacer())
        let last = b.box(50, 50)
        try b.layout(b.hstack(first, spacer, last))
        #expect(b.exact(spacer) == rect(58, 100, 84, 0))
    }
}
