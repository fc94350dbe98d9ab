struct Identifier {
    static var next = 1
    let value: Int
    let label: String

    static func make(_ label: String) -> Identifier {
        defer { next += 1 }
        return Identifier(value: next, label: label)
    }
}

func main() {
    let a = Identifier.make("first")
    let b = Identifier.make("second")
    print(a.value, a.label)
    print(b.value, b.label)
    print(Identifier.next)
    Identifier.next = 100
    let c = Identifier.make("third")
    print(c.value, Identifier.next)
    let ids = ["x", "y"].map(Identifier.make)
    print(ids.map(\.value))
}
