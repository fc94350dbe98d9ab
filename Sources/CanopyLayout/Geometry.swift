// The value types of layout: proposals, sizes, points, rects, insets. Plain Doubles, no CoreGraphics.

/// A size a parent proposes to a child: nil asks for the ideal size, 0 for the minimum, .infinity for the maximum.
public struct ProposedSize: Hashable, Sendable {
    public var width: Double?
    public var height: Double?

    public init(width: Double?, height: Double?) {
        self.width = width
        self.height = height
    }

    /// Proposes exactly `size`.
    public init(_ size: LayoutSize) {
        self.init(width: size.width, height: size.height)
    }

    /// nil × nil: the child's ideal size.
    public static let unspecified = ProposedSize(width: nil, height: nil)
    /// 0 × 0: the child's minimum size.
    public static let zero = ProposedSize(width: 0, height: 0)
    /// ∞ × ∞: the child's maximum size.
    public static let infinity = ProposedSize(width: .infinity, height: .infinity)

    /// The proposal along `axis`.
    public subscript(axis: Axis) -> Double? {
        get { axis == .horizontal ? width : height }
        set {
            if axis == .horizontal { width = newValue } else { height = newValue }
        }
    }

    /// `major` along `axis` and `minor` across it.
    init(_ major: Double?, along axis: Axis, minor: Double?) {
        self =
            axis == .horizontal ? ProposedSize(width: major, height: minor) : ProposedSize(width: minor, height: major)
    }

    /// NaN dimensions become nil and negative ones 0, so no rule ever sees them.
    var sanitized: ProposedSize {
        ProposedSize(width: width.flatMap(Self.clean), height: height.flatMap(Self.clean))
    }

    private static func clean(_ value: Double) -> Double? {
        value.isNaN ? nil : Swift.max(value, 0)
    }
}

/// A size a view chose.
public struct LayoutSize: Hashable, Sendable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public static let zero = LayoutSize(width: 0, height: 0)

    /// The length along `axis`.
    public subscript(axis: Axis) -> Double {
        get { axis == .horizontal ? width : height }
        set {
            if axis == .horizontal { width = newValue } else { height = newValue }
        }
    }

    /// `major` along `axis` and `minor` across it.
    init(_ major: Double, along axis: Axis, minor: Double) {
        self = axis == .horizontal ? LayoutSize(width: major, height: minor) : LayoutSize(width: minor, height: major)
    }

    /// NaN and negative lengths become 0: a chosen size is never either (infinity stays, it answers a probe at ∞).
    var sanitized: LayoutSize {
        LayoutSize(width: Self.clean(width), height: Self.clean(height))
    }

    private static func clean(_ value: Double) -> Double {
        value.isNaN ? 0 : Swift.max(value, 0)
    }
}

/// A point in canvas or local coordinates (origin top-left, y down).
public struct LayoutPoint: Hashable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = LayoutPoint(x: 0, y: 0)

    /// The coordinate along `axis`.
    subscript(axis: Axis) -> Double {
        get { axis == .horizontal ? x : y }
        set {
            if axis == .horizontal { x = newValue } else { y = newValue }
        }
    }

    static func + (lhs: LayoutPoint, rhs: LayoutPoint) -> LayoutPoint {
        LayoutPoint(x: lhs.x + rhs.x, y: lhs.y + rhs.y)
    }

    static func - (lhs: LayoutPoint, rhs: LayoutPoint) -> LayoutPoint {
        LayoutPoint(x: lhs.x - rhs.x, y: lhs.y - rhs.y)
    }
}

/// A rectangle: origin top-left, size.
public struct LayoutRect: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public init(origin: LayoutPoint, size: LayoutSize) {
        self.init(x: origin.x, y: origin.y, width: size.width, height: size.height)
    }

    public var origin: LayoutPoint { LayoutPoint(x: x, y: y) }
    public var size: LayoutSize { LayoutSize(width: width, height: height) }
    public var minX: Double { x }
    public var midX: Double { x + width / 2 }
    public var maxX: Double { x + width }
    public var minY: Double { y }
    public var midY: Double { y + height / 2 }
    public var maxY: Double { y + height }

    /// The same rectangle moved by (dx, dy).
    public func offsetBy(dx: Double, dy: Double) -> LayoutRect {
        LayoutRect(x: x + dx, y: y + dy, width: width, height: height)
    }
}

/// Insets on the four edges (leading is left: Canopy lays out left to right).
public struct EdgeInsets: Hashable, Sendable {
    public var top: Double
    public var leading: Double
    public var bottom: Double
    public var trailing: Double

    public init(top: Double, leading: Double, bottom: Double, trailing: Double) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }

    /// The same inset on every edge; `padding()` without a length is `EdgeInsets(all: 16)`.
    public init(all length: Double) {
        self.init(top: length, leading: length, bottom: length, trailing: length)
    }

    public static let zero = EdgeInsets(all: 0)

    var horizontal: Double { leading + trailing }
    var vertical: Double { top + bottom }
}

/// A point in a rectangle's unit square: (0, 0) top-leading, (1, 1) bottom-trailing.
public struct UnitPoint: Hashable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let topLeading = UnitPoint(x: 0, y: 0)
    public static let top = UnitPoint(x: 0.5, y: 0)
    public static let topTrailing = UnitPoint(x: 1, y: 0)
    public static let leading = UnitPoint(x: 0, y: 0.5)
    public static let center = UnitPoint(x: 0.5, y: 0.5)
    public static let trailing = UnitPoint(x: 1, y: 0.5)
    public static let bottomLeading = UnitPoint(x: 0, y: 1)
    public static let bottom = UnitPoint(x: 0.5, y: 1)
    public static let bottomTrailing = UnitPoint(x: 1, y: 1)
}

/// A stack's axis.
public enum Axis: Hashable, Sendable {
    case horizontal, vertical

    /// The axis across this one.
    public var other: Axis { self == .horizontal ? .vertical : .horizontal }
}
