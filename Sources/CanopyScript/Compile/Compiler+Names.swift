/// Every name the compiler treats specially, in one place: SwiftUI's views, modifiers and argument labels, the
/// SwiftUI and UIKit types kept as data, the library's types, and the types Canopy refuses with a reason.
extension Compiler {
    /// SwiftUI's views: `Name(args)` makes a node of that type (PROGRAMS.md §3).
    static let viewNames: Set<String> = [
        "Text", "VStack", "HStack", "ZStack", "LazyVStack", "LazyHStack", "Button", "TextField", "SecureField", "Toggle",
        "Slider", "Stepper", "Label", "Image", "Rectangle", "RoundedRectangle", "Circle", "Capsule", "Ellipse", "Color",
        "Spacer",
        "Form", "Section", "List", "NavigationStack", "NavigationView", "ForEach", "Group", "EmptyView", "Divider",
        "ScrollView", "Picker", "ProgressView", "Link", "Menu", "DisclosureGroup", "TabView", "Grid", "GridRow",
        "GeometryReader",
        "LabeledContent", "ContentUnavailableView", "AnyView", "GroupBox", "ControlGroup", "ViewThatFits",
    ]

    /// SwiftUI modifiers recognised where the receiver is not known to be a view (`padding()` inside an
    /// `extension View`, a modifier on a value of unknown type); on a known view any name is a modifier.
    static let modifierNames: Set<String> = [
        "padding", "background", "overlay", "frame", "font", "fontWeight", "bold", "italic", "foregroundColor",
        "foregroundStyle", "tint", "accentColor", "hidden", "opacity", "preference", "transformPreference",
        "onPreferenceChange", "environment", "onChange", "onReceive", "onSubmit", "onAppear", "onDisappear", "task",
        "id", "tag", "disabled", "navigationTitle", "navigationBarTitleDisplayMode", "toolbar", "listStyle",
        "textFieldStyle", "buttonStyle", "toggleStyle", "pickerStyle", "cornerRadius", "clipShape", "shadow", "border",
        "offset", "position", "multilineTextAlignment", "lineLimit", "keyboardType", "textContentType",
        "autocorrectionDisabled", "textInputAutocapitalization", "submitLabel", "focused", "animation", "transition",
        "contentShape", "onTapGesture", "fixedSize", "layoutPriority", "zIndex", "scaleEffect", "rotationEffect",
        "blur", "labelsHidden", "controlSize", "accessibilityLabel", "accessibilityHidden", "listRowBackground",
        "formStyle", "scrollContentBackground", "presentationDetents", "sheet", "alert", "refreshable", "searchable",
        "badge", "help", "symbolRenderingMode", "imageScale", "resizable", "scaledToFit", "scaledToFill",
        "aspectRatio", "clipped", "mask", "fill", "stroke", "redacted", "allowsHitTesting", "compositingGroup",
        "ignoresSafeArea", "safeAreaInset", "monospacedDigit", "monospaced", "kerning", "tracking", "underline",
        "strikethrough", "textCase", "truncationMode", "minimumScaleFactor", "lineSpacing", "environmentObject",
        "anchorPreference", "transformAnchorPreference", "overlayPreferenceValue", "backgroundPreferenceValue",
        "coordinateSpace", "onGeometryChange",
    ]

    /// SwiftUI protocols a program cannot conform to yet, with what to do instead.
    static let refusedProtocols: [String: String] = [
        "LayoutValueKey": "'LayoutValueKey' (custom layout values) is not part of Canopy's Swift subset yet: pass "
            + "the values to the Layout's initializer instead",
        "AlignmentID": "custom alignment guides ('AlignmentID') are not part of Canopy's Swift subset yet",
    ]

    /// Modules whose import brings Foundation's members with it.
    static let foundationModules: Set<String> = ["Foundation", "SwiftUI", "UIKit", "AppKit"]

    /// Types whose static members are colors, each a `Color` view (`Color.red`, `.red` where a `Color` is expected).
    static let colorTypes: Set<String> = ["Color"]

    /// Labels of view initializer arguments that are closures the runtime calls on events (§6).
    static let handlerLabels: Set<String> = [
        "action", "onEditingChanged", "onCommit", "onIncrement", "onDecrement", "perform",
    ]

    /// Labels of `@ViewBuilder` arguments of SwiftUI's views.
    static let contentLabels: Set<String> = ["content", "label", "header", "footer", "minimumValueLabel", "maximumValueLabel"]

