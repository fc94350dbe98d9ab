/// A font as the text model sees it: a point size, a weight and, for Dynamic Type fonts, the style's name.
public struct FontSpec: Hashable, Sendable {
    /// Points.
    public var size: Double
    /// 100…900; 400 is regular, 600 semibold, 700 bold.
    public var weight: Int
    /// "body", "title", … for `.font(.body)` and the like; nil for `.system(size:)`.
    public var style: String?

    public init(size: Double, weight: Int = 400, style: String? = nil) {
        self.size = size
        self.weight = weight
        self.style = style
    }

    /// SwiftUI's Dynamic Type styles at the default (large) content size on iOS, from Apple's Human Interface
    /// Guidelines typography table: (name, points, weight).
    static let textStyles: [(name: String, size: Double, weight: Int)] = [
        ("largeTitle", 34, 400), ("title", 28, 400), ("title2", 22, 400), ("title3", 20, 400),
        ("headline", 17, 600), ("body", 17, 400), ("callout", 16, 400), ("subheadline", 15, 400),
        ("footnote", 13, 400), ("caption", 12, 400), ("caption2", 11, 400),
    ]

    /// The font of a Dynamic Type style by its SwiftUI name (`"body"`, `"title2"`, …), nil for an unknown name.
    public static func textStyle(_ name: String) -> FontSpec? {
        guard let entry = textStyles.first(where: { $0.name == name }) else { return nil }
        return FontSpec(size: entry.size, weight: entry.weight, style: entry.name)
    }

    /// `.body`: 17 pt regular, the font of a Text without `.font`.
    public static let body = FontSpec(size: 17, weight: 400, style: "body")
}

/// What the text model measures: the string, its font and its line limit.
public struct TextSpec: Hashable, Sendable {
    public var string: String
    public var font: FontSpec
    /// `lineLimit(n)`; nil for no limit.
    public var lineLimit: Int?

    public init(_ string: String, font: FontSpec = .body, lineLimit: Int? = nil) {
        self.string = string
        self.font = font
        self.lineLimit = lineLimit
    }
}
