enum Permission: String, Hashable {
    case read, write, admin
}

func main() {
    let granted: Set<Permission> = [.read, .write]
    print(granted.contains(.read), granted.contains(.admin))
    let required: Set = [Permission.read, .admin]
    let missing = required.subtracting(granted)
    print(missing.map(\.rawValue).sorted())
    print(granted.union(required).count)
    print(granted.intersection(required).map(\.rawValue))
    var mutable = granted
    mutable.insert(.admin)
    mutable.remove(.write)
    print(mutable.map(\.rawValue).sorted())
    print(mutable.isSuperset(of: [.read]))
    let emptySet: Set<Permission> = []
    print(emptySet.isEmpty, emptySet.count)
}
