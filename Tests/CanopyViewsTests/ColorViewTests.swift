import CanopyCore
import Testing

/// `Color` and shapes are views wherever SwiftUI lets a view stand, and colors where a color is expected.
@Suite struct ColorViewTests {
    /// Three writers of a sum key: `Color.clear` in a background, a `Rectangle` in a background, `Color.blue` in a
    /// stack. The reader sees 1 + 10 + 100 (three present values fold without the default, SEMANTICS.md §3).
    @Test func colorsAndShapesWritePreferences() throws {
        let source = """
            import SwiftUI

            struct Total: PreferenceKey {
                static var defaultValue = 1
                static func reduce(value: inout Int, nextValue: () -> Int) { value += nextValue() }
            }

            struct Screen: View {
                @State private var total = 0
                var body: some View {
                    VStack {
                        Text("a").background(Color.clear.preference(key: Total.self, value: 1))
                        Text("b").background(Rectangle().fill(Color.red).preference(key: Total.self, value: 10))
                        Color.blue.frame(height: 2).preference(key: Total.self, value: 100)
                        Text("\\(total)")
                    }
                    .onPreferenceChange(Total.self) { total = $0 }
                }
            }
            """
        let p = try ProgramFixture(source, view: "Screen")
        #expect(p.node("Screen/0:VStack/3:Text")?.props["text"] == "111")
        let blue = try #require(p.node("Screen/0:VStack/2:Color"))
        #expect(blue.props["_0"] == "blue")
    }
}

extension ColorViewTests {
    /// Where a color is expected, `Color.red`, `.red` and a stored `Color` are the color's data, as PROGRAMS.md §2
    /// keeps SwiftUI's unchecked surface; `Color(red:green:blue:)` keeps its components.
    @Test func colorsWhereAColorIsExpectedAreTheirData() throws {
        let source = """
            import SwiftUI

            extension View {
                func tinted(_ c: Color) -> some View { foregroundColor(c) }
            }

            struct Screen: View {
                let accent: Color = .orange
                var body: some View {
                    VStack {
                        Text("a").foregroundColor(.red)
                        Text("b").foregroundColor(Color.red.opacity(0.5))
                        Text("c").tinted(accent)
                        Circle().fill(Color(red: 1, green: 0.5, blue: 0))
                        Color("Brand")
                        Color.clear.tinted(.blue)
                    }
                }
            }
            """
        let p = try ProgramFixture(source, view: "Screen")
        func args(_ id: String) -> [JSON] { p.node(id)?.modifiers.compactMap { $0.json.object?["args"] } ?? [] }
        #expect(args("Screen/0:VStack/0:Text") == [["_0": "red"]])
        #expect(args("Screen/0:VStack/1:Text") == [["_0": ["color": "red", "modifiers": [["kind": "opacity", "args": ["_0": 0.5]]]]]])
        #expect(args("Screen/0:VStack/2:Text") == [["_0": "orange"]])
        #expect(args("Screen/0:VStack/3:Circle") == [["_0": ["red": 1, "green": 0.5, "blue": 0]]])
        #expect(p.node("Screen/0:VStack/4:Color")?.props["_0"] == "Brand")
        #expect(args("Screen/0:VStack/5:Color") == [["_0": "blue"]])
        #expect(p.node("Screen")?.props["accent"] == "orange")
    }
}
