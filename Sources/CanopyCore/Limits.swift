/// Size limits enforced on every tree (DESIGN.md, "Security and limits").
public struct Limits: Sendable, Equatable {
    /// Maximum depth of a node below the root; the root has depth 0 and an attached root is one deeper than its host.
    public var maxDepth: Int
    /// Maximum number of nodes in a tree, attached subtrees included.
    public var maxNodes: Int
    /// Maximum number of modifiers on one node.
    public var maxModifiers: Int
    /// Work units Swift reducers and transforms may spend in one evaluation (one batch); beyond it the batch is
    /// `too_expensive`.
    public var fuel: Int

    public init(maxDepth: Int = 256, maxNodes: Int = 2_000_000, maxModifiers: Int = 1024, fuel: Int = 10_000_000) {
        self.maxDepth = maxDepth
        self.maxNodes = maxNodes
        self.maxModifiers = maxModifiers
        self.fuel = fuel
    }

    public static let `default` = Limits()
}