    /// SwiftUI and UIKit types the subset keeps as data (PROGRAMS.md §2, "Unchecked SwiftUI surface").
    static let opaqueTypes: Set<String> = Set([
        "Color", "Font", "Image", "Text", "Alignment", "HorizontalAlignment", "VerticalAlignment", "Edge", "ContentMode", "Axis",
        "UIApplication", "Notification", "NotificationCenter", "UIColor", "ShapeStyle", "Animation", "Namespace",
        "LocalizedStringKey", "URL", "Data", "AnyView", "EmptyView",
        "Binding", "State", "Environment", "Published", "PreviewTrait",
    ]).union(Compiler.viewNames)

    /// Foundation values Canopy refuses: making one is a compile error, not a placeholder value. (`Date`, `UUID` and
    /// the calendar and formatters are program types of `FoundationPrelude`.)
    static let unrecordedInputs: [String: String] = [
        "URL": "'URL' is not part of Canopy's Swift subset: there is no I/O",
        "Data": "'Data' is not part of Canopy's Swift subset: there is no I/O",
    ]

    /// Number types Canopy does not compute in: their results would differ from Swift's (`Float(1) / 3` prints
    /// 0.33333334, `Int8(127) + 1` traps), so they are refused rather than run as `Double` or `Int`.
    static let unsupportedNumberTypes: Set<String> = [
        "Float", "Float32", "Float16", "Float80", "Int8", "Int16", "Int32", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
    ]

    static let libraryTypeNames: [String: String] = [
        "Int": "Int", "Double": "Double", "CGFloat": "Double", "Bool": "Bool", "String": "String", "Character": "Character",
        "Array": "Array", "Dictionary": "Dictionary", "Set": "Set", "Optional": "Optional",
    ]

    /// What SwiftUI or Foundation makes of a call by this bare name.
    enum SwiftUICallee {
        /// `Task { … }`: its body runs at once (there is no concurrency).
        case task
        /// `Text("…")`, `AttributedString(localized: "…")`: a localized string, inflected.
        case localizedString
        /// `VStack { … }`, `Color(red:green:blue:)`: a view node (PROGRAMS.md §3).
        case view
    }

    /// The one point where call resolution consults the tables above: what a called name means to SwiftUI, unless
    /// the program declares that name itself (its own `struct Text` shadows SwiftUI's, as a module's type shadows an
    /// imported one).
    func swiftUICallee(_ n: String) -> SwiftUICallee? {
        if lookupType(n, from: context.selfType) != nil || program.functions.keys.contains(where: { $0.hasPrefix(n + "(") }) {
            return nil
        }
        if n == "Task" { return .task }
        if Compiler.localizedStringTypes.contains(n) { return .localizedString }
        return Compiler.viewNames.contains(n) ? .view : nil
    }

    /// Types made from a localized string literal (`Text` too, as a view).
    static let localizedStringTypes: Set<String> = [
        "AttributedString", "String", "LocalizedStringKey", "LocalizedStringResource", "Text",
    ]

    /// Members of an `ArraySlice` that depend on its indices, which start at its base array's: refused, since a
    /// slice is an array indexed from 0 when it runs.
    static let sliceIndexMembers: Set<String> = [
        "indices", "startIndex", "endIndex", "firstIndex", "lastIndex", "index", "formIndex", "swapAt", "remove",
        "insert", "replaceSubrange", "distance",
    ]

    static func sliceIndexMessage(_ what: String) -> String {
        "\(what) of an ArraySlice is not part of Canopy's Swift subset: a slice keeps its base array's indices "
            + "(a[2...] starts at index 2), which Canopy does not model; use Array(slice)"
    }

    /// Library members left out on purpose, refused by name wherever the receiver's type is not known to be a
    /// program type that declares one (an unknown receiver would otherwise fault only when the code runs).
    static let refusedLibraryMembers: [String: String] = [
        "asciiValue": "'asciiValue' is not part of Canopy's Swift subset: it is a UInt8 in Swift, whose arithmetic traps where Canopy's Int would not",
        "utf8": "'utf8' is not part of Canopy's Swift subset: its elements are UInt8 in Swift, whose arithmetic traps where Canopy's Int would not",
        "utf16": "'utf16' is not part of Canopy's Swift subset: its elements are UInt16 in Swift, whose arithmetic traps where Canopy's Int would not",
        "lazy": "'lazy' sequences are not part of Canopy's Swift subset: their closures run at other times than here; drop '.lazy'",
    ]

    func refusedLibraryMember(_ n: String) -> String? {
        guard let why = Compiler.refusedLibraryMembers[n] else { return nil }
        let declared = program.types.contains { $0.fieldIndex[n] != nil || $0.methods.keys.contains { $0 == n || $0.hasPrefix(n + "(") } }
        return declared ? nil : why
    }

    /// The one point where call resolution consults `modifierNames` (its callers have looked for the program's own
    /// members of that name first).
    func isSwiftUIModifier(_ n: String) -> Bool {
        Compiler.modifierNames.contains(n)
    }
}
