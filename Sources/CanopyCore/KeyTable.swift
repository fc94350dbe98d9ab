/// Dense index of a declared key; stable for the life of a tree (re-declaring keeps it).
typealias KeyID = Int32

/// The tree's key declarations, in declaration order.
struct KeyTable: Sendable {
    private(set) var declarations: [KeyDeclaration] = []
    private var ids: [String: KeyID] = [:]

    var count: Int { declarations.count }

    func id(of key: String) -> KeyID? { ids[key] }

    subscript(id: KeyID) -> KeyDeclaration { declarations[Int(id)] }

    /// Declares or re-declares; returns the key's id and the previous declaration, if any.
    mutating func declare(_ d: KeyDeclaration) -> (KeyID, previous: KeyDeclaration?) {
        if let id = ids[d.key] {
            let old = declarations[Int(id)]
            declarations[Int(id)] = d
            return (id, old)
        }
        let id = KeyID(declarations.count)
        declarations.append(d)
        ids[d.key] = id
        return (id, nil)
    }

    /// Undoes `declare`: restores `previous`, or forgets a key that was new (it must be the last one).
    mutating func restore(_ id: KeyID, previous: KeyDeclaration?) {
        if let previous {
            declarations[Int(id)] = previous
        } else {
            precondition(Int(id) == declarations.count - 1, "only the newest key can be forgotten")
            ids[declarations[Int(id)].key] = nil
            declarations.removeLast()
        }
    }
}
