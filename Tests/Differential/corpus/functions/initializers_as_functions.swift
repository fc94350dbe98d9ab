struct Tag {
    let name: String
}

struct Pair {
    let a: Int
    let b: Int
}

func main() {
    let tags = ["swift", "ui"].map(Tag.init)
    print(tags.map(\.name))
    let tags2 = ["x"].map(Tag.init(name:))
    print(tags2[0].name)
    print([1, 2, 3].map(String.init))
    print(["4", "five", "6"].compactMap(Int.init))
    print([1, 2].map(Double.init))
    let make: (Int, Int) -> Pair = Pair.init
    let p = make(3, 4)
    print(p.a + p.b)
    let pairs = zip([1, 2], [10, 20]).map(Pair.init)
    print(pairs.map { $0.a * $0.b })
    print([65, 66].compactMap(UnicodeScalar.init).map(Character.init))
    let makeRow = [Int].init(repeating:count:)
    print(makeRow(7, 3))
}
