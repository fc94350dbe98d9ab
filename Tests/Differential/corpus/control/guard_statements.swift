func process(_ values: [Int]) -> String {
    guard !values.isEmpty else { return "empty" }
    var result: [Int] = []
    for v in values {
        guard v >= 0 else { continue }
        guard v < 100 else { break }
        result.append(v)
    }
    guard let last = result.last else { return "none kept" }
    return "kept \(result), last \(last)"
}

func main() {
    print(process([]))
    print(process([-1, -2]))
    print(process([1, -2, 3, 500, 4]))
    print(process([5, 6]))
    for s in ["1", "x", "3"] {
        guard let n = Int(s) else {
            print("skip", s)
            continue
        }
        print("num", n)
    }
}
