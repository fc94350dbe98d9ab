import CanopyCore
import Testing

@Suite struct CanvasSpecTests {
    @Test func aDeviceRoundTripsThroughItsJSON() throws {
        let se = try CanvasSpec(json: ["device": "iPhone SE"])
        #expect(se.width == 375 && se.height == 667 && se.scale == 2 && se.safeArea.top == 20 && se.device == "iPhone SE")
        #expect(try CanvasSpec(json: se.json) == se)
        // A device's canvas with other numbers is a canvas of its own.
        let wide = try CanvasSpec(json: ["device": "iPhone SE", "width": 500])
        #expect(wide.width == 500 && wide.scale == 2 && wide.device == nil)
    }

    @Test func aBareSizeHasNoSafeAreaAndScaleOne() throws {
        let c = try CanvasSpec(json: ["width": 200, "height": 100])
        #expect(c == CanvasSpec(width: 200, height: 100, scale: 1))
    }

    @Test func badCanvasesAreBadMessages() {
        let bad: [JSON] = [
            ["width": -1, "height": 1], ["width": 100_001, "height": 1], ["width": "1", "height": 1], ["width": 1],
            ["device": "Nokia"], ["width": 10, "height": 10, "scale": 2.5], ["width": 10, "height": 10, "scale": 0],
            ["width": 10, "height": 10, "safeArea": ["top": 11]], ["width": 10, "height": 10, "safeArea": ["left": 1]],
            ["width": 10, "height": 10, "depth": 3], [], "393x852",
        ]
        for j in bad {
            #expect(throws: CanopyError.self, "\(j.encoded())") { try CanvasSpec(json: j) }
        }
    }
}
