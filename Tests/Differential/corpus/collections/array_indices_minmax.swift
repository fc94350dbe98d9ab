struct City {
    let name: String
    let population: Int
}

func main() {
    let values = [4, 8, 15, 16, 23, 42]
    print(values.indices)
    for i in values.indices where i % 2 == 1 {
        print(i, values[i])
    }
    print(values.startIndex, values.endIndex)
    print(values.min()!, values.max()!)
    print([Int]().min() as Any)
    let cities = [City(name: "A", population: 5), City(name: "B", population: 50), City(name: "C", population: 20)]
    print(cities.max { $0.population < $1.population }!.name)
    print(cities.min { $0.population < $1.population }!.name)
    print(["pear", "fig", "banana"].max()!)
    print(["pear", "fig", "banana"].min { $0.count < $1.count }!)
    print(values.indices.contains(6), values.indices.contains(5))
    print(Array(values.indices.reversed()))
}
