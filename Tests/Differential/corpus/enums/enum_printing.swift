enum Suit: String {
    case hearts, spades
}

enum Card {
    case number(Int, String)
    case face(name: String, suit: String)
    case joker
}

enum Payload {
    case pair(Int, Int)
    case named(first: String, second: Double)
    case optional(Int?)
    case list([String])
}

func main() {
    print(Suit.hearts)
    print(Card.joker)
    print(Card.number(7, Suit.spades.rawValue))
    print(Card.face(name: "K", suit: "\(Suit.hearts)"))
    print(Payload.pair(1, 2))
    print(Payload.named(first: "a", second: 1))
    print(Payload.optional(nil))
    print(Payload.optional(5))
    print(Payload.list(["x"]))
    print("\(Card.number(2, "h")) and \(Suit.spades)")
    print(String(describing: Card.joker))
}
