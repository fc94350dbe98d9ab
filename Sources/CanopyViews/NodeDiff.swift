import CanopyCore

/// Ops that turn one rendering of a body into the next (PROGRAMS.md §3: unchanged output emits nothing). Ids are
/// structural, so the same id is the same view; a view struct's node is compared by its own props and modifiers only
/// (its children are its instance's output, diffed when its body runs).
enum NodeDiff {
    static func children(parent: String, old: [RenderedNode], new: [RenderedNode], into ops: inout [Op]) {
        list(parent: parent, old: old, new: new, id: \.id, full: \.fullNode, into: &ops) { o, n, ops in
            node(old: o, new: n, into: &ops)
        }
    }

    static func node(old o: RenderedNode, new n: RenderedNode, into ops: inout [Op]) {
        own(id: n.id, old: (o.props, o.modifiers), new: (n.props, n.modifiers), into: &ops)
        if n.instance == nil { children(parent: n.id, old: o.children, new: n.children, into: &ops) }
    }

    /// Ops from one whole tree to another with the same root id (a new source).
    static func tree(old: Node, new: Node, into ops: inout [Op]) {
        own(id: new.id, old: (old.props, old.modifiers), new: (new.props, new.modifiers), into: &ops)
        list(parent: new.id, old: old.children, new: new.children, id: \.id, full: { $0 }, into: &ops) { o, n, ops in
            tree(old: o, new: n, into: &ops)
        }
    }

    /// A node's own props (the changed ones, `null` for a removed one) and modifiers (the whole chain).
    private static func own(
        id: String, old: (JSONObject, [Modifier]), new: (JSONObject, [Modifier]), into ops: inout [Op]
    ) {
        if old.0 != new.0 {
            var changed = JSONObject()
            for m in new.0.members where old.0[m.key] != m.value { changed[m.key] = m.value }
            for m in old.0.members where new.0[m.key] == nil { changed[m.key] = .null }
            ops.append(.setProps(node: id, props: changed))
        }
        if old.1 != new.1 { ops.append(.setModifiers(node: id, modifiers: new.1)) }
    }

    /// A list of children by id: removes, then inserts and moves in the new order; `same` diffs a node kept.
    private static func list<N>(
        parent: String, old: [N], new: [N], id: (N) -> String, full: (N) -> Node, into ops: inout [Op],
        same: (N, N, inout [Op]) -> Void
    ) {
        // The usual case, the same ids in the same order: no inserts, removes or moves, so no sets of ids to build.
        if old.count == new.count && zip(old, new).allSatisfy({ id($0) == id($1) }) {
            for (o, n) in zip(old, new) { same(o, n, &ops) }
            return
        }
        let newIDs = Set(new.map(id))
        for o in old where !newIDs.contains(id(o)) { ops.append(.remove(node: id(o))) }
        var oldByID: [String: N] = [:]
        for o in old { oldByID[id(o)] = o }
        // The surviving old nodes in their old order: a new node out of that order moves.
        var survivors = old.map(id).filter { newIDs.contains($0) }
        var k = 0
        var previous: String?
        for n in new {
            let nid = id(n)
            let position: Position = previous.map { .after($0) } ?? .index(0)
            if let o = oldByID[nid] {
                if k < survivors.count, survivors[k] == nid {
                    k += 1
                } else {
                    ops.append(.move(node: nid, parent: parent, position: position))
                    survivors.removeAll { $0 == nid }
                }
                same(o, n, &ops)
            } else {
                ops.append(.insert(parent: parent, node: full(n), position: position))
            }
            previous = nid
        }
    }
}
