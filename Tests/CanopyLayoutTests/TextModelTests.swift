import Testing

@testable import CanopyLayout

/// Exact values of text model "canopy-text-1": a change to any of them is a new model version.
@Suite struct TextModelTests {
    private func size(
        _ string: String, _ font: FontSpec = .body, width: Double? = nil, height: Double? = nil,
        lineLimit: Int? = nil
    ) -> LayoutSize {
        TextModel.size(
            TextSpec(string, font: font, lineLimit: lineLimit), proposal: ProposedSize(width: width, height: height))
    }

    @Test func theModelIsVersioned() {
        #expect(TextModel.version == "canopy-text-1")
    }

    @Test func oneBodyLineIsTwentyAndAThirdPointsHigh() {
        // H .66 + e .53 + l .28 + l .28 + o .53 = 2.28 em × 17 = 38.76 → 39 on the @3x grid;
        // 17 × 2444 / 2048 = 20.287 → 20.333.
        #expect(size("Hello") == LayoutSize(width: 39, height: 61.0 / 3))
        #expect(size("Hello World") == LayoutSize(width: 257.0 / 3, height: 61.0 / 3))
    }

    @Test func fontsScaleTheAdvancesAndTheLineHeight() {
        #expect(size("Hello", FontSpec.textStyle("largeTitle")!) == LayoutSize(width: 233.0 / 3, height: 122.0 / 3))
        // Semibold (600) is 3.2 % wider: 38.76 × 1.032 = 40.0003 → 40.333.
        #expect(size("Hello", FontSpec.textStyle("headline")!) == LayoutSize(width: 121.0 / 3, height: 61.0 / 3))
        #expect(size("12", FontSpec(size: 10)).width == 12)
    }

    @Test func textWrapsGreedilyAtSpaces() {
        // "Hello" 38.76 + space 4.42 + "World" 42.16 > 50: two lines, the wider 42.16 → 42.333.
        #expect(size("Hello World", width: 50) == LayoutSize(width: 127.0 / 3, height: 122.0 / 3))
        #expect(size("Hello World", width: 90) == LayoutSize(width: 257.0 / 3, height: 61.0 / 3))
    }

    @Test func aWordWiderThanTheLineBreaksBetweenCharacters() {
        // At width 0 every character is a line: "ab" is two lines 9.01 wide.
        #expect(size("ab", width: 0) == LayoutSize(width: 28.0 / 3, height: 122.0 / 3))
    }

    @Test func aLineLimitOrAHeightKeepsTheFirstLinesAndFillsTheWidth() {
        #expect(size("Hello World", width: 50, lineLimit: 1) == LayoutSize(width: 50, height: 61.0 / 3))
        #expect(size("Hello World", width: 50, height: 30) == LayoutSize(width: 50, height: 61.0 / 3))
        #expect(size("Hello World", width: 50, height: 0) == LayoutSize(width: 50, height: 61.0 / 3))
    }

    @Test func newlinesStartLinesAndEmptyTextHasNoSize() {
        #expect(size("a\nb").height == 122.0 / 3)
        #expect(size("") == .zero)
    }

    @Test func dynamicTypeStylesHaveSwiftUIsDefaultSizes() {
        let sizes = [
            "largeTitle": 34.0, "title": 28, "title2": 22, "title3": 20, "headline": 17, "body": 17,
            "callout": 16, "subheadline": 15, "footnote": 13, "caption": 12, "caption2": 11,
        ]
        for (name, points) in sizes { #expect(FontSpec.textStyle(name)?.size == points) }
        #expect(FontSpec.textStyle("headline")?.weight == 600)
        #expect(FontSpec.textStyle("nope") == nil)
    }
}
