func main() {
    let ages = ["Zoe": 31, "Adam": 25, "Mia": 40, "Ben": 25]
    print(ages.keys.sorted())
    print(ages.values.sorted())
    print(ages.count, ages.isEmpty)
    for name in ages.keys.sorted() {
        print(name, ages[name]!)
    }
    let byAge = ages.sorted { ($0.value, $0.key) < ($1.value, $1.key) }
    for (name, age) in byAge {
        print(age, name)
    }
    let oldest = ages.max { $0.value < $1.value }!
    print(oldest.key, oldest.value)
    print(ages.values.reduce(0, +))
    print(ages.keys.contains("Mia"), ages["Nobody"] == nil)
    let sortedPairs = ages.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }
    print(sortedPairs.joined(separator: ","))
}
