// Drawing effects: scale and rotation move a view and its subtree without changing layout (SwiftUI's GeometryEffect).
// A view's frame in any coordinate space goes through them, as SwiftUI's ViewTransform does: the corners of the
// view's rect are mapped and their bounding box is the frame.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An affine map of the plane in CoreGraphics' convention: (x, y) ↦ (a·x + c·y + tx, b·x + d·y + ty).
public struct AffineTransform: Hashable, Sendable {
    public var a: Double
    public var b: Double
    public var c: Double
    public var d: Double
    public var tx: Double
    public var ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    public init(translation p: LayoutPoint) {
        self.init(a: 1, b: 0, c: 0, d: 1, tx: p.x, ty: p.y)
    }

    /// This map, then `next` (CGAffineTransform's `concatenating`, the same arithmetic).
    public func concatenating(_ next: AffineTransform) -> AffineTransform {
        AffineTransform(
            a: a * next.a + b * next.c, b: a * next.b + b * next.d, c: c * next.a + d * next.c,
            d: c * next.b + d * next.d, tx: tx * next.a + ty * next.c + next.tx,
            ty: tx * next.b + ty * next.d + next.ty)
    }

    /// The inverse, nil for a singular map.
    public func inverted() -> AffineTransform? {
        let det = a * d - b * c
        guard det != 0, det.isFinite else { return nil }
        return AffineTransform(
            a: d / det, b: -b / det, c: -c / det, d: a / det, tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
    }

    public func apply(_ p: LayoutPoint) -> LayoutPoint {
        LayoutPoint(x: a * p.x + c * p.y + tx, y: b * p.x + d * p.y + ty)
    }

    /// The bounding box of `rect`'s corners mapped (CGRect.convert through a ViewTransform).
    public func boundingBox(_ rect: LayoutRect) -> LayoutRect {
        LayoutRect.bounding([
            apply(LayoutPoint(x: rect.minX, y: rect.minY)), apply(LayoutPoint(x: rect.maxX, y: rect.minY)),
            apply(LayoutPoint(x: rect.maxX, y: rect.maxY)), apply(LayoutPoint(x: rect.minX, y: rect.maxY)),
        ])
    }

    /// Only a move.
    public var isTranslation: Bool { a == 1 && b == 0 && c == 0 && d == 1 }
}

extension LayoutRect {
    /// The smallest rect holding `points` (CGRect(cornerPoints:)).
    static func bounding(_ points: [LayoutPoint]) -> LayoutRect {
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        for p in points {
            minX = min(minX, p.x)
            minY = min(minY, p.y)
            maxX = max(maxX, p.x)
            maxY = max(maxY, p.y)
        }
        return LayoutRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}

/// A geometry effect: `scaleEffect` or `rotationEffect`, around an anchor in the view's own bounds.
public enum GeometryEffect: Hashable, Sendable {
    /// `scaleEffect(x:y:anchor:)` (and `scaleEffect(_:anchor:)` with x = y).
    case scale(x: Double, y: Double, anchor: UnitPoint)
    /// `rotationEffect(_:anchor:)`: clockwise on screen (y points down), in radians.
    case rotation(radians: Double, anchor: UnitPoint)

    /// SwiftUI's smallest scale: a 0 scale would make the map singular (OpenSwiftUI `leastNonzeroScaleFactor`).
    static let leastNonzeroScale = (2 * Double.leastNormalMagnitude).squareRoot()

    /// The map in the view's own coordinates for a view of `size`, as SwiftUI computes it (OpenSwiftUI
    /// `_ScaleEffect.effectValue`, `_RotationEffect.Data.transform`), except that the sine and cosine of a multiple
    /// of 90° are exact (docs/layout.md, Departures).
    func transform(in size: LayoutSize) -> AffineTransform {
        switch self {
        case .scale(var x, var y, let anchor):
            if x == 0 { x = Self.leastNonzeroScale }
            if y == 0 { y = Self.leastNonzeroScale }
            let px = anchor.x * size.width
            let py = anchor.y * size.height
            // Translate by −anchor, scale, translate by +anchor.
            return AffineTransform(a: x, b: 0, c: 0, d: y, tx: -px * x + px, ty: -py * y + py)
        case .rotation(let radians, let anchor):
            let (sin, cos) = Self.sineAndCosine(radians)
            let px = anchor.x * size.width
            let py = anchor.y * size.height
            // Translate by −anchor, rotate, translate by +anchor.
            return AffineTransform(
                a: cos, b: sin, c: -sin, d: cos, tx: -px * cos + py * sin + px, ty: -px * sin + -py * cos + py)
        }
    }

