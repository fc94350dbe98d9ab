protocol Badge {
    var label: String { get }
}

extension Badge {
    var label: String { "badge" }
    var color: String { "gray" }
    var display: String { "\(label) in \(color)" }
}

struct Gold: Badge {
    var label: String { "gold" }
    var color: String { "yellow" }
}

func render<B: Badge>(_ b: B) -> String {
    "\(b.label)/\(b.color)"
}

func main() {
    let g = Gold()
    print(g.label, g.color)
    print(g.display)
    let b: Badge = g
    print(b.label, b.color)
    print(render(g))
    print([g as Badge].map(\.color))
}
