protocol HasName {
    var name: String { get }
}

protocol HasAge {
    var age: Int { get }
}

struct Person: HasName, HasAge {
    let name: String
    let age: Int
}

struct Pet: HasName {
    let name: String
}

func introduce(_ x: HasName & HasAge) -> String {
    "\(x.name), \(x.age)"
}

func names(_ xs: [HasName]) -> [String] {
    xs.map(\.name)
}

typealias Profile = HasName & HasAge

func main() {
    let p = Person(name: "Ann", age: 30)
    print(introduce(p))
    print(names([p, Pet(name: "Rex")]))
    let profiles: [Profile] = [p, Person(name: "Bo", age: 4)]
    print(profiles.map(introduce))
    print(profiles.reduce(0) { $0 + $1.age })
}
