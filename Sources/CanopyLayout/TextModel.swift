// Text cannot be measured as Apple measures it (San Francisco's real advances and kerning, TextKit's line breaking),
// so Canopy measures it with this small deterministic model, versioned by `TextModel.version`; docs/layout.md
// ("The text model") lists every number and where it came from. Frames that depend on text are approximate.

/// Canopy's deterministic measure of a Text: advances per character class, SF Pro's line height, greedy wrapping.
public enum TextModel {
    /// Named in every snapshot; bump it whenever a number below changes.
    public static let version = "canopy-text-1"

    /// SF Pro's vertical metrics in font units (hhea ascender 1950, descender 494, line gap 0; 2048 units per em):
    /// one line is (1950 + 494) / 2048 = 1.19336 × the point size, so body (17 pt) is 20.287 pt, 20.333 on the
    /// @3x pixel grid — the height SwiftUI gives a one-line body Text on a 3x iPhone.
    static let lineHeightPerPoint = 2444.0 / 2048.0
    /// The first baseline's distance from the top of a line, per point of size (the ascender).
    static let ascenderPerPoint = 1950.0 / 2048.0
    /// Text lengths are rounded up to this pixel grid (@3x), whatever the canvas's scale: the model stays one
    /// function of the text and its proposal.
    static let pixelsPerPoint = 3.0

    /// The height of one line of `font`, before rounding.
    public static func lineHeight(_ font: FontSpec) -> Double {
        max(font.size, 0) * lineHeightPerPoint
    }

    /// The size a Text chooses for `proposal`: a nil width is one line per paragraph; a width wraps greedily at spaces
    /// (a word wider than a line breaks between characters); a height or `lineLimit` keeps the first lines (at least
    /// one), and a cut text fills the proposed width with its ellipsis line.
    public static func size(_ spec: TextSpec, proposal: ProposedSize) -> LayoutSize {
        let proposal = proposal.sanitized
        guard !spec.string.isEmpty, spec.font.size > 0, spec.font.size.isFinite else { return .zero }
        let maxWidth = proposal.width ?? .infinity
        let widths = lineWidths(spec, maxWidth: maxWidth)
        let perLine = lineHeight(spec.font)
        var shown = min(widths.count, max(spec.lineLimit ?? Int.max, 1))
        if let height = proposal.height, height.isFinite {
            shown = min(shown, linesFitting(height, perLine: perLine))
        }
        var width = widths[..<shown].max() ?? 0
        if shown < widths.count {
            // The last shown line ends in "…" and takes what is left of the line.
            width = maxWidth.isFinite ? maxWidth : max(width, widths[shown - 1] + advance("…", spec.font))
        }
        var rounded = roundedUp(width)
        if rounded > maxWidth && width <= maxWidth { rounded = maxWidth }
        return LayoutSize(width: rounded, height: roundedUp(Double(shown) * perLine))
    }

    /// The first text baseline's distance from the top.
    static func firstBaseline(_ spec: TextSpec) -> Double {
        spec.string.isEmpty ? 0 : max(spec.font.size, 0) * ascenderPerPoint
    }

    /// The last text baseline's distance from the top of a Text of height `height`.
    static func lastBaseline(_ spec: TextSpec, height: Double) -> Double {
        let perLine = lineHeight(spec.font)
        guard perLine > 0, !spec.string.isEmpty else { return 0 }
        let lines = max(1, (height / perLine).rounded(.down))
        return (lines - 1) * perLine + firstBaseline(spec)
    }

    /// How many lines fit in `height`: at least one, as a Text always shows its first line.
    private static func linesFitting(_ height: Double, perLine: Double) -> Int {
        guard perLine > 0 else { return Int.max }
        var lines = Int(min((height / perLine).rounded(.down), Double(Int32.max)))
        while lines > 1 && roundedUp(Double(lines) * perLine) > height + 1e-9 { lines -= 1 }
        return max(lines, 1)
    }

    /// Rounded up to the @3x grid; a hair of floating-point error does not add a pixel.
    static func roundedUp(_ value: Double) -> Double {
        guard value.isFinite else { return value }
        return (value * pixelsPerPoint - 1e-7).rounded(.up) / pixelsPerPoint
    }

