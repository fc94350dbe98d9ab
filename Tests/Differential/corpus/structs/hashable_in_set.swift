struct Tag: Hashable {
    let name: String
    let color: Int
}

func main() {
    var tags: Set<Tag> = []
    tags.insert(Tag(name: "work", color: 1))
    tags.insert(Tag(name: "home", color: 2))
    tags.insert(Tag(name: "work", color: 1))
    tags.insert(Tag(name: "work", color: 3))
    print(tags.count)
    print(tags.contains(Tag(name: "home", color: 2)))
    let names = tags.map(\.name).sorted()
    print(names)
    var counts: [Tag: Int] = [:]
    for t in [Tag(name: "a", color: 0), Tag(name: "a", color: 0), Tag(name: "b", color: 0)] {
        counts[t, default: 0] += 1
    }
    print(counts[Tag(name: "a", color: 0)]!, counts.count)
    print(Tag(name: "x", color: 1) == Tag(name: "x", color: 1))
}
