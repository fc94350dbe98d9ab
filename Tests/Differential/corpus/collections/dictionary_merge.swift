func show(_ d: [String: Int]) -> String {
    return d.keys.sorted().map { "\($0)=\(d[$0]!)" }.joined(separator: " ")
}

func main() {
    var base = ["a": 1, "b": 2]
    let update = ["b": 20, "c": 30]
    base.merge(update) { old, new in new }
    print(show(base))
    var keep = ["a": 1, "b": 2]
    keep.merge(update) { old, _ in old }
    print(show(keep))
    let summed = ["x": 1, "y": 2].merging(["x": 10, "z": 5], uniquingKeysWith: +)
    print(show(summed))
    let maxed = ["x": 7, "y": 2].merging(["x": 3, "y": 9], uniquingKeysWith: max)
    print(show(maxed))
    let original = ["k": 1]
    let merged = original.merging(["k": 2]) { $1 }
    print(show(original), show(merged))
    var pairs = ["p": 0]
    pairs.merge([("p", 5), ("q", 6)]) { $0 + $1 }
    print(show(pairs))
}