    /// The width of every line, paragraph by paragraph ("\n" ends a paragraph), wrapped greedily in `maxWidth`.
    static func lineWidths(_ spec: TextSpec, maxWidth: Double) -> [Double] {
        var widths: [Double] = []
        for paragraph in spec.string.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = LineBreaker(maxWidth: maxWidth)
            var word: [Double] = []
            for character in paragraph {
                let width = advance(character, spec.font)
                if characterClass(character) == .space {
                    line.add(word: word, into: &widths)
                    word.removeAll(keepingCapacity: true)
                    line.addSpace(width)
                } else {
                    word.append(width)
                }
            }
            line.add(word: word, into: &widths)
            widths.append(line.width)
        }
        return widths
    }

    /// The advance of one character (a grapheme cluster) in `font`.
    static func advance(_ character: Character, _ font: FontSpec) -> Double {
        characterClass(character).em * max(font.size, 0) * weightFactor(font.weight)
    }

    /// Heavier weights are wider: +4.8 % at bold (700), −4.8 % at ultralight (100); SF Pro's bold runs about 5 %
    /// wider than its regular.
    static func weightFactor(_ weight: Int) -> Double {
        1 + Double(min(max(weight, 100), 900) - 400) * 0.00016
    }

    /// The classes of characters the model tells apart, each with one advance in ems.
    enum CharacterClass {
        case zeroWidth, space, narrow, normal, digit, upper, wide, fullWidth

        /// Advances in ems, rounded from SF Pro Text's regular advances (2048 units per em): the narrow letters
        /// i/l/j and punctuation ≈ 0.24–0.33, lowercase ≈ 0.5–0.56, digits ≈ 0.6, capitals ≈ 0.6–0.73,
        /// m/w/M/W ≈ 0.8–0.95, the space ≈ 0.26; CJK and emoji take a full em.
        var em: Double {
            switch self {
            case .zeroWidth: 0
            case .space: 0.26
            case .narrow: 0.28
            case .normal: 0.53
            case .digit: 0.6
            case .upper: 0.66
            case .wide: 0.86
            case .fullWidth: 1
            }
        }
    }

    private static let narrowCharacters: Set<Character> = [
        "i", "j", "l", "f", "t", "r", "I", "!", "|", ".", ",", ":", ";", "'", "`", "\"", "(", ")", "[", "]", "{", "}",
        "/", "\\", "-",
    ]
    private static let wideCharacters: Set<Character> = ["m", "w", "M", "W", "@", "%", "&", "—", "…"]

    /// The class of a character, by its first Unicode scalar.
    static func characterClass(_ character: Character) -> CharacterClass {
        if narrowCharacters.contains(character) { return .narrow }
        if wideCharacters.contains(character) { return .wide }
        guard let scalar = character.unicodeScalars.first else { return .zeroWidth }
        switch scalar.value {
        case 0x20, 0x09, 0xA0: return .space
        case 0x30...0x39: return .digit
        case 0x200B...0x200D, 0xFEFF, 0x0300...0x036F, 0xFE00...0xFE0F: return .zeroWidth
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F000...0x1FAFF, 0x20000...0x3FFFD:
            return .fullWidth
        default: break
        }
        if scalar.properties.isEmojiPresentation { return .fullWidth }
        if character.isUppercase { return .upper }
        return .normal
    }
}

/// Greedy line breaking of one paragraph: words go on the current line while they fit.
private struct LineBreaker {
    let maxWidth: Double
    /// The current line's width up to its last word (trailing spaces are not counted).
    private(set) var width = 0.0
    private var hasWord = false
    private var pendingSpace = 0.0

    init(maxWidth: Double) {
        self.maxWidth = maxWidth
    }

    mutating func addSpace(_ advance: Double) {
        if hasWord { pendingSpace += advance } else { width += advance }
    }

    /// Adds a word (its characters' advances), ending lines into `widths` as needed.
    mutating func add(word: [Double], into widths: inout [Double]) {
        guard !word.isEmpty else { return }
        let wordWidth = word.reduce(0, +)
        if hasWord {
            if width + pendingSpace + wordWidth <= maxWidth + 1e-9 {
                width += pendingSpace + wordWidth
                pendingSpace = 0
                return
            }
            widths.append(width)
            width = 0
        }
        pendingSpace = 0
        if width + wordWidth <= maxWidth + 1e-9 {
            width += wordWidth
        } else {
            // Too wide for a line of its own: break between characters, at least one per line.
            for advance in word {
                if width > 0 && width + advance > maxWidth + 1e-9 {
                    widths.append(width)
                    width = 0
                }
                width += advance
            }
        }
        hasWord = true
    }
}
