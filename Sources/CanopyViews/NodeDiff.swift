import CanopyCore

/// Ops that turn one rendering of a body into the next (PROGRAMS.md §3: unchanged output emits nothing). Ids are
/// structural, so the same id is the same view; a view struct's node is compared by its own props and modifiers only
/// (its children are its instance's output, diffed when its body runs).
enum NodeDiff {
    static func children(parent: String, old: [RenderedNode], new: [RenderedNode], into ops: inout [Op]) {
        // The usual case, the same ids in the same order: no inserts, removes or moves, so no sets of ids to build.
        if old.count == new.count && zip(old, new).allSatisfy({ $0.id == $1.id }) {
            for (o, n) in zip(old, new) { node(old: o, new: n, into: &ops) }
            return
        }
        let newIDs = Set(new.map(\.id))
        for o in old where !newIDs.contains(o.id) { ops.append(.remove(node: o.id)) }
        var oldByID: [String: RenderedNode] = [:]
        for o in old { oldByID[o.id] = o }
        // The surviving old nodes in their old order: a new node out of that order moves.
        var survivors = old.map(\.id).filter { newIDs.contains($0) }
        var k = 0
        var previous: String?
        for n in new {
            let position: Position = previous.map { .after($0) } ?? .index(0)
            if let o = oldByID[n.id] {
                if k < survivors.count, survivors[k] == n.id {
                    k += 1
                } else {
                    ops.append(.move(node: n.id, parent: parent, position: position))
                    survivors.removeAll { $0 == n.id }
                }
                node(old: o, new: n, into: &ops)
            } else {
                ops.append(.insert(parent: parent, node: n.fullNode, position: position))
            }
            previous = n.id
        }
    }

    static func node(old o: RenderedNode, new n: RenderedNode, into ops: inout [Op]) {
        if o.props != n.props {
            var changed = JSONObject()
            for m in n.props.members where o.props[m.key] != m.value { changed[m.key] = m.value }
            for m in o.props.members where n.props[m.key] == nil { changed[m.key] = .null }
            ops.append(.setProps(node: n.id, props: changed))
        }
        if o.modifiers != n.modifiers { ops.append(.setModifiers(node: n.id, modifiers: n.modifiers)) }
        if n.instance == nil { children(parent: n.id, old: o.children, new: n.children, into: &ops) }
    }

    /// Ops from one whole tree to another with the same root id (a new source).
    static func tree(old: Node, new: Node, into ops: inout [Op]) {
        if old.props != new.props {
            var changed = JSONObject()
            for m in new.props.members where old.props[m.key] != m.value { changed[m.key] = m.value }
            for m in old.props.members where new.props[m.key] == nil { changed[m.key] = .null }
            ops.append(.setProps(node: new.id, props: changed))
        }
        if old.modifiers != new.modifiers { ops.append(.setModifiers(node: new.id, modifiers: new.modifiers)) }
        let newIDs = Set(new.children.map(\.id))
        for o in old.children where !newIDs.contains(o.id) { ops.append(.remove(node: o.id)) }
        var oldByID: [String: Node] = [:]
        for o in old.children { oldByID[o.id] = o }
        var survivors = old.children.map(\.id).filter { newIDs.contains($0) }
        var k = 0
        var previous: String?
        for n in new.children {
            let position: Position = previous.map { .after($0) } ?? .index(0)
            if let o = oldByID[n.id] {
                if k < survivors.count, survivors[k] == n.id { k += 1 } else {
                    ops.append(.move(node: n.id, parent: new.id, position: position))
                    survivors.removeAll { $0 == n.id }
                }
                tree(old: o, new: n, into: &ops)
            } else {
                ops.append(.insert(parent: new.id, node: n, position: position))
            }
            previous = n.id
        }
    }
}
