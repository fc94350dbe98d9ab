// The documented sizes of controls (docs/layout.md, "Controls"). They are approximations of UIKit's and SwiftUI's
// default iOS styles; every number is named here once.

/// Sizes of controls and where their label goes.
enum Controls {
    /// UISwitch's fixed size.
    static let switchSize = LayoutSize(width: 51, height: 31)
    /// UIStepper's fixed size.
    static let stepperSize = LayoutSize(width: 94, height: 32)
    /// The gap between a Toggle's or Stepper's label and its control (the default stack spacing).
    static let labelGap = 8.0
    /// A plain-style TextField's height with the body font.
    static let textFieldHeight = 22.0
    /// UISlider's height.
    static let sliderHeight = 34.0
    /// The ideal width of a Slider or linear ProgressView (a nil proposal): the thumb's diameter.
    static let sliderIdealWidth = 28.0
    /// A linear ProgressView's bar, and the gap between it and its label.
    static let progressBarHeight = 4.0
    static let progressLabelGap = 4.0
    /// UIActivityIndicatorView's medium style, and the gap between it and its label.
    static let spinnerSize = LayoutSize(width: 20, height: 20)
    static let spinnerLabelGap = 8.0
    /// A menu Picker's horizontal insets plus its chevron, and its vertical insets.
    static let pickerExtraWidth = 34.0
    static let pickerExtraHeight = 14.0
    /// A symbol Image at the body size.
    static let imageSize = LayoutSize(width: 20, height: 20)

    /// What the control proposes to its label for its own `proposal`.
    static func labelProposal(_ kind: ControlKind, _ proposal: ProposedSize) -> ProposedSize {
        switch kind {
        case .toggle, .stepper:
            let control = kind == .toggle ? switchSize : stepperSize
            return ProposedSize(
                width: proposal.width.map { max(0, $0 - control.width - labelGap) }, height: proposal.height)
        case .textField, .secureField, .progressView, .activityIndicator:
            return ProposedSize(width: proposal.width, height: nil)
        case .picker:
            return ProposedSize(width: proposal.width.map { max(0, $0 - pickerExtraWidth) }, height: nil)
        case .slider, .divider, .image:
            return proposal
        }
    }

    /// The control's size for `proposal`, given its label's size (nil without a label). `dividerIsVertical`: the
    /// divider is in an HStack; `pixelLength`: 1 / the canvas's scale, a divider's thickness.
    static func size(
        _ kind: ControlKind, _ proposal: ProposedSize, label: LayoutSize?, dividerIsVertical: Bool, pixelLength: Double
    ) -> LayoutSize {
        switch kind {
        case .toggle, .stepper:
            let control = kind == .toggle ? switchSize : stepperSize
            // The label and the control side by side; a proposed width is taken whole (a flexible space between).
            let content = label.map { $0.width + labelGap + control.width } ?? control.width
            let width = proposal.width.map { max($0, content) } ?? content
            return LayoutSize(width: width, height: max(control.height, label?.height ?? 0))
        case .textField, .secureField:
            return LayoutSize(
                width: proposal.width ?? label?.width ?? 0, height: max(textFieldHeight, label?.height ?? 0))
        case .slider:
            return LayoutSize(width: proposal.width ?? sliderIdealWidth, height: sliderHeight)
        case .picker:
            let label = label ?? .zero
            return LayoutSize(width: label.width + pickerExtraWidth, height: label.height + pickerExtraHeight)
        case .progressView:
            let labelHeight = label.map { $0.height + progressLabelGap } ?? 0
            return LayoutSize(
                width: proposal.width ?? max(sliderIdealWidth, label?.width ?? 0),
                height: labelHeight + progressBarHeight)
        case .activityIndicator:
            let labelHeight = label.map { $0.height + spinnerLabelGap } ?? 0
            return LayoutSize(
                width: max(spinnerSize.width, label?.width ?? 0), height: spinnerSize.height + labelHeight)
        case .divider:
            // SwiftUI's plain divider style: a Color framed to the pixel length across the stack's axis.
            return dividerIsVertical
                ? LayoutSize(width: pixelLength, height: proposal.height ?? Shape.idealLength)
                : LayoutSize(width: proposal.width ?? Shape.idealLength, height: pixelLength)
        case .image:
            return imageSize
        }
    }

    /// Where the label goes in a control of `size`.
    static func labelOrigin(_ kind: ControlKind, size: LayoutSize, label: LayoutSize) -> LayoutPoint {
        switch kind {
        case .toggle, .stepper, .textField, .secureField:
            return LayoutPoint(x: 0, y: (size.height - label.height) / 2)
        case .picker:
            return LayoutPoint(x: pickerExtraWidth / 2 - 5, y: (size.height - label.height) / 2)
        case .progressView:
            return .zero
        case .activityIndicator:
            return LayoutPoint(x: (size.width - label.width) / 2, y: spinnerSize.height + spinnerLabelGap)
        case .slider, .divider, .image:
            return .zero
        }
    }
}

/// Color, Rectangle and the other shapes: they take any proposal.
enum Shape {
    /// The length a shape chooses for a nil proposal (SwiftUI's default layout computer: 10).
    static let idealLength = 10.0
}
