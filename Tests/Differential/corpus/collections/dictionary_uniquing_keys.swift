func main() {
    let votes = [("red", 1), ("blue", 1), ("red", 1), ("green", 1), ("red", 1)]
    let tally = Dictionary(votes, uniquingKeysWith: +)
    for k in tally.keys.sorted() {
        print(k, tally[k]!)
    }
    let readings = [("a", 3.0), ("b", 9.5), ("a", 7.25)]
    let highest = Dictionary(readings, uniquingKeysWith: max)
    print(highest["a"]!, highest["b"]!)
    let first = Dictionary(readings, uniquingKeysWith: { first, _ in first })
    print(first["a"]!)
    let last = Dictionary(readings) { $1 }
    print(last["a"]!)
    let unique = Dictionary(uniqueKeysWithValues: [(1, "one"), (2, "two")])
    print(unique[2]!, unique.count)
    let squares = Dictionary(uniqueKeysWithValues: (1...4).map { ($0, $0 * $0) })
    print(squares.keys.sorted().map { squares[$0]! })
}
