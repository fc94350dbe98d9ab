class Tag: Hashable {
    let name: String
    init(_ name: String) { self.name = name }

    static func == (lhs: Tag, rhs: Tag) -> Bool { lhs.name == rhs.name }
    func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

func main() {
    let a = Tag("swift")
    let b = Tag("swift")
    let c = Tag("ui")
    print(a == b, a === b, a == c)
    let set: Set<Tag> = [a, b, c]
    print(set.count)
    print(set.map(\.name).sorted())
    print([a, c].contains(b))
    var counts: [Tag: Int] = [:]
    counts[a, default: 0] += 1
    counts[b, default: 0] += 1
    print(counts[Tag("swift")]!)
}
