func main() {
    let names = ["Ann", "Bob", "Cy"]
    let scores = [90, 72, 85, 60]
    for (n, s) in zip(names, scores) {
        print(n, s)
    }
    print(Array(zip(names, scores)).count)
    for (i, name) in zip(1..., names) {
        print("\(i): \(name)")
    }
    let pairs = zip(names, scores).map { "\($0)=\($1)" }
    print(pairs)
    let sums = zip([1, 2, 3], [10, 20, 30]).map(+)
    print(sums)
    let a = [1, 5, 3, 8]
    let diffs = zip(a, a.dropFirst()).map { $1 - $0 }
    print(diffs)
    let dict = Dictionary(uniqueKeysWithValues: zip(names, scores))
    print(dict.keys.sorted(), dict["Cy"]!)
    print(zip(0..<2, "ab").map { "\($0)\($1)" })
}
