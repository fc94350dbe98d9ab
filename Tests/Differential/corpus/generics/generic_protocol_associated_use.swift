protocol Identified {
    associatedtype ID: Hashable & Comparable
    var id: ID { get }
}

struct User: Identified {
    let id: Int
    let name: String
}

struct Tag: Identified {
    let id: String
}

struct Registry<T: Identified> {
    var items: [T.ID: T] = [:]

    mutating func add(_ item: T) { items[item.id] = item }

    var sortedIDs: [T.ID] { items.keys.sorted() }

    func find(_ id: T.ID) -> T? { items[id] }
}

func main() {
    var users = Registry<User>()
    users.add(User(id: 3, name: "c"))
    users.add(User(id: 1, name: "a"))
    users.add(User(id: 3, name: "c2"))
    print(users.sortedIDs, users.find(3)?.name as Any)
    var tags = Registry<Tag>()
    ["z", "m", "a"].forEach { tags.add(Tag(id: $0)) }
    print(tags.sortedIDs, tags.find("q") == nil)
}
