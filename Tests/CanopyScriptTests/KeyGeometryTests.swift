import CanopyCore
import CanopyScript
import Testing

// Keys over the geometry types, as public SwiftUI code writes them: a CGFloat max, a CGSize, rects in a dictionary and
// an array, `typealias Value`, an inferred and a computed `defaultValue`, `reduce` from a protocol extension, and a
// generic helper.

@Suite struct KeyGeometryTests {
    @Test func cgFloatMaxHeight() throws {
        let source = """
            import SwiftUI

            struct MaxHeightKey: PreferenceKey {
                static var defaultValue: CGFloat = 0

                static func reduce(value: inout CGFloat, nextValue: () -> CGFloat) {
                    value = max(value, nextValue())
                }
            }
            """
        let key = "MaxHeightKey"
        var k = try KeyTree([key: source], [writer("a", 10, key: key), writer("b", 30.5, key: key), writer("c", 20, key: key)])
        #expect(k.value(key) == 30.5)
        #expect(k.reduceCalls.map(\.next) == [.some(30.5), .some(20)])
        try k.set("b", 5, key: key)
        #expect(k.value(key) == 20)
        try k.apply([.removePreference(node: "c", key: key)])
        #expect(k.value(key) == 10)
        let e = thrown { try k.set("a", "tall", key: key) }
        #expect(e?.code == .typeMismatch)
    }

    @Test func cgSizeKeyStacksHeightsAndKeepsTheWidestWidth() throws {
        let source = """
            struct StackSizeKey: PreferenceKey {
                typealias Value = CGSize
                static var defaultValue: Value = .zero
                static func reduce(value: inout Value, nextValue: () -> Value) {
                    let next = nextValue()
                    value = CGSize(width: max(value.width, next.width), height: value.height + next.height)
                }
            }
            """
        func size(_ w: Double, _ h: Double) -> JSON { ["width": .double(w), "height": .double(h)] }
        let key = "StackSizeKey"
        var k = try KeyTree([key: source], [writer("a", size(100, 20), key: key), writer("b", size(80, 44), key: key)])
        #expect(k.value(key) == size(100, 64))
        try k.apply([.insert(parent: "root", node: writer("c", size(120, 10), key: key), position: .end)])
        #expect(k.value(key) == size(120, 74))
        // A size needs both fields.
        let e = thrown { try k.set("a", ["width": 1], key: key) }
        #expect(e?.code == .typeMismatch)
    }

    @Test func rectsByIndexMergeWithTheNewerWinning() throws {
        let source = """
            struct RowFramesKey: PreferenceKey {
                static var defaultValue: [Int: CGRect] { [:] }

                static func reduce(value: inout [Int: CGRect], nextValue: () -> [Int: CGRect]) {
                    value.merge(nextValue(), uniquingKeysWith: { $1 })
                }
            }
            """
        let key = "RowFramesKey"
        let row0: JSON = ["0": rect(0, 0, 320, 44)]
        let row1: JSON = ["1": rect(0, 44, 320, 44)]
        let row1b: JSON = ["1": rect(0, 50, 320, 60)]
        var k = try KeyTree([key: source], [writer("a", row0, key: key), writer("b", row1, key: key), writer("c", row1b, key: key)])
        #expect(k.value(key) == ["0": rect(0, 0, 320, 44), "1": rect(0, 50, 320, 60)])
        #expect(k.tree.keys.first?.defaultValue == [:])
        try k.apply([.remove(node: "c")])
        #expect(k.value(key) == ["0": rect(0, 0, 320, 44), "1": rect(0, 44, 320, 44)])
        // Keys of an [Int: …] dictionary are decimal strings.
        let e = thrown { try k.set("a", ["zero": rect(0, 0, 1, 1)], key: key) }
        #expect(e?.code == .typeMismatch)
    }

