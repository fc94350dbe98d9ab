func ways(_ n: Int, _ memo: inout [Int: Int]) -> Int {
    if n < 0 { return 0 }
    if n == 0 { return 1 }
    if let cached = memo[n] { return cached }
    let result = ways(n - 1, &memo) + ways(n - 2, &memo) + ways(n - 3, &memo)
    memo[n] = result
    return result
}

func permutations(_ items: [String]) -> [[String]] {
    if items.count <= 1 { return [items] }
    var result: [[String]] = []
    for (i, item) in items.enumerated() {
        var rest = items
        rest.remove(at: i)
        for p in permutations(rest) {
            result.append([item] + p)
        }
    }
    return result
}

func main() {
    var memo: [Int: Int] = [:]
    print((0...10).map { ways($0, &memo) })
    print(memo.count)
    let perms = permutations(["a", "b", "c"])
    print(perms.count)
    print(perms.map { $0.joined() })
}
