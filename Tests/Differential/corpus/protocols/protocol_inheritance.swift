protocol Entity {
    var id: Int { get }
}

protocol Named: Entity {
    var name: String { get }
}

protocol Displayable: Named {
    func display() -> String
}

extension Displayable {
    func display() -> String { "#\(id) \(name)" }
}

struct User: Displayable {
    let id: Int
    let name: String
}

struct Admin: Displayable {
    let id: Int
    let name: String
    func display() -> String { "[admin] #\(id) \(name)" }
}

func ids(_ xs: [Entity]) -> [Int] { xs.map(\.id) }

func main() {
    let people: [Displayable] = [User(id: 1, name: "ann"), Admin(id: 2, name: "root")]
    for p in people { print(p.display()) }
    print(ids(people))
    let named: [Named] = people
    print(named.map(\.name))
    let e: Entity = Admin(id: 9, name: "x")
    print(e.id)
}
