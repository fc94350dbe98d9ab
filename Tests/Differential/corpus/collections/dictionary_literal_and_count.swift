enum Size: String {
    case small, large
}

func main() {
    var scores: [String: Int] = ["a": 1, "b": 2]
    print(scores.count)
    scores["c"] = 3
    scores["a"] = 10
    print(scores.count, scores["a"]!)
    let empty: [String: Int] = [:]
    print(empty.isEmpty, empty["x"] as Any)
    let bySize: [Size: Double] = [.small: 1.5, .large: 4.0]
    print(bySize[.small]!, bySize[.large]!)
    let intKeys = [1: "one", 2: "two"]
    print(intKeys[1]!, intKeys[3] ?? "?")
    let keys = Array(scores.keys).sorted()
    let values = keys.map { scores[$0]! }
    print(keys, values)
    print(scores == ["a": 10, "b": 2, "c": 3])
}
