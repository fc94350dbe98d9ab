class View {
    var padding: Int { 8 }
    var name: String { "View" }
    func render() -> String { "\(name)[p=\(padding)]" }
}

class Card: View {
    override var padding: Int { super.padding * 2 }
    override var name: String { "Card" }
}

class HeroCard: Card {
    override var padding: Int { super.padding + 1 }
    override func render() -> String { "<" + super.render() + ">" }
}

func main() {
    let views: [View] = [View(), Card(), HeroCard()]
    for v in views {
        print(v.render())
    }
    print(views.map(\.padding))
    let h = HeroCard()
    let asView: View = h
    print(asView.name, asView.padding)
}
