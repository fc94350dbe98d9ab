func firstDuplicate(_ items: [String]) -> String? {
    var seen: Set<String> = []
    for item in items {
        if seen.contains(item) {
            return item
        }
        seen.insert(item)
    }
    return nil
}

func indexOfSum(_ values: [Int], target: Int) -> Int? {
    var total = 0
    for (i, v) in values.enumerated() {
        total += v
        if total >= target { return i }
    }
    return nil
}

func main() {
    print(firstDuplicate(["a", "b", "c", "b", "a"]) as Any)
    print(firstDuplicate(["x", "y"]) as Any)
    print(indexOfSum([1, 2, 3, 4], target: 6) as Any)
    print(indexOfSum([1, 2], target: 10) as Any)
    var n = 0
    while true {
        n += 7
        if n % 5 == 0 { break }
    }
    print(n)
}
