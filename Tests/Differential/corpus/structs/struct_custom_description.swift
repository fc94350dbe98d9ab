struct Money: CustomStringConvertible {
    let cents: Int

    var description: String {
        let sign = cents < 0 ? "-" : ""
        let v = abs(cents)
        let frac = v % 100
        return "\(sign)$\(v / 100).\(frac < 10 ? "0" : "")\(frac)"
    }
}

func main() {
    let prices = [Money(cents: 1999), Money(cents: 5), Money(cents: -250), Money(cents: 100)]
    for p in prices {
        print(p)
    }
    print("total: \(Money(cents: prices.reduce(0) { $0 + $1.cents }))")
    print(prices)
    print(String(describing: prices[1]))
}
