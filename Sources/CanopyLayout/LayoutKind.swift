/// What a layout node is: a leaf (shape, text, control, spacer), a container or a layout modifier. Its children are
/// given to `LayoutTree.set`; for a modifier, children[0] is the view it modifies.
public enum LayoutKind: Hashable, Sendable {
    /// EmptyView, a branch not taken: zero size, not a subview of a stack (no spacing for it).
    case empty
    /// Color, Rectangle, Circle, Capsule, RoundedRectangle…: takes any proposal; a nil dimension is 10.
    case shape
    /// A Text, measured by `TextModel`.
    case text(TextSpec)
    /// A control with a documented size; children[0], if any, is its label.
    case control(ControlKind)
    /// A Button with the plain or automatic style on iOS: laid out as its label (children[0]).
    case button
    /// Spacer(minLength:); nil is the default 8.
    case spacer(minLength: Double?)
    /// HStack or VStack; nil spacing is SwiftUI's spacing between each pair of neighbours (8, 0 next to a Spacer).
    /// The stack's axis picks the alignment's component: vertical for an HStack, horizontal for a VStack.
    case stack(Axis, spacing: Double?, alignment: Alignment)
    case zstack(Alignment)
    /// frame(width:height:alignment:).
    case frame(width: Double?, height: Double?, alignment: Alignment)
    /// frame(minWidth:idealWidth:maxWidth:minHeight:idealHeight:maxHeight:alignment:).
    case flexibleFrame(
        minWidth: Double?, idealWidth: Double?, maxWidth: Double?, minHeight: Double?, idealHeight: Double?,
        maxHeight: Double?, alignment: Alignment)
    /// padding(_:); `padding()` is `EdgeInsets(all: 16)`. Negative insets are valid, as in SwiftUI.
    case padding(EdgeInsets)
    /// children[0] the primary, laid out as if alone; children[1] the background, proposed the primary's size and
    /// placed by the alignment. Its size is the primary's.
    case background(Alignment)
    /// As `background`, drawn above.
    case overlay(Alignment)
    case fixedSize(horizontal: Bool, vertical: Bool)
    /// Passes its proposal through; a stack reads it from its child.
    case layoutPriority(Double)
    /// Lays out as its child; moves the drawn frame of itself and its subtree (and so their canvas frames).
    case offset(x: Double, y: Double)
    /// `scaleEffect` or `rotationEffect`: lays out as its child; draws itself and its subtree through the effect (and
    /// so their canvas frames). Its content is placed at its size rounded to the pixel grid where it stands, in a
    /// space of its own (OpenSwiftUI `makeGeometryEffect`: `RoundedSize`, the position reset to zero).
    case effect(GeometryEffect)
    /// `ignoresSafeArea(_:edges:)`: sized as its child; places the child in its own box grown by its safe-area
    /// insets on `edges`, proposed its proposal grown as much (OpenSwiftUI `_SafeAreaRegionsIgnoringLayout`).
    case ignoresSafeArea(Edges)
    /// Takes the whole proposal and puts its child's centre at (x, y).
    case position(x: Double, y: Double)
    /// aspectRatio(_:contentMode:); a nil ratio is the child's ideal ratio; `fill` for `.fill`.
    case aspectRatio(Double?, fill: Bool)
    /// Takes the whole proposal (a nil dimension is 10); every child is proposed its size and put top-leading.
    case geometryReader
    /// Proposes nil along its scroll axes and its proposal across them; the content goes top-leading, moved by the
    /// scroll offset (`LayoutTree.setScrollOffset`).
    case scrollView(horizontal: Bool, vertical: Bool)
    /// A user `Layout`, laid out through `LayoutTree.customHost` with this id.
    case custom(Int)
}
