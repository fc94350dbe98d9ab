struct Person {
    let name: String
    let age: Int
}

func main() {
    let people = [Person(name: "Zed", age: 30), Person(name: "Amy", age: 25), Person(name: "Bo", age: 35)]
    print(people.sorted { $0.age < $1.age }.map { $0.name })
    print(people.map { "\($0.name)(\($0.age))" })
    print(people.filter { $0.age > 28 }.count)
    let pairs = [(1, "a"), (2, "b")]
    print(pairs.map { "\($0.0)\($0.1)" })
    print(pairs.map { "\($1)\($0)" })
    let combine: (Int, Int, Int) -> Int = { $0 * 100 + $1 * 10 + $2 }
    print(combine(1, 2, 3))
    let ignore: (Int) -> String = { _ in "const" }
    print(ignore(9))
    print([[1, 2], [3]].map { $0.count })
}
