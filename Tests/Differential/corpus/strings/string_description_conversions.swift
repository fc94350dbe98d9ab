struct Temperature: CustomStringConvertible {
    let celsius: Double
    var description: String { "\(celsius)°C" }
}

enum Suit: CustomStringConvertible {
    case hearts, spades
    var description: String {
        switch self {
        case .hearts: return "♥"
        case .spades: return "♠"
        }
    }
}

func main() {
    let t = Temperature(celsius: 21.5)
    print(t)
    print("now \(t)")
    print(String(describing: t))
    print([t, Temperature(celsius: -3)])
    print(Suit.hearts, [Suit.spades])
    let opt: Temperature? = t
    print(opt as Any)
    print(t.description.count)
    print(String(42), String(-1.5), String(false))
}
