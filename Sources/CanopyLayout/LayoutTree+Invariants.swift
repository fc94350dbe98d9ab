// Structural invariants, checked as swift-collections checks its own: around each change in debug builds, and over
// the whole tree by the tests.

extension LayoutTree {
    /// Debug builds: the invariants around a node just declared.
    func checkInvariants(around node: LayoutNode) {
        #if DEBUG
            precondition(nodes[node.key] === node, "a declared node is found by its key")
            for (index, child) in node.children.enumerated() {
                precondition(child.parent === node, "a child's parent is the node that lists it")
                precondition(
                    child.orientation == Self.childOrientation(of: node, childIndex: index),
                    "a child's stack orientation is the one its parent passes")
            }
            if let parent = node.parent {
                precondition(parent.children.contains { $0 === node }, "a parent lists its child")
            }
        #endif
    }

    /// Every structural invariant of the tree; tests call it after each change.
    func _checkInvariants() {
        var seen = 0
        for (key, node) in nodes {
            precondition(node.key == key, "a node is stored under its key")
            checkInvariants(around: node)
            for (index, child) in node.children.enumerated() {
                precondition(nodes[child.key] === child, "a child is declared")
                precondition(
                    !node.children[..<index].contains { $0 === child }, "a child is listed once")
            }
            var ancestor = node.parent
            var steps = 0
            while let current = ancestor {
                precondition(current !== node && steps <= count, "no node is its own ancestor")
                steps += 1
                ancestor = current.parent
            }
            if node.needsPlacement, node.isPlaced, let parent = node.parent, parent.isPlaced,
                parent.children.contains(where: { $0 === node })
            {
                // A placed node waiting for placement is reached by the next layout: so is its parent.
                precondition(parent.needsPlacement || !isLaidOutByParent(node), "placement work is reachable")
            }
            seen += 1
        }
        precondition(seen == count)
    }

    /// Whether the node's parent lays it out (a leaf's children and a modifier's extra children are not).
    private func isLaidOutByParent(_ node: LayoutNode) -> Bool {
        guard let parent = node.parent, let index = parent.children.firstIndex(where: { $0 === node }) else {
            return false
        }
        switch parent.kind {
        case .empty, .shape, .text, .spacer: return false
        case .control: return index == 0
        case .background, .overlay: return index < 2
        case .frame, .flexibleFrame, .padding, .fixedSize, .layoutPriority, .offset, .position, .aspectRatio, .effect,
            .ignoresSafeArea:
            return index == 0
        case .button, .stack, .zstack, .geometryReader, .scrollView, .custom: return true
        }
    }
}
