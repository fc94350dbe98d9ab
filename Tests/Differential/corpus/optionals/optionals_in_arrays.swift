func main() {
    let raw = ["1", "two", "3", "", "5"]
    let parsed: [Int?] = raw.map { Int($0) }
    print(parsed)
    print(parsed.count)
    let valid = parsed.compactMap { $0 }
    print(valid)
    print(raw.compactMap(Int.init))
    var slots: [String?] = Array(repeating: nil, count: 3)
    slots[1] = "b"
    print(slots)
    print(slots.contains(nil))
    print(slots.firstIndex(of: nil) as Any)
    print(slots.firstIndex(of: "b") as Any)
    slots.append(nil)
    print(slots.filter { $0 != nil }.count)
    let first = slots.first
    print(first as Any)
    print(slots.map { $0 ?? "-" }.joined())
}
