/// The screen or window a program tree is laid out in (LAYOUT.md §2): its size in points, its safe area, its scale
/// (the pixel grid is 1/scale), and the device preset it came from. `createTree`'s `"canvas"`, a `resize` event's
/// value, and part of a program's spec, so a restart lays the tree out in the same canvas.
public struct CanvasSpec: Sendable, Equatable {
    public struct Insets: Sendable, Equatable {
        public var top = 0.0
        public var leading = 0.0
        public var bottom = 0.0
        public var trailing = 0.0

        public init(top: Double = 0, leading: Double = 0, bottom: Double = 0, trailing: Double = 0) {
            self.top = top
            self.leading = leading
            self.bottom = bottom
            self.trailing = trailing
        }
    }

    public var width: Double
    public var height: Double
    public var safeArea: Insets
    public var scale: Double
    public var device: String?

    public init(width: Double, height: Double, safeArea: Insets = Insets(), scale: Double = 1, device: String? = nil) {
        self.width = width
        self.height = height
        self.safeArea = safeArea
        self.scale = scale
        self.device = device
    }

    /// The largest side a canvas may have.
    public static let maxSide = 100_000.0

    /// Device presets by name (docs/layout.md): portrait sizes in points, safe areas and scales of the real devices.
    public static let devices: [String: CanvasSpec] = [
        "iPhone 15": CanvasSpec(width: 393, height: 852, safeArea: Insets(top: 59, bottom: 34), scale: 3, device: "iPhone 15"),
        "iPhone 15 Pro Max": CanvasSpec(
            width: 430, height: 932, safeArea: Insets(top: 59, bottom: 34), scale: 3, device: "iPhone 15 Pro Max"),
        "iPhone SE": CanvasSpec(width: 375, height: 667, safeArea: Insets(top: 20), scale: 2, device: "iPhone SE"),
        "iPad": CanvasSpec(width: 820, height: 1180, safeArea: Insets(top: 24, bottom: 20), scale: 2, device: "iPad"),
        "Mac window": CanvasSpec(width: 800, height: 600, scale: 2, device: "Mac window"),
    ]

    /// The canvas of a tree created without one.
    public static let standard = devices["iPhone 15"]!

    /// `{"width","height","safeArea":{…},"scale"}`, or `{"device":"iPhone 15"}` (with the sizes a resize may
    /// override). Negative, non-finite or oversized numbers and unknown devices are `bad_message`.
    public init(json: JSON) throws(CanopyError) {
        guard let o = json.object else { throw CanopyError(.badMessage, "\"canvas\" must be an object") }
        for key in o.keys where !["width", "height", "safeArea", "scale", "device"].contains(key) {
            throw CanopyError(.badMessage, "canvas: unknown field \"\(key)\"")
        }
        var base = CanvasSpec(width: 0, height: 0)
        if let d = o["device"] {
            guard let name = d.string, let preset = Self.devices[name] else {
                let known = Self.devices.keys.sorted().joined(separator: ", ")
                throw CanopyError(.badMessage, "canvas: unknown device \(d.encoded()); known: \(known)")
            }
            base = preset
        } else if o["width"] == nil || o["height"] == nil {
            throw CanopyError(.badMessage, "canvas: give \"width\" and \"height\", or a \"device\"")
        }
        func length(_ field: String, _ v: JSON?, max: Double) throws(CanopyError) -> Double? {
            guard let v else { return nil }
            guard let d = v.number, d.isFinite, d >= 0, d <= max else {
                throw CanopyError(.badMessage, "canvas: \"\(field)\" must be a number from 0 to \(Int(max)), got \(v.encoded())")
            }
            return d
        }
        if let w = try length("width", o["width"], max: Self.maxSide) { base.width = w }
        if let h = try length("height", o["height"], max: Self.maxSide) { base.height = h }
        if let s = o["safeArea"] {
            guard let inset = s.object else { throw CanopyError(.badMessage, "canvas: \"safeArea\" must be an object") }
            for key in inset.keys where !["top", "leading", "bottom", "trailing"].contains(key) {
                throw CanopyError(.badMessage, "canvas: unknown safe area edge \"\(key)\"")
            }
            base.safeArea = Insets(
                top: try length("safeArea.top", inset["top"], max: Self.maxSide) ?? 0,
                leading: try length("safeArea.leading", inset["leading"], max: Self.maxSide) ?? 0,
                bottom: try length("safeArea.bottom", inset["bottom"], max: Self.maxSide) ?? 0,
                trailing: try length("safeArea.trailing", inset["trailing"], max: Self.maxSide) ?? 0)
        }
        if let sc = o["scale"] {
            guard let d = sc.number, d.isFinite, d >= 1, d <= 4, d == d.rounded() else {
                throw CanopyError(.badMessage, "canvas: \"scale\" must be 1, 2, 3 or 4, got \(sc.encoded())")
            }
            base.scale = d
        } else if o["device"] == nil {
            base.scale = 1
        }
        guard base.safeArea.top + base.safeArea.bottom <= base.height,
            base.safeArea.leading + base.safeArea.trailing <= base.width
        else { throw CanopyError(.badMessage, "canvas: the safe area is larger than the canvas") }
        // A device's canvas with other numbers is a canvas of its own.
        if let name = base.device, let preset = Self.devices[name], preset != base { base.device = nil }
        self = base
    }

    public var json: JSON {
        var o: JSONObject = [
            "width": .double(width), "height": .double(height), "scale": .double(scale),
            "safeArea": [
                "top": .double(safeArea.top), "leading": .double(safeArea.leading), "bottom": .double(safeArea.bottom),
                "trailing": .double(safeArea.trailing),
            ],
        ]
        if let device { o["device"] = .string(device) }
        return .object(o)
    }
}