    /// Whether SwiftUI's matrix for this effect is rectilinear (OpenSwiftUI `CGAffineTransform.isRectilinear`): a
    /// scale always; a rotation only by 0, since SwiftUI's sin and cos of any other angle (90° included: cos(π/2) is
    /// 6e-17 in floating point) are both nonzero. Safe-area insets are not resolved through a map that is not.
    var isRectilinear: Bool {
        switch self {
        case .scale: return true
        case .rotation(let radians, _): return radians == 0
        }
    }

    /// sin and cos of `radians`; exact (0, ±1) for a multiple of π/2 to within 1e-12 of a turn.
    static func sineAndCosine(_ radians: Double) -> (Double, Double) {
        let quarters = radians / (Double.pi / 2)
        let nearest = quarters.rounded()
        if abs(quarters - nearest) <= 1e-12 * max(1, abs(quarters)), abs(nearest) < 1e15 {
            switch Int(nearest) & 3 {
            case 0: return (0, 1)
            case 1: return (1, 0)
            case 2: return (0, -1)
            default: return (-1, 0)
            }
        }
        return (sin(radians), cos(radians))
    }
}

/// The space a geometry effect draws its content in: the content's coordinates (origin at the effect view's
/// top-leading corner) and how they map to the canvas. Spaces chain like SwiftUI's ViewTransform: each knows the
/// space its effect's view is in.
final class EffectSpace {
    /// The space the effect's view is placed in (nil: the canvas).
    let parent: EffectSpace?
    /// The effect view's origin in `parent`.
    let origin: LayoutPoint
    /// The effect, in the view's own coordinates.
    let effect: AffineTransform
    /// Content coordinates to the canvas: the effect, the move to `origin`, then the parent's map.
    let toCanvas: AffineTransform
    /// Every effect from here to the canvas is rectilinear as SwiftUI computes it.
    let isRectilinear: Bool

    init(parent: EffectSpace?, origin: LayoutPoint, effect: AffineTransform, rectilinear: Bool) {
        self.parent = parent
        self.origin = origin
        self.effect = effect
        var map = effect.concatenating(AffineTransform(translation: origin))
        if let parent { map = map.concatenating(parent.toCanvas) }
        toCanvas = map
        isRectilinear = rectilinear && (parent?.isRectilinear ?? true)
    }

    /// The same space: a layout that gives the same effect at the same place keeps the old object, so the subtree
    /// is not moved.
    func isSame(parent: EffectSpace?, origin: LayoutPoint, effect: AffineTransform) -> Bool {
        self.parent === parent && self.origin == origin && self.effect == effect
    }
}

/// Edges of a view (SwiftUI's `Edge.Set`).
public struct Edges: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let top = Edges(rawValue: 1)
    public static let leading = Edges(rawValue: 2)
    public static let bottom = Edges(rawValue: 4)
    public static let trailing = Edges(rawValue: 8)
    public static let horizontal: Edges = [.leading, .trailing]
    public static let vertical: Edges = [.top, .bottom]
    public static let all: Edges = [.top, .leading, .bottom, .trailing]
}

extension EdgeInsets {
    /// Only the insets on `edges` (OpenSwiftUI `EdgeInsets.in(_:)`).
    func on(_ edges: Edges) -> EdgeInsets {
        EdgeInsets(
            top: edges.contains(.top) ? top : 0, leading: edges.contains(.leading) ? leading : 0,
            bottom: edges.contains(.bottom) ? bottom : 0, trailing: edges.contains(.trailing) ? trailing : 0)
    }
}
