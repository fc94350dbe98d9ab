func main() {
    let inputs = ["4", "x", "15", "-2", "3.5"]
    let numbers = inputs.compactMap { Int($0) }
    print(numbers)
    let groups = [[1, 2], [], [3], [4, 5, 6]]
    print(groups.flatMap { $0 })
    print(groups.map { $0.count })
    print(groups.flatMap { $0.map { $0 * 10 } })
    let words = ["hi", "yo"]
    print(words.flatMap { Array($0) })
    let lookup = ["a": 1, "c": 3]
    print(["a", "b", "c"].compactMap { lookup[$0] })
    let pairs: [Int] = [1, 2, 3].flatMap { x in [x, -x] }
    print(pairs)
    let opts: [Int?] = [nil, 1, nil, 2]
    print(opts.compactMap { $0 }.reduce(0, +))
}
