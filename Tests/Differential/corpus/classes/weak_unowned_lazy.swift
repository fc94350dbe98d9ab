class Owner {
    let name: String
    var pets: [Pet] = []
    lazy var summary: String = "\(name) has \(pets.count) pets"
    init(name: String) { self.name = name }
}

class Pet {
    let name: String
    weak var owner: Owner?
    unowned let home: Owner
    init(name: String, home: Owner) {
        self.name = name
        self.home = home
    }
}

func main() {
    let o = Owner(name: "Sam")
    let p = Pet(name: "Rex", home: o)
    print(p.owner?.name ?? "no owner")
    p.owner = o
    o.pets.append(p)
    print(p.owner?.name ?? "no owner", p.home.name)
    print(o.summary)
    o.pets.append(Pet(name: "Tom", home: o))
    print(o.summary)
    print(o.pets.map(\.name))
    print(o.pets[1].owner == nil)
}
