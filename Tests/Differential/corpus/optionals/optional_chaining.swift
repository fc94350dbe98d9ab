struct Address {
    var city: String
    var zip: String?
}

struct Person {
    var name: String
    var address: Address?
    var friends: [String]?
}

func main() {
    var p = Person(name: "Kim", address: nil, friends: nil)
    print(p.address?.city as Any)
    print(p.address?.zip?.count as Any)
    print(p.friends?.count ?? 0)
    p.address = Address(city: "Oslo", zip: nil)
    print(p.address?.city as Any)
    print(p.address?.city.count as Any)
    print(p.address?.zip?.count as Any)
    p.address?.zip = "0150"
    print(p.address?.zip as Any)
    p.friends = ["Lee"]
    p.friends?.append("Max")
    print(p.friends as Any)
    print(p.friends?.first?.uppercased() as Any)
    let nobody: Person? = nil
    print(nobody?.address?.city ?? "unknown")
    var q: Person? = nil
    q?.name = "ignored"
    print(q == nil)
}
