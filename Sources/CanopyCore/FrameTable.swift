/// The laid-out frames of a program tree's nodes, as a snapshot shows them on each node (LAYOUT.md §2):
/// `"frame":[x,y,width,height]` in canvas points, origin top-left, and each layout modifier's own box under
/// `"modifierFrames":[{"modifier":index,"frame":[…]}]`. With the canvas they were laid out in and the text model
/// that measured their text.
public struct FrameTable: Sendable, Equatable {
    public struct ModifierFrame: Sendable, Equatable {
        public var modifier: Int
        public var frame: [Double]

        public init(modifier: Int, frame: [Double]) {
            self.modifier = modifier
            self.frame = frame
        }
    }

    public var frames: [String: [Double]]
    public var modifierFrames: [String: [ModifierFrame]]
    public var canvas: CanvasSpec
    public var textModel: String

    public init(
        frames: [String: [Double]], modifierFrames: [String: [ModifierFrame]], canvas: CanvasSpec, textModel: String
    ) {
        self.frames = frames
        self.modifierFrames = modifierFrames
        self.canvas = canvas
        self.textModel = textModel
    }

    /// `,"frame":[…]` and `,"modifierFrames":[…]` of node `id`, to continue the node's object.
    func write(node id: String, into out: inout [UInt8]) {
        guard let f = frames[id] else { return }
        JSONWriter.appendLiteral(#","frame":"#, into: &out)
        JSONWriter.write(.array(f.map { .double($0) }), into: &out)
        guard let m = modifierFrames[id], !m.isEmpty else { return }
        JSONWriter.appendLiteral(#","modifierFrames":"#, into: &out)
        JSONWriter.write(
            .array(m.map { ["modifier": .int(Int64($0.modifier)), "frame": .array($0.frame.map { .double($0) })] }),
            into: &out)
    }

    /// `"canvas"` and `"textModel"`, the members a snapshot adds at its top level.
    public var members: JSONObject { ["canvas": canvas.json, "textModel": .string(textModel)] }
}

/// A node whose frame or modifier boxes changed, as a diff's `frames` lists it:
/// `{"node","frame":[x,y,w,h],"modifierFrames":[…]}` (`modifierFrames` only when it has some).
public struct FrameChange: Sendable, Equatable {
    public var node: String
    public var frame: [Double]
    public var modifierFrames: [FrameTable.ModifierFrame]

    public init(node: String, frame: [Double], modifierFrames: [FrameTable.ModifierFrame] = []) {
        self.node = node
        self.frame = frame
        self.modifierFrames = modifierFrames
    }

    public var json: JSON {
        var o: JSONObject = ["node": .string(node), "frame": .array(frame.map { .double($0) })]
        if !modifierFrames.isEmpty {
            o["modifierFrames"] = .array(
                modifierFrames.map { ["modifier": .int(Int64($0.modifier)), "frame": .array($0.frame.map { .double($0) })] })
        }
        return .object(o)
    }
}
