func main() {
    let s: Set = [3, 1, 2]
    print(s.count)
    print(s.sorted())
    print(s.contains(2), s.contains(9))
    var tags: Set<String> = ["swift", "ui"]
    let (inserted, member) = tags.insert("swift")
    print(inserted, member)
    let result = tags.insert("canopy")
    print(result.inserted, result.memberAfterInsert)
    print(tags.sorted())
    let removed = tags.remove("ui")
    print(removed as Any, tags.remove("none") as Any)
    print(tags.sorted())
    print(Set([1, 1, 2, 2, 3]).count)
    let fromString = Set("banana")
    print(fromString.sorted())
    print(s.isEmpty, Set<Int>().isEmpty)
    print(s == [2, 3, 1])
    print(s.min()!, s.max()!)
}
