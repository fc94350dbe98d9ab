// SwiftUI draws each view at its frame rounded to the pixel grid: both corners are rounded to the nearest pixel, a
// half pixel rounding up (OpenSwiftUI's CGRect.roundCoordinatesToNearestOrUp, applied to every view's frame in
// AnimatableFrameAttribute), and the size is the difference of the rounded corners. The same arithmetic, in the
// same order, gives the same values.

enum PixelRounding {
    /// `value` to the nearest multiple of `pixelLength`, halves up: (value + m/2) / m, floored, × m.
    static func nearestOrUp(_ value: Double, pixelLength m: Double) -> Double {
        var result = value + m / 2
        if m == 1 {
            result.round(.down)
        } else {
            result /= m
            result.round(.down)
            result *= m
        }
        return result
    }

    /// `value` to the nearest multiple of `pixelLength`, halves away from zero.
    static func nearest(_ value: Double, pixelLength m: Double) -> Double {
        if m == 1 { return value.rounded(.toNearestOrAwayFromZero) }
        return (value / m).rounded(.toNearestOrAwayFromZero) * m
    }

    /// The frame SwiftUI draws for `rect`.
    static func rounded(_ rect: LayoutRect, pixelLength m: Double) -> LayoutRect {
        let minX = nearestOrUp(rect.minX, pixelLength: m)
        let minY = nearestOrUp(rect.minY, pixelLength: m)
        let maxX = nearestOrUp(rect.maxX, pixelLength: m)
        let maxY = nearestOrUp(rect.maxY, pixelLength: m)
        return LayoutRect(
            x: minX, y: minY, width: nearest(maxX - minX, pixelLength: m), height: nearest(maxY - minY, pixelLength: m))
    }
}
