struct CardStyle {
    var cornerRadius: Double = 8
    var padding: Int = 16
    var title: String
    var subtitle: String? = nil
    let shadow: Bool = true
}

func describe(_ s: CardStyle) -> String {
    return "\(s.title) r=\(s.cornerRadius) p=\(s.padding) sub=\(s.subtitle ?? "-") shadow=\(s.shadow)"
}

func main() {
    print(describe(CardStyle(title: "A")))
    print(describe(CardStyle(cornerRadius: 2, title: "B")))
    print(describe(CardStyle(padding: 4, title: "C", subtitle: "c")))
    print(describe(CardStyle(cornerRadius: 1, padding: 2, title: "D", subtitle: nil)))
    print(describe(CardStyle(title: "E", subtitle: "e")))
    var s = CardStyle(title: "F")
    s.padding += 1
    s.subtitle = "changed"
    print(describe(s))
    print(s)
}
