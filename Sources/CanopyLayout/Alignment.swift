/// Where views line up across a VStack, in a ZStack or a frame: the x of their guide.
public enum HorizontalAlignment: Hashable, Sendable {
    case leading, center, trailing

    /// The guide's x in a box of width `width`.
    func value(in width: Double) -> Double {
        switch self {
        case .leading: 0
        case .center: width / 2
        case .trailing: width
        }
    }
}

/// Where views line up across an HStack, in a ZStack or a frame: the y of their guide.
public enum VerticalAlignment: Hashable, Sendable {
    case top, center, bottom, firstTextBaseline, lastTextBaseline

    /// The guide's y in a box of height `height` for a view without a text baseline (SwiftUI's default baseline is
    /// the bottom edge).
    func defaultValue(in height: Double) -> Double {
        switch self {
        case .top: 0
        case .center: height / 2
        case .bottom, .firstTextBaseline, .lastTextBaseline: height
        }
    }
}

/// A horizontal and a vertical alignment, as for `ZStack(alignment:)` or `frame(alignment:)`.
public struct Alignment: Hashable, Sendable {
    public var horizontal: HorizontalAlignment
    public var vertical: VerticalAlignment

    public init(horizontal: HorizontalAlignment, vertical: VerticalAlignment) {
        self.horizontal = horizontal
        self.vertical = vertical
    }

    public static let topLeading = Alignment(horizontal: .leading, vertical: .top)
    public static let top = Alignment(horizontal: .center, vertical: .top)
    public static let topTrailing = Alignment(horizontal: .trailing, vertical: .top)
    public static let leading = Alignment(horizontal: .leading, vertical: .center)
    public static let center = Alignment(horizontal: .center, vertical: .center)
    public static let trailing = Alignment(horizontal: .trailing, vertical: .center)
    public static let bottomLeading = Alignment(horizontal: .leading, vertical: .bottom)
    public static let bottom = Alignment(horizontal: .center, vertical: .bottom)
    public static let bottomTrailing = Alignment(horizontal: .trailing, vertical: .bottom)
}
