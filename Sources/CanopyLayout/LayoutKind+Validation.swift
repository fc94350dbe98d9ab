// SwiftUI ignores invalid values with a runtime warning rather than crashing ("Invalid frame dimension (negative or
// non-finite)."); the integration shows these warnings, and LayoutTree.set applies the same cleaning whatever it is
// given, so no NaN or infinity from user code ever reaches a frame.

extension LayoutKind {
    /// SwiftUI's warning for a bad frame value (its exact text).
    static let invalidFrameWarning = "Invalid frame dimension (negative or non-finite)."
    /// SwiftUI's warning for min/ideal/max out of order (its exact text); the values are kept and clamped.
    static let contradictoryFrameWarning = "Contradictory frame constraints specified."

    /// `kind` with its invalid values dropped or replaced, and a warning for each: frame dimensions negative or not
    /// finite (nil), flexible-frame values that are NaN or an infinite minimum or ideal (nil), non-finite padding,
    /// offsets, positions and spacings (0 or nil), a NaN priority (0), an aspect ratio not finite and positive (nil),
    /// a font size not finite and positive (17), a line limit under 1 (1), a non-finite scale (1), rotation (0) or
    /// effect anchor (.center).
    public static func validated(_ kind: LayoutKind) -> (LayoutKind, warnings: [String]) {
        var warnings: [String] = []
        func note(_ warning: String) {
            if !warnings.contains(warning) { warnings.append(warning) }
        }
        func frameLength(_ value: Double?) -> Double? {
            guard let value else { return nil }
            guard value.isFinite, value >= 0 else {
                note(invalidFrameWarning)
                return nil
            }
            return value
        }
        func flexibleLength(_ value: Double?, allowsInfinity: Bool) -> Double? {
            guard let value else { return nil }
            if value.isNaN || (value.isInfinite && !(allowsInfinity && value > 0)) {
                note(invalidFrameWarning)
                return nil
            }
            return value
        }
        func finite(_ value: Double, _ what: String) -> Double {
            guard value.isFinite else {
                note("Invalid \(what) (non-finite); 0 is used.")
                return 0
            }
            return value
        }
        switch kind {
        case .frame(let width, let height, let alignment):
            return (.frame(width: frameLength(width), height: frameLength(height), alignment: alignment), warnings)
        case .flexibleFrame(let minW, let idealW, let maxW, let minH, let idealH, let maxH, let alignment):
            let values = [
                flexibleLength(minW, allowsInfinity: false), flexibleLength(idealW, allowsInfinity: false),
                flexibleLength(maxW, allowsInfinity: true), flexibleLength(minH, allowsInfinity: false),
                flexibleLength(idealH, allowsInfinity: false), flexibleLength(maxH, allowsInfinity: true),
            ]
            if !inOrder(values[0], values[1], values[2]) || !inOrder(values[3], values[4], values[5]) {
                note(contradictoryFrameWarning)
            }
            return (
                .flexibleFrame(
                    minWidth: values[0], idealWidth: values[1], maxWidth: values[2], minHeight: values[3],
                    idealHeight: values[4], maxHeight: values[5], alignment: alignment),
                warnings
            )
        case .padding(let insets):
            let cleaned = EdgeInsets(
                top: finite(insets.top, "padding"), leading: finite(insets.leading, "padding"),
                bottom: finite(insets.bottom, "padding"), trailing: finite(insets.trailing, "padding"))
            return (.padding(cleaned), warnings)
        case .offset(let x, let y):
            return (.offset(x: finite(x, "offset"), y: finite(y, "offset")), warnings)
        case .position(let x, let y):
            return (.position(x: finite(x, "position"), y: finite(y, "position")), warnings)
        case .spacer(let minLength):
            guard let minLength, !minLength.isFinite else { return (kind, warnings) }
            note("Invalid Spacer minLength (non-finite); the default is used.")
            return (.spacer(minLength: nil), warnings)
        case .stack(let axis, let spacing, let alignment):
            guard let spacing, !spacing.isFinite else { return (kind, warnings) }
            note("Invalid stack spacing (non-finite); the default is used.")
            return (.stack(axis, spacing: nil, alignment: alignment), warnings)
        case .layoutPriority(let priority):
            guard priority.isNaN else { return (kind, warnings) }
            note("Invalid layout priority (NaN); 0 is used.")
            return (.layoutPriority(0), warnings)
        case .aspectRatio(let ratio, let fill):
            guard let ratio, !(ratio.isFinite && ratio > 0) else { return (kind, warnings) }
            note("Invalid aspect ratio (not finite and positive); the content's ratio is used.")
            return (.aspectRatio(nil, fill: fill), warnings)
        case .text(var spec):
            if !(spec.font.size.isFinite && spec.font.size > 0) {
                note("Invalid font size (not finite and positive); 17 is used.")
                spec.font.size = 17
            }
            if let limit = spec.lineLimit, limit < 1 {
                note("Invalid line limit (under 1); 1 is used.")
                spec.lineLimit = 1
            }
            return (.text(spec), warnings)
        case .effect(.scale(let x, let y, let anchor)):
            func scale(_ value: Double) -> Double {
                guard value.isFinite else {
                    note("Invalid scale (non-finite); 1 is used.")
                    return 1
                }
                return value
            }
            return (.effect(.scale(x: scale(x), y: scale(y), anchor: validAnchor(anchor, note))), warnings)
        case .effect(.rotation(let radians, let anchor)):
            let angle = finite(radians, "rotation angle")
            return (.effect(.rotation(radians: angle, anchor: validAnchor(anchor, note))), warnings)
        case .empty, .shape, .control, .button, .zstack, .background, .overlay, .fixedSize, .geometryReader,
            .scrollView, .custom, .ignoresSafeArea:
            return (kind, warnings)
        }
    }

    /// An effect's anchor, `.center` for a non-finite one.
    private static func validAnchor(_ anchor: UnitPoint, _ note: (String) -> Void) -> UnitPoint {
        guard anchor.x.isFinite, anchor.y.isFinite else {
            note("Invalid anchor (non-finite); .center is used.")
            return .center
        }
        return anchor
    }

    /// SwiftUI's check behind "Contradictory frame constraints specified.": min ≤ ideal ≤ max where given.
    private static func inOrder(_ min: Double?, _ ideal: Double?, _ max: Double?) -> Bool {
        let low = min ?? -.infinity
        let middle = ideal ?? low
        let high = max ?? middle
        return low <= middle && middle <= high
    }
}
