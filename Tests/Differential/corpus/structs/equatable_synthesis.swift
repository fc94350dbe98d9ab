struct Money: Equatable {
    var amount: Int
    var currency: String
}

struct Wallet: Equatable {
    var owner: String
    var balances: [Money]
    var note: String?
}

func main() {
    let a = Money(amount: 5, currency: "EUR")
    let b = Money(amount: 5, currency: "EUR")
    let c = Money(amount: 5, currency: "USD")
    print(a == b, a == c, a != c)
    let w1 = Wallet(owner: "x", balances: [a, c], note: nil)
    var w2 = Wallet(owner: "x", balances: [b, c], note: nil)
    print(w1 == w2)
    w2.note = "memo"
    print(w1 == w2)
    w2.note = nil
    w2.balances.reverse()
    print(w1 == w2)
    print([a, c].contains(b))
    print([a, b, c].firstIndex(of: c)!)
}
