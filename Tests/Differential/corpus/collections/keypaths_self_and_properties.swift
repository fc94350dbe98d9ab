struct Contact {
    let name: String
    let city: String
    var age: Int
}

func main() {
    let people = [Contact(name: "Ann", city: "Oslo", age: 31), Contact(name: "Bo", city: "Rome", age: 25), Contact(name: "Cy", city: "Oslo", age: 40)]
    print(people.map(\.name))
    print(people.map(\.age).reduce(0, +))
    print([3, 1, 2].map(\.self))
    print(["b", "a"].sorted().map(\.self))
    let byCity = Dictionary(grouping: people, by: \.city)
    print(byCity.keys.sorted(), byCity["Oslo"]!.map(\.name))
    let kp = \Contact.age
    var c = people[0]
    print(c[keyPath: kp])
    c[keyPath: \.age] += 1
    print(c.age)
    let nameLength = \Contact.name.count
    print(people.map { $0[keyPath: nameLength] })
    print(people.filter(\.name.isEmpty).count)
}
