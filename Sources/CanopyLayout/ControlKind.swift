/// The controls the layout engine gives documented sizes (docs/layout.md, "Controls"). A control's node may have one
/// child, its label (a Toggle's or Stepper's title, a TextField's placeholder, a Picker's shown selection, a
/// ProgressView's label); further children are not laid out. Button is not a control: it is `LayoutKind.button`,
/// laid out as its label.
public enum ControlKind: String, Hashable, Sendable, CaseIterable {
    /// Label, flexible space, a 51 × 31 switch.
    case toggle
    /// Flexible width, 22 pt high; the placeholder label gives its ideal width.
    case textField
    /// As `textField`.
    case secureField
    /// Flexible width, 34 pt high.
    case slider
    /// Label, flexible space, a 94 × 32 stepper.
    case stepper
    /// The menu button of the default (menu) style: the selection's label with insets and a chevron.
    case picker
    /// A linear ProgressView(value:): flexible width, a 4 pt bar, the label above it.
    case progressView
    /// An indeterminate ProgressView(): a 20 × 20 spinner, the label under it.
    case activityIndicator
    /// A one-pixel line across the stack it is in, flexible along it.
    case divider
    /// A symbol Image at the body size: 20 × 20 (a resizable Image is a `.shape`).
    case image
}
