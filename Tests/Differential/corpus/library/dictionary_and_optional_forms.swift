func main() {
    let votes = [("red", 1), ("blue", 1), ("red", 1)]
    let tally = Dictionary(votes) { $0 + $1 }
    print(tally.keys.sorted().map { "\($0)=\(tally[$0]!)" })
    let latest = Dictionary([("a", 1), ("a", 2), ("b", 3)]) { _, new in new }
    print(latest["a"]!, latest["b"]!)
    let readings = [("a", 3.0), ("b", 9.5), ("a", 7.25)]
    let highest = Dictionary(readings) { max($0, $1) }
    print(highest["a"]!, highest["b"]!, highest.count)
    let none = Optional<Int>.none
    print(none == nil, none ?? -1, Optional<String>.none as Any)
    var cache: [String: Int] = ["x": 1]
    cache["x"] = Optional<Int>.none
    print(cache.isEmpty)
    let values: [Int?] = [1, Optional<Int>.none, 3]
    print(values.compactMap { $0 })
}
