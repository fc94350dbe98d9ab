func parseQuantity(_ text: String) -> Int {
    return Int(text) ?? 0
}

func main() {
    print(parseQuantity("12"))
    print(parseQuantity("-3"))
    print(parseQuantity("+7"))
    print(parseQuantity("abc"))
    print(parseQuantity(""))
    print(parseQuantity("4.5"))
    print(Int("42") as Any)
    print(Int("x") as Any)
    print(Double("1.5") as Any)
    print(Double("1e3") as Any)
    print(Double("") as Any)
    print(Double("7")!)
    let fields = ["10", "oops", "30"]
    let numbers = fields.compactMap { Int($0) }
    print(numbers, numbers.reduce(0, +))
}
