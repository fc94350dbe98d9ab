/// An error of the layout engine itself (a CustomLayoutHost's errors are thrown unchanged).
public struct LayoutError: Error, Hashable, Sendable {
    public enum Code: String, Hashable, Sendable {
        /// The tree is deeper than `LayoutTree.maxDepth`.
        case tooDeep
    }

    public var code: Code
    public var message: String

    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    static func tooDeep(_ key: String) -> LayoutError {
        LayoutError(
            code: .tooDeep,
            message: "The view tree is deeper than \(LayoutTree.maxDepth) levels at \(key); layout stopped.")
    }
}