    @Test func rectsAppendedWithPlusEquals() throws {
        let source = """
            struct HitAreasKey: PreferenceKey {
                static var defaultValue = [CGRect]()
                static func reduce(value: inout [CGRect], nextValue: () -> [CGRect]) {
                    value += nextValue()
                }
            }
            """
        let key = "HitAreasKey"
        var k = try KeyTree([key: source], [writer("a", [rect(0, 0, 10, 10)], key: key), writer("b", [], key: key),
                                            writer("c", [rect(5, 5, 1, 1), rect(6, 6, 1, 1)], key: key)])
        #expect(k.value(key) == [rect(0, 0, 10, 10), rect(5, 5, 1, 1), rect(6, 6, 1, 1)])
        try k.apply([.move(node: "a", parent: "root", position: .end)])
        #expect(k.value(key) == [rect(5, 5, 1, 1), rect(6, 6, 1, 1), rect(0, 0, 10, 10)])
    }

    @Test func inferredDefaultValueAndUnion() throws {
        let source = """
            struct ContentBoundsKey: PreferenceKey {
                static var defaultValue = CGRect.zero
                static func reduce(value: inout CGRect, nextValue: () -> CGRect) {
                    value = value.union(nextValue())
                }
            }
            """
        let key = "ContentBoundsKey"
        var k = try KeyTree([key: source], [writer("a", rect(0, 0, 10, 10), key: key), writer("b", rect(20, 5, 10, 30), key: key)])
        #expect(k.value(key) == rect(0, 0, 30, 35))
        #expect(k.tree.keys.first?.defaultValue == rect(0, 0, 0, 0))
        try k.set("b", rect(-5, -5, 1, 1), key: key)
        #expect(k.value(key) == rect(-5, -5, 15, 15))
    }

    @Test func protocolExtensionSuppliesReduceAndDefault() throws {
        let source = """
            protocol MaxValueKey: PreferenceKey where Value == CGFloat {}

            extension MaxValueKey {
                static var defaultValue: CGFloat { 0 }
                static func reduce(value: inout CGFloat, nextValue: () -> CGFloat) {
                    value = max(value, nextValue())
                }
            }

            struct HeaderHeightKey: MaxValueKey {}
            """
        let key = "HeaderHeightKey"
        var k = try KeyTree([key: source], [writer("a", 12, key: key), writer("b", 48, key: key), writer("c", 30, key: key)])
        #expect(k.value(key) == 48)
        #expect(k.reduceCalls.count == 2)
        try k.set("b", 1, key: key)
        #expect(k.value(key) == 30)
    }

    @Test func genericHelperFunction() throws {
        let source = """
            func widest<T: Comparable>(_ a: T, _ b: T) -> T {
                a < b ? b : a
            }

            struct LabelWidthKey: PreferenceKey {
                nonisolated(unsafe) static var defaultValue: CGFloat = .zero
                static func reduce(value: inout Self.Value, nextValue: () -> Self.Value) {
                    value = widest(value, nextValue())
                }
                typealias Value = CGFloat
            }
            """
        let key = "LabelWidthKey"
        var k = try KeyTree([key: source], [writer("a", 64, key: key), writer("b", 90, key: key)])
        #expect(k.value(key) == 90)
        try k.apply([.insert(parent: "root", node: writer("c", 91.5, key: key), position: .index(1))])
        #expect(k.value(key) == 91.5)
    }

    @Test func dictionaryFoldedWithForEach() throws {
        let source = """
            protocol DictionaryKey: PreferenceKey where Value == [String: Int] {}

            extension DictionaryKey {
                static var defaultValue: Value { [:] }
                static func reduce(value: inout Value, nextValue: () -> Value) {
                    nextValue().forEach { value[$0] = $1 }
                }
            }

            struct BadgeCountsKey: DictionaryKey {}
            """
        let key = "BadgeCountsKey"
        var k = try KeyTree([key: source], [writer("a", ["mail": 2], key: key), writer("b", ["chat": 1, "mail": 5], key: key)])
        #expect(k.value(key) == ["mail": 5, "chat": 1])
        try k.set("b", ["chat": 3], key: key)
        #expect(k.value(key) == ["mail": 2, "chat": 3])
    }
}
